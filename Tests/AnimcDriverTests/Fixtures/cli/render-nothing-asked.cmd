render examples/plane.anim
