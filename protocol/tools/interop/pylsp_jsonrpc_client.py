#!/usr/bin/env python3
"""Interop test: python-lsp-jsonrpc drives the daemon unchanged.

    DIFFABLE_BIN=.build/debug/diffable .build/test-venv/bin/python protocol/tools/interop/pylsp_jsonrpc_client.py

`pylsp_jsonrpc.endpoint.Endpoint` over `JsonRpcStreamReader`/`JsonRpcStreamWriter`
on a `subprocess.Popen`'s pipes, as python-lsp-server's own tests drive it:
uuid string ids, `Content-Type: application/vscode-jsonrpc; charset=utf8`,
ujson bodies, `params` left out when None (shutdown, exit). Session:
initialize -> apply -> search -> two failing requests -> shutdown -> exit.
Passes when every answer has the expected values, nothing else arrives, the
daemon exits with 0 within 5 s of `exit` and writes nothing to stderr.
Exit 0 = pass; on failure the last stdout line is `interop-fail: REASON`.
"""
import concurrent.futures
import logging
import os
import subprocess
import sys
import threading

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


def short(data, limit=200):
    text = data.decode(errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "…")


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


class Collect(logging.Handler):
    """Records the library's warnings and errors (unknown ids, unparsable bodies…)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(f"{record.levelname} {record.name}: {record.getMessage()}")


def session(binary):
    try:
        from pylsp_jsonrpc.endpoint import Endpoint
        from pylsp_jsonrpc.exceptions import JsonRpcException
        from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter
    except ImportError as e:
        raise Failure(f"python-lsp-jsonrpc is not importable ({e}); run protocol/tools/install-test-tools")

    collect = Collect()
    logging.getLogger("pylsp_jsonrpc").addHandler(collect)

    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader = JsonRpcStreamReader(proc.stdout)
    writer = JsonRpcStreamWriter(proc.stdin)
    endpoint = Endpoint({}, writer.write)  # no handlers: the daemon never calls the client

    received = []

    def consume(message):
        received.append(message)
        endpoint.consume(message)

    listener = threading.Thread(target=reader.listen, args=(consume,), daemon=True)
    listener.start()

    stderr_chunks = []
    drainer = threading.Thread(target=lambda: stderr_chunks.extend(iter(lambda: proc.stderr.read1(4096), b"")),
                               daemon=True)
    drainer.start()

    def read_stderr():
        """The daemon's stderr to its end; None if still open a second after it exited."""
        drainer.join(1.0)
        return None if drainer.is_alive() else b"".join(stderr_chunks)

    def request(method, params=None):
        future = endpoint.request(method, params)
        try:
            return future.result(timeout=STEP_TIMEOUT)
        except concurrent.futures.TimeoutError:
            raise Failure(f"{method}: no answer within {STEP_TIMEOUT} s"
                          + (f" (daemon exited with {proc.poll()})" if proc.poll() is not None else ""))
        except JsonRpcException as e:
            raise Failure(f"{method}: unexpected error {e.code}: {e.message} data={e.data!r}")

    def request_error(method, params):
        future = endpoint.request(method, params)
        try:
            result = future.result(timeout=STEP_TIMEOUT)
        except concurrent.futures.TimeoutError:
            raise Failure(f"{method}: no answer within {STEP_TIMEOUT} s")
        except JsonRpcException as e:
            return e
        raise Failure(f"{method}: expected an error, got result {result!r}")

    try:
        init = request("initialize", {"processId": os.getpid(),
                                      "initializationOptions": {"form": "batch"}})
        check(init["serverInfo"]["name"] == "diffable", f"initialize: serverInfo {init.get('serverInfo')!r}")
        caps = init["capabilities"]
        check({"apply", "search", "shutdown"} <= set(caps["methods"]), f"initialize: methods {caps['methods']!r}")
        check("content-length" in caps["framings"], f"initialize: framings {caps['framings']!r}")

        applied = request("apply", {"source": "people", "sections": PEOPLE})
        check(applied["source"] == "people" and applied["version"] == 1,
              f"apply: source/version {applied.get('source')!r}/{applied.get('version')!r}")
        check(applied["batch"] == {"sections": {"insert": [{"at": 0, "sections": PEOPLE}]}},
              f"apply: batch {applied['batch']!r}")

        found = request("search", {"source": "people", "query": "gr", "sections": ["staff"]})
        check(found["version"] == 2, f"search: version {found['version']!r}")
        check(found["search"] == {"query": "gr", "matches": 3, "shown": 3}, f"search: {found['search']!r}")
        check(found["batch"] == {"items": {"delete": [{"section": 0, "ranges": [[1, 1]]}]}},
              f"search: batch {found['batch']!r}")
        check([(h["id"], h["path"], h["ranges"]) for h in found["highlights"]] == [
            ("grace", [0, 0], [[0, 2]]), ("ingrid", [0, 1], [[2, 2]]), ("renee", [0, 2], [[6, 2]])],
            f"search: highlights {found['highlights']!r}")

        dup = request_error("apply", {"source": "people", "sections": [
            {"id": "staff", "items": ["grace"]}, {"id": "guests", "items": ["grace"]}]})
        check(dup.code == -32602, f"apply with a duplicate id: code {dup.code} (want -32602): {dup.message}")
        problems = (dup.data or {}).get("problems") or [{}]
        check(problems[0].get("id") == "grace", f"apply with a duplicate id: data {dup.data!r}")

        unknown = request_error("search", {"source": "nobody", "query": "gr"})
        check(unknown.code == 1001, f"search of an unknown source: code {unknown.code} (want 1001): {unknown.message}")
        check(unknown.data == {"source": "nobody"}, f"search of an unknown source: data {unknown.data!r}")

        down = request("shutdown")  # Endpoint leaves out params that are None
        check(down is None, f"shutdown: result {down!r} (want null)")

        endpoint.notify("exit")
        try:
            code = proc.wait(timeout=STEP_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failure(f"daemon still running {STEP_TIMEOUT} s after exit")
        check(code == 0, f"daemon exited with {code} after shutdown + exit (want 0)")

        listener.join(STEP_TIMEOUT)  # the reader stops at end of the daemon's output
        check(not listener.is_alive(), "the stream reader did not see the end of the daemon's output")
        check(len(received) == 6, f"received {len(received)} messages, want 6 answers;"
              f" ids {[m.get('id') for m in received]}, last {received[-1]!r}")
        check(all(isinstance(m.get("id"), str) for m in received), f"answers without our string ids: {received!r}")
        check(not collect.records, f"python-lsp-jsonrpc logged: {collect.records}")
        stderr = read_stderr()
        check(stderr is not None, "the daemon's stderr is still open 1 s after it exited")
        check(not stderr, f"daemon wrote to stderr: {short(stderr)}")
    except Failure as e:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        stderr = read_stderr()
        raise Failure(f"{e} (daemon stderr: {short(stderr)})" if stderr and "stderr" not in str(e) else str(e))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        endpoint.shutdown()


def main():
    binary = os.environ.get("DIFFABLE_BIN") or (sys.argv[1] if len(sys.argv) > 1 else "")
    try:
        check(binary and os.access(binary, os.X_OK), f"DIFFABLE_BIN {binary!r} is not an executable")
        session(binary)
    except Failure as e:
        print(f"interop-fail: {e}", flush=True)
        sys.exit(1)
    except Exception as e:  # a bug in the test or an unexpected library behaviour
        print(f"interop-fail: {type(e).__name__}: {e}", flush=True)
        sys.exit(1)
    print("ok", flush=True)


if __name__ == "__main__":
    main()
