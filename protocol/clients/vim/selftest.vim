vim9script
# Headless self-check of diffable.vim:
#   DIFFABLE_BIN=/path/to/diffable vim -Nu NONE -es -S protocol/clients/vim/selftest.vim
# Exit status 0 (qall!) when every check passes, 1 (cquit) otherwise. The
# report (PASS/FAIL, every check, then "N passed, M failed") goes to
# $DIFFABLE_VIM_LOG when set. $DIFFABLE_VIM_SEED / $DIFFABLE_VIM_ROUNDS drive
# the random session (default 1 / 300).

import './diffable.vim' as diffable
import './selftest_version.vim' as versiontest

const here = expand('<sfile>:p:h')

var log: list<string> = []
var failures = 0
var passes = 0

def Check(what: string, actual: any, expected: any)
  if type(actual) == type(expected) && actual == expected
    passes += 1
    add(log, 'ok   ' .. what)
  else
    failures += 1
    add(log, 'FAIL ' .. what .. ': got ' .. string(actual) .. ', expected ' .. string(expected))
  endif
enddef

def Item(id: string, text: string): dict<any>
  return {id: id, content: {text: text}}
enddef

def Lines(buf: number): list<string>
  return getbufline(buf, 1, '$')
enddef

# The daemon's visible snapshot as buffer lines.
def SnapshotLines(s: dict<any>, source: string): list<string>
  var lines = diffable.ExpectedLines(diffable.Request(s, 'snapshot', {source: source}).sections)
  return empty(lines) ? [''] : lines
enddef

# [lnum, col, length] of every text property `type` in `buf`.
def Props(buf: number, type: string): list<any>
  var found: list<any> = []
  for lnum in range(1, len(getbufline(buf, 1, '$')))
    for p in prop_list(lnum, {bufnr: buf, types: [type]})
      add(found, [lnum, p.col, p.length])
    endfor
  endfor
  return found
enddef

# Runs an Ex command as a user would; an exception escaping it is a failure.
def Cmd(command: string): string
  try
    execute command
  catch
    return 'EXCEPTION ' .. v:exception
  endtry
  return diffable.LastError()
enddef

