-- diffable.nvim commands (Neovim 0.7+). See lua/diffable/init.lua for the Lua API.
if vim.g.loaded_diffable then return end
vim.g.loaded_diffable = true

local function cmd(name, opts, fn)
  vim.api.nvim_create_user_command(name, function(a)
    require('diffable.commands').guard(fn)(a)
  end, opts)
end

cmd('DiffableOpen', { nargs = '+', complete = 'file', desc = 'diffable: [bin] source' }, function(a)
  require('diffable.commands').open(a.fargs)
end)
cmd('DiffableApply', { nargs = '+', desc = 'diffable: apply {json}' }, function(a)
  require('diffable.commands').apply(a.args)
end)
cmd('DiffableEdit', { nargs = '+', desc = 'diffable: edit {json ops}' }, function(a)
  require('diffable.commands').edit(a.args)
end)
cmd('DiffableSearch', { nargs = '*', desc = 'diffable: [--sections a,b] [--fuzzy] query' }, function(a)
  require('diffable.commands').search(a.args)
end)
cmd('DiffableSelect', { nargs = '+', desc = 'diffable: [--deselect|--toggle|--clear] id…' }, function(a)
  require('diffable.commands').select(a.fargs)
end)
cmd('DiffableToggle', { nargs = 0, bang = true, desc = 'diffable: expand/collapse the row under the cursor (!: recursively)' }, function(a)
  require('diffable.commands').toggle(a.bang)
end)
cmd('DiffableStop', { nargs = 0, desc = 'diffable: stop the daemon' }, function()
  require('diffable.commands').stop()
end)

vim.api.nvim_create_autocmd('VimLeavePre', {
  callback = function()
    local ok, d = pcall(require, 'diffable')
    local s = ok and d.session()
    if s then s:stop() end
  end,
})
