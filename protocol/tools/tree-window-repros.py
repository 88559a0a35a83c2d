#!/usr/bin/env python3
"""Ten minimal sessions once answered wrongly in outlines, windows, echo, search and params.

Usage: protocol/tools/tree-window-repros.py [--bin BINARY] [-q] [N ...]

Runs each repro (all, or only the numbers given) against the daemon in both
framings (newline-delimited JSON and LSP Content-Length), printing the
requests sent, the replies received (re-encoded compactly with non-ASCII
escaped, so "\\u00e9" and "e\\u0301" stay distinguishable) and PASS/FAIL for
every expectation; -q prints only the checks. Expectations are what
protocol/README.md and protocol/methods/*.md say. The daemon is --bin, else
$DIFFABLE_BIN, else the checkout's .build/debug/diffable. Exit status: 0 when
every check passes in both framings, 1 otherwise. Standard library only.
"""
import json, os, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INIT = {"initializationOptions": {"supersedeSearches": False}}


class Fail(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Fail(msg)


# ---- reply accessors --------------------------------------------------------

def result(r):
    need(r is not None, "no reply")
    if "error" in r:
        e = r["error"]
        raise Fail(f"error {e['code']} {json.dumps(e.get('data'), ensure_ascii=True)}: {e['message']}")
    return r["result"]


def error(r, code, reason=None):
    need(r is not None, "no reply")
    need("error" in r, f"expected error {code}, got a result")
    e = r["error"]
    need(e["code"] == code, f"expected error {code}, got {e['code']}: {e['message']}")
    if reason is not None:
        got = (e.get("data") or {}).get("reason")
        need(got == reason, f"expected data.reason {reason!r}, got {got!r}: {e['message']}")


def batch_rows(res):
    """Every item row a batch carries (inserted sections' items, item inserts/reloads/...)."""
    b = res.get("batch")
    need(b is not None, f"expected the batch form, got {sorted(res)}")
    rows = [it for ins in b.get("sections", {}).get("insert", []) for s in ins["sections"] for it in s["items"]]
    for key in ("insert", "reload", "reconfigure"):
        rows += [it for run in b.get("items", {}).get(key, []) for it in run["items"]]
    rows += [m["item"] for m in b.get("items", {}).get("move", []) if "item" in m]
    return rows


def window(res):
    w = res.get("window")
    need(isinstance(w, dict), f"expected the window form, got {json.dumps(res, ensure_ascii=True)[:200]}")
    return w


def window_rows(res):
    return [row for st in window(res)["steps"] if st["op"] in ("insert", "update") for row in st["rows"]]


def replay(held, steps):
    """The ids a frontend holds after applying window steps (viewport.md)."""
    held = list(held)
    for st in steps:
        if st["op"] == "delete":
            del held[st["at"]:st["at"] + st["count"]]
        elif st["op"] == "insert":
            held[st["at"]:st["at"]] = [r["id"] for r in st["rows"]]
        elif st["op"] == "move":
            held.insert(st["to"], held.pop(st["from"]))
    return held


def row(rows, id):
    found = [r for r in rows if r["id"] == id]
    need(found, f"no row {id!r} in the reply (rows: {[r['id'] for r in rows]})")
    return found[0]


def outline_is(**want):
    def check(r):
        res = result(r)
        for k, v in want.items():
            need(res.get(k) == v, f"outline {res['id']!r}: {k} = {res.get(k)!r}, expected {v!r}")
    return check


def ok(r):
    result(r)


def rejected_32602(r):
    error(r, -32602)


# ---- the repros ---------------------------------------------------------------
# A repro is a list of sessions; a session is a list of steps
# (method, params, check or None, what the check expects).

def S(name, *sections):
    return {"source": name, "sections": [{"id": sid, "items": items} for sid, items in sections]}


def p_row_nested(r):
    p = row(batch_rows(result(r)), "p")
    need(p.get("level") == 0 and p.get("hasChildren") is True, f"row p lacks level/hasChildren: {p}")


def section_op(op):
    extra = {"before": "A"} if op == "insertSections" else {}
    return [("apply", S("s", ("A", [])), None, ""),
            ("edit", {"source": "s", "ops": [dict(op=op, sections=[
                {"id": "B", "items": [{"id": "p", "children": ["c"]}]}], **extra)]},
             p_row_nested, f"{op}: row p carries level 0 and hasChildren"),
            ("outline", {"source": "s", "id": "c"}, outline_is(parent="p", level=1), "outline c: parent p, level 1")]


def two_rows(r):
    rows = batch_rows(result(r))
    need([x["id"] for x in rows] == ["\u00e9", "p"], f"visible rows {[x['id'] for x in rows]}, expected ['\\u00e9', 'p']")
    need(not rows[1].get("expanded"), "p should be collapsed")


def no_visible(ids):
    def check(r):
        rows = batch_rows(result(r))
        need(not any(x["id"] in ids for x in rows), f"rows {[x['id'] for x in rows if x['id'] in ids]} shown")
    return check


CONTENT = {"p": "folder", "c": "cat", "g": "grace"}


def contents_ok(sent):
    """Rows whose item the request did not send carry their content; sent ones only their id (echo ids)."""
    def check(r):
        rows = window_rows(result(r))
        for x in rows:
            if x["id"] in sent:
                need("content" not in x, f"row {x['id']!r} was sent with echo ids but carries content")
            else:
                need(x.get("content") == CONTENT[x["id"]], f"row {x['id']!r} lacks its content {CONTENT[x['id']]!r}: {x}")
    return check


def c_inserted_with_content(r):
    rows = [x for st in window(result(r))["steps"] if st["op"] == "insert" for x in st["rows"]]
    need(row(rows, "c").get("content") == "cat", f"inserted row c lacks content 'cat': {row(rows, 'c')}")
    contents_ok(set())(r)


def scoped_search(r):
    res = result(r)
    need(res["search"]["shown"] == 1, f"search.shown = {res['search']['shown']}, expected 1")
    rows = window_rows(res) if "window" in res else batch_rows(res)
    lit = [x["id"] for x in rows if x.get("highlights")] + [h["id"] for h in res.get("highlights", [])]
    need("a" not in lit, "row a (section B, not searched) carries highlights")


def start_stays_1(r):
    w = window(result(r))
    need(w["start"] == 1, f"window.start = {w['start']}, expected 1")
    need(replay(["b"], w["steps"]) == ["c", "d"], f"replayed window {replay(['b'], w['steps'])}, expected ['c', 'd']")


def section_move_with_header(r):
    b = result(r).get("batch", {})
    moves = b.get("sections", {}).get("move", [])
    need({"from": 2, "to": 0, "header": "C"} in moves, f"sections.move = {moves}, expected [{{from:2,to:0,header:'C'}}]")


ABC = {"source": "f", "sections": [{"id": s, "header": s.upper(), "items": [{"id": "i" + s, "content": t}]}
                                   for s, t in (("a", "cat"), ("b", "bob"), ("c", "cow"))]}
MOVE_C = {"source": "f", "ops": [{"op": "moveSection", "id": "c", "before": "a"}, {"op": "reloadSections", "ids": ["c"]}]}
TREE6 = {"source": "s", "viewport": {"start": 0, "count": 5},
         "sections": [{"id": "A", "items": [{"id": "p", "content": "folder", "children": [{"id": "c", "content": "cat"}]}]}]}
ZZ = [{"id": "A", "items": [{"id": "x", "content": "zz"}]}, {"id": "B", "items": [{"id": "a", "content": "zz", "children": ["c"]}]}]
ZZ_FLAT = [{"id": "A", "items": [{"id": "x", "content": "zz"}]}, {"id": "B", "items": [{"id": "a", "content": "zz"}]}]
PC_Q = S("s", ("A", [{"id": "p", "children": ["c"]}, "q"]))
PAB = S("s", ("A", [{"id": "p", "children": ["a", "b"]}]))


def edit(*ops, **kw):
    return dict(source="s", ops=list(ops), **kw)


REPROS = {
    1: ("section ops keep nested children", [section_op("appendSections"), section_op("insertSections")]),
    2: ("nested ids compared by UTF-8 bytes", [
        [("apply", S("s", ("A", [{"id": "\u00e9"}, {"id": "p", "children": ["e\u0301"]}])), two_rows,
          "2 visible rows \u00e9 and p, p collapsed"),
         ("outline", {"source": "s", "id": "\u00e9"}, outline_is(parent=None, level=0), "outline \\u00e9: no parent, level 0")],
        [("apply", S("s", ("A", [{"id": "\u00e9"}, {"id": "p", "children": ["x"]}])), None, ""),
         ("edit", edit({"op": "appendItems", "section": "A", "items": ["e\u0301"]}), ok,
          "appendItems e\\u0301 next to \\u00e9 accepted (nested source)")],
        [("apply", S("s", ("A", [{"id": "\u00e9"}, {"id": "p", "children": ["x"]}])), None, ""),
         ("edit", edit({"op": "appendItems", "parent": "p", "items": ["e\u0301"]}), ok,
          "appendItems {parent p} e\\u0301 accepted (nested source)")]]),
    3: ("a childless item is never expanded", [
        [("apply", S("s", ("A", ["p", {"id": "q", "children": ["z"]}])), None, ""),
         ("edit", edit({"op": "expand", "ids": ["p"]}, {"op": "appendItems", "parent": "p", "items": ["c"]}),
          no_visible({"c"}), "[expand p, appendItems {parent p} c] in one edit: c not shown"),
         ("outline", {"source": "s", "id": "p"}, outline_is(expanded=False), "outline p: expanded false"),
         ("outline", {"source": "s", "id": "c"}, outline_is(visible=False), "outline c: visible false")],
        [("apply", S("s", ("A", ["p", {"id": "q", "children": ["z"]}])), None, ""),
         ("edit", edit({"op": "expand", "ids": ["p"]}), ok, "control: expand p alone"),
         ("edit", edit({"op": "appendItems", "parent": "p", "items": ["c"]}), no_visible({"c"}),
          "control: then appendItems {parent p} c: c not shown"),
         ("outline", {"source": "s", "id": "p"}, outline_is(expanded=False), "control: outline p: expanded false")],
        [("apply", S("s", ("A", ["p", {"id": "q", "children": ["z"]}])), None, ""),
         ("edit", edit({"op": "insertItems", "after": "p", "items": [{"id": "n", "expanded": True}]},
                       {"op": "appendItems", "parent": "n", "items": ["m"]}), no_visible({"m"}),
          "insert childless n {expanded: true}, give it child m: m not shown"),
         ("outline", {"source": "s", "id": "n"}, outline_is(expanded=False), "outline n: expanded false")]]),
    4: ("deleteItems of a parent and its child", [
        [("apply", PC_Q, None, ""),
         ("edit", edit({"op": "deleteItems", "ids": ["q", "q"]}), lambda r: error(r, 1004, "duplicateItem"),
          "deleteItems [q, q]: 1004 reason duplicateItem"),
         ("edit", edit({"op": "deleteItems", "ids": ["p", "c"]}), ok, "deleteItems [p, c] succeeds")],
        [("apply", PC_Q, None, ""),
         ("edit", edit({"op": "deleteItems", "ids": ["c", "p"]}), ok, "control: deleteItems [c, p] succeeds")]]),
    5: ("reload/reconfigure after moveItem {parent}", [
        [("apply", PAB, None, ""),
         ("edit", edit({"op": "moveItem", "id": "a", "parent": "b"}, {"op": "reloadItems", "ids": ["a"]}), ok,
          "[moveItem a -> parent b, reloadItems [a]] succeeds")],
        [("apply", PAB, None, ""),
         ("edit", edit({"op": "moveItem", "id": "a", "parent": "b"}, {"op": "reconfigureItems", "ids": ["a"]}), ok,
          "[moveItem a -> parent b, reconfigureItems [a]] succeeds")],
        [("apply", S("s", ("A", [{"id": "p", "children": [{"id": "a", "children": ["a1"]}, "b"]}])), None, ""),
         ("edit", edit({"op": "moveItem", "id": "a", "parent": "b"}, {"op": "reconfigureItems", "ids": ["a1"]}), ok,
          "[moveItem a (child a1) -> parent b, reconfigureItems [a1]] succeeds")]]),
    6: ("echo ids: rows the client did not send carry content", [
        [("apply", TREE6, None, ""),
         ("search", {"source": "s", "query": "gr"}, None, ""),
         ("edit", edit({"op": "appendItems", "parent": "p", "items": [{"id": "g", "content": "grace"}]}, echo="ids"),
          contents_ok({"g"}), "append g under p during search: ancestor row p carries 'folder', g id only"),
         ("edit", edit({"op": "expand", "ids": ["p"]}, echo="ids"), contents_ok(set()),
          "expand p during search: every row sent carries its content (spec: c stays hidden while searching)")],
        [("apply", TREE6, None, ""),
         ("edit", edit({"op": "expand", "ids": ["p"]}, echo="ids"), c_inserted_with_content,
          "no search: expand p with echo ids: inserted c carries 'cat', p carries 'folder'")]]),
    7: ("search scoped to A ignores nested rows of B", [
        [("apply", {"source": "s", "viewport": {"start": 0, "count": 10}, "sections": ZZ}, None, ""),
         ("search", {"source": "s", "query": "zz", "sections": ["A"]}, scoped_search,
          "viewport: shown 1, row a has no highlights")],
        [("apply", {"source": "s", "sections": ZZ}, None, ""),
         ("search", {"source": "s", "query": "zz", "sections": ["A"]}, scoped_search,
          "batch form: shown 1, no highlights for a")],
        [("apply", {"source": "s", "viewport": {"start": 0, "count": 10}, "sections": ZZ_FLAT}, None, ""),
         ("search", {"source": "s", "query": "zz", "sections": ["A"]}, scoped_search,
          "control (flat, a has no children): shown 1, no highlights for a")]]),
    8: ("window keeps start when its anchor is deleted", [
        [("apply", {"source": "s", "viewport": {"start": 1, "count": 5}, "sections": [{"id": "A", "items": ["a", "b"]}]},
          None, ""),
         ("edit", edit({"op": "deleteItems", "ids": ["b"]}, {"op": "appendItems", "items": ["c", "d"]}),
          start_stays_1, "[deleteItems b, appendItems c d]: window.start 1, rows [c, d]")]]),
    9: ("moveSection + reloadSections during a search", [
        [("apply", ABC, None, ""),
         ("search", {"source": "f", "query": "c", "sections": ["a"]}, None, ""),
         ("edit", MOVE_C, section_move_with_header, "searching: sections.move {from 2, to 0, header 'C'}")],
        [("apply", ABC, None, ""),
         ("edit", MOVE_C, section_move_with_header, "control, no search: sections.move {from 2, to 0, header 'C'}")]]),
    10: ("null where a non-negative integer is required", [
        [("apply", S("s", ("A", [{"id": "a", "content": "a"}])), None, ""),
         ("viewport", {"source": "s", "start": None}, rejected_32602, "viewport {start: null}: -32602"),
         ("rows", {"source": "s", "start": None}, rejected_32602, "rows {start: null}: -32602"),
         ("rows", {"source": "s", "count": None}, rejected_32602, "rows {count: null}: -32602"),
         ("search", {"source": "s", "query": "a", "limit": None}, rejected_32602, "search {limit: null}: -32602")]]),
}


# ---- running a session ------------------------------------------------------------

def encode(msg, framing):
    body = json.dumps(msg, ensure_ascii=True, separators=(",", ":")).encode()
    return body + b"\n" if framing == "newline" else b"Content-Length: %d\r\n\r\n" % len(body) + body


def decode(out, framing):
    if framing == "newline":
        return [json.loads(line) for line in out.splitlines() if line.strip()]
    msgs = []
    while out:
        head, sep, rest = out.partition(b"\r\n\r\n")
        if not sep:
            break
        fields = dict(l.split(b":", 1) for l in head.split(b"\r\n") if b":" in l)
        n = int(fields[b"Content-Length"])
        msgs.append(json.loads(rest[:n]))
        out = rest[n:]
    return msgs


def run_session(binary, steps, framing):
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}]
    msgs += [{"jsonrpc": "2.0", "id": i + 2, "method": m, "params": p} for i, (m, p, _, _) in enumerate(steps)]
    proc = subprocess.run([binary], input=b"".join(encode(m, framing) for m in msgs), capture_output=True, timeout=60)
    replies = {r.get("id"): r for r in decode(proc.stdout, framing) if isinstance(r, dict)}
    return msgs[1:], [replies.get(i + 2) for i in range(len(steps))], proc.returncode


