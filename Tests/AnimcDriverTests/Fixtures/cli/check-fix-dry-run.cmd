check --fix --dry-run inputs/pasted-objc.anim
