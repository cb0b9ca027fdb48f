test inputs/unplayable-tests.anim
