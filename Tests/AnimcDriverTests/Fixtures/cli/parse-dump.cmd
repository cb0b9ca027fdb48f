parse inputs/warnings.anim --dump
