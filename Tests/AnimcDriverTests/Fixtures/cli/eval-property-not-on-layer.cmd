eval examples/scrub.anim --at 1 --layer card --property strokeEnd
