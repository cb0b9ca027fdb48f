check missing.anim
