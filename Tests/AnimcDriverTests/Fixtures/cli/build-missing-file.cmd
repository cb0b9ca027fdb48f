build missing.anim
