build examples/scrub.anim examples/toss.anim -o one.json
