"""Command line: `python -m diffable [BINARY]` and `python -m diffable --selftest BINARY [--seed N] [--rounds N]`.

Without `--selftest` it plays protocol/examples/quickstart.jsonl (found in the
checkout, or given with `--example FILE`) and prints every change and the list
it leaves. `--selftest` runs `diffable.selftest.run_session`; exit 1 on a
mismatch.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from .client import Client
from .discovery import checkout_root
from .errors import DiffableError, RpcError
from .frontend import Frontend
from .selftest import run_session


def run_example(binary: Optional[str], example: Path) -> int:
    frontend = Frontend()
    with Client(binary) as client:
        for line in example.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            message = json.loads(line)
            method, params = message["method"], message.get("params")
            if method in ("initialize", "initialized", "shutdown", "exit"):
                continue  # the client runs the session's lifecycle itself
            if "id" not in message:
                client.notify(method, params)
                continue
            print(f"→ {method} {json.dumps(params) if params is not None else ''}")
            try:
                result = client.request(method, params)
            except RpcError as error:
                print(f"← error {error.code}: {error.message}")
                continue
            print(f"← {json.dumps(result)}")
            if isinstance(result, dict) and "source" in result and "version" in result and method != "drop":
                frontend.update(result)
                print("\n".join("   " + rendered for rendered in frontend.lines(result["source"])))
        status = client.close()
    print(f"daemon exit {status}")
    return 0 if status == 0 else 1


def selftest(binary: Optional[str], seed: int, rounds: int) -> int:
    client = Client(binary, daemon_args=["--log-level", "error"],
                    initialization_options={"supersedeSearches": False})
    with client:
        counts = run_session(client, seed, rounds)
        status = client.close()
    print(f"selftest seed {seed}: {rounds} rounds OK {dict(sorted(counts.items()))}; daemon exit {status}")
    return 0 if status == 0 else 1


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="diffable", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("binary", nargs="?", help="the daemon (default: $DIFFABLE_BIN, PATH, the checkout's build)")
    parser.add_argument("--selftest", action="store_true", help="run a seeded random session checked by snapshot")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--example", type=Path, help="a .jsonl session to play (default: the quickstart)")
    args = parser.parse_args(list(argv))
    try:
        if args.selftest:
            return selftest(args.binary, args.seed, args.rounds)
        example = args.example
        if example is None:
            root = checkout_root()
            if root is None:
                parser.error("no checkout around this package: pass --example FILE")
            example = root / "protocol" / "examples" / "quickstart.jsonl"
        return run_example(args.binary, example)
    except DiffableError as error:
        print(f"{'SELFTEST ' if args.selftest else ''}FAILED: {error}", file=sys.stderr)
        return 1


def entry_point() -> None:
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    entry_point()