def ApiChecks(bin: string)
  var s = diffable.Start([bin])
  var buf = bufadd('diffable://people')
  bufload(buf)
  setbufvar(buf, '&buftype', 'nofile')
  diffable.Attach(s, 'people', buf)
  Check('empty before the first apply', Lines(buf), [''])
  Check('attached buffer is nomodifiable', getbufvar(buf, '&modifiable'), false)

  # 1. Inserts: two sections, the first empty.
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'added', items: []},
    {id: 'list', items: [Item('grace', 'Grace'), Item('liam', 'Liam'), Item('ava', 'Ava'), Item('ruby', 'Ruby')]}]})
  Check('apply 1', Lines(buf), ['Grace', 'Liam', 'Ava', 'Ruby'])
  Check('apply 1 = snapshot', Lines(buf), SnapshotLines(s, 'people'))
  Check('still nomodifiable after a diff', getbufvar(buf, '&modifiable'), false)

  # 2. A move across sections, a move with a content change, a delete, an insert.
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'added', items: [Item('grace', 'Grace')]},
    {id: 'list', items: [Item('ava', 'Ava Grace'), Item('liam', 'Liam'), Item('noah', 'Noah')]}]})
  Check('apply 2', Lines(buf), ['Grace', 'Ava Grace', 'Liam', 'Noah'])
  Check('apply 2 = snapshot', Lines(buf), SnapshotLines(s, 'people'))

  # 3. Section moves, a new section with a header line, rows moving between sections, a reload.
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'list', items: [Item('noah', 'Noah'), Item('liam', 'Liam Thomas')]},
    {id: 'extra', header: 'More', items: [Item('zoe', 'Zoé'), Item('ruby', 'Ruby')]},
    {id: 'added', items: [Item('grace', 'Grace'), Item('ava', 'Ava Grace')]}]})
  Check('apply 3 (header line "More")', Lines(buf), ['Noah', 'Liam Thomas', 'More', 'Zoé', 'Ruby', 'Grace', 'Ava Grace'])
  Check('apply 3 = snapshot', Lines(buf), SnapshotLines(s, 'people'))
  Check('header text property', Props(buf, 'DiffableHeader'), [[3, 1, 4]])

  # Header changes: added, changed, removed.
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'list', header: {title: 'People'}, items: [Item('noah', 'Noah'), Item('liam', 'Liam Thomas')]},
    {id: 'extra', header: 'Extra', items: [Item('zoe', 'Zoé'), Item('ruby', 'Ruby')]},
    {id: 'added', items: [Item('grace', 'Grace'), Item('ava', 'Ava Grace')]}]})
  Check('headers added and changed', Lines(buf), ['People', 'Noah', 'Liam Thomas', 'Extra', 'Zoé', 'Ruby', 'Grace', 'Ava Grace'])
  Check('header properties', Props(buf, 'DiffableHeader'), [[1, 1, 6], [4, 1, 5]])
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'extra', items: [Item('zoe', 'Zoé'), Item('ruby', 'Ruby')]},
    {id: 'list', header: {title: 'People'}, items: [Item('noah', 'Noah'), Item('liam', 'Liam Thomas')]},
    {id: 'added', items: [Item('grace', 'Grace'), Item('ava', 'Ava Grace')]}]})
  Check('header removed, section moved', Lines(buf), ['Zoé', 'Ruby', 'People', 'Noah', 'Liam Thomas', 'Grace', 'Ava Grace'])
  Check('header property follows', Props(buf, 'DiffableHeader'), [[3, 1, 6]])

  # A search filtering two sections, its match properties (byte columns), then cleared.
  var result = diffable.Request(s, 'search', {source: 'people', query: 'r', sections: ['list', 'extra']})
  Check('search "r" counts', [result.search.matches, result.search.shown], [1, 1])
  Check('search "r"', Lines(buf), ['Ruby', 'People', 'Grace', 'Ava Grace'])
  Check('search "r" = snapshot', Lines(buf), SnapshotLines(s, 'people'))
  Check('search "r" match property', Props(buf, 'DiffableMatch'), [[1, 1, 1]])
  diffable.Request(s, 'search', {source: 'people', query: 'o', sections: ['extra', 'added']})
  Check('search "o" (Zoé)', Lines(buf), ['Zoé', 'People', 'Noah', 'Liam Thomas'])
  Check('search "o": match property', Props(buf, 'DiffableMatch'), [[1, 2, 1]])
  diffable.Request(s, 'search', {source: 'people', query: 'é', sections: ['extra']})
  Check('search "é": 2-byte match', Props(buf, 'DiffableMatch'), [[1, 3, 2]])
  # a change while the query is active: highlights are asked for again
  diffable.Request(s, 'apply', {source: 'people', sections: [
    {id: 'extra', items: [Item('ruby', 'Ruby'), Item('zoe', 'Zoé'), Item('ines', 'Inès Zoé')]},
    {id: 'list', header: {title: 'People'}, items: [Item('noah', 'Noah'), Item('liam', 'Liam Thomas')]},
    {id: 'added', items: [Item('grace', 'Grace'), Item('ava', 'Ava Grace')]}]})
  Check('apply under a search', Lines(buf), ['Zoé', 'Inès Zoé', 'People', 'Noah', 'Liam Thomas', 'Grace', 'Ava Grace'])
  Check('apply under a search: match properties', Props(buf, 'DiffableMatch'), [[1, 3, 2], [2, 3, 2]])
  diffable.Request(s, 'search', {source: 'people', query: 'ru', sections: ['list', 'extra'],
    placeholder: Item('none', 'No results')})
  diffable.Request(s, 'search', {source: 'people', query: 'rux', sections: ['list', 'extra'],
    placeholder: Item('none', 'No results')})
  Check('search "rux": placeholder', Lines(buf), ['No results', 'People', 'Grace', 'Ava Grace'])
  Check('search "rux": no match property', Props(buf, 'DiffableMatch'), [])
  # A search of fields: a line draws the ranges of the field whose text it shows.
  result = diffable.Request(s, 'search', {source: 'people', query: 'gr', mode: 'fuzzy', fields: ['nick', '/text'],
    sections: ['added']})
  Check('search of fields: highlights name the field', result.highlights[0].fields, [{field: '/text', ranges: [[0, 2]]}])
  Check('search of fields: match properties', Props(buf, 'DiffableMatch'), [[7, 1, 2], [8, 5, 2]])
  Check('FieldText: pointer, escaped token, member, missing', [diffable.FieldText({a: {b: ['x', 'y']}}, '/a/b/1'),
    diffable.FieldText({'c/d': 'e'}, '/c~1d'), diffable.FieldText({n: 'v'}, 'n'), diffable.FieldText('s', 'n')],
    ['y', 'e', 'v', v:null])
  diffable.Request(s, 'search', {source: 'people', query: ''})
  Check('search cleared', Lines(buf), ['Ruby', 'Zoé', 'Inès Zoé', 'People', 'Noah', 'Liam Thomas', 'Grace', 'Ava Grace'])

  # Deleting everything leaves an empty buffer; an error changes nothing.
  diffable.Request(s, 'apply', {source: 'people', sections: []})
  Check('apply []', Lines(buf), [''])
  var error = ''
  try
    diffable.Request(s, 'apply', {source: 'people', sections: [{id: 'a', items: ['x', 'x']}]})
  catch /^diffable:/
    error = matchstr(v:exception, '^diffable: -\?\d\+')
  endtry
  Check('duplicate ids rejected', error, 'diffable: -32602')
  Check('rejected apply changed nothing', Lines(buf), [''])

  # A second buffer attached to an existing source starts from its snapshot.
  diffable.Request(s, 'apply', {source: 'people', sections: [{id: 'list', header: 'H', items: [Item('a', 'A'), 'b']}]})
  var other = bufadd('diffable://people-2')
  bufload(other)
  diffable.Attach(s, 'people', other)
  Check('attach to an existing source', Lines(other), ['H', 'A', 'b'])
  Check('attach: header property', Props(other, 'DiffableHeader'), [[1, 1, 1]])
  diffable.Stop(s)
  Check('daemon exit status', job_info(s.job).exitval, 0)
  error = ''
  try
    diffable.Request(s, 'snapshot', {source: 'people'})
  catch
    error = v:exception
  endtry
  Check('request after Stop: not running (no E906)', error =~ '^diffable: stopped: the daemon is not running', true)
