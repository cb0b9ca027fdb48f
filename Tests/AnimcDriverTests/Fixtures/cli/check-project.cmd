check projects/tokens
