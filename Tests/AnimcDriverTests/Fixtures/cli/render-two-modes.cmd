render examples/plane.anim --at 1 --gif x.gif
