build examples/scrub.anim -o examples/./scrub.anim
