check inputs/broken.anim --format github
