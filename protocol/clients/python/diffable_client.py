#!/usr/bin/env python3
"""Reference thin client for the diffable daemon (Python 3 standard library only).

    diffable_client.py [BINARY]                 run protocol/examples/quickstart.jsonl, print each change
    diffable_client.py --selftest BINARY [--seed N] [--rounds N]
                                                randomized session; after every response the replayed
                                                model must equal the daemon's `snapshot` (exit 1 if not)

`Daemon` speaks JSON-RPC 2.0 with LSP Content-Length framing over the child's
stdin/stdout. `Frontend` keeps the visible snapshot of every source and
replays both diff forms (batch: UIKit semantics; steps: sequential) plus the
selection deltas, exactly as protocol/README.md describes them.
"""
import json, os, random, subprocess, sys


class RpcError(Exception):
    def __init__(self, error):
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.code, self.data = error.get("code"), error.get("data")


class Daemon:
    """The daemon as a child process; one request at a time, answers matched by id."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id, self.pending = 1, {}

    def send(self, message):
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self):
        length = None
        while True:  # header block: any order, names case-insensitive
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("the daemon closed its output")
            line = line.strip()
            if not line:
                if length is None:
                    continue
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        return json.loads(self.proc.stdout.read(length).decode("utf-8"))

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, **({} if params is None else {"params": params})})

    def request(self, method, params=None):
        """The result, or raises RpcError."""
        rid, self.next_id = self.next_id, self.next_id + 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, **({} if params is None else {"params": params})})
        while rid not in self.pending:
            message = self.receive()
            if "id" in message:  # responses only; the daemon sends no requests
                self.pending[message["id"]] = message
        message = self.pending.pop(rid)
        if "error" in message:
            raise RpcError(message["error"])
        return message["result"]

    def close(self):
        """shutdown (an error if it was already sent is fine), exit; the daemon's exit status."""
        for step in (lambda: self.request("shutdown"), lambda: self.notify("exit"), self.proc.stdin.close):
            try:
                step()
            except (OSError, EOFError, RpcError):
                pass
        return self.proc.wait(timeout=10)


class ReplayError(Exception):
    pass


def check(condition, message):
    if not condition:
        raise ReplayError(message)


class Frontend:
    """What a UI shows: per source the visible sections, version and selected ids."""

    def __init__(self):
        self.sources = {}  # name -> {"version", "sections": [{"id", "header"?, "items": [...]}], "selected": set}

    def source(self, name):
        return self.sources.setdefault(name, {"version": 0, "sections": [], "selected": set()})

    def update(self, result):
        """Applies a change result (apply, edit, select, setSelectionMode, search)."""
        state = self.source(result["source"])
        if "batch" in result:
            state["sections"] = replay_batch(state["sections"], result["batch"])
        elif "steps" in result:
            for step in result["steps"]:
                replay_step(state["sections"], step)
        if "selection" in result:
            self.select(state, result["selection"])
        state["version"] = result["version"]

    def select(self, state, delta):
        for change in delta.get("deselected", []):
            state["selected"].discard(change["id"])
        for change in delta.get("selected", []) + delta.get("kept", []):
            state["selected"].add(change["id"])
        if "rows" in delta:  # every selected visible row, in visible order: check it against the model
            expect = [[si, ri] for si, s in enumerate(state["sections"])
                      for ri, item in enumerate(s["items"]) if item["id"] in state["selected"]]
            check([r["path"] for r in delta["rows"]] == expect,
                  f"selection.rows {delta['rows']} != selected visible rows {expect} of the model")
            for r in delta["rows"]:
                check(row(state["sections"], r["path"])["id"] == r["id"], f"selection row {r} names another item")

    def lines(self, name):
        out = []
        for section in self.source(name)["sections"]:
            out.append(f"[{section['id']}] {json.dumps(section.get('header'))}")
            for item in section["items"]:
                mark = "*" if item["id"] in self.source(name)["selected"] else " "
                out.append(f"  {mark} {item['id']}: {json.dumps(item.get('content'))}")
        return out


def row(sections, path):
    check(0 <= path[0] < len(sections) and 0 <= path[1] < len(sections[path[0]]["items"]), f"no row at {path}")
    return sections[path[0]]["items"][path[1]]


def fill(size, placed, rest, what):
    """A list of `size` slots: `placed` {index: value} at their indices, `rest` in order in the others."""
    check(all(0 <= i < size for i in placed) and len(placed) + len(rest) == size,
          f"{what}: {len(placed)} placed at {sorted(placed)} + {len(rest)} remaining != {size} slots")
    remaining = iter(rest)
    return [placed[i] if i in placed else next(remaining) for i in range(size)]


