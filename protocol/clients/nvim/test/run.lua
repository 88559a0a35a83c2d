-- Headless test of the Neovim client (Neovim 0.7+):
--   DIFFABLE_BIN=/path/to/diffable nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp+=protocol/clients/nvim' -c 'luafile protocol/clients/nvim/test/run.lua'
-- (Neovim 0.9+ may use `-l protocol/clients/nvim/test/run.lua` instead of -c.)
-- Exit status 0 (qall!) when every check passes, 1 (cquit) otherwise. One
-- line per check on stdout, then "N passed, M failed".
-- $DIFFABLE_NVIM_SEED and $DIFFABLE_NVIM_ROUNDS drive the random session.

local api = vim.api
local passed, failed = 0, 0

local function out(line)
  io.stdout:write(line .. '\n')
end

local function show(v)
  return vim.inspect(v, { newline = ' ', indent = '' })
end

local function check(what, actual, expected)
  if vim.deep_equal(actual, expected) then
    passed = passed + 1
    out('ok   ' .. what)
    return true
  end
  failed = failed + 1
  out('FAIL ' .. what .. ': got ' .. show(actual) .. ', expected ' .. show(expected))
  return false
end

local function truthy(what, cond, detail)
  return check(what .. (cond and '' or (' (' .. tostring(detail) .. ')')), cond and true or false, true)
end

local bin = vim.env.DIFFABLE_BIN
local d = require('diffable')
local render = require('diffable.render')

local function lines(buf)
  return api.nvim_buf_get_lines(buf, 0, -1, false)
end

