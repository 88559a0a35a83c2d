-- The version checks of test/run.lua: M.version is ServerVersion.swift's, and
-- `start` notifies once (WARN) when the daemon's initialize answer names
-- another MAJOR.MINOR. The stand-in daemon is the Python client's
-- tests/fake_server.py (--server-version V), which speaks newline JSON too.
-- Called with run.lua's helpers; needs no session running.
return function(t)
  local d, check, notices, bin = t.d, t.check, t.notices, t.bin
  local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h')
  local root = vim.fn.fnamemodify(here, ':h:h:h:h')
  local fake = root .. '/protocol/clients/python/tests/fake_server.py'

  local swift = table.concat(vim.fn.readfile(root .. '/Sources/DiffableServer/Server/ServerVersion.swift'), '\n')
  check('version is ServerVersion.swift\'s', d.version, swift:match('static let version = "([^"]+)"'))
  local v = require('diffable.version')
  check('major_minor', { v.major_minor('0.1.0'), v.major_minor('12.34.5-beta'), v.major_minor('1.2'),
    v.major_minor('0'), v.major_minor('v1.2'), v.major_minor(nil) }, { { 0, 1 }, { 12, 34 }, { 1, 2 } })

  local major, minor, patch = d.version:match('^(%d+)%.(%d+)%.(%d+)')
  major, minor, patch = tonumber(major), tonumber(minor), tonumber(patch)
  -- what vim.notify said while a session with a daemon answering `server_version` started and stopped
  local function said(server_version, daemon)
    return notices(function()
      local s, err = d.start({ bin = daemon or fake, args = server_version and { '--server-version', server_version } or nil })
      assert(s, err and err.message)
      s:stop()
    end)
  end

  local other = string.format('%d.%d.0', major, minor + 1)
  local seen = said(other)
  check('another minor: one WARN notice', vim.tbl_map(function(n) return n.level end, seen), { vim.log.levels.WARN })
  local msg = seen[1] and seen[1].msg or ''
  check('the notice names both versions and the daemon', { msg:find('version ' .. other, 1, true) ~= nil,
    msg:find('client is ' .. d.version, 1, true) ~= nil, msg:find(fake, 1, true) ~= nil }, { true, true, true })
  check('another major: one notice', #said(string.format('%d.%d.%d', major + 1, minor, patch)), 1)
  for _, quiet in ipairs({ string.format('%d.%d.%d', major, minor, patch + 7), '0', 'unknown' }) do
    check('no notice for ' .. quiet, said(quiet), {})
  end
  check('no notice for the real daemon', said(nil, bin), {})
end
