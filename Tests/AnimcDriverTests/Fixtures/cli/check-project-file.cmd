check projects/tokens/a.anim
