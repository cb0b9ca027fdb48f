build inputs/forever.anim --target baked --window 0..2 --fps 10 -o forever.json
