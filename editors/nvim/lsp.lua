-- Neovim 0.8+: start `animc lsp` for .anim buffers. Put this in your init.lua (or
-- require it from there), with editors/nvim on your 'runtimepath' for the filetype
-- and syntax files.
--
-- One server per project: the nearest folder above the file holding a project marker
-- (the ones `animc` itself looks for, docs/files.md), else the folder Neovim was
-- started in. Without the fallback, a project with no marker got no root, and Neovim
-- started a server per file: references and renames saw one file at a time.
local markers = { ".animc-root", ".git", ".hg", ".jj", ".svn", "Package.swift" }

vim.api.nvim_create_autocmd("FileType", {
  pattern = "anim",
  callback = function(args)
    local found = vim.fs.find(markers, { upward = true, path = vim.fs.dirname(args.file) })[1]
    vim.lsp.start({
      name = "animc",
      cmd = { "animc", "lsp" },
      root_dir = found and vim.fs.dirname(found) or vim.fn.getcwd(),
    })
  end,
})
