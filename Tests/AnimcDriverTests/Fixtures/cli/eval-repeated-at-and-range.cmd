eval examples/scrub.anim --at 0 --at 1..2/2,250ms
