-- RFC 6902 JSON Patch on content decoded by vim.json, as the daemon applies it
-- (protocol/README.md, "Field-level updates"): what `updates: "patch"` rows
-- carry and what `patch_content` sends. Pointers (RFC 6901): "" is the whole
-- value, else "/"-separated tokens with ~1 = "/" and ~0 = "~"; array indices
-- are "0" or digits without a leading zero; "-" is the end of an array (for
-- add). Arrays are Lua lists (an empty one has no metatable), objects tables
-- with string keys (an empty one is vim.empty_dict()); null is vim.NIL.
-- `test` compares by value, objects unordered. Iterative: no recursion.

local M = {}

local function is_array(t)
  return type(t) == 'table' and getmetatable(t) == nil and vim.tbl_islist(t)
end

local function is_object(t)
  return type(t) == 'table' and not is_array(t)
end

-- The unescaped tokens of a pointer; nil and a message when it is not one.
function M.parse_pointer(pointer)
  if pointer == '' then return {} end
  if type(pointer) ~= 'string' or pointer:sub(1, 1) ~= '/' then return nil, 'not a JSON Pointer: ' .. tostring(pointer) end
  local tokens = {}
  for raw in (pointer:sub(2) .. '/'):gmatch('([^/]*)/') do
    if raw:gsub('~[01]', ''):find('~', 1, true) then return nil, pointer .. ': ~ must be ~0 or ~1' end
    table.insert(tokens, (raw:gsub('~1', '/'):gsub('~0', '~')))
  end
  return tokens
end

function M.escape(token)
  return (token:gsub('~', '~0'):gsub('/', '~1'))
end

local function fail(message) error({ patch = message }, 0) end

-- A deep copy that keeps vim.NIL (userdata, which vim.deepcopy refuses in
-- 0.7) and the metatables that mark empty objects; iterative.
local function copy(value)
  if type(value) ~= 'table' then return value end
  local root = setmetatable({}, getmetatable(value))
  local pending = { { value, root } }
  while #pending > 0 do
    local src, dst = unpack(table.remove(pending))
    for k, v in pairs(src) do
      if type(v) == 'table' then
        dst[k] = setmetatable({}, getmetatable(v))
        table.insert(pending, { v, dst[k] })
      else
        dst[k] = v
      end
    end
  end
  return root
end

-- 0-based index `token` in a list of `length` elements; `end_ok`: "-" and length allowed (add).
local function index(token, length, end_ok)
  if token == '-' and end_ok then return length end
  if not (token == '0' or token:match('^[1-9][0-9]*$')) then fail(vim.inspect(token) .. ' is not an array index') end
  local i = tonumber(token)
  if i > length or (i == length and not end_ok) then fail('index ' .. i .. ' is out of range (' .. length .. ' elements)') end
  return i
end

local function get(doc, tokens, count)
  local value = doc
  for k = 1, count or #tokens do
    local token = tokens[k]
    if is_array(value) then
      value = value[index(token, #value, false) + 1]
    elseif is_object(value) then
      if value[token] == nil then fail('no member ' .. vim.inspect(token)) end
      value = value[token]
    else
      fail(vim.inspect(token) .. ': not inside an object or array')
    end
  end
  return value
end

local function parent_of(doc, tokens)
  local parent = get(doc, tokens, #tokens - 1)
  if type(parent) ~= 'table' then fail('the parent is neither an object nor an array') end
  return parent, tokens[#tokens]
end

local function add(doc, tokens, value)
  if #tokens == 0 then return value end
  local parent, last = parent_of(doc, tokens)
  if is_array(parent) then
    table.insert(parent, index(last, #parent, true) + 1, value)
  else
    parent[last] = value
  end
  return doc
end

local function remove(doc, tokens)
  if #tokens == 0 then fail('the whole value cannot be removed') end
  local parent, last = parent_of(doc, tokens)
  if is_array(parent) then return table.remove(parent, index(last, #parent, false) + 1) end
  if parent[last] == nil then fail('no member ' .. vim.inspect(last)) end
  local value = parent[last]
  parent[last] = nil
  return value
end

-- RFC 6902 `test` equality: numbers by value, objects unordered, arrays in order.
function M.equal(a, b)
  local pending = { { a, b } }
  while #pending > 0 do
    local x, y = unpack(table.remove(pending))
    if type(x) ~= 'table' or type(y) ~= 'table' then
      if x ~= y then return false end
    elseif is_array(x) ~= is_array(y) then
      return false
    else
      for k, v in pairs(x) do
        if y[k] == nil then return false end
        table.insert(pending, { v, y[k] })
      end
      for k in pairs(y) do if x[k] == nil then return false end end
    end
  end
  return true
end

-- `doc` (not modified) with the ops applied in order; nil and {index, message}
-- (index: 0-based, of the failing op) when one does not apply.
function M.apply(doc, patch)
  doc = copy(doc)
  for i, op in ipairs(patch) do
    local ok, err = pcall(function()
      local path, perr = M.parse_pointer(op.path)
      if not path then fail(perr) end
      if op.op == 'add' then
        doc = add(doc, path, copy(op.value))
      elseif op.op == 'remove' then
        remove(doc, path)
      elseif op.op == 'replace' then
        get(doc, path)
        if #path > 0 and is_array((parent_of(doc, path))) then
          local parent, last = parent_of(doc, path)
          parent[index(last, #parent, false) + 1] = copy(op.value)
        else
          doc = add(doc, path, copy(op.value))
        end
      elseif op.op == 'move' or op.op == 'copy' then
        local from, ferr = M.parse_pointer(op.from)
        if not from then fail(ferr) end
        local value = copy(get(doc, from))
        if op.op == 'move' then
          local prefix = #from <= #path
          for k = 1, #from do prefix = prefix and from[k] == path[k] end
          if prefix and #from < #path then fail('a value cannot move into its own child') end
          if prefix and #from == #path then return end
          value = remove(doc, from)
        end
        doc = add(doc, path, value)
      elseif op.op == 'test' then
        if not M.equal(get(doc, path), op.value) then fail('test failed at ' .. vim.inspect(op.path)) end
      else
        fail('unknown op ' .. vim.inspect(op.op))
      end
    end)
    if not ok then
      return nil, { index = i - 1, message = 'patch op ' .. (i - 1) .. ': ' .. (type(err) == 'table' and err.patch or tostring(err)) }
    end
  end
  return doc
end

return M
