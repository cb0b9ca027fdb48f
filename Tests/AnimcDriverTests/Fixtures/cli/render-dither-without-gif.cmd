render examples/ripple.anim --at 0.5 --dither
