"""This package's version, and the warning about a daemon of another version.

Daemon and packages share one version number (Sources/DiffableServer/Server/ServerVersion.swift;
protocol/tools/package writes it into the wheel's copy of this file). A daemon of another
MAJOR.MINOR may answer with members this client does not know, or miss ones it expects, so the
client warns once per session; a different PATCH changes no message and says nothing.
"""
from __future__ import annotations

import re
import warnings
from typing import Any, Optional, Tuple

__version__ = "0.1.0"


class DaemonVersionWarning(UserWarning):
    """The daemon's `initialize` answer names another MAJOR.MINOR than this client's `__version__`.
    `daemon_version` is what the daemon said, `client_version` this package's version, `daemon`
    the program that was started."""

    def __init__(self, message: str, daemon_version: str, client_version: str, daemon: str) -> None:
        super().__init__(message)
        self.daemon_version, self.client_version, self.daemon = daemon_version, client_version, daemon


def major_minor(version: object) -> Optional[Tuple[int, int]]:
    """(MAJOR, MINOR) of a version string such as "0.1.0" or "1.2.3-beta"; None when it does not
    start with two dot-separated numbers."""
    found = re.match(r"(\d+)\.(\d+)(?:\D|$)", version) if isinstance(version, str) else None
    return (int(found.group(1)), int(found.group(2))) if found else None


def daemon_version_warning(initialize_result: Any, daemon: str,
                           client_version: str = __version__) -> Optional[DaemonVersionWarning]:
    """The warning a client gives for this `initialize` result, or None. A daemon whose version
    cannot be read as MAJOR.MINOR (or that sends no `serverInfo`) gets none: there is nothing
    reliable to compare."""
    info = initialize_result.get("serverInfo") if isinstance(initialize_result, dict) else None
    said = info.get("version") if isinstance(info, dict) else None
    theirs, ours = major_minor(said), major_minor(client_version)
    if theirs is None or ours is None or theirs == ours:
        return None
    message = (f"the diffable daemon {daemon} is version {said} and this Python client is {client_version}: "
               "a daemon and a client of another MAJOR.MINOR may not understand each other. Use the daemon "
               f"that came with this client (the wheel installs it), or point `daemon=` or $DIFFABLE_BIN at a "
               f"{ours[0]}.{ours[1]}.x daemon.")
    return DaemonVersionWarning(message, str(said), client_version, daemon)


def warn_about_daemon_version(initialize_result: Any, daemon: str, stacklevel: int) -> None:
    """`warnings.warn`s `daemon_version_warning`'s warning, if any; `stacklevel` counts from the caller."""
    warning = daemon_version_warning(initialize_result, daemon)
    if warning is not None:
        warnings.warn(warning, stacklevel=stacklevel + 1)
