build examples/toss.anim --target lottie --strict-lottie
