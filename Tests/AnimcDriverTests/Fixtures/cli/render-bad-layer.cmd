render examples/ripple.anim --at 1 --layer rings
