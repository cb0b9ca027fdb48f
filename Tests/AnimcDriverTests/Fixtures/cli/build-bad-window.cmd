build examples/scrub.anim --window 3..1
