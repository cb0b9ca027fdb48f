build examples/scrub.anim --target svg
