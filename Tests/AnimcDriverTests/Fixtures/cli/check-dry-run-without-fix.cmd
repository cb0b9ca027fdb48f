check --dry-run inputs/pasted-objc.anim
