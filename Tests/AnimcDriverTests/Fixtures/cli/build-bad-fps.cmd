build examples/scrub.anim --fps -1
