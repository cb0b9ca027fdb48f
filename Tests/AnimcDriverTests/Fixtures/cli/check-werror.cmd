check inputs/warnings.anim --werror
