check notes
