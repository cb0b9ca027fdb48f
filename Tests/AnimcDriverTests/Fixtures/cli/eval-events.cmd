eval inputs/door.anim --events tap@0.5s,tap@0.8s --at 0,0.6,0.9,2 --layer card --property position
