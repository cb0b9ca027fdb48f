test inputs/tests.anim --format tap
