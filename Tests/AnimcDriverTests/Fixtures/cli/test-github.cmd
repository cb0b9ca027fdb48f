test inputs/tests.anim --format github
