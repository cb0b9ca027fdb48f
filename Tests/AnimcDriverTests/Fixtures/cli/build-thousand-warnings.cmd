build inputs/thousand-warnings.anim -o out/t.json
