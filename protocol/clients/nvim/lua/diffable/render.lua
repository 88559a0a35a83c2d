-- diffable.render: a source's visible snapshot as buffer lines.
--
-- A view keeps the model (sections of {id, content} items, headers, version,
-- selected ids, search highlights) and the buffer in step: every diff step
-- is one buffer edit on the lines it names; decorations (header highlight,
-- selection sign, match highlights) are extmarks redrawn from the model.
--
-- Layout: per section, one header line when the section has a header, then
-- one line per item (the item's text: a string content, the string member
-- "text" of an object content, else the id; newlines shown as spaces).

local api = vim.api
local jsonpatch = require('diffable.jsonpatch')

local M = {}

M.ns_header = api.nvim_create_namespace('diffable_header')
M.ns_match = api.nvim_create_namespace('diffable_match')

local function define_highlights()
  api.nvim_set_hl(0, 'DiffableHeader', { default = true, link = 'Title' })
  api.nvim_set_hl(0, 'DiffableMatch', { default = true, link = 'Search' })
  api.nvim_set_hl(0, 'DiffableSelected', { default = true, link = 'Visual' })
  api.nvim_set_hl(0, 'DiffableSelectedSign', { default = true, link = 'Special' })
end
define_highlights()
api.nvim_create_autocmd('ColorScheme', { callback = define_highlights })

M.select_sign = '●'

local function is_nil(v)
  return v == nil or v == vim.NIL
end

-- The text an item is drawn with.
function M.item_text(item)
  local content = item.content
  if type(content) == 'string' then
    return content
  elseif type(content) == 'table' and type(content.text) == 'string' then
    return content.text
  end
  return item.id
end

-- The text of a search field (protocol/methods/search.md, Fields) in a
-- content: a member name, or a JSON pointer (`/a/0/b~1c`); nil when it is
-- not a string there.
function M.field_text(content, field)
  local value = content
  if field:sub(1, 1) ~= '/' then
    value = type(content) == 'table' and content[field] or nil
  else
    for token in (field:sub(2) .. '/'):gmatch('(.-)/') do
      token = token:gsub('~1', '/'):gsub('~0', '~')
      if type(value) ~= 'table' then return nil end
      if (vim.islist or vim.tbl_islist)(value) and token:match('^%d+$') then
        value = value[tonumber(token) + 1]
      else
        value = value[token]
      end
    end
  end
  return type(value) == 'string' and value or nil
end

-- The ranges a highlight marks on the item's line: its `ranges`, or with
-- search fields those of the field whose text the line shows.
function M.line_ranges(h, item)
  if h.ranges then return h.ranges end
  local text = M.item_text(item)
  for _, f in ipairs(h.fields or {}) do
    if M.field_text(item.content, f.field) == text then return f.ranges end
  end
  return {}
end

-- The text of a header line (nil: the section has no header line).
function M.header_text(header)
  if is_nil(header) then return nil end
  if type(header) == 'string' then return header end
  if type(header) == 'table' then
    if type(header.title) == 'string' then return header.title end
    if type(header.text) == 'string' then return header.text end
  end
  return vim.json.encode(header)
end

local function line_of_text(text)
  return (text:gsub('[\n\r]', ' '))
end

M.marker_open, M.marker_closed = '▾ ', '▸ '

-- What an outline row (protocol/methods/outline.md) is drawn after: two
-- spaces per level, then `▾ `/`▸ ` for an item with children (expanded or
-- not), or two spaces for a leaf so its text lines up with its siblings'.
-- '' in a flat source (rows without `level`).
function M.outline_prefix(item)
  if item.level == nil then return '' end
  local mark = '  '
  if item.hasChildren then mark = item.expanded and M.marker_open or M.marker_closed end
  return string.rep('  ', item.level) .. mark
end

-- The whole line of an item: its outline prefix and its text.
function M.item_line(item)
  return M.outline_prefix(item) .. line_of_text(M.item_text(item))
end

