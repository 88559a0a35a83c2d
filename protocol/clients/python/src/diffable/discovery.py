"""Finding the daemon binary.

Order: an explicit argument (a path, or an argv list whose first element is a
path or a command on PATH), else `$DIFFABLE_BIN`, else `diffable` on `PATH`,
else the checkout's `.build/release/diffable` then `.build/debug/diffable`
(the checkout is found by walking up from this file to the directory holding
`Package.swift`, so it works from a source tree, not from an installed copy
unless `search_from` says where to look).

An explicit argument or a set `$DIFFABLE_BIN` is used as given: when it does
not exist the search stops there, so a typo never silently runs another build.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Mapping, Optional, Sequence, Union

from .errors import DaemonNotFound

DaemonSpec = Union[str, "os.PathLike[str]", Sequence[str]]
"""What `Client(daemon=...)` accepts: a path, or an argv list."""


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _resolve_command(command: str, search_path: Optional[str]) -> Optional[str]:
    """`command` itself when it names an executable file, else the PATH lookup of a bare name."""
    if os.sep in command or (os.altsep and os.altsep in command):
        return command if _is_executable(Path(command)) else None
    found = shutil.which(command, path=search_path)
    return found


def checkout_root(search_from: Optional[Path] = None) -> Optional[Path]:
    """The nearest directory at or above `search_from` (default: this module) holding Package.swift."""
    start = (search_from or Path(__file__)).resolve()
    for directory in [start, *start.parents]:
        if (directory / "Package.swift").is_file():
            return directory
    return None


def find_daemon(daemon: Optional[DaemonSpec] = None, *,
                environ: Optional[Mapping[str, str]] = None,
                search_from: Optional[Path] = None) -> list[str]:
    """The argv that starts the daemon, or raises `DaemonNotFound` listing every place looked at."""
    env = os.environ if environ is None else environ
    if daemon is not None:
        argv = [os.fspath(daemon)] if isinstance(daemon, (str, os.PathLike)) else [str(a) for a in daemon]
        if not argv:
            raise DaemonNotFound(["the explicit argument (an empty argv list)"], "no daemon given")
        found = _resolve_command(argv[0], env.get("PATH"))
        if found is None:
            raise DaemonNotFound([f"the explicit argument: {argv[0]} (not an executable file)"])
        return [found, *argv[1:]]

    looked_in: list[str] = []
    from_env = env.get("DIFFABLE_BIN")
    if from_env:
        found = _resolve_command(from_env, env.get("PATH"))
        if found is None:
            raise DaemonNotFound([f"$DIFFABLE_BIN: {from_env} (not an executable file)"])
        return [found]
    looked_in.append("$DIFFABLE_BIN (not set)")

    on_path = shutil.which("diffable", path=env.get("PATH"))
    if on_path:
        return [on_path]
    looked_in.append(f"`diffable` on $PATH ({env.get('PATH', '')})")

    root = checkout_root(search_from)
    if root is None:
        looked_in.append(f"a checkout's .build/release and .build/debug (no Package.swift above "
                         f"{(search_from or Path(__file__)).resolve()})")
    else:
        for configuration in ("release", "debug"):
            candidate = root / ".build" / configuration / "diffable"
            if _is_executable(candidate):
                return [str(candidate)]
            looked_in.append(str(candidate))
    raise DaemonNotFound(looked_in)
