build examples/scrub.anim examples/toss.anim --target baked -o out/