-- Items as the protocol writes them: a bare id string or {id, content?}; rows
-- of outlines also carry level, parent, hasChildren and expanded. Under
-- `updates: "patch"` a row the model holds (`held`) may carry `patch` in place
-- of `content`: the content is then the patch applied to what `held` had.
local function item_of(raw, held)
  if type(raw) == 'string' then return { id = raw } end
  if raw.id == nil and held then
    -- A row of a patch run names no id: it keeps the held item, content patched.
    local row = {}
    for k, v in pairs(held) do row[k] = v end
    row.content, row.patch = nil, raw.patch
    raw = row
  end
  local item = { id = raw.id }
  if not is_nil(raw.content) then item.content = raw.content end
  if type(raw.patch) == 'table' then
    if not (held and held.content ~= nil) then
      error('diff does not fit the buffer: a patch for ' .. tostring(raw.id) .. ', whose content is not held', 0)
    end
    local content, err = jsonpatch.apply(held.content, raw.patch)
    if err then error('diff does not fit the buffer: the patch of ' .. tostring(raw.id) .. ' does not apply: ' .. err.message, 0) end
    item.content = content
  end
  if type(raw.level) == 'number' then item.level = raw.level end
  if type(raw.parent) == 'string' then item.parent = raw.parent end
  if raw.hasChildren == true then item.hasChildren = true end
  if raw.expanded == true then item.expanded = true end
  return item
end
M.item_of = item_of

local function section_of(raw)
  local s = { id = raw.id, items = {} }
  if not is_nil(raw.header) then s.header = raw.header end
  for i, item in ipairs(raw.items or {}) do s.items[i] = item_of(item) end
  return s
end

function M.new_view(source, buf)
  return { source = source, buf = buf, sections = {}, version = 0, selected = {},
           selected_rows = nil, highlights = {}, query = '' }
end

-- Buffer setup: a scratch buffer nobody types into.
function M.setup_buffer(buf)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'diffable'
end

local function nlines(view)
  local n = 0
  for _, s in ipairs(view.sections) do
    n = n + #s.items + (s.header ~= nil and 1 or 0)
  end
  return n
end

-- 0-based line of section si's first line (its header when it has one).
local function section_start(view, si)
  local line = 0
  for j = 1, si do
    local s = view.sections[j]
    line = line + #s.items + (s.header ~= nil and 1 or 0)
  end
  return line
end

-- 0-based line of row `row` of section `si` (both 0-based).
function M.row_line(view, si, row)
  local s = view.sections[si + 1]
  return section_start(view, si) + (s.header ~= nil and 1 or 0) + row
end

local function section_lines(s)
  local lines = {}
  if s.header ~= nil then table.insert(lines, line_of_text(M.header_text(s.header))) end
  for _, item in ipairs(s.items) do table.insert(lines, M.item_line(item)) end
  return lines
end

local function item_lines(items)
  local lines = {}
  for i, item in ipairs(items) do lines[i] = M.item_line(item) end
  return lines
end

-- Buffer edits. `total` is the model's line count before the edit: an empty
-- model is shown as a buffer with one empty line.
local function buf_insert(view, total, line, lines)
  if #lines == 0 then return end
  if total == 0 then
    api.nvim_buf_set_lines(view.buf, 0, -1, false, lines)
  else
    api.nvim_buf_set_lines(view.buf, line, line, false, lines)
  end
end

local function buf_delete(view, line, count)
  if count > 0 then api.nvim_buf_set_lines(view.buf, line, line + count, false, {}) end
end

local function check(cond, what)
  if not cond then error('diff does not fit the buffer: ' .. what, 0) end
end

