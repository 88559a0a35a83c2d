#!/usr/bin/env python3
"""Compatibility entry point; the client is the `diffable` package in src/ (see ../README.md).

    diffable_client.py [BINARY]                 run protocol/examples/quickstart.jsonl, print each change
    diffable_client.py --selftest BINARY [--seed N] [--rounds N]
                                                seeded random session checked against `snapshot`

Runs from the source tree without installing (src/ is put first on sys.path).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from diffable.cli import main  # noqa: E402  (needs the path above)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