enddef

def CommandChecks(bin: string)
  # :DiffableOpen in a modified buffer: no E37, the buffer is kept.
  enew
  setline(1, 'unsaved text')
  var scratch = bufnr()
  Check('the current buffer is modified', &modified, true)
  Check(':DiffableOpen in a modified buffer', Cmd('DiffableOpen ' .. fnameescape(bin) .. ' fruit'), '')
  var fruit = bufnr()
  Check(':DiffableOpen: a new buffer', [fruit != scratch, bufname(fruit)], [true, 'diffable://fruit'])
  Check(':DiffableOpen: options', [&buftype, &modifiable, &swapfile], ['nofile', false, false])
  Check('the modified buffer is kept', getbufline(scratch, 1, '$'), ['unsaved text'])
  var job = diffable.Session().job

  Check(':DiffableApply', Cmd('DiffableApply {"sections": [{"id": "red", "header": "Red", "items": [{"id": "apple", "content": "Apple"}, {"id": "cherry", "content": "Cherry"}]}, {"id": "yellow", "header": {"title": "Yellow"}, "items": [{"id": "banana", "content": "Banana"}, {"id": "lemon", "content": {"text": "Lemon"}}]}]}'), '')
  Check(':DiffableApply: lines', Lines(fruit), ['Red', 'Apple', 'Cherry', 'Yellow', 'Banana', 'Lemon'])
  Check(':DiffableApply: header properties', Props(fruit, 'DiffableHeader'), [[1, 1, 3], [4, 1, 6]])
  Check(':DiffableApply: still nomodifiable', getbufvar(fruit, '&modifiable'), false)

  Check(':DiffableSearch --sections', Cmd('DiffableSearch --sections yellow an'), '')
  Check(':DiffableSearch --sections: lines', Lines(fruit), ['Red', 'Apple', 'Cherry', 'Yellow', 'Banana'])
  Check(':DiffableSearch --sections: match', Props(fruit, 'DiffableMatch'), [[5, 2, 2]])
  Check(':DiffableSearch --sections=a,b', Cmd('DiffableSearch --sections=red,yellow e'), '')
  Check(':DiffableSearch --sections=a,b: lines', Lines(fruit), ['Red', 'Apple', 'Cherry', 'Yellow', 'Lemon'])
  Check(':DiffableSearch (empty) clears', [Cmd('DiffableSearch'), Lines(fruit), Props(fruit, 'DiffableMatch')],
    ['', ['Red', 'Apple', 'Cherry', 'Yellow', 'Banana', 'Lemon'], []])

  # Errors are shown as messages, never as an uncaught exception (E605).
  Check(':DiffableApply bad params: -32602 message', Cmd('DiffableApply {"sections": 3}') =~ '^diffable: -32602: ', true)
  Check(':DiffableApply not JSON: usage message', Cmd('DiffableApply not json') =~ '^diffable: usage: ', true)
  Check(':DiffableSearch unknown section: 1003 message', Cmd('DiffableSearch --sections nope x') =~ '^diffable: 1003: ', true)
  Check(':DiffableSearch bad option: usage message', Cmd('DiffableSearch --bogus x') =~ '^diffable: usage: ', true)
  Check('errors changed nothing', Lines(fruit), ['Red', 'Apple', 'Cherry', 'Yellow', 'Banana', 'Lemon'])
  Check('the error went to the message history', execute('messages') =~ 'diffable: usage: :DiffableSearch', true)

  # A second :DiffableOpen reuses the daemon and keeps its state.
  enew
  setline(1, 'more unsaved text')
  Check('second :DiffableOpen', Cmd('DiffableOpen veg'), '')
  Check('second :DiffableOpen: same daemon', job_info(diffable.Session().job).process, job_info(job).process)
  var veg = bufnr()
  Check(':DiffableApply (list of sections) into veg', Cmd('DiffableApply [{"id": "greens", "items": ["kale", "chard"]}]'), '')
  Check('veg lines', Lines(veg), ['kale', 'chard'])
  Check('fruit kept its state', Lines(fruit), ['Red', 'Apple', 'Cherry', 'Yellow', 'Banana', 'Lemon'])
  Check(':DiffableOpen fruit again: same buffer', [Cmd('DiffableOpen fruit'), bufnr()], ['', fruit])
  Check(':DiffableOpen fruit again: lines', Lines(fruit), ['Red', 'Apple', 'Cherry', 'Yellow', 'Banana', 'Lemon'])

  # After :DiffableStop, commands say the daemon is not running (no E906).
  Check(':DiffableStop', Cmd('DiffableStop'), '')
  Check('job ended', job_status(job), 'dead')
  Check(':DiffableApply after stop', Cmd('DiffableApply []') =~ '^diffable: stopped: the daemon is not running', true)
  Check(':DiffableSearch after stop', Cmd('DiffableSearch x') =~ '^diffable: stopped: the daemon is not running', true)
  Check(':DiffableStop after stop', Cmd('DiffableStop') =~ '^diffable: stopped: ', true)
  Check(':DiffableOpen with a bad path', Cmd('DiffableOpen /nonexistent/diffable x'),
    'diffable: start: no daemon found; looked at: the explicit argument: /nonexistent/diffable (not an executable file) '
    .. '(pass the path of an executable `diffable`, or nothing to search for one)')
  # A broken $DIFFABLE_BIN stops :DiffableOpen although `diffable` is on PATH.
  var saved_bin = $DIFFABLE_BIN
  var saved_path = $PATH
  var on_path = PathWithDaemon(bin)
  $DIFFABLE_BIN = missing
  $PATH = on_path .. ':' .. saved_path
  Check(':DiffableOpen with a broken $DIFFABLE_BIN', [Cmd('DiffableOpen fruit'), diffable.Running(diffable.Session())],
    [Refused(missing), false])
  $DIFFABLE_BIN = saved_bin
  $PATH = saved_path
  delete(on_path, 'rf')
  Check(':DiffableOpen after stop starts a new daemon', Cmd('DiffableOpen fruit'), '')
  Check('new daemon', job_info(diffable.Session().job).process != job_info(job).process, true)
  Check('the new daemon has no fruit yet', Lines(fruit), [''])
  Cmd('DiffableStop')
