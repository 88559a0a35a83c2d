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

sys.dont_write_bytecode = True  # no __pycache__ for session.py in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session import (  # noqa: E402  (run as a script: its own folder first)
    APPLY, APPLY_DUPLICATE, INITIALIZE, SEARCH, SEARCH_UNKNOWN, STEP_TIMEOUT, Collect, Failure, check,
    check_apply, check_duplicate_error, check_exit_code, check_initialize, check_received, check_search,
    check_shutdown, check_stderr, check_unknown_error, main, no_answer, plain, unexpected_error,
    unexpected_result, with_stderr)


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
            raise no_answer(method, proc.returncode)
        except JsonRpcException as e:
            raise unexpected_error(method, e)
        except RuntimeError as e:  # pygls: "Server process … exited with return code"
            raise Failure(f"{method}: {e}")

    async def request_error(method, params):
        try:
            result = await asyncio.wait_for(client.protocol.send_request_async(method, params), STEP_TIMEOUT)
        except asyncio.TimeoutError:
            raise no_answer(method)
        except JsonRpcException as e:
            return e
        raise unexpected_result(method, result)

    try:
        check_initialize(await request(*INITIALIZE))
        check_apply(await request(*APPLY))
        check_search(await request(*SEARCH))
        check_duplicate_error(await request_error(*APPLY_DUPLICATE))
        check_unknown_error(await request_error(*SEARCH_UNKNOWN))
        check_shutdown(await request("shutdown"))  # no params: pygls sends "params": null

        client.protocol.notify("exit")  # "params": null as well
        try:
            code = await asyncio.wait_for(proc.wait(), STEP_TIMEOUT)
        except asyncio.TimeoutError:
            raise Failure(f"daemon still running (or its pipes still open) {STEP_TIMEOUT} s after exit")
        check_exit_code(code)

        await asyncio.sleep(0.05)  # let pygls's reader drain what was sent before the exit
        check_received(received, lambda m: getattr(m, "id", None))
        check(not collect.records, f"pygls logged: {collect.records}")
        check(not server_errors, f"pygls reported: {server_errors}")
        check_stderr(await read_stderr())
    except Failure as e:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        raise with_stderr(e, await read_stderr())
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        try:
            await asyncio.wait_for(client.stop(), STEP_TIMEOUT)
        except Exception:
            pass


if __name__ == "__main__":
    main(lambda binary: asyncio.run(session(binary)))
