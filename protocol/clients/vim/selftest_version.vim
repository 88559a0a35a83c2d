vim9script
# The version checks of selftest.vim: `version` is ServerVersion.swift's, and
# Start warns once (WarningMsg, in :messages) when the daemon's initialize
# answer names another MAJOR.MINOR. The stand-in daemon is the Python client's
# tests/fake_server.py (--server-version V), which reads Vim's LSP framing.

import './diffable.vim' as diffable

const here = expand('<sfile>:p:h')
const root = fnamemodify(here, ':h:h:h')
const fake = root .. '/protocol/clients/python/tests/fake_server.py'

# The messages a session with `cmd` left, from its start to its stop.
def Said(cmd: list<string>): list<string>
  messages clear
  var s = diffable.Start(cmd)
  diffable.Stop(s)
  return filter(split(execute('messages'), "\n"), (_, line) => line =~ '^diffable: ')
enddef

def Fake(server_version: string): list<string>
  return Said([fake, '--server-version', server_version])
enddef

export def Checks(Check: func(string, any, any), bin: string)
  var swift = join(readfile(root .. '/Sources/DiffableServer/Server/ServerVersion.swift'), "\n")
  Check('version is ServerVersion.swift''s', diffable.version, matchlist(swift, 'static let version = "\([^"]\+\)"')[1])
  Check('MajorMinor', mapnew(['0.1.0', '12.34.5-beta', '1.2', '0', 'v1.2'], (_, v) => diffable.MajorMinor(v)),
    [[0, 1], [12, 34], [1, 2], [], []])
  var [major, minor, patch] = mapnew(split(diffable.version, '\.'), (_, n) => str2nr(n))
  var other = printf('%d.%d.0', major, minor + 1)
  var seen = Fake(other)
  Check('another minor: one warning', len(seen), 1)
  var msg = get(seen, 0, '')
  Check('the warning names both versions and the daemon', [stridx(msg, 'version ' .. other) >= 0,
    stridx(msg, 'client is ' .. diffable.version) >= 0, stridx(msg, fake) >= 0], [true, true, true])
  Check('another major: one warning', len(Fake(printf('%d.%d.%d', major + 1, minor, patch))), 1)
  for quiet in [printf('%d.%d.%d', major, minor, patch + 7), '0', 'unknown']
    Check('no warning for ' .. quiet, Fake(quiet), [])
  endfor
  Check('no warning for the real daemon', Said([bin]), [])
enddef
