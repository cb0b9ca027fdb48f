lint examples/scrub.anim
