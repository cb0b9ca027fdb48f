check inputs/warnings.anim missing.anim
