vim9script
# diffable.vim: reference thin client for the diffable daemon (Vim 9, +channel, +textprop).
#
# Spawns the daemon with Vim's LSP channel mode and renders one source into a
# buffer: per section a header line (when the section has a header, text
# property DiffableHeader) then one line per visible item (its text: a string
# content, the "text" member of an object content, else the item id). Diffs
# are asked for in the steps form, whose sequential ops map directly onto
# buffer edits; search matches are text properties (DiffableMatch). The
# buffer is 'nomodifiable' and made modifiable only while a diff is applied.
#
#   import '/path/to/diffable.vim' as diffable
#   var s = diffable.Start(['/path/to/diffable'])
#   diffable.Attach(s, 'people', bufnr())
#   diffable.Request(s, 'apply', {source: 'people', sections: [...]})
#   diffable.Stop(s)
#
# Or, after `:source diffable.vim`:  :DiffableOpen [/path/to/diffable] people
# then :DiffableApply {json params}  :DiffableSearch [--sections a,b] query
# :DiffableStop. One daemon per Vim: a second :DiffableOpen reuses it.

const here = expand('<sfile>:p:h')

# One version number for the daemon and every client (ServerVersion.swift's).
# A daemon of another MAJOR.MINOR may answer with members this client does not
# know, so Start says so once (WarningMsg); another PATCH says nothing.
export const version = '0.1.0'

# [MAJOR, MINOR] of a version such as '0.1.0' or '1.2.3-beta'; [] when it does
# not start with two dot-separated numbers.
export def MajorMinor(text: any): list<number>
  var found = type(text) == v:t_string ? matchlist(text, '^\(\d\+\)\.\(\d\+\)') : []
  return empty(found) ? [] : [str2nr(found[1]), str2nr(found[2])]
enddef

# The warning for an initialize answer's serverInfo, or '' (also when its
# version cannot be read as MAJOR.MINOR: there is nothing reliable to compare).
export def VersionWarning(info: any, daemon: string): string
  var theirs = MajorMinor(type(info) == v:t_dict ? get(info, 'version', v:null) : v:null)
  var ours = MajorMinor(version)
  if empty(theirs) || empty(ours) || theirs == ours
    return ''
  endif
  return printf('diffable: the daemon %s is version %s and this Vim client is %s: a daemon and a client of '
    .. 'another MAJOR.MINOR may not understand each other. Use the daemon that came with this plugin (the '
    .. "release archive's bin/diffable), or point $DIFFABLE_BIN or :DiffableOpen at a %d.%d.x daemon.",
    daemon, info.version, version, ours[0], ours[1])
enddef

# Text property types (global) for header lines and search matches.
def DefineProps()
  hlset([{name: 'DiffableHeader', linksto: 'Title', default: true},
         {name: 'DiffableMatch', linksto: 'Search', default: true}])
  for name in ['DiffableHeader', 'DiffableMatch']
    if empty(prop_type_get(name))
      prop_type_add(name, {highlight: name, priority: name == 'DiffableMatch' ? 20 : 10})
    endif
  endfor
enddef
DefineProps()

# The bin/diffable beside the plugin's folder (this file's folder, or the one
# holding its plugin/ folder): where a release archive (protocol/tools/package)
# keeps the daemon, next to vim/plugin/diffable.vim. Symbolic links are
# resolved, so a package folder linked to the archive's vim/ finds it too.
export def BesidePlugin(): string
  var real = resolve(here)
  var folder = fnamemodify(real, ':t') == 'plugin' ? fnamemodify(real, ':h') : real
  return simplify(folder .. '/../bin/diffable')
enddef

# A command with a '/' is a path (relative ones to the current directory) and
# must itself be an executable file; a bare name is looked up on $PATH, as a
# shell would. Returns the command to run, or '' when there is none.
def ResolveCommand(command: string): string
  if stridx(command, '/') >= 0
    return executable(fnamemodify(command, ':p')) ? command : ''
  endif
  return exepath(command)
enddef

