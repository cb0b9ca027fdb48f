" For Neovim before 0.8 (no vim.filetype.add).
autocmd BufRead,BufNewFile *.anim setfiletype anim
