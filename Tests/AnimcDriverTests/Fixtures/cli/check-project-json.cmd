check projects/tokens/a.anim projects/tokens/b.anim --format json