def replay_batch(old, batch):
    """UIKit performBatchUpdates on the old list (protocol/README.md "Replaying a batch")."""
    sec, its = batch.get("sections", {}), batch.get("items", {})
    deleted = {s + k for s, n in sec.get("delete", []) for k in range(n)}
    moved = {m["from"]: m for m in sec.get("move", [])}
    check(not deleted & moved.keys(), "a section is both deleted and moved")
    check(all(0 <= i < len(old) for i in deleted | moved.keys()), "section delete/move out of range")
    reloads = {r["at"]: r["header"] for r in sec.get("reload", [])}
    check(not reloads.keys() & (deleted | moved.keys()), "a deleted or moved section is reloaded")
    # (1)+(2) the new section list; carry each surviving section's old index
    placed, inserted = {}, set()
    for run in sec.get("insert", []):
        for k, s in enumerate(run["sections"]):
            check(run["at"] + k not in placed, f"two sections inserted at {run['at'] + k}")
            placed[run["at"] + k] = (None, {**s, "items": [dict(i) for i in s["items"]]})
            inserted.add(run["at"] + k)
    for m in moved.values():
        check(m["to"] not in placed, f"section slot {m['to']} used twice")
        s = dict(old[m["from"]])
        if "header" in m:
            s["header"] = m["header"]
        placed[m["to"]] = (m["from"], s)
    rest = [(i, dict(s)) for i, s in enumerate(old) if i not in deleted and i not in moved]
    for i, s in rest:
        if i in reloads:
            s["header"] = reloads[i]
    new = fill(len(rest) + len(placed), placed, rest, "sections")
    old_to_new = {o: n for n, (o, _) in enumerate(new) if o is not None}
    # (3) rows, per surviving section
    gone = {}  # old path -> why it leaves its section
    for d in its.get("delete", []):
        check(d["section"] in old_to_new, f"row delete in section {d['section']}, which does not survive")
        for s, n in d["ranges"]:
            for r in range(s, s + n):
                check((d["section"], r) not in gone, f"row {[d['section'], r]} deleted twice")
                gone[(d["section"], r)] = "deleted"
    moves_in = {}
    for m in its.get("move", []):
        f, t = tuple(m["from"]), tuple(m["to"])
        check(f[0] in old_to_new and t[0] not in inserted and t[0] < len(new), f"row move {m} touches a deleted/inserted section")
        check(f not in gone, f"row {list(f)} both deleted and moved")
        gone[f] = "moved"
        item = m.get("item") or row(old, list(f))
        check(t not in moves_in, f"two rows moved to {list(t)}")
        moves_in[t] = dict(item)
    changed = {}
    for key in ("reload", "reconfigure"):
        for run in its.get(key, []):
            for k, item in enumerate(run["items"]):
                path = (run["section"], run["at"] + k)
                check(path not in gone, f"row {list(path)} is {gone.get(path)} and {key}ed")
                check(path[0] in old_to_new, f"{key} in section {path[0]}, which does not survive")
                changed[path] = dict(item)
    inserts = {}
    for run in its.get("insert", []):
        check(run["section"] not in inserted, f"row insert into inserted section {run['section']}")
        for k, item in enumerate(run["items"]):
            check((run["section"], run["at"] + k) not in inserts, "two rows inserted at one path")
            inserts[(run["section"], run["at"] + k)] = dict(item)
    for o, n in old_to_new.items():
        rows = old[o]["items"]
        check(all(p[1] < len(rows) for p in gone if p[0] == o), f"old row out of range in section {o}")
        check(all(p[1] < len(rows) for p in changed if p[0] == o), f"reload out of range in section {o}")
        stay = [changed.get((o, r), dict(rows[r])) for r in range(len(rows)) if (o, r) not in gone]
        here = {p[1]: i for p, i in list(inserts.items()) + list(moves_in.items()) if p[0] == n}
        check(len(here) == sum(1 for p in inserts if p[0] == n) + sum(1 for p in moves_in if p[0] == n),
              f"an insert and a move share a row in section {n}")
        new[n][1]["items"] = fill(len(stay) + len(here), here, stay, f"rows of new section {n}")
    check(all(p[0] in old_to_new.values() for p in list(inserts) + list(moves_in) if p[0] not in inserted),
          "row insert/move into a section that does not exist")
    return [s for _, s in new]


