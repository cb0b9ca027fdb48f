build projects/tokens/a.anim projects/tokens/b.anim -o out/