enddef

# Outlines: rows indented by level with ▸/▾, :DiffableToggle[!] on the row under the cursor.
def OutlineChecks(bin: string)
  Check(':DiffableOpen tree', Cmd('DiffableOpen ' .. bin .. ' tree'), '')
  var buf = bufnr()
  var s = diffable.Session()
  var tree = [{id: 'files', items: [
    {id: 'a', content: 'a/', children: [{id: 'a/b', content: 'b/', children: ['a/b/c']}]},
    {id: 'r', content: {text: 'readme'}}]}]
  Check(':DiffableApply a tree', Cmd('DiffableApply ' .. json_encode(tree)), '')
  Check('outline: collapsed folder and a leaf', Lines(buf), ['▸ a/', '  readme'])
  cursor(1, 1)
  Check(':DiffableToggle expands', [Cmd('DiffableToggle'), Lines(buf)], ['', ['▾ a/', '  ▸ b/', '  readme']])
  Check('expand = snapshot', Lines(buf), SnapshotLines(s, 'tree'))
  cursor(2, 1)
  Check(':DiffableToggle! expands recursively', [Cmd('DiffableToggle!'), Lines(buf)], ['', ['▾ a/', '  ▾ b/', '      a/b/c', '  readme']])
  Check('recursive expand = snapshot', Lines(buf), SnapshotLines(s, 'tree'))
  cursor(1, 1)
  Check(':DiffableToggle collapses', [Cmd('DiffableToggle'), Lines(buf)], ['', ['▸ a/', '  readme']])
  Check('collapse keeps the child expanded', diffable.Request(s, 'outline', {source: 'tree', id: 'a/b'}).expanded, true)
  cursor(2, 1)
  Check(':DiffableToggle on a leaf', [Cmd('DiffableToggle') =~ 'no children', Lines(buf)], [true, ['▸ a/', '  readme']])
  Check(':DiffableSearch b/ (match with its ancestors)', [Cmd('DiffableSearch b/'), Lines(buf)], ['', ['▸ a/', '  ▾ b/']])
  Check('match property after the indent', Props(buf, 'DiffableMatch'), [[2, len('  ▾ ') + 1, 2]])
  Check(':DiffableSearch (clear)', Cmd('DiffableSearch'), '')
  diffable.Request(s, 'edit', {source: 'tree', ops: [{op: 'expand', ids: ['a']}, {op: 'moveItem', id: 'a/b/c', parent: 'r'}]})
  Check('tree edit: moved under another parent', Lines(buf), ['▾ a/', '    b/', '▸ readme'])
  Check('tree edit = snapshot', Lines(buf), SnapshotLines(s, 'tree'))
  Cmd('DiffableStop')
enddef

