eval inputs/broken.anim --at 1
