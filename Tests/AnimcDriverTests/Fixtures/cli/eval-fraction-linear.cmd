eval examples/scrub.anim --fraction 0.25 --animation spin --scrub linear