def show(msg):
    return json.dumps(msg, ensure_ascii=True, separators=(",", ":"))


def main(argv):
    quiet = "-q" in argv
    argv = [a for a in argv if a != "-q"]
    binary = os.environ.get("DIFFABLE_BIN") or os.path.join(ROOT, ".build/debug/diffable")
    if "--bin" in argv:
        i = argv.index("--bin")
        binary = argv[i + 1]
        del argv[i:i + 2]
    chosen = [int(a) for a in argv] or sorted(REPROS)
    for _ in range(120):  # the binary may be being relinked
        if os.access(binary, os.X_OK):
            break
        time.sleep(1)
    else:
        sys.exit(f"no executable daemon at {binary}")
    summary = []
    for n in chosen:
        title, sessions = REPROS[n]
        print(f"\n=== {n}. {title}")
        failed, first = 0, {}
        for framing in ("newline", "content-length"):
            for k, steps in enumerate(sessions):
                sent, replies, rc = run_session(binary, steps, framing)
                if not quiet:
                    print(f"--- session {k + 1}, {framing} framing (exit {rc})")
                    if framing == "newline":
                        for m, r in zip(sent, replies):
                            print("  >", show(m))
                            print("  <", show(r) if r is not None else "(no reply)")
                    elif replies == first.get(k):
                        print("  (same requests; replies identical to newline framing)")
                    else:
                        for m, r in zip(sent, replies):
                            print("  >", show(m))
                            print("  <", show(r) if r is not None else "(no reply)")
                first[k] = replies
                for (method, _, check, what), r in zip(steps, replies):
                    if check is None:
                        continue
                    try:
                        check(r)
                        print(f"  PASS [{framing}] {what}")
                    except (Fail, KeyError, TypeError, IndexError) as e:
                        failed += 1
                        print(f"  FAIL [{framing}] {what}\n       -> {e}")
        summary.append((n, title, failed))
    print("\n=== summary")
    for n, title, failed in summary:
        print(f"  {'FAIL' if failed else 'PASS'}  {n:2}. {title}" + (f" ({failed} failed checks)" if failed else ""))
    return 1 if any(f for _, _, f in summary) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
