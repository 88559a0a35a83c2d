vim9script
# diffable.vim: reference thin client for the diffable daemon (Vim 9, +channel).
#
# Spawns the daemon with Vim's LSP channel mode and renders one source into a
# buffer, one line per visible item (its text: a string content, the "text"
# member of an object content, else the item id). Diffs are asked for in the
# steps form, whose sequential ops map directly onto buffer edits.
#
#   import '/path/to/diffable.vim' as diffable
#   var s = diffable.Start(['/path/to/diffable'])
#   diffable.Attach(s, 'people', bufnr())
#   diffable.Request(s, 'apply', {source: 'people', sections: [...]})
#   diffable.Stop(s)
#
# Or, after `:source diffable.vim`:  :DiffableOpen /path/to/diffable people
# then :DiffableApply {json params}  :DiffableSearch query  :DiffableStop

# Starts the daemon and initializes the session (steps form, every search answered).
export def Start(cmd: list<string>): dict<any>
  var job = job_start(cmd, {in_mode: 'lsp', out_mode: 'lsp', err_io: 'null', noblock: 1})
  if job_status(job) != 'run'
    throw 'diffable: cannot start ' .. string(cmd)
  endif
  var s: dict<any> = {job: job, ch: job_getchannel(job), views: {}}
  Request(s, 'initialize', {initializationOptions: {form: 'steps', supersedeSearches: false}})
  ch_sendexpr(s.ch, {method: 'initialized', params: {}})
  return s
enddef

# Sends a request and waits for its answer; change results are rendered into
# the attached buffer. Returns the result; throws 'diffable: CODE: message'.
export def Request(s: dict<any>, method: string, params: dict<any> = {}): any
  var response = ch_evalexpr(s.ch, {method: method, params: params}, {timeout: 10000})
  if type(response) != v:t_dict || empty(response)
    throw 'diffable: no answer to ' .. method
  endif
  if has_key(response, 'error')
    throw printf('diffable: %d: %s', response.error.code, response.error.message)
  endif
  var result = response.result
  if type(result) == v:t_dict && has_key(result, 'steps') && has_key(s.views, result.source)
    Replay(s.views[result.source], result.steps)
  endif
  return result
enddef

# Renders `source` into buffer `buf` (its current visible snapshot, then every diff).
export def Attach(s: dict<any>, source: string, buf: number)
  var view: dict<any> = {buf: buf, sizes: [], empty: true}
  deletebufline(buf, 1, '$')
  s.views[source] = view
  try
    var snap = Request(s, 'snapshot', {source: source})
    Replay(view, [{op: 'insertSections', at: 0, sections: snap.sections}])
  catch /^diffable: 1001:/
    # the source does not exist yet: the first apply inserts everything
  endtry
enddef

export def Stop(s: dict<any>)
  try
    Request(s, 'shutdown')
    ch_sendexpr(s.ch, {method: 'exit'})
  catch
  endtry
  var waited = 0
  while job_status(s.job) == 'run' && waited < 100
    sleep 10m
    waited += 1
  endwhile
  if job_status(s.job) == 'run'
    job_stop(s.job)
  endif
enddef

export def ItemText(item: dict<any>): string
  var content = get(item, 'content', v:null)
  if type(content) == v:t_string
    return content
  elseif type(content) == v:t_dict && type(get(content, 'text', v:null)) == v:t_string
    return content.text
  endif
  return item.id
enddef

# Buffer line number (1-based) of row `row` of section `section`.
def Line(view: dict<any>, section: number, row: number): number
  var line = row + 1
  for i in range(section)
    line += view.sizes[i]
  endfor
  return line
enddef

def Insert(view: dict<any>, line: number, texts: list<string>)
  if empty(texts)
    return
  endif
  appendbufline(view.buf, line - 1, texts)
  if view.empty
    deletebufline(view.buf, len(texts) + 1)  # the empty line of an empty buffer
    view.empty = false
  endif
enddef

def Delete(view: dict<any>, line: number, count: number)
  if count > 0
    deletebufline(view.buf, line, line + count - 1)
    view.empty = reduce(view.sizes, (acc, n) => acc + n, 0) == 0
  endif
enddef

def Texts(items: list<any>): list<string>
  return mapnew(items, (_, item) => ItemText(item))
enddef

# Applies steps in order (protocol/README.md, "Steps form").
export def Replay(view: dict<any>, steps: list<any>)
  for step in steps
    if step.op == 'deleteItems'
      var line = Line(view, step.section, step.at)
      view.sizes[step.section] -= step.count
      Delete(view, line, step.count)
    elseif step.op == 'deleteSections'
      var line = Line(view, step.at, 0)
      var count = reduce(view.sizes[step.at : step.at + step.count - 1], (acc, n) => acc + n, 0)
      remove(view.sizes, step.at, step.at + step.count - 1)
      Delete(view, line, count)
    elseif step.op == 'moveSection'
      var line = Line(view, step.from, 0)
      var size = view.sizes[step.from]
      var texts = size > 0 ? getbufline(view.buf, line, line + size - 1) : []
      remove(view.sizes, step.from)
      Delete(view, line, size)
      insert(view.sizes, size, step.to)
      Insert(view, Line(view, step.to, 0), texts)
    elseif step.op == 'insertSections'
      var texts: list<string> = []
      var k = 0
      for section in step.sections
        insert(view.sizes, len(section.items), step.at + k)
        texts += Texts(section.items)
        k += 1
      endfor
      Insert(view, Line(view, step.at, 0), texts)
    elseif step.op == 'reloadSection'
      # headers are not rendered
    elseif step.op == 'moveItem'
      var line = Line(view, step.from[0], step.from[1])
      var text = has_key(step, 'item') ? ItemText(step.item) : getbufline(view.buf, line)[0]
      view.sizes[step.from[0]] -= 1
      Delete(view, line, 1)
      view.sizes[step.to[0]] += 1
      Insert(view, Line(view, step.to[0], step.to[1]), [text])
    elseif step.op == 'insertItems'
      view.sizes[step.section] += len(step.items)
      Insert(view, Line(view, step.section, step.at), Texts(step.items))
    elseif step.op == 'reloadItems' || step.op == 'reconfigureItems'
      setbufline(view.buf, Line(view, step.section, step.at), Texts(step.items))
    else
      throw 'diffable: unknown step ' .. step.op
    endif
  endfor
enddef

# Commands for interactive use: one session, one source in the current buffer.
var session: dict<any> = {}
var current = ''

def Open(bin: string, source: string)
  session = Start([bin])
  current = source
  enew
  setlocal buftype=nofile bufhidden=hide noswapfile
  execute 'file diffable://' .. source
  Attach(session, source, bufnr())
enddef

command! -nargs=+ DiffableOpen Open(<f-args>)
command! -nargs=1 DiffableApply Request(session, 'apply', extend({source: current}, json_decode(<q-args>)))
command! -nargs=? DiffableSearch Request(session, 'search', {source: current, query: <q-args>})
command! DiffableStop Stop(session)