# A seeded random session (steps form) compared with the daemon after every step.
const WORDS = split('grace liam ava ruby stella jack emma olivia ethan amelia lucas noah isla mason chloe zoé ångström')
var rng_state = 1

def Rand(): float
  rng_state = (rng_state * 48271) % 2147483647
  return (rng_state - 1) / 2147483646.0
enddef

def RandInt(a: number, b: number): number
  return a + float2nr(Rand() * (b - a + 1))
enddef

def Choice(list: list<any>): any
  return list[RandInt(0, len(list) - 1)]
enddef

def Shuffle(list: list<any>): list<any>
  if len(list) < 2
    return list
  endif
  for i in range(len(list) - 1, 1, -1)
    var j = RandInt(0, i)
    var t = list[i]
    list[i] = list[j]
    list[j] = t
  endfor
  return list
enddef

def Sample(list: list<any>, n: number): list<any>
  return Shuffle(copy(list))[: n - 1]
enddef

def RandomSnapshot(full: list<any>): list<any>
  var items: list<any> = []
  var used: dict<bool> = {}
  for sec in full
    for it in sec.items
      add(items, type(it) == v:t_string ? {id: it} : it)
      used[type(it) == v:t_string ? it : it.id] = true
    endfor
  endfor
  Shuffle(items)
  var keep: list<any> = []
  for it in items
    if Rand() < 0.8
      add(keep, copy(it))
    endif
  endfor
  for _ in range(RandInt(0, 4))
    var id = 'i' .. RandInt(0, 59)
    if !has_key(used, id)
      used[id] = true
      add(keep, {id: id})
    endif
  endfor
  for it in keep
    if !has_key(it, 'content') || Rand() < 0.2
      var x = Rand()
      if x < 0.8
        it.content = {text: join(Sample(WORDS, 2))}
      elseif x < 0.9
        it.content = Choice(WORDS)
      elseif has_key(it, 'content')
        remove(it, 'content')
      endif
    endif
  endfor
  var ids: list<string> = []
  for sec in full
    if Rand() < 0.85
      add(ids, sec.id)
    endif
  endfor
  for _ in range(RandInt(0, 2))
    var id = 's' .. RandInt(0, 7)
    if index(ids, id) < 0
      add(ids, id)
    endif
  endfor
  if empty(ids)
    ids = ['s0']
  endif
  if Rand() < 0.4
    Shuffle(ids)
  endif
  var old: dict<any> = {}
  var home: dict<string> = {}
  for sec in full
    old[sec.id] = sec
    for it in sec.items
      home[type(it) == v:t_string ? it : it.id] = sec.id
    endfor
  endfor
  var sections: list<any> = []
  var byid: dict<any> = {}
  for id in ids
    var header = get(get(old, id, {}), 'header', v:null)
    if Rand() >= 0.8
      header = Choice([v:null, toupper(id), {title: Choice(WORDS)}])
    endif
    var sec: dict<any> = {id: id, items: []}
    if header != v:null
      sec.header = header
    endif
    add(sections, sec)
    byid[id] = sec
  endfor
  for it in keep
    var target = get(byid, get(home, it.id, ''), {})
    if empty(target) || Rand() < 0.25
      target = Choice(sections)
    endif
    add(target.items, it)
  endfor
  return sections
enddef

def Normalized(sections: list<any>): list<any>
  return mapnew(sections, (_, sec) => ({id: sec.id, header: get(sec, 'header', v:null),
    items: mapnew(get(sec, 'items', []), (_, it) => type(it) == v:t_string ? {id: it, content: v:null}
                                                     : {id: it.id, content: get(it, 'content', v:null)})}))
enddef

