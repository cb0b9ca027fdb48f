eval examples/scrub.anim --at 1 --fraction 0.5 --animation spin
