"""Shared by the tests: imports the package from ../src, finds the daemon and the fake server."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PACKAGE_ROOT / "src"))

import diffable  # noqa: E402  (needs the path above)

__all__ = ["PACKAGE_ROOT", "FAKE_SERVER", "daemon_argv", "diffable", "env_int", "fake_server"]

FAKE_SERVER = Path(__file__).resolve().parent / "fake_server.py"


def daemon_argv() -> List[str]:
    """The real daemon: $DIFFABLE_BIN, else wherever `diffable.find_daemon` finds it.
    Raises DaemonNotFound when there is none: tests that need it then fail, never skip."""
    return diffable.find_daemon()


def fake_server(*flags: str) -> List[str]:
    """argv of the fake daemon (tests/fake_server.py) with its flags."""
    return [sys.executable, str(FAKE_SERVER), *flags]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default
