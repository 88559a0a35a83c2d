vim9script
# Headless self-check of diffable.vim:
#   DIFFABLE_BIN=/path/to/diffable vim -Nu NONE -es -S protocol/clients/vim/selftest.vim
# Exit status 0 (qall!) when every check passes, 1 (cquit) otherwise. The
# report (PASS/FAIL and every check) goes to $DIFFABLE_VIM_LOG when set.

import './diffable.vim' as diffable

var log: list<string> = []
var failures = 0

def Check(what: string, actual: any, expected: any)
  if actual == expected
    add(log, 'ok   ' .. what)
  else
    failures += 1
    add(log, 'FAIL ' .. what .. ': got ' .. string(actual) .. ', expected ' .. string(expected))
  endif
enddef

def Item(id: string, text: string): dict<any>
  return {id: id, content: {text: text}}
enddef

# The daemon's visible snapshot as buffer lines.
def SnapshotLines(s: dict<any>, source: string): list<string>
  var lines: list<string> = []
  for section in diffable.Request(s, 'snapshot', {source: source}).sections
    lines += mapnew(section.items, (_, item) => diffable.ItemText(item))
  endfor
  return lines
enddef

def Run()
  var bin = $DIFFABLE_BIN
  if bin == '' || !executable(bin)
    throw 'set $DIFFABLE_BIN to the diffable binary (got "' .. bin .. '")'
  endif
  var s = diffable.Start([bin])
  var buf = bufadd('diffable://people')
  bufload(buf)
  diffable.Attach(s, 'people', buf)
  Check('empty before the first apply', getbufline(buf, 1, '$'), [''])

  # 1. Inserts: two sections, the first empty.
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'added', items: []},
    {id: 'list', items: [Item('grace', 'Grace'), Item('liam', 'Liam'), Item('ava', 'Ava'), Item('ruby', 'Ruby')]}]})
  Check('apply 1', getbufline(buf, 1, '$'), ['Grace', 'Liam', 'Ava', 'Ruby'])
  Check('apply 1 = snapshot', getbufline(buf, 1, '$'), SnapshotLines(s, 'people'))

  # 2. A move across sections, a move with a content change, a delete, an insert.
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'added', items: [Item('grace', 'Grace')]},
    {id: 'list', items: [Item('ava', 'Ava Grace'), Item('liam', 'Liam'), Item('noah', 'Noah')]}]})
  Check('apply 2', getbufline(buf, 1, '$'), ['Grace', 'Ava Grace', 'Liam', 'Noah'])
  Check('apply 2 = snapshot', getbufline(buf, 1, '$'), SnapshotLines(s, 'people'))

  # 3. Section moves, a new section, rows moving between surviving sections, a reload.
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'list', items: [Item('noah', 'Noah'), Item('liam', 'Liam Thomas')]},
    {id: 'extra', header: 'More', items: [Item('zoe', 'Zoe'), Item('ruby', 'Ruby')]},
    {id: 'added', items: [Item('grace', 'Grace'), Item('ava', 'Ava Grace')]}]})
  Check('apply 3', getbufline(buf, 1, '$'), ['Noah', 'Liam Thomas', 'Zoe', 'Ruby', 'Grace', 'Ava Grace'])
  Check('apply 3 = snapshot', getbufline(buf, 1, '$'), SnapshotLines(s, 'people'))

  # A search filtering two sections, then cleared.
  var result = diffable.Request(s, 'search', {source: 'people', query: 'r', sections: ['list', 'extra']})
  Check('search "r" counts', [result.search.matches, result.search.shown], [1, 1])
  Check('search "r"', getbufline(buf, 1, '$'), ['Ruby', 'Grace', 'Ava Grace'])
  Check('search "r" = snapshot', getbufline(buf, 1, '$'), SnapshotLines(s, 'people'))
  diffable.Request(s, 'search', {source: 'people', query: 'ru', sections: ['list', 'extra'],
    placeholder: Item('none', 'No results')})
  diffable.Request(s, 'search', {source: 'people', query: 'rux', sections: ['list', 'extra'],
    placeholder: Item('none', 'No results')})
  Check('search "rux": placeholder', getbufline(buf, 1, '$'), ['No results', 'Grace', 'Ava Grace'])
  diffable.Request(s, 'search', {source: 'people', query: ''})
  Check('search cleared', getbufline(buf, 1, '$'), ['Noah', 'Liam Thomas', 'Zoe', 'Ruby', 'Grace', 'Ava Grace'])

  # Deleting everything leaves an empty buffer; an error changes nothing.
  diffable.Request(s, 'apply', {source: 'people', sections: []})
  Check('apply []', getbufline(buf, 1, '$'), [''])
  var error = ''
  try
    diffable.Request(s, 'apply', {source: 'people', sections: [{id: 'a', items: ['x', 'x']}]})
  catch /^diffable:/
    error = matchstr(v:exception, '^diffable: -\?\d\+')
  endtry
  Check('duplicate ids rejected', error, 'diffable: -32602')
  Check('rejected apply changed nothing', getbufline(buf, 1, '$'), [''])

  # A second buffer attached to an existing source starts from its snapshot.
  diffable.Request(s, 'apply', {source: 'people', sections: [{id: 'list', items: [Item('a', 'A'), 'b']}]})
  var other = bufadd('diffable://people-2')
  bufload(other)
  diffable.Attach(s, 'people', other)
  Check('attach to an existing source', getbufline(other, 1, '$'), ['A', 'b'])
  diffable.Stop(s)
  Check('daemon exit status', job_info(s.job).exitval, 0)
enddef

try
  Run()
catch
  failures += 1
  add(log, 'FAIL exception: ' .. v:exception .. ' at ' .. v:throwpoint)
endtry
insert(log, failures == 0 ? 'PASS' : printf('FAIL (%d)', failures))
if $DIFFABLE_VIM_LOG != ''
  writefile(log, $DIFFABLE_VIM_LOG)
endif
if failures == 0
  qall!
else
  cquit
endif
