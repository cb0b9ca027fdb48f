eval missing.anim --at 1