def Refused(place: string, value: string, advice: string): string
  return 'diffable: start: no daemon found; looked at: ' .. place .. ': ' .. value
    .. ' (not an executable file) (' .. advice .. ')'
enddef

# Daemon discovery: explicit path, $DIFFABLE_BIN, bin/diffable beside the
# plugin, `diffable` on PATH, the checkout's .build/release/diffable then
# .build/debug/diffable. An explicit path or a set $DIFFABLE_BIN is what the
# user asked for: when it is not an executable the search stops there, so a
# typo never silently runs another build (every diffable client follows this
# rule).
export def FindBin(explicit: string = ''): string
  if explicit != ''
    var found = ResolveCommand(explicit)
    if found == ''
      throw Refused('the explicit argument', explicit,
        'pass the path of an executable `diffable`, or nothing to search for one')
    endif
    return found
  endif
  if $DIFFABLE_BIN != ''
    var found = ResolveCommand($DIFFABLE_BIN)
    if found == ''
      throw Refused('$DIFFABLE_BIN', $DIFFABLE_BIN,
        'point $DIFFABLE_BIN at an executable `diffable`, or unset it to search the usual places')
    endif
    return found
  endif
  var looked: list<string> = ['$DIFFABLE_BIN (not set)']
  if executable(BesidePlugin())
    return BesidePlugin()
  endif
  add(looked, 'beside the plugin ' .. BesidePlugin())
  if exepath('diffable') != ''
    return exepath('diffable')
  endif
  add(looked, '`diffable` on $PATH')
  var root = fnamemodify(here, ':h:h:h')
  for config in ['release', 'debug']
    var path = root .. '/.build/' .. config .. '/diffable'
    if executable(path)
      return path
    endif
    add(looked, path)
  endfor
  var advice = filereadable(root .. '/Package.swift')
    ? 'build it with `swift build -c release` in ' .. root .. ', or set $DIFFABLE_BIN'
    : 'put `diffable` on $PATH (pip, npm or a release archive install it), or set $DIFFABLE_BIN'
  throw 'diffable: start: no daemon found; looked at: ' .. join(looked, ', ') .. ' (' .. advice .. ')'
  return ''
enddef

# Starts the daemon and initializes the session (steps form, every search
# answered); a daemon of another MAJOR.MINOR than `version` gets one warning.
export def Start(cmd: list<string>): dict<any>
  var job = job_start(cmd, {in_mode: 'lsp', out_mode: 'lsp', err_io: 'null', noblock: 1})
  if job_status(job) != 'run'
    throw 'diffable: start: cannot start ' .. string(cmd)
  endif
  var s: dict<any> = {job: job, ch: job_getchannel(job), views: {}}
  var answer = Request(s, 'initialize', {initializationOptions: {form: 'steps', supersedeSearches: false}})
  ch_sendexpr(s.ch, {method: 'initialized', params: {}})
  var warning = VersionWarning(get(answer, 'serverInfo', {}), cmd[0])
  if warning != ''
    echohl WarningMsg
    echomsg warning
    echohl None
  endif
  return s
enddef

export def Running(s: dict<any>): bool
  return !empty(s) && has_key(s, 'job') && job_status(s.job) == 'run' && !get(s, 'stopped', false)
enddef

# Sends a request and waits for its answer; change results are rendered into
# the attached buffers. Returns the result; throws 'diffable: CODE: message'.
export def Request(s: dict<any>, method: string, params: dict<any> = {}): any
  if !Running(s)
    throw 'diffable: stopped: the daemon is not running (:DiffableOpen [bin] source starts it)'
  endif
  var response = ch_evalexpr(s.ch, {method: method, params: params}, {timeout: 10000})
  if type(response) != v:t_dict || empty(response)
    throw 'diffable: timeout: no answer to ' .. method
  endif
  if has_key(response, 'error')
    throw printf('diffable: %d: %s', response.error.code, response.error.message)
  endif
  var result = response.result
  if type(result) == v:t_dict && type(get(result, 'source', v:null)) == v:t_string
      && has_key(s.views, result.source)
    Render(s, method, params, result)
  endif
  return result
enddef

