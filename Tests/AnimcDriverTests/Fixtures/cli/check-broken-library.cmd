check projects/broken-lib/app.anim
