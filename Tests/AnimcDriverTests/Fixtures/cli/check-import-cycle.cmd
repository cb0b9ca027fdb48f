check projects/cycle
