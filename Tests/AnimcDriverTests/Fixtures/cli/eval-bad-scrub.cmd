eval examples/scrub.anim --fraction 0.5 --animation spin --scrub sideways
