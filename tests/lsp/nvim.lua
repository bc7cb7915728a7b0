-- Neovim's built-in LSP client attached to `catalogc lsp` (run by .ci/nvim): opens the
-- catalog in $CATALOG_FILE, prints the diagnostics the server publishes, makes two edits
-- (an effect misspelled, a KDL v1 `true`) and prints the diagnostics again, then undoes
-- them. Uses only APIs of Neovim 0.7 (Debian 12's), `start_client` + `buf_attach_client`.
local bin = os.getenv("CATALOGC")
local file = os.getenv("CATALOG_FILE")
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local published = {}

local function out(s)
  io.stdout:write(s .. "\n")
end

local function show(result)
  out(string.format("publishDiagnostics %s: %d diagnostics", vim.fn.fnamemodify(vim.uri_to_fname(result.uri), ":."), #result.diagnostics))
  local sev = { "error", "warning", "info", "hint" }
  for _, d in ipairs(result.diagnostics) do
    local first = vim.split(d.message, "\n")[1]
    out(string.format("  %d:%d %s [%s] %s", d.range.start.line + 1, d.range.start.character + 1,
      sev[d.severity] or "?", d.code or "", first))
  end
end

local client = vim.lsp.start_client({
  name = "catalogc",
  cmd = { bin, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":p:h"),
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      table.insert(published, result)
    end,
  },
})
vim.lsp.buf_attach_client(buf, client)

local function wait_for(n)
  if not vim.wait(15000, function() return #published >= n end, 20) then
    out("timed out waiting for diagnostics")
    vim.cmd("cquit 1")
  end
  show(published[n])
end

wait_for(1)

-- The scripted edit: `effect "read"` → `effect "reed"` in the first tool, and a bare `true`.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local edited = 0
for i, line in ipairs(lines) do
  local s = line:find('effect "read"', 1, true)
  if s and edited == 0 then
    vim.api.nvim_buf_set_text(buf, i - 1, s + 9, i - 1, s + 10, { "e" })
    out(string.format("edit: line %d: effect \"read\" -> effect \"reed\"", i))
    edited = 1
  end
end
for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  local s = line:find("required=#true", 1, true)
  if s and edited == 1 then
    vim.api.nvim_buf_set_text(buf, i - 1, s + 8, i - 1, s + 9, { "" })
    out(string.format("edit: line %d: required=#true -> required=true", i))
    edited = 2
  end
end
wait_for(#published + 1)

-- Hover over the first diagnostic, through the same client.
local resp = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = published[#published].diagnostics[1].range.start,
}, 5000)
for _, r in pairs(resp or {}) do
  if r.result then
    out("hover: " .. vim.split(r.result.contents.value, "\n")[1])
  end
end

vim.lsp.stop_client(client)
vim.cmd("qa!")
