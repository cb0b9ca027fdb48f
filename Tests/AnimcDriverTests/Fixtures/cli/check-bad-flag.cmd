check examples --frobnicate
