vim.filetype.add({ extension = { anim = "anim" } })
