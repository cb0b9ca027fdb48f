render examples/plane.anim --apng plane.apng --window 0..0.5 --fps 10