def Render(s: dict<any>, method: string, params: dict<any>, result: dict<any>)
  var views = filter(s.views[result.source], (_, v) => bufexists(v.buf))
  if method == 'snapshot' || method == 'sources'
    return
  endif
  var changed = has_key(result, 'steps') && !empty(result.steps)
  for view in views
    if method == 'highlights'
      if result.version == view.version
        filter(view.highlights, (_, h) => h.path[0] != params.section)
        extend(view.highlights, result.highlights)
        DrawProps(view)
      endif
      continue
    endif
    if has_key(result, 'steps')
      Replay(view, result.steps)
    endif
    view.version = get(result, 'version', view.version)
    if method == 'search'
      view.query = get(get(result, 'search', {}), 'query', '')
      view.highlights = copy(get(result, 'highlights', []))
    elseif changed
      view.highlights = []
    endif
    DrawProps(view)
  endfor
  # A change while a query is active moved rows: ask again for the highlights.
  if method != 'search' && method != 'highlights' && changed && !empty(views) && views[0].query != ''
    for i in range(len(views[0].sections))
      Request(s, 'highlights', {source: result.source, section: i})
    endfor
  endif
enddef

# Renders `source` into buffer `buf` (its current visible snapshot, then every diff).
export def Attach(s: dict<any>, source: string, buf: number)
  var view: dict<any> = {buf: buf, sections: [], version: 0, query: '', highlights: []}
  if has_key(s.views, source)
    filter(s.views[source], (_, v) => v.buf != buf)
  endif
  Modifiable(buf, () => deletebufline(buf, 1, '$'))
  var snap: any = {}
  try
    snap = Request(s, 'snapshot', {source: source})
  catch /^diffable: 1001:/
    # the source does not exist yet: the first apply inserts everything
  endtry
  s.views[source] = get(s.views, source, []) + [view]
  setbufvar(buf, 'diffable_source', source)
  if !empty(snap)
    view.version = snap.version
    Replay(view, [{op: 'insertSections', at: 0, sections: snap.sections}])
  endif
  DrawProps(view)
enddef

export def Stop(s: dict<any>)
  if empty(s) || !has_key(s, 'job')
    return
  endif
  try
    Request(s, 'shutdown')
    ch_sendexpr(s.ch, {method: 'exit'})
  catch
  endtry
  s.stopped = true
  var waited = 0
  while job_status(s.job) == 'run' && waited < 200
    sleep 10m
    waited += 1
  endwhile
  if job_status(s.job) == 'run'
    job_stop(s.job)
  endif
enddef

export def ItemText(item: any): string
  if type(item) == v:t_string
    return item
  endif
  var content = get(item, 'content', v:null)
  if type(content) == v:t_string
    return content
  elseif type(content) == v:t_dict && type(get(content, 'text', v:null)) == v:t_string
    return content.text
  endif
  return item.id
enddef

# The text of a search field (protocol/methods/search.md, Fields) in a
# content: a member name, or a JSON pointer (`/a/0/b~1c`); v:null when it
# is not a string there.
export def FieldText(content: any, field: string): any
  var value = content
  if field[0] != '/'
    value = type(content) == v:t_dict ? get(content, field, v:null) : v:null
  else
    for raw in split(field[1 :], '/', 1)
      var token = substitute(substitute(raw, '\~1', '/', 'g'), '\~0', '\~', 'g')
      if type(value) == v:t_list && token =~ '^\d\+$'
        var k = str2nr(token)
        value = k < len(value) ? value[k] : v:null
      elseif type(value) == v:t_dict
        value = get(value, token, v:null)
      else
        return v:null
      endif
    endfor
  endif
  return type(value) == v:t_string ? value : v:null
enddef

# The ranges a highlight marks on an item's line: its `ranges`, or with
# search fields those of the field whose text the line shows.
def LineRanges(h: dict<any>, item: any): list<any>
  if has_key(h, 'ranges')
    return h.ranges
  endif
  var text = ItemText(item)
  for f in get(h, 'fields', [])
    var value = FieldText(type(item) == v:t_dict ? get(item, 'content', v:null) : v:null, f.field)
    if type(value) == v:t_string && value == text
      return f.ranges
    endif
  endfor
  return []
