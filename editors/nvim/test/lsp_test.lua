-- Headless Neovim against `animc lsp` (run by .ci/run):
--   ANIMC=.build/debug/animc nvim --headless -u NONE -c "luafile editors/nvim/test/lsp_test.lua"
-- Checks what a user sees: the typo's diagnostic with its code and fix, hover on an
-- animation with its interval, completion of a shape layer's properties, and
-- formatting that gives `animc fmt`'s output; then, on editors/test/features.anim,
-- signature help, completion by type, inlay hints, highlights, links, workspace
-- symbols, the code lens, hover on a colour, its swatch and an inline refactoring;
-- then, on examples/motion-system, definition, rename and moving a file across files. Exits non-zero on the first failure.
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

-- 5. On a second file (editors/test/features.anim, shared with the Eglot test): the
-- features a gopls or rust-analyzer user reaches for. Neovim 0.7 declares no snippets,
-- so completion must come without placeholders.
vim.o.hidden = true
vim.cmd("edit editors/test/features.anim")
buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = "anim"
vim.lsp.buf_attach_client(buf, client_id)

local signature = request("textDocument/signatureHelp", at(25, 40))
local label = signature and signature.signatures and signature.signatures[1] and signature.signatures[1].label or ""
if not label:find("^arc%(center:") or signature.activeParameter ~= 1 then fail("signature help: " .. vim.inspect(signature)) end
pass("signature help: " .. label .. ", active parameter radius")

completion = request("textDocument/completion", at(18, 20))
items = completion.items or completion
labels = {}
for _, item in ipairs(items) do
  labels[item.label] = true
  if item.insertTextFormat == 2 then fail("a snippet to a client without snippet support: " .. item.label) end
end
if not (labels.pop and labels.easeIn and labels.cubic) or labels.opacity then
  fail("completion after timingFunction: is not the timing functions: " .. vim.inspect(vim.tbl_keys(labels)))
end
pass("completion after timingFunction: " .. #items .. " timing functions, pop among them, no snippets")

local hints = request("textDocument/inlayHint", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = 0, character = 0 }, ["end"] = { line = 30, character = 0 } },
})
local hinted = {}
for _, hint in ipairs(hints or {}) do hinted[hint.position.line] = hint.label end
if hinted[13] ~= "⟨0.5 s → 0.75 s⟩" or hinted[16] ~= "= 0.25s" then fail("inlay hints: " .. vim.inspect(hints)) end
pass("inlay hints: " .. hinted[13] .. " on the animation, " .. hinted[16] .. " at the constant's use")

local highlights = request("textDocument/documentHighlight", at(16, 15))
local lines = vim.tbl_map(function(h) return h.range.start.line end, highlights or {})
if not vim.deep_equal(lines, { 8, 16 }) then fail("highlights of fast: " .. vim.inspect(highlights)) end
pass("document highlight: fast on lines 9 and 17")

local links = request("textDocument/documentLink", { textDocument = { uri = vim.uri_from_bufnr(buf) } })
if not (links and links[1] and links[1].target:find("editors/test/badge.png$")) then fail("links: " .. vim.inspect(links)) end
pass("document link: image(\"badge\") → " .. links[1].target)

local symbols = request("workspace/symbol", { query = "ring" })
if not (symbols and symbols[1] and symbols[1].name == "ring") then fail("workspace symbols: " .. vim.inspect(symbols)) end
pass("workspace symbol: ring")

local lenses = request("textDocument/codeLens", { textDocument = { uri = vim.uri_from_bufnr(buf) } })
local lens = lenses and lenses[1] and lenses[1].command
if not (lens and lens.command == "animc.preview" and lens.title:find("preview at 0.5 s", 1, true)) then
  fail("code lens: " .. vim.inspect(lenses))
end
pass("code lens: " .. lens.title)

hover = request("textDocument/hover", at(26, 18))
text = hover and hover.contents and hover.contents.value or ""
if not text:find("rgb(51, 102, 255)", 1, true) then fail("hover on a colour: " .. text) end
pass("hover on #3366ff: rgb(51, 102, 255)")

