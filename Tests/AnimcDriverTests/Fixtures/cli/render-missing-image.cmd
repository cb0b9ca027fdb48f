render examples/toss.anim --at 0.5 -o toss.png
