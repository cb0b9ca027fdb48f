-- Neovim 0.8+: start `animc lsp` for .anim buffers. Put this in your init.lua (or
-- require it from there), with editors/nvim on your 'runtimepath' for the filetype
-- and syntax files.
vim.api.nvim_create_autocmd("FileType", {
  pattern = "anim",
  callback = function(args)
    vim.lsp.start({
      name = "animc",
      cmd = { "animc", "lsp" },
      root_dir = vim.fs.dirname(vim.fs.find({ "Package.swift", ".git" }, { upward = true, path = args.file })[1]),
    })
  end,
})
