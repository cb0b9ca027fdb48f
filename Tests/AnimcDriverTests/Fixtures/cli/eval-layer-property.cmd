eval examples/toss.anim --at 0.2,0.4,0.8 --layer photo --property position