def RandomSession(bin: string, seed: number, rounds: number)
  rng_state = seed % 2147483647 > 0 ? seed % 2147483647 : 1
  var s = diffable.Start([bin, '--log-level', 'error'])
  var bufs: dict<number> = {}
  var full: dict<any> = {}
  for name in ['people', 'fruit']
    bufs[name] = bufadd('diffable://random-' .. name)
    bufload(bufs[name])
    diffable.Attach(s, name, bufs[name])
    full[name] = []
  endfor
  var counts: dict<number> = {}
  var good = 0
  for n in range(rounds)
    var name = Choice(['people', 'fruit'])
    var current = full[name]
    var kind = empty(current) ? 'apply' : Choice(['apply', 'apply', 'apply', 'apply', 'search', 'search', 'search', 'select', 'edit', 'edit'])
    var all_ids: list<string> = []
    var texts: list<string> = []
    for sec in current
      for it in sec.items
        add(all_ids, type(it) == v:t_string ? it : it.id)
        if type(it) == v:t_dict && type(get(it, 'content', v:null)) == v:t_dict
          add(texts, it.content.text)
        endif
      endfor
    endfor
    var params: dict<any> = {source: name}
    if kind == 'apply'
      params.sections = RandomSnapshot(current)
    elseif kind == 'search'
      var q = empty(texts) ? 'x' : Choice(texts)
      var chars = split(q, '\zs')
      var start = RandInt(0, len(chars) - 1)
      params.query = Choice(['', join(chars[start : start + RandInt(0, 3)], ''), 'zz', 'gr', 'é'])
      params.mode = Choice(['substring', 'fuzzy'])
      if Rand() < 0.5
        params.sections = Sample(mapnew(current, (_, sec) => sec.id), RandInt(1, len(current)))
      endif
      if Rand() < 0.3
        params.limit = RandInt(0, 5)
      endif
      if Rand() < 0.3
        params.placeholder = Item('no-results', 'No results')
      endif
    elseif kind == 'select'
      params.action = 'clear'
    else
      var ops: list<any> = [{op: 'appendItems', items: ['e' .. n]}]
      if len(all_ids) >= 2
        var pair = Sample(all_ids, 2)
        var x = RandInt(1, 5)
        if x == 1
          add(ops, {op: 'moveItem', id: pair[0], before: pair[1]})
        elseif x == 2
          add(ops, {op: 'deleteItems', ids: [pair[0]]})
        elseif x == 3
          add(ops, {op: 'setContent', items: [{id: pair[0], content: {text: Choice(WORDS)}}], style: Choice(['reload', 'reconfigure'])})
        elseif x == 4
          add(ops, {op: 'moveItem', id: pair[0], after: pair[1]})
          add(ops, {op: 'reconfigureItems', ids: [pair[1]]})
        else
          add(ops, {op: 'insertSections', sections: [{id: 'x' .. n, header: 'X' .. n, items: ['y' .. n]}], before: Choice(current).id})
          add(ops, {op: 'moveItem', id: pair[0], after: 'y' .. n})
        endif
      endif
      params.ops = ops
    endif
    var result: any = {}
    try
      result = diffable.Request(s, kind, params)
      counts[kind] = get(counts, kind, 0) + 1
    catch /^diffable: \%(1004\|1005\|-32602\):/
      counts.rejected = get(counts, 'rejected', 0) + 1
    endtry
    var truth = diffable.Request(s, 'snapshot', {source: name})
    var view = s.views[name][0]
    var want = diffable.ExpectedLines(truth.sections)
    var ok = Normalized(view.sections) == Normalized(truth.sections) && view.version == truth.version
      && Lines(bufs[name]) == (empty(want) ? [''] : want)
    if ok && kind == 'search' && !empty(result)
      ok = len(Props(bufs[name], 'DiffableMatch')) == reduce(get(result, 'highlights', []), (acc, h) => acc + len(get(h, 'ranges', [])), 0)
    endif
    if !ok
      Check(printf('round %d (seed %d): %s %s', n, seed, kind, json_encode(params)),
        {version: view.version, lines: Lines(bufs[name]), matches: Props(bufs[name], 'DiffableMatch')},
        {version: truth.version, lines: want, response: result})
      break
    endif
    good += 1
    full[name] = diffable.Request(s, 'snapshot', {source: name, full: true}).sections
  endfor
  Check(printf('random session seed %d: %d rounds match the daemon %s', seed, rounds, string(counts)), good, rounds)
  Check('random session covered every kind', sort(keys(filter(copy(counts), (k, _) => k != 'rejected'))),
    ['apply', 'edit', 'search', 'select'])
  diffable.Stop(s)
  Check('random session: daemon exit status', job_info(s.job).exitval, 0)
enddef

const missing = '/nonexistent/diffable'

# What FindBin throws when $DIFFABLE_BIN is `value` and not an executable.
def Refused(value: string): string
  return 'diffable: start: no daemon found; looked at: $DIFFABLE_BIN: ' .. value .. ' (not an executable file) '
    .. '(point $DIFFABLE_BIN at an executable `diffable`, or unset it to search the usual places)'
enddef

# The exception `F` throws, or 'returned ' and what it returned.
def Thrown(F: func(): any): string
  try
    return 'returned ' .. string(F())
  catch
    return v:exception
  endtry
enddef

# A new folder holding `diffable`, a script that runs `bin`: a working daemon
# on PATH that is not `bin` itself.
def PathWithDaemon(bin: string): string
  var folder = tempname()
  mkdir(folder, 'p')
  writefile(['#!/bin/sh', 'exec ' .. shellescape(bin) .. ' "$@"'], folder .. '/diffable')
  setfperm(folder .. '/diffable', 'rwxr-xr-x')
  return folder
enddef

