build inputs/warnings.anim --werror
