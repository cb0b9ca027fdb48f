render examples/plane.anim --gif plane.gif --fps 10
