eval examples/scrub.anim --at 1 --property opactiy
