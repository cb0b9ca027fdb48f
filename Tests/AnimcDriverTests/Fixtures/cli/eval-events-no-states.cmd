eval examples/splash.anim --events tap@1s --at 0
