check examples --format xml