# FindBin's order and its message; the release archive's layout (vim/plugin/
# beside bin/) is driven by Tests/EndToEndTests/PackageTests.swift.
def DiscoveryChecks(bin: string)
  Check('discovery: $DIFFABLE_BIN', diffable.FindBin(), bin)
  Check('discovery: bin/diffable beside the plugin folder', diffable.BesidePlugin(),
    simplify(resolve(expand('<script>:p:h')) .. '/../bin/diffable'))
  var saved_bin = $DIFFABLE_BIN
  var saved_path = $PATH
  $DIFFABLE_BIN = ''
  $PATH = '/nonexistent'
  var found = ''
  var why = ''
  try
    found = diffable.FindBin()
  catch
    why = v:exception
  endtry
  $DIFFABLE_BIN = saved_bin
  $PATH = saved_path
  if found != ''
    Check('discovery found a checkout build', found =~ '/\.build/\(release\|debug\)/diffable$', true)
  else
    Check('discovery lists where it looked: ' .. why, why =~# '\$DIFFABLE_BIN (not set), '
      .. 'beside the plugin ' .. escape(diffable.BesidePlugin(), '\.') .. ', `diffable` on \$PATH, .*/\.build/release/diffable, '
      .. '.*/\.build/debug/diffable (build it with `swift build -c release`', true)
  endif
  Check('discovery: an explicit path that is not executable', Thrown(() => diffable.FindBin(missing)),
    'diffable: start: no daemon found; looked at: the explicit argument: ' .. missing .. ' (not an executable file) '
    .. '(pass the path of an executable `diffable`, or nothing to search for one)')

  # A set $DIFFABLE_BIN is never replaced by another daemon: a folder on PATH
  # holds a working `diffable` (a script running the real one) and a file
  # that is not executable.
  var on_path = PathWithDaemon(bin)
  var path_daemon = on_path .. '/diffable'
  var plain_file = on_path .. '/not-executable'
  writefile(['#!/bin/sh'], plain_file)
  $PATH = on_path .. ':' .. saved_path
  $DIFFABLE_BIN = ''
  Check('discovery: unset $DIFFABLE_BIN, `diffable` on PATH', diffable.FindBin(), path_daemon)
  for [what, value] in [['missing', missing], ['not executable', plain_file], ['a folder', on_path],
                        ['a name not on PATH', 'no-such-diffable']]
    $DIFFABLE_BIN = value
    Check('discovery: $DIFFABLE_BIN ' .. what .. ' stops, `diffable` on PATH unused', Thrown(() => diffable.FindBin()),
      Refused(value))
  endfor
  $DIFFABLE_BIN = bin
  Check('discovery: $DIFFABLE_BIN before `diffable` on PATH', diffable.FindBin(), bin)
  $DIFFABLE_BIN = 'diffable'
  Check('discovery: $DIFFABLE_BIN as a command on PATH', diffable.FindBin(), path_daemon)
  $DIFFABLE_BIN = missing
  Check('discovery: an explicit path wins over a broken $DIFFABLE_BIN', diffable.FindBin(bin), bin)
  $DIFFABLE_BIN = saved_bin
  $PATH = saved_path
  delete(on_path, 'rf')
enddef

# Field-level updates: rows that come as patches (updates "patch", the steps
# form this client speaks) and PatchContent, replayed to the snapshot.
def PatchChecks(bin: string)
  var s = diffable.Start([bin])
  var buf = bufadd('diffable://ticker')
  bufload(buf)
  setbufvar(buf, '&buftype', 'nofile')
  diffable.Attach(s, 'ticker', buf)
  var rows: list<any> = []
  for i in range(1, 8)
    add(rows, {id: 't' .. i, content: {text: 'T' .. i, price: i * 10.25, tags: ['a', 'b'],
      name: 'Ticker ' .. i .. ' Incorporated, listed on a long exchange name'}})
  endfor
  diffable.Request(s, 'apply', {source: 'ticker', updates: 'patch', sections: [{id: 'q', items: rows}]})
  var patched = 0
  var seed = 32
  var mismatches = 0
  var result: dict<any> = {}
  for tick in range(1, 20)
    seed = (seed * 48271) % 2147483647
    var k = seed % len(rows)
    if tick % 2 == 0
      var value = seed % 1000
      rows[k].content.price = value
      result = diffable.Request(s, 'edit', {source: 'ticker', updates: 'patch',
        ops: [diffable.PatchContent(rows[k].id, [{op: 'replace', path: '/price', value: value}])]})
    else
      rows[k].content.text = 'T' .. k .. ' #' .. tick
      if tick % 5 == 0
        insert(rows, remove(rows, -1), 0)
      endif
      result = diffable.Request(s, 'apply', {source: 'ticker', updates: 'patch', sections: [{id: 'q', items: rows}]})
    endif
    patched += count(json_encode(result), '"patch"')
    for step in get(result, 'steps', [])
      patched += len(get(step, 'patches', []))
    endfor
    var truth = diffable.Request(s, 'snapshot', {source: 'ticker'}).sections[0].items
    var model = s.views.ticker[0].sections[0].items
    if model != mapnew(truth, (_, i) => ({id: i.id, content: get(i, 'content', v:null)}))
      mismatches += 1
    endif
  endfor
  Check('patch session: the model = the snapshot after every change', mismatches, 0)
  Check('patch session: the buffer = the snapshot drawn', Lines(buf), SnapshotLines(s, 'ticker'))
  Check('patch session: rows came as patches', patched > 10, true)
  var error = ''
  try
    diffable.Request(s, 'edit', {source: 'ticker', ops: [diffable.PatchContent('t1', [{op: 'test', path: '/price', value: -1}])]})
  catch
    error = v:exception
  endtry
  Check('a failing patch: 1004', error =~ '^diffable: 1004', true)
  error = ''
  try
    diffable.ApplyPatch([1, 2], [{op: 'add', path: '/01', value: 0}])
  catch
    error = v:exception
  endtry
  Check('ApplyPatch: a leading zero is no index', error =~ '^diffable: patch op 0: ', true)
  Check('ApplyPatch: every op', diffable.ApplyPatch({a: 1, 'm~n': [1, 2]}, [
    {op: 'add', path: '/m~0n/-', value: 3}, {op: 'move', from: '/a', path: '/m~0n/0'},
    {op: 'copy', from: '/m~0n', path: '/c~1d'}, {op: 'remove', path: '/m~0n/1'},
    {op: 'test', path: '/c~1d', value: [1.0, 1, 2, 3]}]), {'m~n': [1, 2, 3], 'c/d': [1, 1, 2, 3]})
  diffable.Stop(s)
  Check('patch checks: daemon exit status', job_info(s.job).exitval, 0)
