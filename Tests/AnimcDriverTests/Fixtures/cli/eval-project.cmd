eval projects/tokens/a.anim --at 0.1
