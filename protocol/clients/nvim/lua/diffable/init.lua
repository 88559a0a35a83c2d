-- diffable.nvim: Neovim (0.7+) client for the diffable daemon.
--
-- One daemon per Neovim, spoken to in newline-delimited JSON-RPC over its
-- stdin/stdout (vim.loop.spawn). A source is rendered into a buffer: one line
-- per section header (when the section has one, highlighted DiffableHeader)
-- and one line per visible item. Diffs arrive in the steps form and each step
-- is one buffer edit (nvim_buf_set_lines on the rows it names); a batch diff
-- (a request that asked for `form: "batch"`) is first turned into steps.
-- Search matches are extmarks (DiffableMatch), selected rows carry a sign and
-- a line highlight (DiffableSelected).
--
--   local d = require('diffable')
--   local s = d.start({ bin = '/path/to/diffable' })
--   s:attach('people', vim.api.nvim_get_current_buf())
--   s:apply('people', { { id = 'list', header = 'People', items = { 'ava', 'liam' } } })
--   s:search('people', 'av', { sections = { 'list' } })
--   s:select('people', { 'ava' })
--   s:stop()
--
-- Only Neovim 0.7 APIs are used (vim.loop, vim.json, nvim_buf_set_extmark).

local api, uv = vim.api, vim.loop
local render = require('diffable.render')
local version = require('diffable.version')

local M = {}
M.render = render
M.jsonpatch = require('diffable.jsonpatch')
-- The contract's tables, generated from protocol/schemas (diffable/contract.lua):
-- contract.methods[name].params, contract.errors.UnknownSource (= 1001), ...
M.contract = require('diffable.contract')
local errors = M.contract.errors

-- The `edit` op that patches an item's content (RFC 6902, as the ops before it
-- left it; protocol/README.md, "Field-level updates"), e.g.
--   s:edit('quotes', { d.patch_content('T1', { { op = 'replace', path = '/price', value = 101.5 } }) })
function M.patch_content(id, patch)
  return { op = 'patchContent', id = id, patch = patch }
end
M.version = version.version -- one number for the daemon and every client (diffable/version.lua)

local function is_nil(v)
  return v == nil or v == vim.NIL
end

local function format_error(err)
  if type(err) ~= 'table' then
    return 'diffable: ' .. tostring(err)
  end
  return string.format('diffable: %s: %s', tostring(err.code), tostring(err.message))
end
M.format_error = format_error

function M.notify_error(err)
  vim.notify(format_error(err), vim.log.levels.ERROR)
end

-- Daemon discovery ----------------------------------------------------------

local function this_file()
  return (debug.getinfo(1, 'S').source:gsub('^@', ''))
end

local function plugin_root()
  -- <root>/protocol/clients/nvim/lua/diffable/init.lua
  return vim.fn.fnamemodify(this_file(), ':p:h:h:h:h:h:h')
end

-- The bin/diffable beside the plugin's folder: where a release archive
-- (protocol/tools/package) keeps the daemon, next to nvim/. Symbolic links are
-- resolved, so a package folder linked to the archive's nvim/ finds it too.
local function beside_plugin()
  local real = vim.fn.resolve(vim.fn.fnamemodify(this_file(), ':p'))
  return vim.fn.simplify(vim.fn.fnamemodify(real, ':h:h:h') .. '/../bin/diffable')
end
M.beside_plugin = beside_plugin

-- A command with a '/' is a path (relative ones to the current directory) and
-- must itself be an executable file; a bare name is looked up on $PATH, as a
-- shell would. Returns the absolute path, or nil.
local function resolve_command(command)
  local path = command
  if command:find('/', 1, true) then
    path = vim.fn.fnamemodify(command, ':p')
    if vim.fn.executable(path) ~= 1 then return nil end
  end
  local found = vim.fn.exepath(path)
  return found ~= '' and found or nil
end

