check inputs/broken.anim --color always
