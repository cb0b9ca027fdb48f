check inputs/broken.anim
