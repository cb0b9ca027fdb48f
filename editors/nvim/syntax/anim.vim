" .anim syntax for Vim and Neovim (the language server adds semantic tokens on top).
if exists("b:current_syntax") | finish | endif
syntax keyword animKeyword let timing component composition for in if else path mask along as import
syntax keyword animBoolean true false
syntax keyword animKind layer shape text gradient image replicator emitter transform basic keyframes motion spring decay group
syntax match animNumber "\<\d\+\(\.\d\+\)\?\([eE][-+]\?\d\+\)\?\(s\|ms\|deg\|rad\|turn\|%\)\?\>"
syntax match animColor "#\x\{3,8\}\>"
syntax region animString start=+"+ skip=+\\"+ end=+"+ oneline
syntax match animProperty "\<\h\w*\(\.\h\w*\)*\ze\s*:"
syntax match animComment "//.*$" contains=animTodo
syntax region animComment start="/\*" end="\*/" contains=animComment,animTodo
syntax keyword animTodo TODO FIXME XXX contained
highlight default link animKeyword Keyword
highlight default link animBoolean Boolean
highlight default link animKind Structure
highlight default link animNumber Number
highlight default link animColor Constant
highlight default link animString String
highlight default link animProperty Identifier
highlight default link animComment Comment
highlight default link animTodo Todo
let b:current_syntax = "anim"
