render examples/splash.anim --at 1 --scale 12