enddef

# The header line of a section, or v:null when it has none.
export def HeaderText(header: any): any
  if header == v:null
    return v:null
  elseif type(header) == v:t_string
    return header
  elseif type(header) == v:t_dict
    for key in ['title', 'text']
      if type(get(header, key, v:null)) == v:t_string
        return header[key]
      endif
    endfor
  endif
  return json_encode(header)
enddef

def Line1(text: string): string
  return substitute(text, "[\n\r]", ' ', 'g')
enddef

# Field-level updates (protocol/README.md): RFC 6902 JSON Patch on json_decode
# values, as the daemon applies it. Pointers (RFC 6901): '' is the whole value,
# else '/'-separated tokens with ~1 = '/' and ~0 = '~'; array indices are '0'
# or digits without a leading zero; '-' is the end of a list (for add). `test`
# compares by value (1 == 1.0), dicts unordered. Iterative: no recursion.
def PointerTokens(pointer: string): list<string>
  if pointer == ''
    return []
  endif
  if pointer[0] != '/'
    throw 'not a JSON Pointer: ' .. string(pointer)
  endif
  var tokens: list<string> = []
  for raw in split(pointer[1 :], '/', 1)
    if substitute(raw, '\~[01]', '', 'g') =~ '\~'
      throw string(pointer) .. ': ~ must be ~0 or ~1'
    endif
    add(tokens, substitute(substitute(raw, '\~1', '/', 'g'), '\~0', '\~', 'g'))
  endfor
  return tokens
enddef

def PatchIndex(token: string, length: number, end_ok: bool): number
  if token == '-' && end_ok
    return length
  endif
  if token !~ '^\(0\|[1-9][0-9]*\)$'
    throw string(token) .. ' is not an array index'
  endif
  var i = str2nr(token)
  if i > length || (i == length && !end_ok)
    throw 'index ' .. i .. ' is out of range (' .. length .. ' elements)'
  endif
  return i
enddef

# The value at the first `count` tokens.
def PatchGet(doc: any, tokens: list<string>, count: number): any
  var value: any = doc
  for k in range(count)
    var token = tokens[k]
    if type(value) == v:t_list
      value = value[PatchIndex(token, len(value), false)]
    elseif type(value) == v:t_dict
      if !has_key(value, token)
        throw 'no member ' .. string(token)
      endif
      value = value[token]
    else
      throw string(token) .. ': not inside an object or array'
    endif
  endfor
  return value
enddef

def PatchAdd(doc: any, tokens: list<string>, value: any): any
  if empty(tokens)
    return value
  endif
  var parent: any = PatchGet(doc, tokens, len(tokens) - 1)
  if type(parent) == v:t_list
    insert(parent, value, PatchIndex(tokens[-1], len(parent), true))
  elseif type(parent) == v:t_dict
    parent[tokens[-1]] = value
  else
    throw 'the parent is neither an object nor an array'
  endif
  return doc
enddef

def PatchRemove(doc: any, tokens: list<string>): any
  if empty(tokens)
    throw 'the whole value cannot be removed'
  endif
  var parent: any = PatchGet(doc, tokens, len(tokens) - 1)
  if type(parent) == v:t_list
    return remove(parent, PatchIndex(tokens[-1], len(parent), false))
  elseif type(parent) != v:t_dict
    throw 'the parent is neither an object nor an array'
  elseif !has_key(parent, tokens[-1])
    throw 'no member ' .. string(tokens[-1])
  endif
  return remove(parent, tokens[-1])
enddef

# RFC 6902 `test` equality.
export def PatchEqual(a: any, b: any): bool
  var pending: list<list<any>> = [[a, b]]
  while !empty(pending)
    var [x, y] = remove(pending, -1)
    var number = [v:t_number, v:t_float]
    if index(number, type(x)) >= 0 && index(number, type(y)) >= 0
      if x != y
        return false
      endif
    elseif type(x) != type(y)
      return false
    elseif type(x) == v:t_list
      if len(x) != len(y)
        return false
      endif
      for k in range(len(x))
        add(pending, [x[k], y[k]])
      endfor
    elseif type(x) == v:t_dict
      if len(x) != len(y)
        return false
      endif
      for [key, value] in items(x)
        if !has_key(y, key)
          return false
        endif
        add(pending, [value, y[key]])
      endfor
    elseif x != y
      return false
    endif
  endwhile
  return true
