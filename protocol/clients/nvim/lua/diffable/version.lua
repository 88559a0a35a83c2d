-- This plugin's version, and the check of the daemon's. Daemon and packages
-- share one version number (Sources/DiffableServer/Server/ServerVersion.swift);
-- a daemon of another MAJOR.MINOR may answer with members this client does not
-- know, or miss ones it expects, so `start` says so once (vim.notify, WARN).
-- A different PATCH changes no message and says nothing.

local M = {}

M.version = '0.1.0'

-- {MAJOR, MINOR} of a version such as '0.1.0' or '1.2.3-beta', or nil when it
-- does not start with two dot-separated numbers.
function M.major_minor(text)
  if type(text) ~= 'string' then return nil end
  local major, minor = text:match('^(%d+)%.(%d+)')
  if not major then return nil end
  return { tonumber(major), tonumber(minor) }
end

-- The warning for an `initialize` answer's serverInfo, or nil. A daemon whose
-- version cannot be read as MAJOR.MINOR (or that sends no serverInfo) gets
-- none: there is nothing reliable to compare.
function M.warning(server_info, daemon, client_version)
  client_version = client_version or M.version
  local said = type(server_info) == 'table' and server_info.version or nil
  local theirs, ours = M.major_minor(said), M.major_minor(client_version)
  if not theirs or not ours or (theirs[1] == ours[1] and theirs[2] == ours[2]) then return nil end
  return string.format('diffable: the daemon %s is version %s and this Neovim client is %s: a daemon and a '
    .. 'client of another MAJOR.MINOR may not understand each other. Use the daemon that came with this '
    .. 'plugin (the release archive\'s bin/diffable), or point $DIFFABLE_BIN or `bin` at a %d.%d.x daemon.',
    daemon, said, client_version, ours[1], ours[2])
end

return M
