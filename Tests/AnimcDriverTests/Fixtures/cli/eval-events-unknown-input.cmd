eval inputs/door.anim --events tapp@0.5s --at 0
