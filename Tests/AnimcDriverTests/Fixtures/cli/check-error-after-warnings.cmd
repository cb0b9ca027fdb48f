check inputs/error-after-warnings.anim
