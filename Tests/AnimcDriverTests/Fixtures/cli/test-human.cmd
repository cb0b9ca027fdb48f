test inputs/tests.anim