enddef

# `document` (not modified) with the ops applied in order; throws
# 'diffable: patch op N: …' (N: the failing op's index) when one does not apply.
export def ApplyPatch(document: any, patch: list<any>): any
  var doc: any = deepcopy(document)
  var i = 0
  var failure = ''
  for op in patch
    try
      var path = PointerTokens(op.path)
      if op.op == 'add'
        doc = PatchAdd(doc, path, deepcopy(op.value))
      elseif op.op == 'remove'
        PatchRemove(doc, path)
      elseif op.op == 'replace'
        PatchGet(doc, path, len(path))
        var parent: any = empty(path) ? v:null : PatchGet(doc, path, len(path) - 1)
        if type(parent) == v:t_list
          parent[PatchIndex(path[-1], len(parent), false)] = deepcopy(op.value)
        else
          doc = PatchAdd(doc, path, deepcopy(op.value))
        endif
      elseif op.op == 'move' || op.op == 'copy'
        var from = PointerTokens(op.from)
        var value: any = deepcopy(PatchGet(doc, from, len(from)))
        var same = false
        if op.op == 'move'
          var prefix = len(from) <= len(path) && (empty(from) || from == path[: len(from) - 1])
          if prefix && len(from) < len(path)
            throw 'a value cannot move into its own child'
          endif
          same = prefix
          if !same
            value = PatchRemove(doc, from)
          endif
        endif
        if !same
          doc = PatchAdd(doc, path, value)
        endif
      elseif op.op == 'test'
        if !PatchEqual(PatchGet(doc, path, len(path)), op.value)
          throw 'test failed at ' .. string(op.path)
        endif
      else
        throw 'unknown op ' .. string(op.op)
      endif
    catch
      failure = v:exception
    endtry
    # thrown after the try: Vim 9.0 mishandles a throw from inside a catch
    if failure != ''
      throw 'diffable: patch op ' .. i .. ': ' .. failure
    endif
    i += 1
  endfor
  return doc
enddef

# The `edit` op that patches an item's content (as the ops before it left it).
export def PatchContent(id: string, patch: list<any>): dict<any>
  return {op: 'patchContent', id: id, patch: patch}
enddef

def ItemOf(raw: any): dict<any>
  if type(raw) == v:t_string
    return {id: raw, content: v:null}
  endif
  var item: dict<any> = {id: raw.id, content: get(raw, 'content', v:null)}
  # outlines (protocol/methods/outline.md): where the row is in the tree
  for key in ['level', 'parent', 'hasChildren', 'expanded']
    if has_key(raw, key) && raw[key] != v:null
      item[key] = raw[key]
    endif
  endfor
  return item
enddef

# A row the model holds (`held`) as a reload or a move carries it: under
# `updates: "patch"` its `patch` (in place of `content`) applied to held's content.
def HeldItemOf(raw: any, held: dict<any>): dict<any>
  var item = ItemOf(raw)
  if type(raw) == v:t_dict && has_key(raw, 'patch')
    if type(get(held, 'content', v:null)) == v:t_none
      throw 'diffable: client: a patch for ' .. raw.id .. ', whose content is not held'
    endif
    item.content = ApplyPatch(held.content, raw.patch)
  endif
  return item
enddef

# What an outline row is drawn after: two spaces per level, then '▾ '/'▸ ' for
# an item with children (expanded or not), two spaces for a leaf; '' in a flat source.
export def OutlinePrefix(item: any): string
  if type(item) != v:t_dict || !has_key(item, 'level')
    return ''
  endif
  var mark = '  '
  if get(item, 'hasChildren', v:false) == v:true
    mark = get(item, 'expanded', v:false) == v:true ? '▾ ' : '▸ '
  endif
  return repeat('  ', item.level) .. mark