enddef

# The shared replay cases (protocol/cases/, recorded from the daemon by
# protocol/tools/record-cases): each case's steps, replayed onto its old
# snapshot in a buffer, must reach its new snapshot (model and lines). This
# client asks for the steps form only, so the batch form is not replayed here.
def CaseSections(sections: list<any>): list<any>
  return mapnew(sections, (_, sec) => ({id: sec.id, header: get(sec, 'header', v:null),
    items: mapnew(get(sec, 'items', []), (_, it) => CaseItem(it))}))
enddef

def CaseItem(raw: any): dict<any>
  var it: dict<any> = type(raw) == v:t_string ? {id: raw} : raw
  var item: dict<any> = {id: it.id, content: get(it, 'content', v:null)}
  for key in ['level', 'parent', 'hasChildren', 'expanded']
    if has_key(it, key) && it[key] != v:null
      item[key] = it[key]
    endif
  endfor
  return item
enddef

def CaseChecks()
  var dir = here .. '/../../cases'
  var files = sort(glob(dir .. '/*.json', false, true))
  Check('shared cases: at least 10 in ' .. dir, len(files) >= 10, true)
  for file in files
    var c = json_decode(join(readfile(file), "\n"))
    var buf = bufadd('diffable://case-' .. c.name)
    bufload(buf)
    setbufvar(buf, '&buftype', 'nofile')
    setbufvar(buf, '&modifiable', 0)
    var view: dict<any> = {buf: buf, sections: [], version: 0, query: '', highlights: []}
    var problem = ''
    try
      diffable.Replay(view, [{op: 'insertSections', at: 0, sections: c.old.sections}])
      diffable.Replay(view, c.steps)
    catch
      problem = v:exception
    endtry
    Check('case ' .. c.name .. ' (steps): replays', problem, '')
    Check('case ' .. c.name .. ' (steps): model = new snapshot', CaseSections(view.sections), CaseSections(c.new.sections))
    var want = diffable.ExpectedLines(c.new.sections)
    Check('case ' .. c.name .. ' (steps): buffer = new snapshot drawn', Lines(buf), empty(want) ? [''] : want)
    execute 'bwipeout! ' .. buf
  endfor
enddef

def Run()
  var bin = $DIFFABLE_BIN
  if bin == '' || !executable(bin)
    throw 'set $DIFFABLE_BIN to the diffable binary (got "' .. bin .. '")'
  endif
  DiscoveryChecks(bin)
  ApiChecks(bin)
  versiontest.Checks(Check, bin)
  CommandChecks(bin)
  OutlineChecks(bin)
  var seed = $DIFFABLE_VIM_SEED == '' ? 1 : str2nr($DIFFABLE_VIM_SEED)
  var rounds = $DIFFABLE_VIM_ROUNDS == '' ? 300 : str2nr($DIFFABLE_VIM_ROUNDS)
  RandomSession(bin, seed, rounds)
  PatchChecks(bin)
  CaseChecks()
enddef

try
  Run()
catch
  failures += 1
  add(log, 'FAIL exception: ' .. v:exception .. ' at ' .. v:throwpoint)
endtry
insert(log, failures == 0 && passes > 0 ? 'PASS' : printf('FAIL (%d)', failures))
add(log, printf('%d passed, %d failed', passes, failures))
if $DIFFABLE_VIM_LOG != ''
  writefile(log, $DIFFABLE_VIM_LOG)
endif
if failures == 0 && passes > 0
  qall!
else
  cquit
endif
