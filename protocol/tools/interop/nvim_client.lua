-- Interop test: Neovim's built-in `vim.lsp.rpc` (0.7+) drives the daemon unchanged.
--
--   DIFFABLE_BIN=.build/debug/diffable nvim --headless -u NONE -i NONE -c 'luafile protocol/tools/interop/nvim_client.lua'
--
-- `vim.lsp.rpc.start(cmd, {'--stdio'}, dispatchers)` as `vim.lsp.start_client`
-- uses it: number ids from 1, bodies from `vim.json.encode`, `params` left out
-- when nil (that is what 0.7's `rpc.request('shutdown', nil, …)` and
-- `rpc.notify('exit')` send: the key is absent from the Lua table). Session:
-- initialize -> apply -> search -> two failing requests -> shutdown -> exit.
-- Passes when every answer has the expected values, nothing else arrives
-- (no on_error, no server notification or request), the daemon writes
-- nothing to stderr and exits with 0 within 5 s of `exit`.
-- Quits with 0 (`qall!`) on success; else prints `interop-fail: REASON` on
-- stdout and quits with 1 (`cquit 1`).

local STEP_MS = 5000

local function fail(msg) error({ interop = msg }, 0) end
local function check(cond, msg) if not cond then fail(msg) end end
local function show(v) return vim.inspect(v, { newline = ' ', indent = '' }) end
local function short(text) return show(#text <= 200 and text or (text:sub(1, 200) .. '…')) end

local PEOPLE = {
  { id = 'staff', header = 'Staff', items = {
    { id = 'grace', content = { text = 'Grace Hopper' } },
    { id = 'alan', content = { text = 'Alan Turing' } },
    { id = 'ingrid', content = { text = 'Ingrid Daubechies' } },
    { id = 'renee', content = { text = 'Renée Grégoire' } },
  } },
  { id = 'guests', header = 'Guests', items = {
    { id = 'greg', content = { text = 'Greg Egan' } },
    { id = 'linus', content = { text = 'Linus Torvalds' } },
  } },
}

local exited, exit_code, exit_signal = false, nil, nil
local unexpected = {}   -- on_error reports, server notifications/requests
local stderr_chunks = {}
local client = nil

-- rpc.lua sends the daemon's stderr to `log.error('rpc', cmd, 'stderr', chunk)`;
-- observe it there (the call still goes to the log).
local log = require('vim.lsp.log')
local log_error = log.error
log.error = function(...)
  local tag, _, kind, chunk = ...
  if tag == 'rpc' and kind == 'stderr' then table.insert(stderr_chunks, chunk) end
  return log_error(...)
end

local function session()
  local bin = os.getenv('DIFFABLE_BIN') or ''
  check(bin ~= '' and vim.fn.executable(bin) == 1, 'DIFFABLE_BIN ' .. show(bin) .. ' is not an executable')
  local ok_rpc, rpc = pcall(require, 'vim.lsp.rpc')
  check(ok_rpc and rpc.start, 'vim.lsp.rpc is missing (Neovim >= 0.7 needed); run protocol/tools/install-test-tools')

  client = rpc.start(bin, { '--stdio' }, {
    notification = function(method, params)
      table.insert(unexpected, 'notification ' .. method .. ' ' .. show(params))
    end,
    server_request = function(method, params)
      table.insert(unexpected, 'server request ' .. method .. ' ' .. show(params))
      return nil, rpc.rpc_response_error(vim.lsp.protocol.ErrorCodes.MethodNotFound)
    end,
    on_error = function(code, err)
      table.insert(unexpected, 'on_error ' .. tostring(rpc.client_errors[code]) .. ' ' .. show(err))
    end,
    on_exit = function(code, signal)
      exited, exit_code, exit_signal = true, code, signal
    end,
  })
  check(client, 'vim.lsp.rpc.start could not spawn ' .. bin)

  local function call(method, params)
    local done, err, result = false, nil, nil
    local sent = client.request(method, params, function(e, r) done, err, result = true, e, r end)
    check(sent, method .. ': could not send (daemon gone, exit code ' .. tostring(exit_code) .. ')')
    vim.wait(STEP_MS, function() return done or exited end, 10)
    if not done then
      vim.wait(100, function() return done end, 10) -- an answer written just before the exit
    end
    if not done then
      if exited then fail(method .. ': daemon exited with ' .. tostring(exit_code) .. ' before answering') end
      fail(method .. ': no answer within ' .. STEP_MS .. ' ms')
    end
    return err, result
  end
  local function request(method, params)
    local err, result = call(method, params)
    if err then fail(method .. ': unexpected error ' .. tostring(err.code) .. ': ' .. tostring(err.message)) end
    return result
  end
  local function request_error(method, params)
    local err, result = call(method, params)
    check(err, method .. ': expected an error, got result ' .. show(result))
    return err
  end

  local init = request('initialize', { processId = vim.fn.getpid(), initializationOptions = { form = 'batch' } })
  check(init.serverInfo and init.serverInfo.name == 'diffable', 'initialize: serverInfo ' .. show(init.serverInfo))
  local caps = init.capabilities
  check(vim.tbl_contains(caps.methods, 'search') and vim.tbl_contains(caps.methods, 'shutdown'),
    'initialize: methods ' .. show(caps.methods))
  check(vim.tbl_contains(caps.framings, 'content-length'), 'initialize: framings ' .. show(caps.framings))

  local applied = request('apply', { source = 'people', sections = PEOPLE })
  check(applied.source == 'people' and applied.version == 1,
    'apply: source/version ' .. show(applied.source) .. '/' .. show(applied.version))
  check(vim.deep_equal(applied.batch, { sections = { insert = { { at = 0, sections = PEOPLE } } } }),
    'apply: batch ' .. show(applied.batch))

  local found = request('search', { source = 'people', query = 'gr', sections = { 'staff' } })
  check(found.version == 2, 'search: version ' .. show(found.version))
  check(vim.deep_equal(found.search, { query = 'gr', matches = 3, shown = 3 }), 'search: ' .. show(found.search))
  check(vim.deep_equal(found.batch, { items = { delete = { { section = 0, ranges = { { 1, 1 } } } } } }),
    'search: batch ' .. show(found.batch))
  check(vim.deep_equal(found.highlights, {
    { id = 'grace', path = { 0, 0 }, ranges = { { 0, 2 } } },
    { id = 'ingrid', path = { 0, 1 }, ranges = { { 2, 2 } } },
    { id = 'renee', path = { 0, 2 }, ranges = { { 6, 2 } } },
  }), 'search: highlights ' .. show(found.highlights))

  local dup = request_error('apply', { source = 'people', sections = {
    { id = 'staff', items = { 'grace' } }, { id = 'guests', items = { 'grace' } } } })
  check(dup.code == -32602, 'apply with a duplicate id: code ' .. tostring(dup.code) .. ' (want -32602): ' .. tostring(dup.message))
  check(dup.data and dup.data.problems and dup.data.problems[1].id == 'grace', 'apply with a duplicate id: data ' .. show(dup.data))

  local unknown = request_error('search', { source = 'nobody', query = 'gr' })
  check(unknown.code == 1001, 'search of an unknown source: code ' .. tostring(unknown.code) .. ' (want 1001): ' .. tostring(unknown.message))
  check(vim.deep_equal(unknown.data, { source = 'nobody' }), 'search of an unknown source: data ' .. show(unknown.data))

  local err, down = call('shutdown', nil)
  check(err == nil, 'shutdown: error ' .. (err and (tostring(err.code) .. ': ' .. tostring(err.message)) or ''))
  check(down == nil, 'shutdown: result ' .. show(down) .. ' (want null)')

  check(client.notify('exit'), 'exit: could not send')
  vim.wait(STEP_MS, function() return exited end, 10)
  check(exited, 'daemon still running ' .. STEP_MS .. ' ms after exit')
  vim.wait(50, function() return false end, 10) -- let scheduled callbacks (late messages) run
  check(exit_code == 0 and exit_signal == 0, 'daemon exited with code ' .. tostring(exit_code)
    .. ' signal ' .. tostring(exit_signal) .. ' after shutdown + exit (want 0)')
  check(#unexpected == 0, 'unexpected: ' .. table.concat(unexpected, '; '))
  check(#stderr_chunks == 0, 'daemon wrote to stderr: ' .. short(table.concat(stderr_chunks)))
end

local ok, err = pcall(session)
if ok then
  io.stdout:write('ok\n')
  io.stdout:flush()
  vim.cmd('qall!')
else
  local msg = type(err) == 'table' and err.interop or ('error in the test: ' .. tostring(err))
  if #unexpected > 0 and type(err) == 'table' and not msg:find('^unexpected') then
    msg = msg .. ' (also: ' .. table.concat(unexpected, '; ') .. ')'
  end
  if #stderr_chunks > 0 and type(err) == 'table' and not msg:find('^daemon wrote') then
    msg = msg .. ' (daemon stderr: ' .. short(table.concat(stderr_chunks)) .. ')'
  end
  io.stdout:write('interop-fail: ' .. msg:gsub('\n', ' ') .. '\n')
  io.stdout:flush()
  if client and not exited then client.handle:kill(15) end
  vim.cmd('cquit 1')
end
