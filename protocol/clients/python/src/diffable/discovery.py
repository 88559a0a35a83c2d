"""Finding the daemon binary.

Order: an explicit argument (a path, or an argv list whose first element is a
path or a command on PATH), else `$DIFFABLE_BIN`, else the daemon bundled with
this package, else `diffable` on `PATH`, else the checkout's
`.build/release/diffable` then `.build/debug/diffable`.

The bundled daemon is the `diffable` file the installed distribution recorded
(a wheel built by protocol/tools/package installs it into the environment's
scripts folder, `venv/bin/diffable`), so a `Client()` in a venv finds it even
when that venv is not on PATH. The checkout is found by walking up from this
file to the directory holding `Package.swift`, so it works from a source tree,
not from an installed copy unless `search_from` says where to look.

An explicit argument or a set `$DIFFABLE_BIN` is used as given: when it does
not exist the search stops there, so a typo never silently runs another build.
"""
from __future__ import annotations

import os
import shutil
from importlib import metadata
from pathlib import Path
from typing import Mapping, Optional, Sequence, Tuple, Union

from .errors import DaemonNotFound

DaemonSpec = Union[str, "os.PathLike[str]", Sequence[str]]
"""What `Client(daemon=...)` accepts: a path, or an argv list."""

PACKAGE_DIR = Path(__file__).resolve().parent


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


def bundled_daemon(package_dir: Optional[Path] = None) -> Tuple[Optional[str], str]:
    """The daemon installed together with the package at `package_dir` (default: this one),
    and a description of where it was looked for.

    It is the file named `diffable` in the RECORD of the `diffable` distribution that sits
    next to the package folder; a copy run from a source tree has no such distribution.
    """
    package = (package_dir or PACKAGE_DIR).resolve()
    for dist in metadata.distributions(path=[str(package.parent)]):
        if (dist.metadata["Name"] or "").lower() != "diffable":
            continue
        # RECORD paths are relative to the install folder, written lexically (../../../bin/diffable)
        files = {Path(os.path.normpath(str(dist.locate_file(file)))): file for file in dist.files or ()}
        if package / "__init__.py" not in files:
            continue  # another copy's metadata (an egg-info in a source tree)
        for candidate, file in files.items():
            if file.name == "diffable":
                if _is_executable(candidate):
                    return str(candidate), str(candidate)
                return None, f"the daemon bundled with the package: {candidate} (not an executable file)"
        return None, (f"the daemon bundled with the package (none: diffable {dist.version} in {package.parent} "
                      "was installed without one)")
    return None, f"the daemon bundled with the package (none: {package} is not an installed package)"


def _advice(root: Optional[Path]) -> str:
    """What to do when no daemon was found: build it in a checkout, else install a package that bundles it."""
    if root is not None:
        return (f"Build it with `swift build -c release` (in {root}), or put `diffable` on $PATH, "
                "set $DIFFABLE_BIN, or pass its path.")
    return ("Install a package that bundles it (`pip install diffable-VERSION-py3-none-manylinux_…_x86_64.whl`, "
            "from a release or from `protocol/tools/package` in a checkout), or put `diffable` on $PATH, "
            "set $DIFFABLE_BIN, or pass its path.")


def find_daemon(daemon: Optional[DaemonSpec] = None, *,
                environ: Optional[Mapping[str, str]] = None,
                search_from: Optional[Path] = None,
                package_dir: Optional[Path] = None) -> list[str]:
    """The argv that starts the daemon, or raises `DaemonNotFound` listing every place looked at.

    `environ`: where $DIFFABLE_BIN and $PATH are read (default os.environ); `search_from`: where
    the walk up to Package.swift starts (default: this module); `package_dir`: the installed
    package whose bundled daemon is looked for (default: this one).
    """
    env = os.environ if environ is None else environ
    if daemon is not None:
        argv = [os.fspath(daemon)] if isinstance(daemon, (str, os.PathLike)) else [str(a) for a in daemon]
        if not argv:
            raise DaemonNotFound(["the explicit argument (an empty argv list)"], "no daemon given",
                                 advice="Pass a path or a non-empty argv list.")
        found = _resolve_command(argv[0], env.get("PATH"))
        if found is None:
            raise DaemonNotFound([f"the explicit argument: {argv[0]} (not an executable file)"],
                                 advice="Pass the path of an executable `diffable`, or nothing to search for one.")
        return [found, *argv[1:]]

    looked_in: list[str] = []
    from_env = env.get("DIFFABLE_BIN")
    if from_env:
        found = _resolve_command(from_env, env.get("PATH"))
        if found is None:
            raise DaemonNotFound([f"$DIFFABLE_BIN: {from_env} (not an executable file)"],
                                 advice="Point $DIFFABLE_BIN at an executable `diffable`, "
                                        "or unset it to search the usual places.")
        return [found]
    looked_in.append("$DIFFABLE_BIN (not set)")

    bundled, where = bundled_daemon(package_dir)
    if bundled:
        return [bundled]
    looked_in.append(where)

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
    raise DaemonNotFound(looked_in, advice=_advice(root))
