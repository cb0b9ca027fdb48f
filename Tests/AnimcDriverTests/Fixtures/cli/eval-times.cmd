eval examples/scrub.anim --at 0,0.5,1,2,3