-- One step of the sequential form (protocol/README.md, "Steps form"), on the
-- model and, when `draw`, on the buffer.
local function apply_step(view, step, draw)
  local op, S = step.op, view.sections
  local total = draw and nlines(view) or 0
  if op == 'deleteItems' then
    local s = S[step.section + 1]
    check(s and step.at + step.count <= #s.items, 'deleteItems')
    if draw then buf_delete(view, M.row_line(view, step.section, step.at), step.count) end
    for _ = 1, step.count do table.remove(s.items, step.at + 1) end
  elseif op == 'deleteSections' then
    check(step.at + step.count <= #S, 'deleteSections')
    local first, count = section_start(view, step.at), 0
    for _ = 1, step.count do
      local s = table.remove(S, step.at + 1)
      count = count + #s.items + (s.header ~= nil and 1 or 0)
    end
    if draw then buf_delete(view, first, count) end
  elseif op == 'moveSection' then
    check(S[step.from + 1] and step.to <= #S - 1, 'moveSection')
    local first = section_start(view, step.from)
    local s = table.remove(S, step.from + 1)
    local lines = section_lines(s)
    if draw then buf_delete(view, first, #lines) end
    table.insert(S, step.to + 1, s)
    if draw then buf_insert(view, total - #lines, section_start(view, step.to), lines) end
  elseif op == 'insertSections' then
    check(step.at <= #S, 'insertSections')
    local lines = {}
    for k, raw in ipairs(step.sections) do
      local s = section_of(raw)
      table.insert(S, step.at + k, s)
      vim.list_extend(lines, section_lines(s))
    end
    if draw then buf_insert(view, total, section_start(view, step.at), lines) end
  elseif op == 'reloadSection' then
    local s = S[step.at + 1]
    check(s, 'reloadSection')
    local line = section_start(view, step.at)
    local had = s.header ~= nil
    s.header = (not is_nil(step.header)) and step.header or nil
    if draw then
      if had and s.header ~= nil then
        api.nvim_buf_set_lines(view.buf, line, line + 1, false, { line_of_text(M.header_text(s.header)) })
      elseif had then
        buf_delete(view, line, 1)
      elseif s.header ~= nil then
        buf_insert(view, total, line, { line_of_text(M.header_text(s.header)) })
      end
    end
  elseif op == 'moveItem' then
    local from, to = S[step.from[1] + 1], S[step.to[1] + 1]
    check(from and to and from.items[step.from[2] + 1], 'moveItem from')
    local line = M.row_line(view, step.from[1], step.from[2])
    local item = table.remove(from.items, step.from[2] + 1)
    if step.item then item = item_of(step.item, item) end
    check(step.to[2] <= #to.items, 'moveItem to')
    if draw then buf_delete(view, line, 1) end
    table.insert(to.items, step.to[2] + 1, item)
    if draw then buf_insert(view, total - 1, M.row_line(view, step.to[1], step.to[2]), item_lines({ item })) end
  elseif op == 'insertItems' then
    local s = S[step.section + 1]
    check(s and step.at <= #s.items, 'insertItems')
    local items = {}
    for k, raw in ipairs(step.items) do
      items[k] = item_of(raw)
      table.insert(s.items, step.at + k, items[k])
    end
    if draw then buf_insert(view, total, M.row_line(view, step.section, step.at), item_lines(items)) end
  elseif (op == 'reloadItems' or op == 'reconfigureItems') and step.rows then
    -- A patch run (updates "patch"): patches[k] patches the content of row rows[k].
    local s = S[step.section + 1]
    check(s and type(step.patches) == 'table' and #step.rows == #step.patches, op)
    for k, r in ipairs(step.rows) do
      check(s.items[r + 1], op)
      local item = item_of({ patch = step.patches[k] }, s.items[r + 1])
      s.items[r + 1] = item
      if draw then
        local line = M.row_line(view, step.section, r)
        api.nvim_buf_set_lines(view.buf, line, line + 1, false, item_lines({ item }))
      end
    end
  elseif op == 'reloadItems' or op == 'reconfigureItems' then
    local s = S[step.section + 1]
    check(s and step.at + #step.items <= #s.items, op)
    local items = {}
    for k, raw in ipairs(step.items) do
      items[k] = item_of(raw, s.items[step.at + k])
      s.items[step.at + k] = items[k]
    end
    if draw then
      local line = M.row_line(view, step.section, step.at)
      api.nvim_buf_set_lines(view.buf, line, line + #items, false, item_lines(items))
    end
  else
    error('unknown step ' .. tostring(op), 0)
  end
end

local function copy_model(sections)
  local out = {}
  for i, s in ipairs(sections) do
    out[i] = { id = s.id, header = s.header, items = { unpack(s.items) } }
  end
  return out
end

-- Turns a batch (UIKit semantics, protocol/README.md "Replaying a batch")
-- into sequential steps on `sections`: reloads (old coordinates), row deletes
-- and moves out (descending), section deletes (descending), sections placed
-- at their new indices in ascending order, rows inserted and moved in
-- (ascending). Moves become a delete plus an insert of the same item.
function M.batch_to_steps(sections, batch)
  local steps = {}
  local work = { sections = copy_model(sections) }
  local function emit(step)
    apply_step(work, step, false)
    table.insert(steps, step)
  end
  local bs, bi = batch.sections or {}, batch.items or {}
  -- old section index -> identity tag (its old index), kept through the steps
  for i, s in ipairs(work.sections) do s.tag = i - 1 end
  -- 1. reloads and reconfigures, header reloads: old coordinates
  for _, key in ipairs({ 'reload', 'reconfigure' }) do
    for _, r in ipairs(bi[key] or {}) do
      if r.rows then
        emit({ op = 'reloadItems', section = r.section, rows = r.rows, patches = r.patches })
      else
        emit({ op = 'reloadItems', section = r.section, at = r.at, items = r.items })
      end
    end
  end
  for _, r in ipairs(bs.reload or {}) do
    emit({ op = 'reloadSection', at = r.at, header = r.header })
  end
  -- 2. rows deleted or moved out, per old section, descending
  local gone = {}
  local function mark(sec, row)
    gone[sec] = gone[sec] or {}
    gone[sec][row] = true
  end
  for _, d in ipairs(bi.delete or {}) do
    for _, range in ipairs(d.ranges) do
      for r = range[1], range[1] + range[2] - 1 do mark(d.section, r) end
    end
  end
  local moved = {}
  for k, m in ipairs(bi.move or {}) do
    local s = work.sections[m.from[1] + 1]
    check(s and s.items[m.from[2] + 1], 'items.move from')
    moved[k] = m.item and item_of(m.item, s.items[m.from[2] + 1]) or s.items[m.from[2] + 1]
    mark(m.from[1], m.from[2])
  end
  for sec, rows in pairs(gone) do
    local list = {}
    for r in pairs(rows) do table.insert(list, r) end
    table.sort(list, function(a, b) return a > b end)
    local i = 1
    while i <= #list do -- runs of consecutive rows, highest first
      local j = i
      while list[j + 1] == list[j] - 1 do j = j + 1 end
      emit({ op = 'deleteItems', section = sec, at = list[j], count = j - i + 1 })
      i = j + 1
    end
  end
  -- 3. sections deleted, descending
  local deletes = {}
  for _, d in ipairs(bs.delete or {}) do table.insert(deletes, d) end
  table.sort(deletes, function(a, b) return a[1] > b[1] end)
  for _, d in ipairs(deletes) do emit({ op = 'deleteSections', at = d[1], count = d[2] }) end
  -- 4. the new section list: inserted and moved sections at their new
  -- indices, the remaining ones fill the other slots in old order
  local fixed, moved_tags, count = {}, {}, #work.sections
  for _, m in ipairs(bs.move or {}) do
    fixed[m.to] = { tag = m.from, header = m.header, has_header = m.header ~= nil }
    moved_tags[m.from] = true
  end
  for _, run in ipairs(bs.insert or {}) do
    for k, sec in ipairs(run.sections) do
      fixed[run.at + k - 1] = { insert = sec }
      count = count + 1
    end
  end
  local remaining = {}
  for _, s in ipairs(work.sections) do
    if not moved_tags[s.tag] then table.insert(remaining, s.tag) end
  end
  local next_remaining = 1
  for i = 0, count - 1 do
    local want = fixed[i]
    if not want then
      want = { tag = remaining[next_remaining] }
      next_remaining = next_remaining + 1
    end
    if want.insert then
      emit({ op = 'insertSections', at = i, sections = { want.insert } })
    else
      local p
      for j = i + 1, #work.sections do
        if work.sections[j].tag == want.tag then p = j - 1 break end
      end
      check(p, 'section placement')
      if p ~= i then emit({ op = 'moveSection', from = p, to = i }) end
      if want.has_header then emit({ op = 'reloadSection', at = i, header = want.header }) end
    end
  end
  -- 5. rows inserted and moved in, per new section, ascending
  local arriving = {}
  local function place(sec, row, item)
    arriving[sec] = arriving[sec] or {}
    arriving[sec][row] = item
  end
  for _, run in ipairs(bi.insert or {}) do
    for k, item in ipairs(run.items) do place(run.section, run.at + k - 1, item_of(item)) end
  end
  for k, m in ipairs(bi.move or {}) do place(m.to[1], m.to[2], moved[k]) end
  for sec, rows in pairs(arriving) do
    local list = {}
    for r in pairs(rows) do table.insert(list, r) end
    table.sort(list)
    local i = 1
    while i <= #list do -- runs of consecutive rows, lowest first
      local j, items = i, { rows[list[i]] }
      while list[j + 1] == list[j] + 1 do
        j = j + 1
        table.insert(items, rows[list[j]])
      end
      emit({ op = 'insertItems', section = sec, at = list[i], items = items })
      i = j + 1
    end
  end
  return steps
end

-- Decorations ---------------------------------------------------------------

local function with_modifiable(buf, fn)
  vim.bo[buf].modifiable = true
  local ok, err = pcall(fn)
  vim.bo[buf].modifiable = false
  if not ok then error(err, 0) end
end

local function redraw_headers(view)
  api.nvim_buf_clear_namespace(view.buf, M.ns_header, 0, -1)
  local line = 0
  for _, s in ipairs(view.sections) do
    if s.header ~= nil then
      api.nvim_buf_set_extmark(view.buf, M.ns_header, line, 0, {
        end_row = line + 1, end_col = 0, hl_group = 'DiffableHeader', hl_eol = true })
      line = line + 1
    end
    line = line + #s.items
  end
end

-- Selected rows: a sign (M.select_sign, DiffableSelectedSign) and a line
-- highlight (DiffableSelected), placed in the sign group "diffable".
M.sign_group = 'diffable'
M.sign_name = 'DiffableSelected'
local sign_defined = false

local function redraw_selection(view)
  if not sign_defined then
    vim.fn.sign_define(M.sign_name, { text = M.select_sign, texthl = 'DiffableSelectedSign',
                                      linehl = 'DiffableSelected' })
    sign_defined = true
  end
  vim.fn.sign_unplace(M.sign_group, { buffer = view.buf })
  if next(view.selected) == nil then return end
  local list, line = {}, 0
  for _, s in ipairs(view.sections) do
    if s.header ~= nil then line = line + 1 end
    for _, item in ipairs(s.items) do
      if view.selected[item.id] then
        table.insert(list, { buffer = view.buf, group = M.sign_group, name = M.sign_name, lnum = line + 1 })
      end
      line = line + 1
    end
  end
  if #list > 0 then vim.fn.sign_placelist(list) end
end

-- 0-based lines of the selected rows' signs (for tests).
function M.selection_lines(buf)
  local rows = {}
  local placed = vim.fn.sign_getplaced(buf, { group = M.sign_group })
  for _, sign in ipairs(placed[1] and placed[1].signs or {}) do
    if sign.name == M.sign_name then table.insert(rows, sign.lnum - 1) end
  end
  table.sort(rows)
  return rows
end

local new_byteindex = vim.fn.has('nvim-0.11') == 1 -- str_byteindex(s, encoding, index, strict)

local function byte_col(text, scalar)
  local ok, col
  if new_byteindex then
    ok, col = pcall(vim.str_byteindex, text, 'utf-32', scalar, false)
  else
    ok, col = pcall(vim.str_byteindex, text, scalar)
  end
  if ok then return col end
  return #text
end

local function redraw_matches(view)
  api.nvim_buf_clear_namespace(view.buf, M.ns_match, 0, -1)
  for _, h in ipairs(view.highlights) do
    local si, row = h.path[1], h.path[2]
    local s = view.sections[si + 1]
    local item = s and s.items[row + 1]
    if item and item.id == h.id then
      local text = M.item_text(item)
      local line = M.row_line(view, si, row)
      local shift = #M.outline_prefix(item) -- bytes before the text on the line
      for _, range in ipairs(M.line_ranges(h, item)) do
        local first = byte_col(text, range[1]) + shift
        local last = byte_col(text, range[1] + range[2]) + shift
        if last > first then
          api.nvim_buf_set_extmark(view.buf, M.ns_match, line, first, {
            end_row = line, end_col = last, hl_group = 'DiffableMatch' })
        end
      end
    end
  end
end

function M.redraw_marks(view)
  redraw_headers(view)
  redraw_selection(view)
  redraw_matches(view)
end

-- Draws a snapshot result (or nothing: an empty source).
function M.load(view, snap)
  view.sections, view.version, view.highlights = {}, 0, {}
  if snap then
    for i, raw in ipairs(snap.sections or {}) do view.sections[i] = section_of(raw) end
    view.version = snap.version or 0
  end
  local lines = {}
  for _, s in ipairs(view.sections) do vim.list_extend(lines, section_lines(s)) end
  with_modifiable(view.buf, function() api.nvim_buf_set_lines(view.buf, 0, -1, false, lines) end)
  M.redraw_marks(view)
end

function M.reset(view)
  view.selected, view.query = {}, ''
  M.load(view, nil)
end

-- Applies a change result: its steps (or batch), selection delta, search
-- state and highlights.
function M.apply_result(view, result, is_search)
  local steps = result.steps
  if not steps and result.batch then
    steps = M.batch_to_steps(view.sections, result.batch)
  end
  if steps and #steps > 0 then
    with_modifiable(view.buf, function()
      for _, step in ipairs(steps) do apply_step(view, step, true) end
    end)
    view.highlights = {} -- stale paths: a search result brings new ones, else the session asks again
  end
  if result.version then view.version = result.version end
  local sel = result.selection
  if type(sel) == 'table' then
    for _, change in ipairs(sel.deselected or {}) do view.selected[change.id] = nil end
    for _, key in ipairs({ 'selected', 'kept', 'rows' }) do
      for _, change in ipairs(sel[key] or {}) do view.selected[change.id] = true end
    end
  end
  if is_search then
    view.query = result.search and result.search.query or view.query
    view.highlights = {}
    for _, h in ipairs(result.highlights or {}) do table.insert(view.highlights, h) end
  end
  M.redraw_marks(view)
end

-- Highlights of one visible section, from a `highlights` response.
function M.set_section_highlights(view, si, list)
  local kept = {}
  for _, h in ipairs(view.highlights) do
    if h.path[1] ~= si then table.insert(kept, h) end
  end
  for _, h in ipairs(list) do table.insert(kept, h) end
  view.highlights = kept
  redraw_matches(view)
end

-- The model as plain data: {sections = [{id, header?, items = [{id, content?}]}], selected = sorted ids}.
function M.model(view)
  local sections = {}
  for i, s in ipairs(view.sections) do
    sections[i] = { id = s.id, header = s.header, items = s.items }
  end
  local selected = {}
  for id in pairs(view.selected) do table.insert(selected, id) end
  table.sort(selected)
  return { version = view.version, sections = sections, selected = selected }
end

-- The lines the model should show (for tests).
function M.expected_lines(sections)
  local lines = {}
  for _, raw in ipairs(sections) do vim.list_extend(lines, section_lines(section_of(raw))) end
  return lines
end

return M
