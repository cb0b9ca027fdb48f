eval examples/scrub.anim --times-from inputs/times.txt --format json