-- extmarks of a namespace as {row, col, end_row, end_col, hl_group, sign_text}
local function marks(buf, ns)
  local list = {}
  for _, m in ipairs(api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
    local det = m[4]
    table.insert(list, { m[2], m[3], det.end_row, det.end_col,
      det.hl_group or det.line_hl_group or vim.NIL,
      det.sign_text and vim.trim(det.sign_text) or vim.NIL })
  end
  table.sort(list, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
  return list
end

local function rows_of(list)
  return vim.tbl_map(function(m) return m[1] end, list)
end

local function item(id, text) return { id = id, content = { text = text } } end

-- Captures vim.notify while fn runs.
local function notices(fn)
  local seen, orig = {}, vim.notify
  vim.notify = function(msg, level) table.insert(seen, { msg = msg, level = level }) end
  local ok, err = pcall(fn)
  vim.notify = orig
  if not ok then table.insert(seen, { msg = 'LUA ERROR: ' .. tostring(err), level = -1 }) end
  return seen
end

------------------------------------------------------------------------------
-- 1. Lua API: apply, search with a scope, select, edit, batch form, errors.
local function api_checks()
  local s, err = d.start({ bin = bin })
  assert(s, err and err.message)
  check('start twice returns the one session', d.start({ bin = bin }) == s, true)
  local buf = api.nvim_create_buf(true, true)
  render.setup_buffer(buf)
  s:attach('people', buf)
  check('empty before the first apply', lines(buf), { '' })

  local r = s:apply('people', {
    { id = 'added', header = 'Added', items = {}, selection = 'multiple' },
    { id = 'list', header = { title = 'Everyone' }, selection = 'multiple',
      items = { item('grace', 'Grace Émile'), item('liam', 'Liam'), item('ava', 'Ava Grace'), 'ruby' } },
    { id = 'more', items = { { id = 'zoe', content = 'Zoé grace' } } } })
  check('apply: steps form', r and r.steps ~= nil, true)
  check('apply: lines', lines(buf), { 'Added', 'Everyone', 'Grace Émile', 'Liam', 'Ava Grace', 'ruby', 'Zoé grace' })
  check('apply: header highlights', marks(buf, render.ns_header),
    { { 0, 0, 1, 0, 'DiffableHeader', vim.NIL }, { 1, 0, 2, 0, 'DiffableHeader', vim.NIL } })
  check('buffer is nomodifiable', vim.bo[buf].modifiable, false)
  check('buffer is nofile', vim.bo[buf].buftype, 'nofile')

  -- search scoped to "list": "more" stays whole; match offsets are scalars
  r = s:search('people', 'gra', { sections = { 'list' } })
  check('search: counts', { r.search.matches, r.search.shown }, { 2, 2 })
  check('search: lines', lines(buf), { 'Added', 'Everyone', 'Grace Émile', 'Ava Grace', 'Zoé grace' })
  check('search: match extmarks (bytes)', marks(buf, render.ns_match),
    { { 2, 0, 2, 3, 'DiffableMatch', vim.NIL }, { 3, 4, 3, 7, 'DiffableMatch', vim.NIL } })
  r = s:search('people', 'mile', { sections = { 'list', 'more' } })
  check('search: match after a 2-byte scalar', marks(buf, render.ns_match),
    { { 2, 8, 2, 12, 'DiffableMatch', vim.NIL } })
  r = s:search('people', 'grace', { sections = { 'more' } })
  check('search scoped to another section', lines(buf),
    { 'Added', 'Everyone', 'Grace Émile', 'Liam', 'Ava Grace', 'ruby', 'Zoé grace' })
  check('search: match in "Zoé grace" at byte 5', marks(buf, render.ns_match),
    { { 6, 5, 6, 10, 'DiffableMatch', vim.NIL } })
  -- search of fields: the line draws the ranges of the field whose text it shows
  r = s:search('people', 'gr', { mode = 'fuzzy', fields = { 'nick', '/text' } })
  check('search of fields: highlights name the field', r.highlights[1].fields,
    { { field = '/text', ranges = { { 4, 2 } } } })
  check('search of fields: lines (a string content has no fields)', lines(buf),
    { 'Added', 'Everyone', 'Ava Grace', 'Grace Émile' })
  check('search of fields: match extmarks', marks(buf, render.ns_match),
    { { 2, 4, 2, 6, 'DiffableMatch', vim.NIL }, { 3, 0, 3, 2, 'DiffableMatch', vim.NIL } })
  check('field_text: member, pointer, array, missing', {
    render.field_text({ a = { b = { 'x', 'y' } }, ['c/d'] = 'e' }, '/a/b/1'),
    render.field_text({ ['c/d'] = 'e' }, '/c~1d'), render.field_text({ n = 'v' }, 'n'),
    render.field_text('s', 'n') or 'none' }, { 'y', 'e', 'v', 'none' })
  r = s:search('people', 'grace', { sections = { 'more' } })

  -- select: sign + line highlight on the selected rows
  r = s:select('people', { 'liam', 'ruby' })
  check('select: result', r and #r.selection.rows, 2)
  check('select: sign lines', render.selection_lines(buf), { 3, 5 })
  local placed = vim.fn.sign_getplaced(buf, { group = render.sign_group })[1].signs
  local def = vim.fn.sign_getdefined(placed[1].name)[1]
  check('select: sign is ● with the DiffableSelected line highlight', { def.text, def.linehl, def.texthl },
    { '● ', 'DiffableSelected', 'DiffableSelectedSign' })
  r = s:select('people', { 'liam' }, { action = 'deselect' })
  check('deselect: marks', render.selection_lines(buf), { 5 })

  -- edit: move the selected row, a content change, an insert; the mark follows
  r = s:edit('people', {
    { op = 'moveItem', id = 'ruby', before = 'grace' },
    { op = 'setContent', items = { { id = 'liam', content = { text = 'Liam Thomas' } } } },
    { op = 'appendItems', items = { item('noah', 'Noah') }, section = 'added' } })
  check('edit: lines', lines(buf),
    { 'Added', 'Noah', 'Everyone', 'ruby', 'Grace Émile', 'Liam Thomas', 'Ava Grace', 'Zoé grace' })
  check('edit: selection mark moved', render.selection_lines(buf), { 3 })
  -- the active query ("grace" in "more") is highlighted again after the edit
  vim.wait(2000, function() return #marks(buf, render.ns_match) == 1 end, 5)
  check('edit: highlights fetched again', marks(buf, render.ns_match),
    { { 7, 5, 7, 10, 'DiffableMatch', vim.NIL } })

  -- batch form: turned into steps by the client
  s:search('people', '')
  r = s:apply('people', {
    { id = 'list', header = 'People', items = { item('liam', 'Liam'), 'ruby', item('zoe', 'Zoe') } },
    { id = 'added', items = { item('noah', 'Noah'), item('grace', 'Grace') } } }, { form = 'batch' })
  check('batch: result is a batch', r and r.batch ~= nil, true)
  check('batch: lines', lines(buf), { 'People', 'Liam', 'ruby', 'Zoe', 'Noah', 'Grace' })
  check('batch: header highlight', rows_of(marks(buf, render.ns_header)), { 0 })
  check('batch: selection mark', render.selection_lines(buf), { 2 })

  -- errors: nothing changes, the error names the code
  local before = lines(buf)
  r, err = s:apply('people', { { id = 'a', items = { 'x', 'x' } } })
  check('duplicate ids rejected', { r, err and err.code }, { nil, -32602 })
  check('rejected apply changed nothing', lines(buf), before)
  r, err = s:select('people', { 'nobody' })
  check('unknown id rejected', err and err.code, 1003)

  -- a second buffer attached to an existing source starts from its snapshot
  local other = api.nvim_create_buf(true, true)
  s:attach('people', other)
  check('attach to an existing source', lines(other), lines(buf))
  check('attach: selection mark', render.selection_lines(other), { 2 })
  s:edit('people', { { op = 'deleteItems', ids = { 'zoe' } } })
  check('both buffers follow', { lines(buf), lines(other) },
    { { 'People', 'Liam', 'ruby', 'Noah', 'Grace' }, { 'People', 'Liam', 'ruby', 'Noah', 'Grace' } })

  -- async request
  local got
  s:request('sources', vim.empty_dict(), function(e, res) got = { e, res and #res.sources } end)
  vim.wait(2000, function() return got ~= nil end, 5)
  check('async request', got, { nil, 1 })

  -- daemon discovery
  local missing = '/nonexistent/diffable'
  local path, why = d.find_bin(missing)
  check('explicit missing path', { path, why }, { nil, 'diffable: no daemon found; looked at: the explicit argument: '
    .. missing .. ' (not an executable file) (pass the path of an executable `diffable`, or nothing to search for one)' })
  local saved_bin, saved_path = vim.env.DIFFABLE_BIN, vim.env.PATH
  vim.env.DIFFABLE_BIN, vim.env.PATH = nil, '/nonexistent'
  path, why = d.find_bin(nil)
  vim.env.DIFFABLE_BIN, vim.env.PATH = saved_bin, saved_path
  if path == nil then
    truthy('discovery lists where it looked', why:find('$DIFFABLE_BIN (not set)', 1, true)
      and why:find('beside the plugin ' .. d.beside_plugin(), 1, true)
      and why:find('on $PATH', 1, true) and why:find('.build/release/diffable', 1, true)
      and why:find('.build/debug/diffable', 1, true) and why:find('swift build -c release', 1, true), why)
  else
    truthy('discovery found a checkout build', path:find('/.build/', 1, true), path)
  end

  -- A set $DIFFABLE_BIN is never replaced by another daemon: a folder on PATH
  -- holds a working `diffable` (a script running the real one) and a file
  -- that is not executable.
  local on_path = vim.fn.tempname()
  vim.fn.mkdir(on_path, 'p')
  local path_daemon, plain_file = on_path .. '/diffable', on_path .. '/not-executable'
  vim.fn.writefile({ '#!/bin/sh', 'exec ' .. vim.fn.shellescape(bin) .. ' "$@"' }, path_daemon)
  vim.fn.setfperm(path_daemon, 'rwxr-xr-x')
  vim.fn.writefile({ '#!/bin/sh' }, plain_file)
  vim.env.PATH = on_path .. ':' .. saved_path
  vim.env.DIFFABLE_BIN = nil
  check('discovery: unset $DIFFABLE_BIN, `diffable` on PATH', d.find_bin(nil), path_daemon)
  local function refused(value)
    return 'diffable: no daemon found; looked at: $DIFFABLE_BIN: ' .. value .. ' (not an executable file) '
      .. '(point $DIFFABLE_BIN at an executable `diffable`, or unset it to search the usual places)'
  end
  for _, case in ipairs({ { 'missing', missing }, { 'not executable', plain_file },
                          { 'a folder', on_path }, { 'a name not on PATH', 'no-such-diffable' } }) do
    vim.env.DIFFABLE_BIN = case[2]
    path, why = d.find_bin(nil)
    check('discovery: $DIFFABLE_BIN ' .. case[1] .. ' stops, `diffable` on PATH unused', { path, why },
      { nil, refused(case[2]) })
  end
  vim.env.DIFFABLE_BIN = bin
  check('discovery: $DIFFABLE_BIN before `diffable` on PATH', d.find_bin(nil), vim.fn.exepath(bin))
  vim.env.DIFFABLE_BIN = 'diffable'
  check('discovery: $DIFFABLE_BIN as a command on PATH', d.find_bin(nil), path_daemon)
  vim.env.DIFFABLE_BIN = missing
  check('discovery: an explicit path wins over a broken $DIFFABLE_BIN', d.find_bin(bin), vim.fn.exepath(bin))
  vim.env.DIFFABLE_BIN, vim.env.PATH = saved_bin, saved_path
  vim.fn.delete(on_path, 'rf')
  check('discovery: $DIFFABLE_BIN', d.find_bin(nil), vim.fn.exepath(bin))

  check('stop: exit status', s:stop(), 0)
  check('no session after stop', d.session(), nil)
  r, err = s:apply('people', {})
  check('request after stop', err and err.code, 'stopped')
end

------------------------------------------------------------------------------
-- 2. Commands.
local function command_checks()
  vim.cmd('runtime plugin/diffable.lua')
  -- a modified, unnamed buffer: :DiffableOpen must not fail with E37
  vim.cmd('enew')
  local scratch = api.nvim_get_current_buf()
  api.nvim_buf_set_lines(scratch, 0, -1, false, { 'unsaved text' })
  check('the current buffer is modified', vim.bo[scratch].modified, true)
  local seen = notices(function() vim.cmd('DiffableOpen ' .. vim.fn.fnameescape(bin) .. ' fruit') end)
  check(':DiffableOpen in a modified buffer: no error', seen, {})
  local buf = api.nvim_get_current_buf()
  check(':DiffableOpen: new buffer', { buf ~= scratch, api.nvim_buf_get_name(buf):match('diffable://fruit$') ~= nil },
    { true, true })
  check(':DiffableOpen: options', { vim.bo[buf].buftype, vim.bo[buf].modifiable, vim.bo[buf].swapfile },
    { 'nofile', false, false })
  check('the modified buffer is kept', api.nvim_buf_get_lines(scratch, 0, -1, false), { 'unsaved text' })
  local pid = d.session().pid

  seen = notices(function()
    vim.cmd([[DiffableApply {"sections": [{"id": "red", "header": "Red", "selection": "single", "items": [{"id": "apple", "content": "Apple"}, {"id": "cherry", "content": "Cherry"}]}, {"id": "yellow", "header": "Yellow", "items": [{"id": "banana", "content": "Banana"}, {"id": "lemon", "content": {"text": "Lemon"}}]}]}]])
  end)
  check(':DiffableApply: no error', seen, {})
  check(':DiffableApply: lines', lines(buf), { 'Red', 'Apple', 'Cherry', 'Yellow', 'Banana', 'Lemon' })
  check(':DiffableApply: header marks', rows_of(marks(buf, render.ns_header)), { 0, 3 })

  vim.cmd('DiffableSearch --sections yellow an')
  check(':DiffableSearch --sections: lines', lines(buf), { 'Red', 'Apple', 'Cherry', 'Yellow', 'Banana' })
  check(':DiffableSearch --sections: matches', marks(buf, render.ns_match),
    { { 4, 1, 4, 3, 'DiffableMatch', vim.NIL } })
  vim.cmd('DiffableSearch')
  check(':DiffableSearch (empty) clears', lines(buf), { 'Red', 'Apple', 'Cherry', 'Yellow', 'Banana', 'Lemon' })
  check(':DiffableSearch (empty): no matches', marks(buf, render.ns_match), {})

  vim.cmd('DiffableSelect cherry')
  check(':DiffableSelect: mark', render.selection_lines(buf), { 2 })
  vim.cmd('DiffableSelect apple')
  check(':DiffableSelect in a single section replaces', render.selection_lines(buf), { 1 })

  vim.cmd([[DiffableEdit [{"op": "moveSection", "id": "yellow", "before": "red"}] ]])
  check(':DiffableEdit: lines', lines(buf), { 'Yellow', 'Banana', 'Lemon', 'Red', 'Apple', 'Cherry' })
  check(':DiffableEdit: selection follows', render.selection_lines(buf), { 4 })

  -- errors are notified with the code, never a traceback
  seen = notices(function() vim.cmd('DiffableSelect banana') end)
  check(':DiffableSelect in a none section: error notice', { #seen, seen[1] and seen[1].level,
    seen[1] and seen[1].msg:match('^diffable: 1005: ') ~= nil }, { 1, vim.log.levels.ERROR, true })
  seen = notices(function() vim.cmd('DiffableApply {"sections": 3}') end)
  check(':DiffableApply bad params: -32602 notice', seen[1] and seen[1].msg:match('^diffable: %-32602: ') ~= nil, true)
  seen = notices(function() vim.cmd('DiffableApply not json') end)
  check(':DiffableApply not JSON: usage notice', seen[1] and seen[1].level == vim.log.levels.ERROR
    and not seen[1].msg:find('traceback'), true)
  check('errors changed nothing', lines(buf), { 'Yellow', 'Banana', 'Lemon', 'Red', 'Apple', 'Cherry' })

  -- a second :DiffableOpen reuses the daemon and keeps its state
  vim.cmd('enew')
  api.nvim_buf_set_lines(0, 0, -1, false, { 'more unsaved text' })
  seen = notices(function() vim.cmd('DiffableOpen veg') end)
  check('second :DiffableOpen: no error', seen, {})
  check('second :DiffableOpen: same daemon', d.session() and d.session().pid, pid)
  local veg = api.nvim_get_current_buf()
  vim.cmd('DiffableApply [{"id": "greens", "items": ["kale", "chard"]}]')
  check(':DiffableApply (list of sections) into veg', lines(veg), { 'kale', 'chard' })
  check('fruit kept its state', lines(buf), { 'Yellow', 'Banana', 'Lemon', 'Red', 'Apple', 'Cherry' })
  seen = notices(function() vim.cmd('DiffableOpen fruit') end)
  check(':DiffableOpen fruit again: same buffer', { seen, api.nvim_get_current_buf() }, { {}, buf })
  check(':DiffableOpen fruit again: lines', lines(buf), { 'Yellow', 'Banana', 'Lemon', 'Red', 'Apple', 'Cherry' })
  check(':DiffableOpen fruit again: selection', render.selection_lines(buf), { 4 })

  -- after :DiffableStop the next command says the daemon is not running
  vim.cmd('DiffableStop')
  check(':DiffableStop: no session', d.session(), nil)
  seen = notices(function() vim.cmd('DiffableApply []') end)
  check('command after :DiffableStop', { #seen, seen[1] and seen[1].msg:match('not running') ~= nil,
    seen[1] and seen[1].level }, { 1, true, vim.log.levels.ERROR })
  seen = notices(function() vim.cmd('DiffableSearch x') end)
  check(':DiffableSearch after :DiffableStop', seen[1] and seen[1].msg:match('not running') ~= nil, true)
  seen = notices(function() vim.cmd('DiffableOpen /nonexistent/diffable x') end)
  check(':DiffableOpen with a bad path: notice', seen[1] and seen[1].msg, 'diffable: start: no daemon found; looked at: '
    .. 'the explicit argument: /nonexistent/diffable (not an executable file) (pass the path of an executable `diffable`, '
    .. 'or nothing to search for one)')
  -- a broken $DIFFABLE_BIN stops start and :DiffableOpen although `diffable` is on PATH
  local saved_bin, saved_path = vim.env.DIFFABLE_BIN, vim.env.PATH
  local on_path = vim.fn.tempname()
  vim.fn.mkdir(on_path, 'p')
  vim.fn.writefile({ '#!/bin/sh', 'exec ' .. vim.fn.shellescape(bin) .. ' "$@"' }, on_path .. '/diffable')
  vim.fn.setfperm(on_path .. '/diffable', 'rwxr-xr-x')
  vim.env.DIFFABLE_BIN, vim.env.PATH = '/nonexistent/diffable', on_path .. ':' .. saved_path
  local refused = 'no daemon found; looked at: $DIFFABLE_BIN: /nonexistent/diffable (not an executable file) '
    .. '(point $DIFFABLE_BIN at an executable `diffable`, or unset it to search the usual places)'
  local started, start_err = d.start()
  check('start with a broken $DIFFABLE_BIN', { started, start_err }, { nil, { code = 'start', message = refused } })
  seen = notices(function() vim.cmd('DiffableOpen fruit') end)
  check(':DiffableOpen with a broken $DIFFABLE_BIN: notice', { #seen, seen[1] and seen[1].msg, d.session() },
    { 1, 'diffable: start: ' .. refused, nil })
  vim.env.DIFFABLE_BIN, vim.env.PATH = saved_bin, saved_path
  vim.fn.delete(on_path, 'rf')
  -- :DiffableOpen starts a new daemon
  seen = notices(function() vim.cmd('DiffableOpen fruit') end)
  check(':DiffableOpen after stop: new daemon', { seen, d.session() ~= nil and d.session().pid ~= pid }, { {}, true })
  check('the new daemon has no fruit yet', lines(buf), { '' })
  d.session():stop()
end

------------------------------------------------------------------------------
-- 2b. Outlines: rows indented by level with a disclosure marker, :DiffableToggle.
local function outline_checks()
  local s, err = d.start({ bin = bin })
  assert(s, err and err.message)
  local buf = api.nvim_create_buf(true, true)
  render.setup_buffer(buf)
  api.nvim_set_current_buf(buf)
  local view = s:attach('tree', buf)
  -- the model (with level/parent/hasChildren/expanded) and the buffer against the daemon
  local function same(what)
    local snap = s:snapshot('tree')
    local want = {}
    for i, sec in ipairs(snap.sections) do
      local items = {}
      for k, it in ipairs(sec.items) do items[k] = render.item_of(it) end
      want[i] = { id = sec.id, items = items }
    end
    local got = {}
    for i, sec in ipairs(render.model(view).sections) do got[i] = { id = sec.id, items = sec.items } end
    check(what .. ': model = snapshot (level, parent, disclosure)', got, want)
    check(what .. ': buffer = the snapshot drawn', lines(buf), render.expected_lines(snap.sections))
  end
  s:apply('tree', { { id = 'files', items = {
    { id = 'a', content = 'a/', children = { { id = 'a/b', content = 'b/', children = { 'a/b/c' } } } },
    { id = 'r', content = { text = 'readme' } } } } })
  check('outline: collapsed folder and a leaf', lines(buf), { '▸ a/', '  readme' })
  same('outline apply')
  api.nvim_win_set_cursor(0, { 1, 0 })
  local seen = notices(function() vim.cmd('DiffableToggle') end)
  check(':DiffableToggle expands the row under the cursor', { seen, lines(buf) }, { {}, { '▾ a/', '  ▸ b/', '  readme' } })
  same(':DiffableToggle expand')
  check('outline: a is expanded in the daemon', s:outline('tree', 'a').expanded, true)
  api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd('DiffableToggle!')
  check(':DiffableToggle! expands recursively', lines(buf), { '▾ a/', '  ▾ b/', '      a/b/c', '  readme' })
  same(':DiffableToggle!')
  api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('DiffableToggle')
  check(':DiffableToggle collapses an expanded row', lines(buf), { '▸ a/', '  readme' })
  same(':DiffableToggle collapse')
  check('collapse keeps the child\'s expansion', s:outline('tree', 'a/b').expanded, true)
  api.nvim_win_set_cursor(0, { 2, 0 })
  seen = notices(function() vim.cmd('DiffableToggle') end)
  check(':DiffableToggle on a leaf: an error notice, nothing changes',
    { #seen, seen[1] and seen[1].msg:match('no children') ~= nil, seen[1] and seen[1].level, lines(buf) },
    { 1, true, vim.log.levels.ERROR, { '▸ a/', '  readme' } })
  -- a search shows the match with its ancestors; the match extmark sits after the indent
  s:search('tree', 'b/')
  check('outline search: the match under its collapsed ancestor', lines(buf), { '▸ a/', '  ▾ b/' })
  same('outline search')
  local m = marks(buf, render.ns_match)
  check('outline search: the match extmark is on the text, after the indent', m,
    { { 1, #'  ▾ ', 1, #'  ▾ b/', 'DiffableMatch', vim.NIL } })
  s:search('tree', '')
  -- tree edits: move a file into another folder, replace children
  s:edit('tree', { { op = 'appendItems', parent = 'r', items = { { id = 'r/x', content = 'x' } } },
    { op = 'expand', ids = { 'a', 'r' } }, { op = 'moveItem', id = 'a/b/c', parent = 'r' } })
  check('outline edit: moved under another parent (b/ lost its only child)', lines(buf), { '▾ a/', '    b/', '▾ readme', '    x', '    a/b/c' })
  same('outline edit')
  s:edit('tree', { { op = 'replaceChildren', parent = 'a', items = { 'a/n' } } }, { form = 'batch' })
  check('outline replaceChildren (batch form)', lines(buf), { '▾ a/', '    a/n', '▾ readme', '    x', '    a/b/c' })
  same('outline replaceChildren')
  local _, e = s:expand('tree', { 'nope' })
  check('expand of an unknown id: 1003', e and e.code, 1003)
  api.nvim_set_current_buf(api.nvim_create_buf(true, true))
  seen = notices(function() vim.cmd('DiffableToggle') end)
  check(':DiffableToggle outside a diffable buffer: an error notice', seen[1] and seen[1].level, vim.log.levels.ERROR)
  check('outline: daemon exit status', s:stop(), 0)
end

------------------------------------------------------------------------------
-- 3. A seeded random session compared with the daemon's snapshot after every step.
local WORDS = vim.split('grace liam ava ruby stella jack emma olivia ethan amelia lucas noah isla mason chloe zoé'
  .. ' ångström naïve', ' ')

local function rng(seed)
  local state = seed % 2147483647
  if state <= 0 then state = state + 2147483646 end
  local r = {}
  function r.float()
    state = (state * 48271) % 2147483647
    return (state - 1) / 2147483646
  end
  function r.int(a, b) return a + math.floor(r.float() * (b - a + 1)) end
  function r.choice(list) return list[r.int(1, #list)] end
  function r.shuffle(list)
    for i = #list, 2, -1 do
      local j = r.int(1, i)
      list[i], list[j] = list[j], list[i]
    end
    return list
  end
  function r.sample(list, n)
    local copy = r.shuffle({ unpack(list) })
    local out = {}
    for i = 1, math.min(n, #copy) do out[i] = copy[i] end
    return out
  end
  return r
end

local function random_snapshot(R, full)
  local items = {}
  for _, s in ipairs(full) do
    for _, it in ipairs(s.items) do table.insert(items, it) end
  end
  R.shuffle(items)
  local keep, used = {}, {}
  for _, it in ipairs(items) do
    used[it.id] = true
    if R.float() < 0.8 then table.insert(keep, { id = it.id, content = it.content }) end
  end
  for _ = 1, R.int(0, 4) do
    local id = 'i' .. R.int(0, 59)
    if not used[id] then
      used[id] = true
      table.insert(keep, { id = id })
    end
  end
  for _, it in ipairs(keep) do
    if it.content == nil or R.float() < 0.2 then
      local x = R.float()
      if x < 0.8 then
        it.content = { text = table.concat(R.sample(WORDS, 2), ' ') }
      elseif x < 0.9 then
        it.content = R.choice(WORDS)
      else
        it.content = nil
      end
    end
  end
  local ids, seen = {}, {}
  for _, s in ipairs(full) do
    if R.float() < 0.85 then table.insert(ids, s.id) end
  end
  for _ = 1, R.int(0, 2) do table.insert(ids, 's' .. R.int(0, 7)) end
  local uniq = {}
  for _, id in ipairs(ids) do
    if not seen[id] then seen[id] = true table.insert(uniq, id) end
  end
  if #uniq == 0 then uniq = { 's0' } end
  if R.float() < 0.4 then R.shuffle(uniq) end
  local sections, by_id, old_by_id = {}, {}, {}
  for _, s in ipairs(full) do old_by_id[s.id] = s end
  for _, id in ipairs(uniq) do
    local old = old_by_id[id] or {}
    local s = { id = id, items = {} }
    local header = old.header
    if R.float() >= 0.8 then header = R.choice({ vim.NIL, id:upper(), { title = R.choice(WORDS) } }) end
    if header ~= nil and header ~= vim.NIL then s.header = header end
    if R.float() < 0.2 then s.selection = R.choice({ 'single', 'multiple', 'none' }) end
    table.insert(sections, s)
    by_id[id] = s
  end
  local home = {}
  for _, s in ipairs(full) do
    for _, it in ipairs(s.items) do home[it.id] = s.id end
  end
  for _, it in ipairs(keep) do
    local target = by_id[home[it.id] or '']
    if target == nil or R.float() < 0.25 then target = R.choice(sections) end
    table.insert(target.items, it)
  end
  return sections
end

local function norm_sections(sections)
  local out = {}
  for i, s in ipairs(sections) do
    local items = {}
    for k, it in ipairs(s.items or {}) do
      if type(it) == 'string' then it = { id = it } end
      local content = it.content
      if content == vim.NIL then content = nil end
      items[k] = { id = it.id, content = content }
    end
    local header = s.header
    if header == vim.NIL then header = nil end
    out[i] = { id = s.id, header = header, items = items }
  end
  return out
end

local function random_session(seed, rounds)
  local R = rng(seed)
  local s = assert(d.start({ bin = bin, supersede_searches = false }))
  local bufs, full, counts = {}, {}, {}
  local sources = { 'people', 'fruit' }
  for _, name in ipairs(sources) do
    bufs[name] = api.nvim_create_buf(true, true)
    render.setup_buffer(bufs[name])
    s:attach(name, bufs[name])
    full[name] = {}
  end
  local ok_rounds = 0
  for n = 1, rounds do
    local name = R.choice(sources)
    local current = full[name]
    local kind = #current > 0 and R.choice({ 'apply', 'apply', 'apply', 'apply', 'search', 'search', 'search',
      'select', 'edit', 'edit' }) or 'apply'
    local form = R.choice({ 'batch', 'steps' })
    local params
    local all_items = {}
    for _, sec in ipairs(current) do
      for _, it in ipairs(sec.items) do table.insert(all_items, it) end
    end
    if kind == 'apply' then
      params = { source = name, sections = random_snapshot(R, current), form = form }
    elseif kind == 'search' then
      local texts = {}
      for _, it in ipairs(all_items) do
        if type(it.content) == 'table' and type(it.content.text) == 'string' then table.insert(texts, it.content.text) end
      end
      local q = #texts > 0 and R.choice(texts) or 'x'
      local chars = vim.fn.split(q, '\\zs')
      local start = R.int(1, #chars)
      local piece = table.concat(chars, '', start, math.min(#chars, start + R.int(0, 3)))
      params = { source = name, query = R.choice({ '', piece, 'zz', 'gr', 'é' }),
        mode = R.choice({ 'substring', 'fuzzy' }), form = form }
      if R.float() < 0.5 then
        local secs = vim.tbl_map(function(sec) return sec.id end, current)
        params.sections = R.sample(secs, R.int(1, #secs))
      end
      if R.float() < 0.3 then params.limit = R.int(0, 5) end
      if R.float() < 0.3 then params.placeholder = { id = 'no-results', content = { text = 'No results' } } end
    elseif kind == 'select' then
      params = { source = name, action = R.choice({ 'select', 'deselect', 'toggle', 'clear' }) }
      if params.action ~= 'clear' and #all_items > 0 then params.ids = { R.choice(all_items).id } end
    else
      local ops = { { op = 'appendItems', items = { 'e' .. n } } }
      if #all_items >= 2 then
        local pair = R.sample(all_items, 2)
        local a, b = pair[1].id, pair[2].id
        local x = R.int(1, 5)
        if x == 1 then
          table.insert(ops, { op = 'moveItem', id = a, before = b })
        elseif x == 2 then
          table.insert(ops, { op = 'deleteItems', ids = { a } })
        elseif x == 3 then
          table.insert(ops, { op = 'setContent', items = { { id = a, content = { text = R.choice(WORDS) } } },
            style = R.choice({ 'reload', 'reconfigure' }) })
        elseif x == 4 then
          table.insert(ops, { op = 'moveItem', id = a, after = b })
          table.insert(ops, { op = 'reconfigureItems', ids = { b } })
        else
          local sid = 'x' .. n
          table.insert(ops, { op = 'insertSections', sections = { { id = sid, header = 'X' .. n, items = { 'y' .. n } } },
            before = R.choice(current).id })
          table.insert(ops, { op = 'moveItem', id = a, after = 'y' .. n })
        end
      end
      params = { source = name, ops = ops, form = form }
    end
    local result, err = s:request_sync(kind, params)
    if result then
      counts[kind .. '/' .. (result.batch and 'batch' or 'steps')] =
        (counts[kind .. '/' .. (result.batch and 'batch' or 'steps')] or 0) + 1
    elseif err.code == 1004 or err.code == 1005 or err.code == -32602 then
      counts.rejected = (counts.rejected or 0) + 1
    else
      check(string.format('round %d: %s %s', n, kind, vim.json.encode(params)), err, nil)
      break
    end
    local truth = assert(s:snapshot(name))
    local view = s:views_of(name)[1]
    local model = render.model(view)
    local selected = vim.deepcopy(truth.selected)
    table.sort(selected)
    local what = string.format('round %d (seed %d): %s %s', n, seed, kind, vim.json.encode(params))
    local good = vim.deep_equal(norm_sections(model.sections), norm_sections(truth.sections))
      and model.version == truth.version and vim.deep_equal(model.selected, selected)
    local want_lines = render.expected_lines(truth.sections)
    if #want_lines == 0 then want_lines = { '' } end
    good = good and vim.deep_equal(lines(bufs[name]), want_lines)
    -- selection marks sit on the selected visible rows
    local sel_rows, line, is_sel = {}, 0, {}
    for _, id in ipairs(truth.selected) do is_sel[id] = true end
    for _, sec in ipairs(truth.sections) do
      if sec.header ~= nil and sec.header ~= vim.NIL then line = line + 1 end
      for _, it in ipairs(sec.items) do
        if is_sel[type(it) == 'string' and it or it.id] then table.insert(sel_rows, line) end
        line = line + 1
      end
    end
    good = good and vim.deep_equal(render.selection_lines(bufs[name]), sel_rows)
    if kind == 'search' and result then
      local want = 0
      for _, h in ipairs(result.highlights or {}) do want = want + #(h.ranges or {}) end
      good = good and #marks(bufs[name], render.ns_match) == want
    end
    if not good then
      check(what .. ': buffer/model = daemon snapshot', {
        version = model.version, sections = norm_sections(model.sections), selected = model.selected,
        lines = lines(bufs[name]), select_marks = render.selection_lines(bufs[name]) },
        { version = truth.version, sections = norm_sections(truth.sections), selected = selected,
          lines = want_lines, select_marks = sel_rows, response = result })
      break
    end
    ok_rounds = ok_rounds + 1
    full[name] = assert(s:snapshot(name, true)).sections
  end
  local keys = vim.tbl_keys(counts)
  table.sort(keys)
  local summary = vim.tbl_map(function(k) return k .. '=' .. counts[k] end, keys)
  check(string.format('random session seed %d: %d rounds match the daemon (%s)', seed, rounds,
    table.concat(summary, ' ')), ok_rounds, rounds)
  truthy('random session covered both forms and every kind', counts['apply/batch'] and counts['apply/steps']
    and counts['edit/batch'] and counts['edit/steps'] and (counts['search/batch'] or counts['search/steps'])
    and (counts['select/steps'] or counts['select/batch']), vim.inspect(counts))
  check('random session: daemon exit status', s:stop(), 0)
end

------------------------------------------------------------------------------
-- 4. Field-level updates: rows that come as patches (updates "patch"), in
-- the steps and batch forms, and patch_content, replayed to the snapshot.
-- Rows that came as a patch: items with `patch`, and the rows of patch runs.
local function patched_rows(r)
  local n = select(2, vim.json.encode(r):gsub('"patch"', ''))
  local runs = vim.deepcopy(r.steps or {})
  for _, key in ipairs({ 'reload', 'reconfigure' }) do
    vim.list_extend(runs, (r.batch and r.batch.items and r.batch.items[key]) or {})
  end
  for _, run in ipairs(runs) do n = n + #(run.patches or {}) end
  return n
end

local function patch_checks()
  local s = assert(d.start({ bin = bin }))
  local R = rng(32)
  local patched = 0
  for _, form in ipairs({ 'steps', 'batch' }) do
    local name = 'ticker-' .. form
    local buf = api.nvim_create_buf(true, true)
    render.setup_buffer(buf)
    s:attach(name, buf)
    local rows = {}
    for i = 1, 8 do
      rows[i] = { id = 't' .. i, content = { text = 'T' .. i, price = i * 10.25, tags = { 'a', 'b' },
        name = 'Ticker ' .. i .. ' Incorporated, listed on a long exchange name' } }
    end
    assert(s:apply(name, { { id = 'q', items = rows } }, { updates = 'patch', form = form }))
    for tick = 1, 20 do
      local k = R.int(1, #rows)
      local r, err
      if tick % 2 == 0 then
        local value = R.int(0, 999)
        rows[k].content.price = value
        r, err = s:edit(name, { d.patch_content(rows[k].id, { { op = 'replace', path = '/price', value = value } }) },
          { updates = 'patch', form = form })
      else
        rows[k].content.text = 'T' .. k .. ' #' .. tick
        if tick % 5 == 0 then table.insert(rows, 1, table.remove(rows)) end
        r, err = s:apply(name, { { id = 'q', items = rows } }, { updates = 'patch', form = form })
      end
      assert(r, err and err.message)
      patched = patched + patched_rows(r)
      local truth = assert(s:snapshot(name))
      local want = norm_sections(truth.sections)
      if not check(string.format('patch session (%s) tick %d: model = snapshot', form, tick),
          render.model(s.views[name][1]).sections, want) then break end
    end
    check('patch session (' .. form .. '): buffer = the snapshot drawn', lines(buf),
      render.expected_lines(norm_sections(assert(s:snapshot(name)).sections)))
  end
  truthy('patch sessions: rows came as patches', patched > 10, patched)
  local _, err = s:edit('ticker-steps', { d.patch_content('t1', { { op = 'test', path = '/price', value = -1 } }) })
  check('a failing patch: 1004 patchFailed, patchOp 0', { err and err.code, err and err.data and err.data.reason,
    err and err.data and err.data.patchOp }, { 1004, 'patchFailed', 0 })
  local doc, perr = d.jsonpatch.apply({ 1, 2 }, { { op = 'add', path = '/01', value = 0 } })
  check('jsonpatch: a leading zero is no index', { doc, perr and perr.index }, { nil, 0 })
  check('jsonpatch: every op', d.jsonpatch.apply({ a = 1, ['m~n'] = { 1, 2 } }, {
    { op = 'add', path = '/m~0n/-', value = 3 }, { op = 'move', from = '/a', path = '/m~0n/0' },
    { op = 'copy', from = '/m~0n', path = '/c~1d' }, { op = 'remove', path = '/m~0n/1' },
    { op = 'test', path = '/c~1d', value = { 1, 1, 2, 3 } }, { op = 'replace', path = '', value = { x = vim.NIL } } }),
    { x = vim.NIL })
  check('patch checks: daemon exit status', s:stop(), 0)
end

-- 5. The shared replay cases (protocol/cases/, recorded from the daemon by
-- protocol/tools/record-cases): each case's batch and steps payloads, replayed
-- onto its old snapshot in a buffer, must reach its new snapshot (model and lines).
local function case_sections(sections)
  local out = {}
  for i, s in ipairs(sections) do
    local items = {}
    for k, it in ipairs(s.items or {}) do
      if type(it) == 'string' then it = { id = it } end
      local content = it.content
      if content == vim.NIL then content = nil end
      items[k] = { id = it.id, content = content, level = it.level, parent = it.parent,
        hasChildren = it.hasChildren or nil, expanded = it.expanded or nil }
    end
    local header = s.header
    if header == vim.NIL then header = nil end
    out[i] = { id = s.id, header = header, items = items }
  end
  return out
end

local function case_checks()
  local dir = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/../../../cases'
  local files = vim.fn.glob(dir .. '/*.json', false, true)
  table.sort(files)
  truthy('shared cases: at least 10 in ' .. dir, #files >= 10, #files)
  for _, file in ipairs(files) do
    local case = vim.json.decode(table.concat(vim.fn.readfile(file), '\n'))
    for _, form in ipairs({ 'batch', 'steps' }) do
      local buf = api.nvim_create_buf(true, true)
      render.setup_buffer(buf)
      local view = render.new_view('s', buf)
      render.load(view, { version = 1, sections = case.old.sections })
      local ok, err = pcall(render.apply_result, view, { source = 's', version = 2, [form] = case[form] }, false)
      if truthy('case ' .. case.name .. ' (' .. form .. '): replays', ok, err) then
        check('case ' .. case.name .. ' (' .. form .. '): model = new snapshot',
          case_sections(render.model(view).sections), case_sections(case.new.sections))
        local want = render.expected_lines(case.new.sections)
        if #want == 0 then want = { '' } end -- an empty buffer still has its one empty line
        check('case ' .. case.name .. ' (' .. form .. '): buffer = new snapshot drawn', lines(buf), want)
      end
      api.nvim_buf_delete(buf, { force = true })
    end
  end
end

local function main()
  if bin == nil or bin == '' or vim.fn.executable(bin) ~= 1 then
    error('set $DIFFABLE_BIN to the diffable binary (got "' .. tostring(bin) .. '")', 0)
  end
  out('nvim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.'
    .. tostring(vim.version().patch) .. ', daemon ' .. bin)
  api_checks()
  dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/version.lua')(
    { d = d, check = check, notices = notices, bin = bin })
  command_checks()
  outline_checks()
  patch_checks()
  case_checks()
  local seed = tonumber(vim.env.DIFFABLE_NVIM_SEED or '') or 1
  local rounds = tonumber(vim.env.DIFFABLE_NVIM_ROUNDS or '') or 1000
  random_session(seed, rounds)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  failed = failed + 1
  out('FAIL exception: ' .. tostring(err))
end
out(string.format('%d passed, %d failed', passed, failed))
io.stdout:flush()
if failed == 0 and passed > 0 then
  vim.cmd('qall!')
else
  vim.cmd('cquit')
end
