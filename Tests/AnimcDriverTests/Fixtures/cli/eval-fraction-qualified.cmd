eval examples/splash.anim --fraction 0.5 --animation logo.circle/looping/strokeEnd
