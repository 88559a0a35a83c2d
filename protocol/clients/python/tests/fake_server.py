#!/usr/bin/env python3
"""A fake diffable daemon for the client tests: speaks the same framing (picked from the
first byte, like the daemon) and sends what the real daemon does not send yet
(`$/progress`, `window/logMessage`, requests to the client), answers late, or dies.

Methods:
  initialize, shutdown, exit          the lifecycle (exit status 0 after shutdown, else 1)
  fake/echo {...}                     answers {"params": params}; with a workDoneToken it first
                                      sends $/progress begin, report (50 %), end, and a logMessage
  fake/sleep {seconds}                answers {"slept": seconds} after sleeping (one thing at a time)
  fake/received                       answers {"messages": [every message received so far]}
  fake/notify {method, params}        sends that notification, then answers {}
  fake/serverRequest {method}         sends a request to the client, answers {"reply": its response}
  fake/die {code, stderr}             writes the stderr lines and exits with code, answering nothing
Flags: --ignore-exit (never exits on its own: the client must kill it),
       --die-on-initialize (writes to stderr and exits 3 instead of answering initialize),
       --server-version V (the `serverInfo.version` initialize answers; default "0", which no
       client reads as a MAJOR.MINOR, so it never warns about it).
Other arguments (the Neovim client's `--log-level error`) are ignored.
"""
import json
import sys
import time

stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
flags = set(sys.argv[1:])
arguments = sys.argv[1:]
server_version = arguments[arguments.index("--server-version") + 1] if "--server-version" in arguments[:-1] else "0"
framing = None
received = []


def read():
    global framing
    if framing is None:
        first = stdin.peek(1)[:1] if hasattr(stdin, "peek") else b""
        framing = "newline" if first in (b"{", b"[") else "content-length"
    if framing == "newline":
        while True:
            line = stdin.readline()
            if not line:
                return None
            if line.strip():
                return json.loads(line)
    length = None
    while True:
        line = stdin.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            if length is not None:
                break
            continue
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    return json.loads(stdin.read(length))


def write(message):
    body = json.dumps(message).encode("utf-8")
    stdout.write(body + b"\n" if framing == "newline" else b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stdout.flush()


def notify(method, params):
    write({"jsonrpc": "2.0", "method": method, "params": params})


def answer(message, result):
    write({"jsonrpc": "2.0", "id": message["id"], "result": result})


def linger():
    """--ignore-exit: stay alive until killed."""
    while True:
        time.sleep(60)


def main():
    shut_down = False
    while True:
        message = read()
        if message is None:
            if "--ignore-exit" in flags:
                linger()
            return 0
        received.append(message)
        method, params = message.get("method"), message.get("params") or {}
        if "id" not in message:
            if method == "exit" and "--ignore-exit" not in flags:
                return 0 if shut_down else 1
            continue
        if method == "initialize":
            if "--die-on-initialize" in flags:
                sys.stderr.write("fake: starting\nfake: cannot open the frobnicator\n")
                sys.stderr.flush()
                return 3
            answer(message, {"serverInfo": {"name": "fake", "version": server_version}, "capabilities": {}})
        elif method == "shutdown":
            shut_down = True
            answer(message, None)
        elif method == "fake/echo":
            token = params.get("workDoneToken")
            if token is not None:
                notify("$/progress", {"token": token, "value": {"kind": "begin", "title": "Echoing", "percentage": 0}})
                notify("$/progress", {"token": token, "value": {"kind": "report", "percentage": 50,
                                                                "message": "half way"}})
                notify("window/logMessage", {"type": 3, "message": f"echo with token {token}"})
                notify("$/progress", {"token": token, "value": {"kind": "end", "message": "done"}})
            answer(message, {"params": params})
        elif method == "fake/sleep":
            time.sleep(params.get("seconds", 1))
            answer(message, {"slept": params.get("seconds", 1)})
        elif method == "fake/received":
            answer(message, {"messages": received})
        elif method == "fake/notify":
            notify(params["method"], params.get("params"))
            answer(message, {})
        elif method == "fake/serverRequest":
            write({"jsonrpc": "2.0", "id": "from-server", "method": params["method"], "params": {"token": "t"}})
            while True:
                reply = read()
                if reply is None or reply.get("id") == "from-server":
                    break
            answer(message, {"reply": reply})
        elif method == "fake/die":
            sys.stderr.write("".join(line + "\n" for line in params.get("stderr", [])))
            sys.stderr.flush()
            return params.get("code", 2)
        else:
            write({"jsonrpc": "2.0", "id": message["id"],
                   "error": {"code": -32601, "message": f"Method not found: {method}", "data": {"method": method}}})


if __name__ == "__main__":
    sys.exit(main())
