render examples/ripple.anim --filmstrip 4 -o strip.png --scale 0.5
