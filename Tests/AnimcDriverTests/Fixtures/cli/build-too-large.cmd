build examples/splash.anim --target baked --window 0..100000 --fps 1000
