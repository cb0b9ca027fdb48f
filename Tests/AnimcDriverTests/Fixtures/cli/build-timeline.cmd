build examples/scrub.anim
