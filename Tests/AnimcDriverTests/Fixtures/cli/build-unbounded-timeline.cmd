build inputs/forever.anim
