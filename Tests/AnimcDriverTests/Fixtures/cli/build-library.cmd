build projects/tokens/motion/tokens.anim
