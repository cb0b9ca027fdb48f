-- Headless Neovim against `animc lsp` (run by .ci/run):
--   ANIMC=.build/debug/animc nvim --headless -u NONE -c "luafile editors/nvim/test/lsp_test.lua"
-- Checks what a user sees: the typo's diagnostic with its code and fix, hover on an
-- animation with its interval, completion of a shape layer's properties, and
-- formatting that gives `animc fmt`'s output. Exits non-zero on the first failure.
local animc = os.getenv("ANIMC") or "animc"
local fixture = "editors/nvim/test/typo.anim"

local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end
local function pass(message) io.stdout:write("ok: " .. message .. "\n") end

vim.cmd("edit " .. fixture)
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = "anim"
local client_id = vim.lsp.start_client({ name = "animc", cmd = { animc, "lsp" }, root_dir = vim.fn.getcwd() })
if not client_id then fail("the server did not start") end
vim.lsp.buf_attach_client(buf, client_id)
local client = vim.lsp.get_client_by_id(client_id)

-- 1. Diagnostics, with the code and the suggested fix.
if not vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then fail("no diagnostics arrived") end
local diagnostic = vim.diagnostic.get(buf)[1]
local code = diagnostic.code or (diagnostic.user_data and diagnostic.user_data.lsp and diagnostic.user_data.lsp.code)
if code ~= "E0302" then fail("expected E0302, got " .. vim.inspect(diagnostic)) end
if diagnostic.lnum ~= 8 or not diagnostic.message:find("did you mean 'opacity'", 1, true) then
  fail("unexpected diagnostic " .. vim.inspect(diagnostic))
end
pass("diagnostic " .. code .. " on line " .. (diagnostic.lnum + 1) .. ": " .. diagnostic.message:gsub("\n.*", ""))

local function request(method, params)
  local response = client.request_sync(method, params, 10000, buf)
  if not response or response.err then fail(method .. " failed: " .. vim.inspect(response)) end
  return response.result
end
local function at(line, character)
  return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
end

-- The fix-it, as a code action.
local actions = request("textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = 8, character = 2 }, ["end"] = { line = 8, character = 2 } },
  context = { diagnostics = {} },
})
local titles = vim.tbl_map(function(a) return a.title end, actions or {})
if not vim.tbl_contains(titles, "Replace with 'opacity'") then fail("no fix offered: " .. vim.inspect(titles)) end
pass("code action: Replace with 'opacity'")

-- 2. Hover on the animation: its interval on the composition's timeline.
local hover = request("textDocument/hover", at(9, 5))
local text = hover and hover.contents and hover.contents.value or ""
if not text:find("plays 0.5 s → ∞, repeats every 1 s", 1, true) then fail("hover: " .. text) end
pass("hover: " .. text:gsub("\n", " "))

-- 3. Completion in the shape layer.
local completion = request("textDocument/completion", at(14, 2))
local items = completion.items or completion
local labels = {}
for _, item in ipairs(items) do labels[item.label] = true end
if not (labels.strokeColor and labels.path and labels.lineWidth) then fail("shape completion lacks strokeColor/path/lineWidth") end
pass("completion in a shape layer: " .. #items .. " items, strokeColor among them")

-- 4. Formatting gives `animc fmt`'s output.
local original = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
local expected = vim.fn.system({ animc, "fmt", "-" }, original)
local edits = request("textDocument/formatting", { textDocument = { uri = vim.uri_from_bufnr(buf) }, options = { tabSize = 2, insertSpaces = true } })
vim.lsp.util.apply_text_edits(edits, buf, client.offset_encoding or "utf-16")
local formatted = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
if formatted ~= expected then fail("formatting differs from animc fmt:\n" .. formatted .. "\n---\n" .. expected) end
pass("formatting matches animc fmt (" .. #edits .. " edits)")

client.stop()
vim.cmd("qall!")
