import AnimcImage
