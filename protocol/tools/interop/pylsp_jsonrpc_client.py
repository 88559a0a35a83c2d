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

sys.dont_write_bytecode = True  # no __pycache__ for session.py in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session import (  # noqa: E402  (run as a script: its own folder first)
    APPLY, APPLY_DUPLICATE, INITIALIZE, SEARCH, SEARCH_UNKNOWN, STEP_TIMEOUT, Collect, Failure, check,
    check_apply, check_duplicate_error, check_exit_code, check_initialize, check_received, check_search,
    check_shutdown, check_stderr, check_unknown_error, main, no_answer, unexpected_error, unexpected_result,
    with_stderr)


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
            raise no_answer(method, proc.poll())
        except JsonRpcException as e:
            raise unexpected_error(method, e)

    def request_error(method, params):
        future = endpoint.request(method, params)
        try:
            result = future.result(timeout=STEP_TIMEOUT)
        except concurrent.futures.TimeoutError:
            raise no_answer(method)
        except JsonRpcException as e:
            return e
        raise unexpected_result(method, result)

    try:
        # This client does not check capabilities.defaultForm, and compares only
        # the highlights' id, path and ranges.
        check_initialize(request(*INITIALIZE), default_form=False)
        check_apply(request(*APPLY))
        check_search(request(*SEARCH), exact_highlights=False)
        check_duplicate_error(request_error(*APPLY_DUPLICATE))
        check_unknown_error(request_error(*SEARCH_UNKNOWN))
        check_shutdown(request("shutdown"))  # Endpoint leaves out params that are None

        endpoint.notify("exit")
        try:
            code = proc.wait(timeout=STEP_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failure(f"daemon still running {STEP_TIMEOUT} s after exit")
        check_exit_code(code)

        listener.join(STEP_TIMEOUT)  # the reader stops at end of the daemon's output
        check(not listener.is_alive(), "the stream reader did not see the end of the daemon's output")
        check_received(received, lambda m: m.get("id"))
        check(all(isinstance(m.get("id"), str) for m in received), f"answers without our string ids: {received!r}")
        check(not collect.records, f"python-lsp-jsonrpc logged: {collect.records}")
        check_stderr(read_stderr())
    except Failure as e:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        raise with_stderr(e, read_stderr())
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        endpoint.shutdown()


if __name__ == "__main__":
    main(session)
