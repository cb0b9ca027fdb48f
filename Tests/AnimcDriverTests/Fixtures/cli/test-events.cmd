test inputs/door-tests.anim