def replay_step(sections, step):
    """One step of the sequential form, in place."""
    op = step["op"]
    if op == "deleteItems":
        items = sections[step["section"]]["items"]
        check(step["at"] + step["count"] <= len(items), f"{step} out of range")
        del items[step["at"]:step["at"] + step["count"]]
    elif op == "deleteSections":
        check(step["at"] + step["count"] <= len(sections), f"{step} out of range")
        del sections[step["at"]:step["at"] + step["count"]]
    elif op == "moveSection":
        sections.insert(step["to"], sections.pop(step["from"]))
    elif op == "insertSections":
        check(step["at"] <= len(sections), f"{step} out of range")
        sections[step["at"]:step["at"]] = [{**s, "items": [dict(i) for i in s["items"]]} for s in step["sections"]]
    elif op == "reloadSection":
        sections[step["at"]]["header"] = step["header"]
    elif op == "moveItem":
        item = sections[step["from"][0]]["items"].pop(step["from"][1])
        target = sections[step["to"][0]]["items"]
        check(step["to"][1] <= len(target), f"{step} out of range")
        target.insert(step["to"][1], dict(step.get("item") or item))
    elif op == "insertItems":
        items = sections[step["section"]]["items"]
        check(step["at"] <= len(items), f"{step} out of range")
        items[step["at"]:step["at"]] = [dict(i) for i in step["items"]]
    elif op in ("reloadItems", "reconfigureItems"):
        items = sections[step["section"]]["items"]
        check(step["at"] + len(step["items"]) <= len(items), f"{step} out of range")
        items[step["at"]:step["at"] + len(step["items"])] = [dict(i) for i in step["items"]]
    else:
        raise ReplayError(f"unknown step {op!r}")


def normalized(sections):
    """Sections without selection policies and with absent == null headers."""
    return [{"id": s["id"], "header": s.get("header"), "items": s["items"]} for s in sections]


def run_example(binary, path):
    daemon, frontend = Daemon([binary]), Frontend()
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        message = json.loads(line)
        method, params = message["method"], message.get("params")
        if "id" not in message:
            if method != "exit":
                daemon.notify(method, params)
            continue
        print(f"→ {method} {json.dumps(params) if params is not None else ''}")
        try:
            result = daemon.request(method, params)
        except RpcError as e:
            print(f"← error {e}")
            continue
        print(f"← {json.dumps(result)}")
        if isinstance(result, dict) and "source" in result and "version" in result:
            frontend.update(result)
            print("\n".join("   " + l for l in frontend.lines(result["source"])))
    return daemon.close()


WORDS = "grace liam ava ruby stella jack emma olivia ethan amelia lucas noah isla mason chloe".split()


def random_snapshot(rng, full):
    """A random successor of `full` (the daemon's whole snapshot): moves across sections,
    content changes, section inserts/deletes/reorders, header changes, selection policies."""
    items = [i for s in full for i in s["items"]]
    rng.shuffle(items)
    keep = [dict(i) for i in items if rng.random() < 0.8]
    used = {i["id"] for i in items}
    for n in range(rng.randint(0, 4)):  # new items
        iid = f"i{rng.randrange(60)}"
        if iid not in used:
            used.add(iid)
            keep.append({"id": iid})
    for i in keep:
        if "content" not in i or rng.random() < 0.2:  # content change
            r = rng.random()
            i["content"] = {"text": " ".join(rng.sample(WORDS, 2))} if r < 0.8 else (rng.choice(WORDS) if r < 0.9 else None)
            if i["content"] is None:
                del i["content"]
    ids = [s["id"] for s in full if rng.random() < 0.85] + [f"s{rng.randrange(8)}" for _ in range(rng.randint(0, 2))]
    ids = list(dict.fromkeys(ids)) or ["s0"]
    if rng.random() < 0.4:
        rng.shuffle(ids)
    sections = []
    for sid in ids:
        old = next((s for s in full if s["id"] == sid), {})
        s = {"id": sid, "items": []}
        header = old.get("header") if rng.random() < 0.8 else rng.choice([None, sid.upper(), {"title": rng.choice(WORDS)}])
        if header is not None:
            s["header"] = header
        if rng.random() < 0.2:
            s["selection"] = rng.choice(["single", "multiple", "none"])
        sections.append(s)
    # mostly keep each item in its section (so rows move within and across sections)
    home = {i["id"]: s["id"] for s in full for i in s["items"]}
    for i in sorted(keep, key=lambda i: rng.random() if rng.random() < 0.3 else 0):
        target = next((s for s in sections if s["id"] == home.get(i["id"])), None)
        if target is None or rng.random() < 0.25:
            target = rng.choice(sections)
        target["items"].append(i)
    return sections