local colours = request("textDocument/documentColor", { textDocument = { uri = vim.uri_from_bufnr(buf) } })
local swatch
for _, c in ipairs(colours or {}) do if c.range.start.line == 26 then swatch = c end end
if not (swatch and math.abs(swatch.color.red - 0x33 / 255) < 1e-9 and math.abs(swatch.color.blue - 1) < 1e-9) then
  fail("colour swatches: " .. vim.inspect(colours))
end
local spellings = request("textDocument/colorPresentation", { textDocument = { uri = vim.uri_from_bufnr(buf) },
  color = swatch.color, range = swatch.range })
if not (spellings and spellings[1] and spellings[1].label == "rgb(51, 102, 255)") then fail("colour presentations: " .. vim.inspect(spellings)) end
pass("colour swatch on #3366ff, written back as " .. spellings[1].label)

local inline = request("textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = 8, character = 5 }, ["end"] = { line = 8, character = 5 } },
  context = { diagnostics = {}, only = { "refactor.inline" } },
})
if not (inline and inline[1] and inline[1].title == "Inline constant 'fast'") then fail("inline refactoring: " .. vim.inspect(inline)) end
pass("refactoring: " .. inline[1].title)

-- 6. A project of several files (examples/motion-system): go to a token's definition
-- in the file that declares it, and rename it in every file that reads it. The edit is
-- applied to buffers and never saved.
vim.cmd("edit examples/motion-system/loading.anim")
buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = "anim"
vim.lsp.buf_attach_client(buf, client_id)
local function find(needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local column = line:find(needle, 1, true)
    if column then return i - 1, column - 1 end
  end
  fail("no '" .. needle .. "' in " .. vim.api.nvim_buf_get_name(buf))
end
local line, column = find("tokens.standard")
local definition = request("textDocument/definition", at(line, column + #"tokens."))
local location = definition and (definition.uri and definition or definition[1])
if not (location and location.uri:find("examples/motion%-system/motion/tokens%.anim$") and location.range.start.line == 5) then
  fail("definition of tokens.standard: " .. vim.inspect(definition))
end
pass("definition of tokens.standard: motion/tokens.anim, line " .. (location.range.start.line + 1))

line, column = find("tokens.onSurface")
local rename = request("textDocument/rename", vim.tbl_extend("force", at(line, column + #"tokens."), { newName = "ink" }))
local renamed = {}
for uri, _ in pairs(rename and rename.changes or {}) do table.insert(renamed, (uri:gsub(".*/examples/motion%-system/", ""))) end
table.sort(renamed)
if not vim.deep_equal(renamed, { "loading.anim", "motion/tokens.anim", "toast.anim" }) then fail("rename of onSurface: " .. vim.inspect(rename)) end
vim.lsp.util.apply_workspace_edit(rename, client.offset_encoding or "utf-16")
local tokens = vim.fn.bufnr("examples/motion-system/motion/tokens.anim")
local toast = vim.fn.bufnr("examples/motion-system/toast.anim")
local function has(b, needle) return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n"):find(needle, 1, true) ~= nil end
if not (has(tokens, "let ink = ") and has(buf, "tokens.ink") and has(toast, "tokens.ink") and not has(toast, "onSurface")) then
  fail("the rename was not applied across the files")
end
pass("rename tokens.onSurface → ink across " .. #renamed .. " files: " .. table.concat(renamed, ", "))

-- Moving the tokens file: every import of it names the new path and keeps the name
-- `tokens` (workspace/willRenameFiles, as a file explorer sends it before the move).
local root = vim.fn.getcwd() .. "/examples/motion-system/"
local moved = request("workspace/willRenameFiles", { files = { {
  oldUri = vim.uri_from_fname(root .. "motion/tokens.anim"), newUri = vim.uri_from_fname(root .. "design/tokens-v2.anim") } } })
local imports = {}
for uri, changes in pairs(moved and moved.changes or {}) do
  for _, change in ipairs(changes) do imports[(uri:gsub(".*/examples/motion%-system/", ""))] = change.newText end
end
if imports["loading.anim"] ~= '"design/tokens-v2.anim" as tokens' or imports["motion/components.anim"] ~= '"../design/tokens-v2.anim" as tokens' then
  fail("willRenameFiles: " .. vim.inspect(moved))
end
pass("moving motion/tokens.anim: " .. vim.tbl_count(imports) .. " imports follow it")

client.stop()
vim.cmd("qall!")
