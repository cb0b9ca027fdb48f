check inputs/warnings.anim
