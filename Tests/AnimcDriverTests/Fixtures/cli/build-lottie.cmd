build examples/scrub.anim --target lottie
