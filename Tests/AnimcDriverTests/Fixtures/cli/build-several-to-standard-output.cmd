build examples/scrub.anim examples/splash.anim -o -
