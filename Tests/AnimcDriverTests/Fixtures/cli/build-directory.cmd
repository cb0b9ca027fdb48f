build examples