-- Returns the daemon path, or nil and a message listing where it looked.
-- Order: explicit path, $DIFFABLE_BIN, bin/diffable beside the plugin,
-- `diffable` on $PATH, the checkout's .build/release then .build/debug.
-- An explicit path or a set $DIFFABLE_BIN is what the user asked for: when it
-- is not an executable the search stops there, so a typo never silently runs
-- another build (every diffable client follows this rule).
function M.find_bin(explicit)
  local function refused(place, value, advice)
    return nil, 'diffable: no daemon found; looked at: ' .. place .. ': ' .. value
      .. ' (not an executable file) (' .. advice .. ')'
  end
  if not is_nil(explicit) and explicit ~= '' then
    local found = resolve_command(explicit)
    if found then return found end
    return refused('the explicit argument', explicit,
      'pass the path of an executable `diffable`, or nothing to search for one')
  end
  local from_env = vim.env.DIFFABLE_BIN
  if not is_nil(from_env) and from_env ~= '' then
    local found = resolve_command(from_env)
    if found then return found end
    return refused('$DIFFABLE_BIN', from_env,
      'point $DIFFABLE_BIN at an executable `diffable`, or unset it to search the usual places')
  end
  local looked = { '$DIFFABLE_BIN (not set)' }
  local function try(what, path)
    if vim.fn.executable(path) == 1 then return path end
    table.insert(looked, what .. ' ' .. path)
    return nil
  end
  local found = try('beside the plugin', beside_plugin())
    or (vim.fn.exepath('diffable') ~= '' and vim.fn.exepath('diffable'))
  if found then return found end
  table.insert(looked, '`diffable` on $PATH')
  local root = plugin_root()
  local in_checkout = vim.fn.filereadable(root .. '/Package.swift') == 1
  for _, config in ipairs({ 'release', 'debug' }) do
    found = try('checkout build', root .. '/.build/' .. config .. '/diffable')
    if found then return found end
  end
  local advice = in_checkout and ('build it with `swift build -c release` in ' .. root .. ', or set $DIFFABLE_BIN')
    or 'put `diffable` on $PATH (pip, npm or a release archive install it), or set $DIFFABLE_BIN'
  return nil, 'diffable: no daemon found; looked at: ' .. table.concat(looked, ', ') .. ' (' .. advice .. ')'
end

-- Session ---------------------------------------------------------------------

local Session = {}
Session.__index = Session

local current -- the one session of this Neovim

