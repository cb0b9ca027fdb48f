render examples/plane.anim --at 0.3 -o plane.png
