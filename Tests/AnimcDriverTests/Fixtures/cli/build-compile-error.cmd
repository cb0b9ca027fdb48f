build inputs/broken.anim
