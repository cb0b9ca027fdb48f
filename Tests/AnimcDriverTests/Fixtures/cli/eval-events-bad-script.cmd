eval inputs/door.anim --events tap@ --at 0
