build inputs/forever.anim --target baked
