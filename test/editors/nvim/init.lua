-- Drives Dynalint's language server through Neovim's own LSP client and writes what the editor saw as JSON.
-- Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client) and newer (vim.lsp.start, 0.8+): features are
-- detected, never assumed from a version number.
--
-- Two ways to run it:
-- - it starts the server itself (plan.server set):
--     DYNALINT_NVIM_PLAN='<json>' nvim --headless --clean -u test/editors/nvim/init.lua <file>
-- - a user's configuration starts it (plan.server unset), e.g. the README's snippet, loaded after this file:
--     DYNALINT_NVIM_PLAN='<json>' nvim --headless --clean --cmd 'luafile test/editors/nvim/init.lua' -u snippet.lua <file>
-- The plan: { server = 'dist/server.js', settings = { ... } (the `dynalint` section), out = 'result.json',
--   timeoutMs = 30000, steps = { { op = 'diagnostics' } | { op = 'codeAction', line, character, title, only }
--   | { op = 'completion', line, character } | { op = 'type', line, col, text } | { op = 'open', file } } }
--   (positions are LSP positions, 0-based, UTF-16, except `type`'s byte column; steps act on the current buffer).
-- The result: { nvim, pullDeclared, pushes, pulls, steps = { ... }, clients (dynalint clients at the end),
--   serverExit = { code, signal } (when it started the server), logs, error }.

-- The Python filetype plugin probes for a Python provider (seconds, and irrelevant to LSP): skip it.
vim.g.loaded_python3_provider = 0

local ok_plan, plan = pcall(vim.json.decode, os.getenv('DYNALINT_NVIM_PLAN') or '')
if not ok_plan then
  io.stderr:write('DYNALINT_NVIM_PLAN must hold the plan as JSON: ' .. tostring(plan) .. '\n')
  vim.cmd('cquit! 2')
end
local timeout = plan.timeoutMs or 30000
local v = vim.version()
local result = {
  nvim = string.format('%d.%d.%d', v.major, v.minor, v.patch),
  pullDeclared = vim.lsp.protocol.make_client_capabilities().textDocument.diagnostic ~= nil,
  pushes = 0,
  pulls = 0,
  steps = {},
  logs = {},
}

local function write_result()
  vim.fn.writefile({ vim.fn.json_encode(result) }, plan.out)
end

--- Waits (running the event loop) until `predicate` holds; raises `what` after the deadline.
local function wait_for(what, predicate)
  if not vim.wait(timeout, predicate, 20) then
    error('timed out after ' .. timeout .. ' ms waiting for ' .. what, 2)
  end
end

local function buffer_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), '\n')
end

--- The document version the client last sent for a buffer (0.11 derives it from changedtick).
local function sent_version(bufnr)
  local versions = vim.lsp.util.buf_versions
  return versions and versions[bufnr] or vim.api.nvim_buf_get_changedtick(bufnr)
end

-- The version of the latest diagnostics the server delivered, pushed or pulled, per buffer.
local delivered = {}

--- Wraps the default diagnostics handler of `method` (when this Neovim has one) to record each delivery. Installed
--- globally, before any client starts, so it sees a client started by the user's configuration too.
local function count_deliveries(method, counter)
  local default = vim.lsp.handlers[method]
  if not default then
    return
  end
  vim.lsp.handlers[method] = function(err, res, ctx, config)
    local ret = default(err, res, ctx, config)
    result[counter] = result[counter] + 1
    local bufnr = res and res.uri and vim.uri_to_bufnr(res.uri) or ctx.bufnr
    local version = res and res.version or ctx.version
    if bufnr and version then
      delivered[bufnr] = version
    end
    return ret
  end
end
count_deliveries('textDocument/publishDiagnostics', 'pushes')
count_deliveries('textDocument/diagnostic', 'pulls')
vim.lsp.handlers['window/logMessage'] = function(_, params)
  table.insert(result.logs, params.message)
end

local client_id
local exited

--- Starts the server for `bufnr` the way a user on this Neovim would.
local function start(bufnr)
  local config = {
    name = 'dynalint',
    cmd = { 'node', plan.server, '--stdio' },
    root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h'),
    settings = { dynalint = plan.settings or vim.empty_dict() },
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  }
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  -- Neovim 0.7 neither declares workspace/configuration nor sends the settings after initialize (0.8 does both),
  -- so it must push them itself, as nvim-lspconfig does. on_init runs before any didOpen.
  config.on_init = function(client)
    client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
  end
  local id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- The client named dynalint that the user's configuration attached to `bufnr` (0.7 lists a client only once it is
