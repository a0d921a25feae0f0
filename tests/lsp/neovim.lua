-- Headless Neovim as the language server's client (tests/lsp/neovim-client
-- runs it): the built-in LSP client starts `ledgergate lsp`, opens a ledger
-- with a planted error, receives the diagnostic at its line and column,
-- applies the code action's edit, sees the buffer clean, then edits
-- projects.yaml in another buffer and sees the ledger's buffer get a
-- diagnostic. Each step writes one line to $RESULT; the last is "done".
local lg, root = os.getenv('LG'), os.getenv('ROOT')
local out = assert(io.open(os.getenv('RESULT'), 'w'))
local function say(line) out:write(line .. '\n'); out:flush() end
local function fail(why) say('FAIL ' .. why); out:close(); vim.cmd('cquit 1') end

local client_id = vim.lsp.start_client({ name = 'ledgergate', cmd = { lg, 'lsp' }, root_dir = root })
if not client_id then fail('the client did not start') end

vim.cmd('edit ' .. root .. '/projects/euclid_dr1.md')
local ledger = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(ledger, client_id)
if not vim.wait(30000, function() return #vim.diagnostic.get(ledger) > 0 end, 20) then fail('no diagnostic') end
local d = vim.diagnostic.get(ledger)[1]
say(string.format('diagnostic %d:%d %s', d.lnum, d.col, d.code))

-- The code actions at the diagnostic: the fix is a workspace edit.
local client = vim.lsp.get_client_by_id(client_id)
local params = {
  textDocument = { uri = vim.uri_from_bufnr(ledger) },
  range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(ledger, d.lnum) },
}
local answers = vim.lsp.buf_request_sync(ledger, 'textDocument/codeAction', params, 10000)
local fix
for _, answer in pairs(answers or {}) do
  for _, action in ipairs(answer.result or {}) do
    if action.edit and not fix then fix = action end
  end
end
if not fix then fail('no code action with an edit') end
say('action ' .. fix.title)
vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding or 'utf-16')
say('line ' .. vim.api.nvim_buf_get_lines(ledger, d.lnum, d.lnum + 1, false)[1])
if not vim.wait(30000, function() return #vim.diagnostic.get(ledger) == 0 end, 20) then
  fail('the diagnostic stayed after the fix')
end
say('clean')

-- projects.yaml edited (not saved): the open ledger's runs are on another partition now.
vim.cmd('edit ' .. root .. '/projects.yaml')
local yaml = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(yaml, client_id)
local lines = vim.api.nvim_buf_get_lines(yaml, 0, -1, false)
local row
for i, text in ipairs(lines) do
  if text == 'euclid_dr1:' then row = i end
  if row and i > row and text == '  partition: ral' then
    vim.api.nvim_buf_set_lines(yaml, i - 1, i, false, { '  partition: gpu' })
    break
  end
end
if not vim.wait(30000, function() return #vim.diagnostic.get(ledger) > 0 end, 20) then
  fail('no diagnostic in the ledger after the projects.yaml edit')
end
local codes = {}
for _, diag in ipairs(vim.diagnostic.get(ledger)) do codes[#codes + 1] = diag.lnum .. ' ' .. diag.code end
table.sort(codes)
say('cross-file ' .. table.concat(codes, ', '))
say('done')
out:close()
vim.lsp.stop_client(client_id)
vim.cmd('qall!')
