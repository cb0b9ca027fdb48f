check inputs/broken.anim --format json