enddef

def ItemLine(item: any): string
  return OutlinePrefix(item) .. Line1(ItemText(item))
enddef

def SectionOf(raw: dict<any>): dict<any>
  return {id: raw.id, header: get(raw, 'header', v:null),
          items: mapnew(get(raw, 'items', []), (_, i) => ItemOf(i))}
enddef

def HasHeader(section: dict<any>): number
  return section.header == v:null ? 0 : 1
enddef

def SectionLines(section: dict<any>): list<string>
  var lines = HasHeader(section) ? [Line1(HeaderText(section.header))] : []
  return lines + mapnew(section.items, (_, item) => ItemLine(item))
enddef

# The lines a list of sections (as the daemon writes them) is drawn with.
export def ExpectedLines(sections: list<any>): list<string>
  var lines: list<string> = []
  for raw in sections
    lines += SectionLines(SectionOf(raw))
  endfor
  return lines
enddef

def Total(view: dict<any>): number
  return reduce(view.sections, (acc, sec) => acc + HasHeader(sec) + len(sec.items), 0)
enddef

# Buffer line number (1-based) of the first line of section `section`.
def SectionLine(view: dict<any>, section: number): number
  var line = 1
  for i in range(section)
    line += HasHeader(view.sections[i]) + len(view.sections[i].items)
  endfor
  return line
enddef

# Buffer line number (1-based) of row `row` of section `section`.
def Line(view: dict<any>, section: number, row: number): number
  return SectionLine(view, section) + HasHeader(view.sections[section]) + row
enddef

# An empty model is a buffer with one empty line.
def Insert(view: dict<any>, total: number, line: number, texts: list<string>)
  if empty(texts)
    return
  endif
  appendbufline(view.buf, line - 1, texts)
  if total == 0
    deletebufline(view.buf, len(texts) + 1)  # the empty line of an empty buffer
  endif
enddef

def Delete(view: dict<any>, line: number, count: number)
  if count > 0
    deletebufline(view.buf, line, line + count - 1)
  endif
enddef

def Modifiable(buf: number, F: func)
  setbufvar(buf, '&modifiable', 1)
  try
    F()
  finally
    setbufvar(buf, '&modifiable', 0)
  endtry
enddef

def Texts(items: list<any>): list<string>
  return mapnew(items, (_, item) => ItemLine(item))
enddef

# Applies steps in order (protocol/README.md, "Steps form") to the model and the buffer.
export def Replay(view: dict<any>, steps: list<any>)
  if empty(steps)
    return
  endif
  Modifiable(view.buf, () => ReplaySteps(view, steps))
enddef

