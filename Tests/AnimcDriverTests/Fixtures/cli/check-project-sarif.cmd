check projects/tokens --format sarif
