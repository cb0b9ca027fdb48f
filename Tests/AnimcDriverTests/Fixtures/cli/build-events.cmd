build inputs/door.anim --events progress=0.7@0.1s,tap@0.2s --target baked -o door.json