-- Starts the daemon (or returns the running one) and initializes it; a daemon
-- of another MAJOR.MINOR version than M.version gets one vim.notify (WARN).
-- opts: bin (path), args (extra daemon arguments), form ('steps' default),
-- supersede_searches (boolean, the daemon's default when absent), timeout (ms).
function M.start(opts)
  opts = opts or {}
  if current and current:running() then
    return current
  end
  local bin, why = M.find_bin(opts.bin)
  if not bin then
    return nil, { code = 'start', message = why:gsub('^diffable: ', '') }
  end
  local self = setmetatable({
    bin = bin, next_id = 1, pending = {}, inbox = {}, views = {}, stderr = {},
    partial = '', alive = false, timeout = opts.timeout or 10000,
    form = opts.form or 'steps',
  }, Session)
  self.stdin, self.stdout, self.stderr_pipe = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local args = { '--log-level', 'error' }
  vim.list_extend(args, opts.args or {})
  local handle, pid = uv.spawn(bin, { args = args, stdio = { self.stdin, self.stdout, self.stderr_pipe } },
    function(code, signal)
      self.alive = false
      self.exit_code, self.exit_signal = code, signal
      vim.schedule(function() self:_closed() end)
    end)
  if not handle then
    for _, p in ipairs({ self.stdin, self.stdout, self.stderr_pipe }) do p:close() end
    return nil, { code = 'start', message = 'cannot start ' .. bin .. ': ' .. tostring(pid) }
  end
  self.handle, self.pid, self.alive = handle, pid, true
  self.stdout:read_start(function(err, data)
    if data then self:_receive(data) end
  end)
  self.stderr_pipe:read_start(function(_, data)
    if data then
      table.insert(self.stderr, data)
      if #self.stderr > 50 then table.remove(self.stderr, 1) end
    end
  end)
  local init = { form = self.form }
  if opts.supersede_searches ~= nil then init.supersedeSearches = opts.supersede_searches end
  local result, err = self:request_sync('initialize', { initializationOptions = init })
  if not result then
    self:_kill()
    return nil, err
  end
  self.server_info = result.serverInfo
  self:notify('initialized', vim.empty_dict())
  local warning = version.warning(result.serverInfo, bin)
  if warning then vim.notify(warning, vim.log.levels.WARN) end
  current = self
  return self
end

-- The running session, or nil.
function M.session()
  if current and current:running() then return current end
  return nil
end

function Session:running()
  return self.alive and not self.stopping
end

-- Called from the libuv read callback (fast context): split lines and decode.
function Session:_receive(data)
  local text = self.partial .. data
  local start = 1
  while true do
    local nl = text:find('\n', start, true)
    if not nl then break end
    local line = text:sub(start, nl - 1)
    start = nl + 1
    if line:match('%S') then
      local ok, msg = pcall(vim.json.decode, line)
      if ok and type(msg) == 'table' then
        table.insert(self.inbox, msg)
        if msg.id ~= nil and self.pending[msg.id] then self.pending[msg.id].arrived = true end
      end
    end
  end
  self.partial = text:sub(start)
  vim.schedule(function() self:drain() end)
end

-- Handles every response received so far, in arrival order: diffs are drawn
-- into the attached buffers, then the request's callback runs.
function Session:drain()
  while #self.inbox > 0 do
    local msg = table.remove(self.inbox, 1)
    local pending = msg.id ~= nil and self.pending[msg.id]
    if pending then
      self.pending[msg.id] = nil
      local err = not is_nil(msg.error) and msg.error or nil
      local result = not err and msg.result or nil
      if result and type(result) == 'table' then
        local ok, problem = pcall(self._render_result, self, result, pending)
        if not ok then
          err = { code = 'client', message = 'could not draw the diff: ' .. tostring(problem) }
        end
      end
      pending.done, pending.result, pending.err = true, result, err
      if pending.cb then
        local ok, problem = pcall(pending.cb, err, result)
        if not ok then vim.notify('diffable: callback failed: ' .. tostring(problem), vim.log.levels.ERROR) end
      end
    end
  end
end

function Session:_closed()
  self.alive = false
  local why = { code = 'exited', message = 'the daemon exited (code ' .. tostring(self.exit_code) .. ')'
    .. (#self.stderr > 0 and ': ' .. table.concat(self.stderr):gsub('%s+$', '') or '') }
  self:drain()
  for id, pending in pairs(self.pending) do
    self.pending[id] = nil
    pending.done, pending.err = true, why
    if pending.cb then pcall(pending.cb, why, nil) end
  end
  for _, p in ipairs({ self.stdin, self.stdout, self.stderr_pipe }) do
    if not p:is_closing() then p:close() end
  end
  if self.handle and not self.handle:is_closing() then self.handle:close() end
  if current == self then current = nil end
end

local NOT_RUNNING = { code = 'stopped', message = 'the daemon is not running (:DiffableOpen starts it)' }

function Session:_send(msg)
  if not self.alive then return false end
  self.stdin:write(vim.json.encode(msg) .. '\n')
  return true
end

-- Sends a notification.
function Session:notify(method, params)
  return self:_send({ jsonrpc = '2.0', method = method, params = params })
end

-- Sends a request; cb(err, result) runs after the diff (if any) is drawn.
-- Returns the request id, or nil and an error.
function Session:request(method, params, cb)
  if not self:running() and method ~= 'shutdown' then
    if cb then vim.schedule(function() cb(NOT_RUNNING, nil) end) end
    return nil, NOT_RUNNING
  end
  local id = self.next_id
  self.next_id = id + 1
  local pending = { method = method, params = params, cb = cb }
  self.pending[id] = pending
  if not self:_send({ jsonrpc = '2.0', id = id, method = method, params = params or vim.empty_dict() }) then
    self.pending[id] = nil
    return nil, NOT_RUNNING
  end
  return id, pending
end

-- Sends a request and waits for its answer: returns result, or nil and the
-- error ({code, message, data}).
function Session:request_sync(method, params, timeout)
  local id, pending = self:request(method, params)
  if not id then return nil, pending end
  local ok = vim.wait(timeout or self.timeout, function()
    return pending.arrived or pending.done or not self.alive
  end, 2)
  self:drain()
  if not pending.done then
    if not self.alive then
      self:_closed()
    end
    if not pending.done then
      self.pending[id] = nil
      return nil, { code = 'timeout', message = 'no answer to ' .. method .. (ok and '' or ' within '
        .. tostring(timeout or self.timeout) .. ' ms') }
    end
  end
  return pending.result, pending.err
end

-- Draws a change result into every buffer attached to its source.
function Session:_render_result(result, pending)
  if type(result.source) ~= 'string' then return end
  local views = self.views[result.source]
  if not views then return end
  local is_search = pending.method == 'search'
  local live = {}
  for _, view in ipairs(views) do
    if api.nvim_buf_is_valid(view.buf) then
      table.insert(live, view)
      if pending.method == 'highlights' then
        if result.version == view.version then
          render.set_section_highlights(view, pending.params.section, result.highlights or {})
        end
      elseif pending.method == 'drop' then
        render.reset(view)
      elseif result.steps or result.batch or result.selection then
        render.apply_result(view, result, is_search)
      end
    end
  end
  self.views[result.source] = live
  -- A change while a query is active moved rows: ask again for the highlights.
  if not is_search and (result.steps or result.batch) and self:running() then
    for _, view in ipairs(live) do
      if view.query ~= '' then
        for si = 0, #view.sections - 1 do
          self:request('highlights', { source = result.source, section = si })
        end
        break
      end
    end
  end
end

-- Renders `source` into `buf` (default: the current buffer): its visible
-- snapshot now, then every diff. Returns the view, or nil and an error.
function Session:attach(source, buf)
  if buf == nil or buf == 0 then buf = api.nvim_get_current_buf() end
  local view = render.new_view(source, buf)
  local snap, err = self:request_sync('snapshot', { source = source })
  if err and err.code ~= errors.UnknownSource then return nil, err end
  self.views[source] = self.views[source] or {}
  for i, v in ipairs(self.views[source]) do
    if v.buf == buf then table.remove(self.views[source], i) break end
  end
  table.insert(self.views[source], view)
  render.load(view, snap)
  if snap and snap.selected then
    -- the snapshot lists every selected id; `rows` of later results refresh paths
    for _, id in ipairs(snap.selected) do view.selected[id] = true end
    render.redraw_marks(view)
  end
  vim.b[buf].diffable_source = source
  return view
end

-- The views (buffers) attached to a source.
function Session:views_of(source)
  return self.views[source] or {}
end

local function merge(into, extra)
  for k, v in pairs(extra or {}) do into[k] = v end
  return into
end

-- Synchronous helpers: each returns the result, or nil and the error.
function Session:apply(source, sections, extra)
  return self:request_sync('apply', merge({ source = source, sections = sections }, extra))
end

function Session:edit(source, ops, extra)
  return self:request_sync('edit', merge({ source = source, ops = ops }, extra))
end

-- extra: any other member of contract.methods.search.params (sections, mode, order, limit, ...).
-- With fields, a line draws the highlights of the field whose text it shows.
function Session:search(source, query, extra)
  return self:request_sync('search', merge({ source = source, query = query }, extra))
end

-- ids: item ids; extra.action: 'select' (default), 'deselect', 'toggle', 'clear'.
function Session:select(source, ids, extra)
  local params = merge({ source = source }, extra)
  if ids and #ids > 0 then params.ids = ids end
  return self:request_sync('select', params)
end

-- Outlines (protocol/methods/outline.md). extra: members of contract.methods.expand.params (recursive, ...).
function Session:expand(source, ids, extra)
  return self:request_sync('expand', merge({ source = source, ids = ids }, extra))
end

function Session:collapse(source, ids, extra)
  return self:request_sync('collapse', merge({ source = source, ids = ids }, extra))
end

-- {id, parent, level, children, hasChildren, expanded, visible, path}
function Session:outline(source, id)
  return self:request_sync('outline', { source = source, id = id })
end

-- The item drawn on 1-based line `lnum` of `buf` (nil on a header line),
-- and the buffer's view.
function Session:item_at(buf, lnum)
  local src = vim.b[buf].diffable_source
  for _, view in ipairs(self.views[src] or {}) do
    if view.buf == buf then
      local line = lnum - 1
      for si, sec in ipairs(view.sections) do
        local first = render.row_line(view, si - 1, 0)
        if line >= first and line < first + #sec.items then return sec.items[line - first + 1], view end
      end
      return nil, view
    end
  end
  return nil, nil
end

-- Expands the row on line `lnum` of `buf` (default: the cursor's) if it is
-- collapsed, collapses it if it is expanded (`recursive`: its descendants too).
-- Returns the result, or nil and an error.
function Session:toggle(buf, lnum, recursive)
  if buf == nil or buf == 0 then buf = api.nvim_get_current_buf() end
  lnum = lnum or api.nvim_win_get_cursor(0)[1]
  local item, view = self:item_at(buf, lnum)
  if not view then return nil, { code = 'usage', message = 'this buffer shows no diffable source' } end
  if not item or not item.hasChildren then
    return nil, { code = 'usage', message = 'the row under the cursor has no children to expand or collapse' }
  end
  local method = item.expanded and 'collapse' or 'expand'
  return self:request_sync(method, merge({ source = view.source, ids = { item.id } }, recursive and { recursive = true } or nil))
end

function Session:snapshot(source, full)
  return self:request_sync('snapshot', full and { source = source, full = true } or { source = source })
end

function Session:_kill()
  if self.handle and not self.handle:is_closing() then
    pcall(self.handle.kill, self.handle, 'sigterm')
  end
end

-- shutdown + exit; waits up to a second for the process to end.
-- Returns the daemon's exit code (nil if it had to be killed).
function Session:stop()
  if self.alive then
    self:request_sync('shutdown', nil, 2000)
    self.stopping = true
    self:notify('exit')
    if self.stdin and not self.stdin:is_closing() then self.stdin:shutdown() end
    vim.wait(2000, function() return not self.alive end, 5)
    if self.alive then self:_kill() vim.wait(1000, function() return not self.alive end, 5) end
    -- Let the scheduled close of the pipes and the process handle run before
    -- returning, so no libuv handle outlives the session (or the editor).
    vim.wait(1000, function() return self.handle == nil or self.handle:is_closing() end, 5)
  end
  self.stopping = true
  if current == self then current = nil end
  return self.exit_code
end

M.Session = Session
return M