def ReplaySteps(view: dict<any>, steps: list<any>)
  var S = view.sections
  for step in steps
    var total = Total(view)
    if step.op == 'deleteItems'
      Delete(view, Line(view, step.section, step.at), step.count)
      remove(S[step.section].items, step.at, step.at + step.count - 1)
    elseif step.op == 'deleteSections'
      var line = SectionLine(view, step.at)
      var removed = remove(S, step.at, step.at + step.count - 1)
      Delete(view, line, reduce(removed, (acc, sec) => acc + HasHeader(sec) + len(sec.items), 0))
    elseif step.op == 'moveSection'
      var line = SectionLine(view, step.from)
      var section = remove(S, step.from)
      var texts = SectionLines(section)
      Delete(view, line, len(texts))
      insert(S, section, step.to)
      Insert(view, total - len(texts), SectionLine(view, step.to), texts)
    elseif step.op == 'insertSections'
      var texts: list<string> = []
      var k = 0
      for raw in step.sections
        var section = SectionOf(raw)
        insert(S, section, step.at + k)
        texts += SectionLines(section)
        k += 1
      endfor
      Insert(view, total, SectionLine(view, step.at), texts)
    elseif step.op == 'reloadSection'
      var section = S[step.at]
      var line = SectionLine(view, step.at)
      var had = HasHeader(section)
      section.header = get(step, 'header', v:null)
      if had && HasHeader(section)
        setbufline(view.buf, line, Line1(HeaderText(section.header)))
      elseif had
        Delete(view, line, 1)
      elseif HasHeader(section)
        Insert(view, total, line, [Line1(HeaderText(section.header))])
      endif
    elseif step.op == 'moveItem'
      var line = Line(view, step.from[0], step.from[1])
      var item = remove(S[step.from[0]].items, step.from[1])
      if has_key(step, 'item')
        item = HeldItemOf(step.item, item)
      endif
      Delete(view, line, 1)
      insert(S[step.to[0]].items, item, step.to[1])
      Insert(view, total - 1, Line(view, step.to[0], step.to[1]), [ItemLine(item)])
    elseif step.op == 'insertItems'
      var items = mapnew(step.items, (_, i) => ItemOf(i))
      Insert(view, total, Line(view, step.section, step.at), Texts(items))
      extend(S[step.section].items, items, step.at)
    elseif (step.op == 'reloadItems' || step.op == 'reconfigureItems') && has_key(step, 'rows')
      # A patch run (updates "patch"): patches[k] patches the content of row rows[k].
      if len(step.rows) != len(step.patches)
        throw 'diffable: client: a patch run with ' .. len(step.rows) .. ' rows and ' .. len(step.patches) .. ' patches'
      endif
      var k = 0
      for r in step.rows
        var held = S[step.section].items[r]
        var item = copy(held)
        item.content = HeldItemOf({id: held.id, patch: step.patches[k]}, held).content
        setbufline(view.buf, Line(view, step.section, r), [ItemLine(item)])
        S[step.section].items[r] = item
        k += 1
      endfor
    elseif step.op == 'reloadItems' || step.op == 'reconfigureItems'
      var items: list<dict<any>> = []
      for raw in step.items
        add(items, HeldItemOf(raw, S[step.section].items[step.at + len(items)]))
      endfor
      setbufline(view.buf, Line(view, step.section, step.at), Texts(items))
      var k = 0
      for item in items
        S[step.section].items[step.at + k] = item
        k += 1
      endfor
    else
      throw 'diffable: client: unknown step ' .. step.op
    endif
  endfor
enddef

# Header lines and search matches as text properties, redrawn from the model.
def DrawProps(view: dict<any>)
  var buf = view.buf
  for name in ['DiffableHeader', 'DiffableMatch']
    prop_remove({type: name, bufnr: buf, all: true})
  endfor
  var line = 1
  for section in view.sections
    if HasHeader(section)
      var text = get(getbufline(buf, line), 0, '')
      prop_add(line, 1, {type: 'DiffableHeader', bufnr: buf, length: max([len(text), 0])})
      line += 1
    endif
    line += len(section.items)
  endfor
  for h in view.highlights
    if h.path[0] >= len(view.sections) || h.path[1] >= len(view.sections[h.path[0]].items)
      continue
    endif
    var item = view.sections[h.path[0]].items[h.path[1]]
    if item.id != h.id
      continue
    endif
    var text = ItemText(item)
    var lnum = Line(view, h.path[0], h.path[1])
    var shift = len(OutlinePrefix(item))  # bytes of the indent before the text
    for range in LineRanges(h, item)
      var first = byteidxcomp(text, range[0])
      var last = byteidxcomp(text, range[0] + range[1])
      if first >= 0 && last > first
        prop_add(lnum, first + 1 + shift, {type: 'DiffableMatch', bufnr: buf, length: last - first})
      endif
    endfor
  endfor
enddef

# Commands for interactive use: one daemon per Vim, a buffer per source.
var session: dict<any> = {}
var current = ''
var last_error = ''

# The last error a command reported (for tests), '' after a command that succeeded.
export def LastError(): string
  return last_error
enddef

# The session the commands use ({} when none is running).
export def Session(): dict<any>
  return Running(session) ? session : {}
enddef

def Report(message: string)
  last_error = message
  echohl ErrorMsg
  echomsg message
  echohl None
enddef

