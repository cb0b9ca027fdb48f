eval examples/scrub.anim --at 1 --format json
