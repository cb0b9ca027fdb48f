help frobnicate
