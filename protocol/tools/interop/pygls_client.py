#!/usr/bin/env python3
"""Interop test: pygls 2.x `JsonRPCClient` drives the daemon unchanged.

    DIFFABLE_BIN=.build/debug/diffable .build/test-venv/bin/python protocol/tools/interop/pygls_client.py

Session: initialize -> apply -> search -> two failing requests -> shutdown
(pygls sends `"params": null`) -> exit (`"params": null` too). Passes when
every answer has the expected values, nothing else arrives, the daemon exits
with 0 within 5 s of `exit` and writes nothing to stderr. The daemon is
started as `diffable --stdio`, as editors do. Exit 0 = pass; on failure the
last stdout line is `interop-fail: REASON`.
"""
import asyncio
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


def plain(value):
    """pygls hands untyped results over as namedtuples (`_dict_to_object`); back to dicts."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def short(data, limit=200):
    text = data.decode(errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "…")


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


class Collect(logging.Handler):
    """Records pygls's warnings and errors (e.g. a response to an unknown id)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(f"{record.levelname} {record.name}: {record.getMessage()}")


async def session(binary):
    try:
        from pygls.client import JsonRPCClient
        from pygls.exceptions import JsonRpcException
        import importlib.metadata as md
    except ImportError as e:
        raise Failure(f"pygls is not importable ({e}); run protocol/tools/install-test-tools")
    version = md.version("pygls")
    check(int(version.split(".")[0]) >= 2, f"pygls {version} < 2; run protocol/tools/install-test-tools")

    collect = Collect()
    logging.getLogger("pygls").addHandler(collect)

    client = JsonRPCClient()
    server_errors = []
    client.report_server_error = lambda error, source: server_errors.append(f"{source.__name__}: {error!r}")

    # Observe (not alter) every message pygls hands to its protocol.
    received = []
    handle_message = client.protocol.handle_message

    def observe(message):
        received.append(message)
        return handle_message(message)

    client.protocol.handle_message = observe

    await client.start_io(binary, "--stdio")
    proc = client._server  # the asyncio.subprocess.Process pygls started

    async def read_stderr():
        """The daemon's stderr to its end; None if still open a second after it exited."""
        try:
            return await asyncio.wait_for(proc.stderr.read(), 1.0)
        except asyncio.TimeoutError:
            return None

    async def request(method, params=None):
        fut = client.protocol.send_request_async(method, params)
        try:
            return plain(await asyncio.wait_for(fut, STEP_TIMEOUT))
        except asyncio.TimeoutError:
            raise Failure(f"{method}: no answer within {STEP_TIMEOUT} s"
                          + (f" (daemon exited with {proc.returncode})" if proc.returncode is not None else ""))
        except JsonRpcException as e:
            raise Failure(f"{method}: unexpected error {e.code}: {e.message} data={e.data!r}")
        except RuntimeError as e:  # pygls: "Server process … exited with return code"
            raise Failure(f"{method}: {e}")

    async def request_error(method, params):
        try:
            result = await asyncio.wait_for(client.protocol.send_request_async(method, params), STEP_TIMEOUT)
        except asyncio.TimeoutError:
            raise Failure(f"{method}: no answer within {STEP_TIMEOUT} s")
        except JsonRpcException as e:
            return e
        raise Failure(f"{method}: expected an error, got result {result!r}")

    try:
        init = await request("initialize", {"processId": os.getpid(),
                                            "initializationOptions": {"form": "batch"}})
        check(init["serverInfo"]["name"] == "diffable", f"initialize: serverInfo {init.get('serverInfo')!r}")
        caps = init["capabilities"]
        check({"apply", "search", "shutdown"} <= set(caps["methods"]), f"initialize: methods {caps['methods']!r}")
        check(caps["defaultForm"] == "batch", f"initialize: defaultForm {caps['defaultForm']!r}")
        check("content-length" in caps["framings"], f"initialize: framings {caps['framings']!r}")

        applied = await request("apply", {"source": "people", "sections": PEOPLE})
        check(applied["source"] == "people" and applied["version"] == 1,
              f"apply: source/version {applied.get('source')!r}/{applied.get('version')!r}")
        check(applied["batch"] == {"sections": {"insert": [{"at": 0, "sections": PEOPLE}]}},
              f"apply: batch {applied['batch']!r}")

        found = await request("search", {"source": "people", "query": "gr", "sections": ["staff"]})
        check(found["version"] == 2, f"search: version {found['version']!r}")
        check(found["search"] == {"query": "gr", "matches": 3, "shown": 3}, f"search: {found['search']!r}")
        check(found["batch"] == {"items": {"delete": [{"section": 0, "ranges": [[1, 1]]}]}},
              f"search: batch {found['batch']!r}")
        check(found["highlights"] == [
            {"id": "grace", "path": [0, 0], "ranges": [[0, 2]]},
            {"id": "ingrid", "path": [0, 1], "ranges": [[2, 2]]},
            {"id": "renee", "path": [0, 2], "ranges": [[6, 2]]},
        ], f"search: highlights {found['highlights']!r}")

        dup = await request_error("apply", {"source": "people", "sections": [
            {"id": "staff", "items": ["grace"]}, {"id": "guests", "items": ["grace"]}]})
        check(dup.code == -32602, f"apply with a duplicate id: code {dup.code} (want -32602): {dup.message}")
        problems = (dup.data or {}).get("problems") or [{}]
        check(problems[0].get("id") == "grace", f"apply with a duplicate id: data {dup.data!r}")

        unknown = await request_error("search", {"source": "nobody", "query": "gr"})
        check(unknown.code == 1001, f"search of an unknown source: code {unknown.code} (want 1001): {unknown.message}")
        check(unknown.data == {"source": "nobody"}, f"search of an unknown source: data {unknown.data!r}")

        down = await request("shutdown")  # no params: pygls sends "params": null
        check(down is None, f"shutdown: result {down!r} (want null)")

        client.protocol.notify("exit")  # "params": null as well
        try:
            code = await asyncio.wait_for(proc.wait(), STEP_TIMEOUT)
        except asyncio.TimeoutError:
            raise Failure(f"daemon still running (or its pipes still open) {STEP_TIMEOUT} s after exit")
        check(code == 0, f"daemon exited with {code} after shutdown + exit (want 0)")

        await asyncio.sleep(0.05)  # let pygls's reader drain what was sent before the exit
        check(len(received) == 6, f"received {len(received)} messages, want 6 answers;"
              f" ids {[getattr(m, 'id', None) for m in received]}, last {received[-1]!r}")
        check(not collect.records, f"pygls logged: {collect.records}")
        check(not server_errors, f"pygls reported: {server_errors}")
        stderr = await read_stderr()
        check(stderr is not None, "the daemon's stderr is still open 1 s after it exited")
        check(not stderr, f"daemon wrote to stderr: {short(stderr)}")
    except Failure as e:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        stderr = await read_stderr()
        raise Failure(f"{e} (daemon stderr: {short(stderr)})" if stderr and "stderr" not in str(e) else str(e))
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        try:
            await asyncio.wait_for(client.stop(), STEP_TIMEOUT)
        except Exception:
            pass


def main():
    binary = os.environ.get("DIFFABLE_BIN") or (sys.argv[1] if len(sys.argv) > 1 else "")
    try:
        check(binary and os.access(binary, os.X_OK), f"DIFFABLE_BIN {binary!r} is not an executable")
        asyncio.run(session(binary))
    except Failure as e:
        print(f"interop-fail: {e}", flush=True)
        sys.exit(1)
    except Exception as e:  # a bug in the test or an unexpected library behaviour
        print(f"interop-fail: {type(e).__name__}: {e}", flush=True)
        sys.exit(1)
    print("ok", flush=True)


if __name__ == "__main__":
    main()
