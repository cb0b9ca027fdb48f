render examples/ripple.anim --at 0..1/10
