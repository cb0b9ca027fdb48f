test inputs/tests.anim --format junit
