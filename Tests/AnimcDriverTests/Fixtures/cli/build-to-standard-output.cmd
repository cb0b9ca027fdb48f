build examples/scrub.anim -o -
