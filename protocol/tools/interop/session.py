"""What the Python interop clients share: the session's requests, the answers
they expect and the checks on them. Each client script (pygls_client.py,
pylsp_jsonrpc_client.py) keeps only what is specific to its library: how it
starts the daemon, sends requests and notifications, and collects messages.

The scripts run as scripts and import this module by putting their own folder
first on `sys.path`.
"""
import logging
import os
import sys

STEP_TIMEOUT = 5.0

PEOPLE = [
    {"id": "staff", "header": "Staff", "items": [
        {"id": "grace", "content": {"text": "Grace Hopper"}},
        {"id": "alan", "content": {"text": "Alan Turing"}},
        {"id": "ingrid", "content": {"text": "Ingrid Daubechies"}},
        {"id": "renee", "content": {"text": "Renée Grégoire"}},
    ]},
    {"id": "guests", "header": "Guests", "items": [
        {"id": "greg", "content": {"text": "Greg Egan"}},
        {"id": "linus", "content": {"text": "Linus Torvalds"}},
    ]},
]

# (method, params) of each step, in the order the session sends them.
INITIALIZE = ("initialize", {"processId": os.getpid(), "initializationOptions": {"form": "batch"}})
APPLY = ("apply", {"source": "people", "sections": PEOPLE})
SEARCH = ("search", {"source": "people", "query": "gr", "sections": ["staff"]})
APPLY_DUPLICATE = ("apply", {"source": "people", "sections": [
    {"id": "staff", "items": ["grace"]}, {"id": "guests", "items": ["grace"]}]})
SEARCH_UNKNOWN = ("search", {"source": "nobody", "query": "gr"})

# Answers the session sends: six, one per request (exit is a notification).
ANSWERS = 6

HIGHLIGHTS = [
    {"id": "grace", "path": [0, 0], "ranges": [[0, 2]]},
    {"id": "ingrid", "path": [0, 1], "ranges": [[2, 2]]},
    {"id": "renee", "path": [0, 2], "ranges": [[6, 2]]},
]


def short(data, limit=200):
    text = data.decode(errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "…")


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def plain(value):
    """pygls hands untyped results over as namedtuples (`_dict_to_object`); back to dicts."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class Collect(logging.Handler):
    """Records a library's warnings and errors (unknown ids, unparsable bodies…)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(f"{record.levelname} {record.name}: {record.getMessage()}")


def no_answer(method, exit_code=None):
    """The Failure for a request left unanswered for STEP_TIMEOUT s."""
    return Failure(f"{method}: no answer within {STEP_TIMEOUT} s"
                   + (f" (daemon exited with {exit_code})" if exit_code is not None else ""))


def unexpected_error(method, e):
    return Failure(f"{method}: unexpected error {e.code}: {e.message} data={e.data!r}")


def unexpected_result(method, result):
    return Failure(f"{method}: expected an error, got result {result!r}")


def check_initialize(init, default_form=True):
    check(init["serverInfo"]["name"] == "diffable", f"initialize: serverInfo {init.get('serverInfo')!r}")
    caps = init["capabilities"]
    check({"apply", "search", "shutdown"} <= set(caps["methods"]), f"initialize: methods {caps['methods']!r}")
    if default_form:
        check(caps["defaultForm"] == "batch", f"initialize: defaultForm {caps['defaultForm']!r}")
    check("content-length" in caps["framings"], f"initialize: framings {caps['framings']!r}")


def check_apply(applied):
    check(applied["source"] == "people" and applied["version"] == 1,
          f"apply: source/version {applied.get('source')!r}/{applied.get('version')!r}")
    check(applied["batch"] == {"sections": {"insert": [{"at": 0, "sections": PEOPLE}]}},
          f"apply: batch {applied['batch']!r}")


def check_search(found, exact_highlights=True):
    """exact_highlights=False compares only each highlight's id, path and ranges."""
    check(found["version"] == 2, f"search: version {found['version']!r}")
    check(found["search"] == {"query": "gr", "matches": 3, "shown": 3}, f"search: {found['search']!r}")
    check(found["batch"] == {"items": {"delete": [{"section": 0, "ranges": [[1, 1]]}]}},
          f"search: batch {found['batch']!r}")
    if exact_highlights:
        same = found["highlights"] == HIGHLIGHTS
    else:
        same = ([(h["id"], h["path"], h["ranges"]) for h in found["highlights"]]
                == [(h["id"], h["path"], h["ranges"]) for h in HIGHLIGHTS])
    check(same, f"search: highlights {found['highlights']!r}")


def check_duplicate_error(dup):
    check(dup.code == -32602, f"apply with a duplicate id: code {dup.code} (want -32602): {dup.message}")
    problems = (dup.data or {}).get("problems") or [{}]
    check(problems[0].get("id") == "grace", f"apply with a duplicate id: data {dup.data!r}")


def check_unknown_error(unknown):
    check(unknown.code == 1001, f"search of an unknown source: code {unknown.code} (want 1001): {unknown.message}")
    check(unknown.data == {"source": "nobody"}, f"search of an unknown source: data {unknown.data!r}")


def check_shutdown(down):
    check(down is None, f"shutdown: result {down!r} (want null)")


def check_exit_code(code):
    check(code == 0, f"daemon exited with {code} after shutdown + exit (want 0)")


def check_received(received, message_id):
    """message_id(message) gives a received message's id, however the library represents it."""
    check(len(received) == ANSWERS, f"received {len(received)} messages, want {ANSWERS} answers;"
          f" ids {[message_id(m) for m in received]}, last {received[-1]!r}")


def check_stderr(stderr):
    """stderr: the daemon's whole stderr, or None if it was still open 1 s after the daemon exited."""
    check(stderr is not None, "the daemon's stderr is still open 1 s after it exited")
    check(not stderr, f"daemon wrote to stderr: {short(stderr)}")


def with_stderr(e, stderr):
    """The Failure to report for `e`, with the daemon's stderr added when it said something."""
    return Failure(f"{e} (daemon stderr: {short(stderr)})" if stderr and "stderr" not in str(e) else str(e))


def main(run):
    """Runs `run(binary)` on $DIFFABLE_BIN (or argv[1]); prints `ok` or `interop-fail: REASON`."""
    binary = os.environ.get("DIFFABLE_BIN") or (sys.argv[1] if len(sys.argv) > 1 else "")
    try:
        check(binary and os.access(binary, os.X_OK), f"DIFFABLE_BIN {binary!r} is not an executable")
        run(binary)
    except Failure as e:
        print(f"interop-fail: {e}", flush=True)
        sys.exit(1)
    except Exception as e:  # a bug in the test or an unexpected library behaviour
        print(f"interop-fail: {type(e).__name__}: {e}", flush=True)
        sys.exit(1)
    print("ok", flush=True)
