render examples/plane.anim --at 1 --scale 0
