eval examples/scrub.anim --at 0..1/0