def selftest(binary, seed, rounds):
    rng = random.Random(seed)
    daemon, frontend = Daemon([binary, "--log-level", "error"]), Frontend()
    daemon.request("initialize", {"initializationOptions": {"supersedeSearches": False}})
    daemon.notify("initialized", {})
    counts = {}

    def verify(what, name, before, result):
        truth = daemon.request("snapshot", {"source": name})
        state = frontend.source(name)
        if normalized(state["sections"]) != normalized(truth["sections"]) or state["version"] != truth["version"] \
                or state["selected"] != set(truth["selected"]):
            raise ReplayError(f"after {what}: model != daemon snapshot\n model:  v{state['version']} "
                              f"{json.dumps(normalized(state['sections']))} selected={sorted(state['selected'])}\n"
                              f" daemon: v{truth['version']} {json.dumps(normalized(truth['sections']))} "
                              f"selected={sorted(truth['selected'])}\n model before: {json.dumps(before)}\n"
                              f" response: {json.dumps(result)}")

    full = {}
    for n in range(rounds):
        name = rng.choice(["people", "fruit"])
        current = full.get(name, [])
        kind = rng.choice(["apply"] * 5 + ["search"] * 3 + ["select", "edit"]) if current else "apply"
        form = rng.choice(["batch", "steps"])
        if kind == "apply":
            params = {"source": name, "sections": random_snapshot(rng, current), "form": form}
        elif kind == "search":
            texts = [i["content"]["text"] for s in current for i in s["items"] if isinstance(i.get("content"), dict)]
            q = rng.choice(texts) if texts else "x"
            start = rng.randrange(len(q))
            params = {"source": name, "query": rng.choice(["", q[start:start + rng.randint(1, 4)], "zz", "gr"]),
                      "mode": rng.choice(["substring", "fuzzy"]), "form": form}
            if rng.random() < 0.5:
                params["sections"] = rng.sample([s["id"] for s in current], rng.randint(1, len(current)))
            if rng.random() < 0.3:
                params["limit"] = rng.randint(0, 5)
            if rng.random() < 0.3:
                params["placeholder"] = {"id": "no-results", "content": {"text": "No results"}}
        elif kind == "select":
            items = [i["id"] for s in current for i in s["items"]]
            params = {"source": name, "action": rng.choice(["select", "deselect", "toggle", "clear"])}
            if params["action"] != "clear" and items:
                params["ids"] = [rng.choice(items)]
        else:
            items = [i["id"] for s in current for i in s["items"]]
            ops = [{"op": "appendItems", "items": [f"e{n}"]}]
            if len(items) >= 2:
                a, b = rng.sample(items, 2)
                ops.append(rng.choice([{"op": "moveItem", "id": a, "before": b}, {"op": "deleteItems", "ids": [a]},
                                       {"op": "setContent", "items": [{"id": a, "content": {"text": rng.choice(WORDS)}}],
                                        **({"style": "reconfigure"} if rng.random() < 0.5 else {})}]))
            params = {"source": name, "ops": ops, "form": form}
        before, result = json.loads(json.dumps(normalized(frontend.source(name)["sections"]))), None
        try:
            result = daemon.request(kind, params)
            frontend.update(result)
            counts[kind] = counts.get(kind, 0) + 1
        except RpcError as e:
            if e.code not in (1004, 1005, -32602):  # rejected edits/selections change nothing
                raise ReplayError(f"{kind} {json.dumps(params)} failed: {e}")
            counts["rejected"] = counts.get("rejected", 0) + 1
        verify(f"round {n}: {kind} {json.dumps(params)}", name, before, result)
        full[name] = daemon.request("snapshot", {"source": name, "full": True})["sections"]
    status = daemon.close()
    print(f"selftest seed {seed}: {rounds} rounds OK {counts}; daemon exit {status}")
    return 0 if status == 0 else 1


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if len(argv) >= 3 and argv[1] == "--selftest":
        opts = dict(zip(argv[3::2], argv[4::2]))
        try:
            return selftest(argv[2], int(opts.get("--seed", 1)), int(opts.get("--rounds", 400)))
        except (ReplayError, RpcError, EOFError) as e:
            print(f"SELFTEST FAILED: {e}", file=sys.stderr)
            return 1
    binary = argv[1] if len(argv) > 1 else os.path.join(here, "../../../.build/debug/diffable")
    return run_example(binary, os.path.join(here, "../../examples/quickstart.jsonl"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
