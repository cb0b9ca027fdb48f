check projects/errors/app.anim
