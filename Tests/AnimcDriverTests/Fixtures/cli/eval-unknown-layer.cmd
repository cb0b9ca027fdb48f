eval examples/scrub.anim --at 1 --layer crad