def Guard(F: func, args: list<any>)
  last_error = ''
  try
    call(F, args)
  catch /^diffable: /
    Report(v:exception)
  catch
    Report('diffable: client: ' .. v:exception)
  endtry
enddef

def Need(): dict<any>
  if !Running(session)
    throw 'diffable: stopped: the daemon is not running (:DiffableOpen [bin] source starts it)'
  endif
  return session
enddef

def SourceHere(): string
  var src = get(b:, 'diffable_source', current)
  if type(src) != v:t_string || src == ''
    throw 'diffable: usage: no source: :DiffableOpen [bin] source first'
  endif
  return src
enddef

def Open(args: list<string>)
  if len(args) < 1 || len(args) > 2
    throw 'diffable: usage: :DiffableOpen [bin] source'
  endif
  var source = args[-1]
  if !Running(session)
    session = Start([FindBin(len(args) == 2 ? args[0] : '')])
  endif
  var name = 'diffable://' .. source
  var buf = bufnr('^' .. escape(name, '\/.*$^~[]') .. '$')
  if buf > 0
    execute 'hide buffer' buf
  else
    hide enew
    setlocal buftype=nofile bufhidden=hide noswapfile nomodifiable
    execute 'file' fnameescape(name)
    buf = bufnr()
  endif
  current = source
  Attach(session, source, buf)
enddef

def ApplyCmd(text: string)
  var s = Need()
  var params: any
  try
    params = json_decode(text)
  catch
    throw 'diffable: usage: :DiffableApply needs JSON: {"sections": [...]} or [sections…]'
  endtry
  if type(params) == v:t_list
    params = {sections: params}
  elseif type(params) != v:t_dict
    throw 'diffable: usage: :DiffableApply needs JSON: {"sections": [...]} or [sections…]'
  endif
  Request(s, 'apply', extend({source: SourceHere()}, params))
enddef

def SearchCmd(text: string)
  var s = Need()
  var params: dict<any> = {source: SourceHere()}
  var rest = text
  while rest =~ '^\s*--'
    var m = matchlist(rest, '^\s*--\(\a\+\)\%(=\|\s\+\)\(\S*\)\s*\(.*\)$')
    if empty(m) || m[1] != 'sections' || m[2] == ''
      throw 'diffable: usage: :DiffableSearch [--sections a,b] query'
    endif
    params.sections = split(m[2], ',')
    rest = m[3]
  endwhile
  params.query = rest
  Request(s, 'search', params)
enddef

# :DiffableToggle[!]: expands the row under the cursor when collapsed, collapses
# it when expanded (!: its descendants too).
def ToggleCmd(bang: string)
  var s = Need()
  var source = SourceHere()
  var buf = bufnr()
  var views = filter(copy(get(s.views, source, [])), (_, v) => v.buf == buf)
  if empty(views)
    throw 'diffable: usage: this buffer shows no diffable source'
  endif
  var view = views[0]
  var lnum = line('.')
  var found: any = v:null
  for si in range(len(view.sections))
    var first = Line(view, si, 0)
    var n = len(view.sections[si].items)
    if lnum >= first && lnum < first + n
      found = view.sections[si].items[lnum - first]
    endif
  endfor
  if type(found) != v:t_dict || get(found, 'hasChildren', v:false) != v:true
    throw 'diffable: usage: the row under the cursor has no children to expand or collapse'
  endif
  var params: dict<any> = {source: source, ids: [found.id]}
  if bang == '!'
    params.recursive = v:true
  endif
  Request(s, get(found, 'expanded', v:false) == v:true ? 'collapse' : 'expand', params)
enddef

def StopCmd()
  if !Running(session)
    throw 'diffable: stopped: the daemon is not running'
  endif
  Stop(session)
  session = {}
enddef

command! -nargs=+ -complete=file DiffableOpen Guard(Open, [[<f-args>]])
command! -nargs=+ DiffableApply Guard(ApplyCmd, [<q-args>])
command! -nargs=* DiffableSearch Guard(SearchCmd, [<q-args>])
command! -bang DiffableToggle Guard(ToggleCmd, [<q-bang>])
command! DiffableStop Guard(StopCmd, [])
