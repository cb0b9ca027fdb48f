render examples/ripple.anim --at 0..0.1/30 -o frames/