--- initialized, so this waits).
local function find(bufnr)
  local found
  wait_for('a dynalint client attached to ' .. vim.api.nvim_buf_get_name(bufnr), function()
    for _, client in ipairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
      if client.name == 'dynalint' and vim.lsp.buf_is_attached(bufnr, client.id) then
        found = client.id
      end
    end
    return found ~= nil
  end)
  return found
end

local function lsp_diagnostics_at(bufnr, line)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = line })) do
    local lsp = d.user_data and d.user_data.lsp
    if lsp then
      table.insert(out, lsp)
    end
  end
  return out
end

--- One request to our client only; raises on a transport error or a server error.
local function request(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
  assert(responses, method .. ': ' .. tostring(err))
  local response = responses[client_id]
  assert(response, method .. ': no answer from dynalint')
  assert(not response.error and not response.err, method .. ': ' .. vim.inspect(response.error or response.err))
  return response.result
end

local ops = {}

function ops.diagnostics(bufnr)
  assert(vim.lsp.buf_is_attached(bufnr, client_id), 'dynalint is not attached to ' .. vim.api.nvim_buf_get_name(bufnr))
  local version = sent_version(bufnr)
  wait_for('diagnostics of version ' .. version, function()
    return delivered[bufnr] == sent_version(bufnr)
  end)
  local items = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(items, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
      severity = d.severity,
      message = d.message,
      source = d.source,
    })
  end
  table.sort(items, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return { version = delivered[bufnr], text = buffer_text(bufnr), diagnostics = items }
end

function ops.codeAction(bufnr, step)
  local at = { line = step.line, character = step.character }
  local actions = request(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = at, ['end'] = at },
    context = { diagnostics = lsp_diagnostics_at(bufnr, step.line), only = step.only },
  }) or {}
  local listed, chosen = {}, nil
  for _, a in ipairs(actions) do
    table.insert(listed, { kind = a.kind, title = a.title })
    if a.title == step.title then
      chosen = a
    end
  end
  assert(chosen and chosen.edit, 'no code action with an edit titled ' .. step.title .. ' in ' .. vim.inspect(listed))
  -- Every Neovim since 0.6.1 takes the offset encoding (0.7 warns without it); it is the one negotiated.
  vim.lsp.util.apply_workspace_edit(chosen.edit, vim.lsp.get_client_by_id(client_id).offset_encoding or 'utf-16')
  return { actions = listed, text = buffer_text(bufnr) }
end

--- Types `text` one character at a time at a byte position, as keystrokes do (each change is its own didChange
--- unless the client's debounce merges them).
function ops.type(bufnr, step)
  local col = step.col
  for _, ch in ipairs(vim.fn.split(step.text, '\\zs')) do
    vim.api.nvim_buf_set_text(bufnr, step.line, col, step.line, col, { ch })
    col = col + #ch
  end
  return { text = buffer_text(bufnr) }
end

--- Edits another file, as `:edit` does (a user's FileType autocommand attaches the client).
function ops.open(_, step)
  vim.cmd('edit ' .. vim.fn.fnameescape(step.file))
  return { file = vim.api.nvim_buf_get_name(0) }
end

function ops.completion(bufnr, step)
  local res = request(bufnr, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = step.line, character = step.character },
    context = { triggerKind = 1 },
  }) or {}
  local labels = {}
  for _, item in ipairs(res.items or res) do
    table.insert(labels, item.label)
  end
  return { labels = labels }
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  client_id = plan.server and start(bufnr) or find(bufnr)
  assert(client_id, 'no dynalint client for ' .. vim.api.nvim_buf_get_name(bufnr))
  -- Requests made before initialize answers find no server for the buffer: wait for it.
  wait_for('the server to initialize', function()
    local client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized == true
  end)
  for i, step in ipairs(plan.steps) do
    local op = assert(ops[step.op], 'unknown step ' .. tostring(step.op))
    result.steps[i] = op(vim.api.nvim_get_current_buf(), step)
  end
  result.clients = 0
  for _, client in ipairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
    result.clients = result.clients + (client.name == 'dynalint' and 1 or 0)
  end
  vim.lsp.stop_client(client_id)
  wait_for('the server to exit', function()
    return vim.lsp.get_client_by_id(client_id) == nil and (exited ~= nil or not plan.server)
  end)
  result.serverExit = exited
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(run, debug.traceback)
      if not ok then
        result.error = err
      end
      write_result()
      vim.cmd(ok and 'qall!' or 'cquit! 1')
    end)
  end,
})
