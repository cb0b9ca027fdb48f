check projects/component-mistake
