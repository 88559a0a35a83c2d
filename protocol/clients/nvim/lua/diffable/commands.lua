-- diffable.commands: the :Diffable* commands (see plugin/diffable.lua).
-- Every failure is reported with vim.notify(..., ERROR) as
-- "diffable: CODE: message", never as a Lua traceback.

local api = vim.api
local diffable = require('diffable')
local render = require('diffable.render')

local M = {}

local last_source -- the source of the last :DiffableOpen

-- A JSON array (vim.json.decode gives objects the empty-dict metatable only when empty).
local function is_list(t)
  if getmetatable(t) ~= nil then return false end
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  for i = 1, n do
    if t[i] == nil then return false end
  end
  return true
end

local function fail(err)
  diffable.notify_error(err)
end

local function session()
  local s = diffable.session()
  if not s then
    fail({ code = 'stopped', message = 'the daemon is not running (:DiffableOpen [bin] source starts it)' })
  end
  return s
end

-- The source of the current buffer, else the last one opened.
local function source()
  local src = vim.b.diffable_source
  if type(src) ~= 'string' or src == '' then src = last_source end
  if not src then
    fail({ code = 'usage', message = 'no source: :DiffableOpen [bin] source first' })
  end
  return src
end

local function run(s, method, params)
  local result, err = s:request_sync(method, params)
  if not result and err then fail(err) end
  return result
end

-- A buffer for `src`: the one already showing it, else a new scratch buffer.
-- Never :enew, so a modified current buffer stays as it is (no E37).
local function buffer_for(src)
  local name = 'diffable://' .. src
  local existing = vim.fn.bufnr('^' .. vim.fn.escape(name, '\\/.*$^~[]') .. '$')
  if existing > 0 and api.nvim_buf_is_valid(existing) then return existing end
  local buf = api.nvim_create_buf(true, true)
  api.nvim_buf_set_name(buf, name)
  render.setup_buffer(buf)
  return buf
end

-- :DiffableOpen [bin] source
function M.open(args)
  local bin, src
  if #args == 1 then
    src = args[1]
  elseif #args == 2 then
    bin, src = args[1], args[2]
  else
    return fail({ code = 'usage', message = ':DiffableOpen [bin] source' })
  end
  local s = diffable.session()
  if s and bin and vim.fn.exepath(bin) ~= s.bin and bin ~= s.bin then
    vim.notify('diffable: reusing the running daemon ' .. s.bin, vim.log.levels.WARN)
  end
  if not s then
    local err
    s, err = diffable.start({ bin = bin })
    if not s then return fail(err) end
  end
  local buf = buffer_for(src)
  if not pcall(api.nvim_win_set_buf, 0, buf) then
    vim.cmd('split') -- the current window cannot show another buffer
    api.nvim_win_set_buf(0, buf)
  end
  local view, err = s:attach(src, buf)
  if not view then return fail(err) end
  last_source = src
  return view
end

-- :DiffableApply {json}: an object of apply params (source defaults to the
-- current one) or a list of sections.
function M.apply(text)
  local s = session()
  if not s then return end
  local ok, params = pcall(vim.json.decode, text)
  if not ok or type(params) ~= 'table' then
    return fail({ code = 'usage', message = ':DiffableApply needs JSON: {"sections": [...]} or [sections…]' })
  end
  if is_list(params) then
    params = { sections = params }
  end
  if params.source == nil then
    params.source = source()
    if not params.source then return end
  end
  return run(s, 'apply', params)
end

-- :DiffableEdit {json}: an object of edit params or a list of ops.
function M.edit(text)
  local s = session()
  if not s then return end
  local ok, params = pcall(vim.json.decode, text)
  if not ok or type(params) ~= 'table' then
    return fail({ code = 'usage', message = ':DiffableEdit needs JSON: {"ops": [...]} or [ops…]' })
  end
  if is_list(params) then params = { ops = params } end
  if params.source == nil then
    params.source = source()
    if not params.source then return end
  end
  return run(s, 'edit', params)
end

-- :DiffableSearch [--sections a,b] [--fuzzy] query
function M.search(args)
  local s = session()
  if not s then return end
  local src = source()
  if not src then return end
  local params = { source = src }
  local rest = args
  while true do
    local opt, value, tail = rest:match('^%s*%-%-(%a+)=?(%S*)%s*(.*)$')
    if opt == 'sections' then
      if value == '' then value, tail = tail:match('^(%S+)%s*(.*)$') end
      if not value then return fail({ code = 'usage', message = '--sections needs a list: a,b' }) end
      params.sections = vim.split(value, ',', { plain = true, trimempty = true })
      rest = tail
    elseif opt == 'fuzzy' then
      params.mode = 'fuzzy'
      rest = value ~= '' and (value .. ' ' .. tail) or tail
    elseif opt == nil then
      break
    else
      return fail({ code = 'usage', message = 'unknown option --' .. opt
        .. ' (:DiffableSearch [--sections a,b] [--fuzzy] query)' })
    end
  end
  params.query = rest
  local result, err = s:request_sync('search', params)
  if not result and err and err.code ~= -32800 then fail(err) end
  return result
end

-- :DiffableSelect [--deselect|--toggle|--clear] id…
function M.select(args)
  local s = session()
  if not s then return end
  local src = source()
  if not src then return end
  local params = { source = src }
  local ids = {}
  for _, a in ipairs(args) do
    local action = a:match('^%-%-(%a+)$')
    if action then
      params.action = action
    else
      table.insert(ids, a)
    end
  end
  if #ids > 0 then params.ids = ids end
  if #ids == 0 and params.action ~= 'clear' then
    return fail({ code = 'usage', message = ':DiffableSelect [--deselect|--toggle|--clear] id…' })
  end
  return run(s, 'select', params)
end

function M.stop()
  local s = diffable.session()
  if not s then
    return fail({ code = 'stopped', message = 'the daemon is not running' })
  end
  s:stop()
end

-- Wraps a command so that no Lua error escapes as a traceback.
function M.guard(fn)
  return function(...)
    local ok, err = pcall(fn, ...)
    if not ok then fail({ code = 'client', message = tostring(err) }) end
  end
end

-- :DiffableToggle[!]: expand or collapse the row under the cursor (! : with its descendants).
function M.toggle(bang)
  local s = session()
  if not s then return end
  local result, err = s:toggle(0, nil, bang)
  if not result and err then fail(err) end
  return result
end

return M
