eval examples/scrub.anim
