"""One version for daemon and package, and the DaemonVersionWarning a client gives once when the
daemon's `initialize` answer names another MAJOR.MINOR (tests/fake_server.py --server-version)."""
from __future__ import annotations

import asyncio
import re
import unittest
import warnings
from typing import List

from support import PACKAGE_ROOT, daemon_argv, diffable, fake_server
from diffable import AsyncClient, Client, DaemonVersionWarning
from diffable.version import major_minor

MAJOR, MINOR, PATCH = (int(part) for part in diffable.__version__.split("."))


def caught(*flags: str) -> List[warnings.WarningMessage]:
    """The warnings a sync client started on the fake server with `flags` gives (every one recorded)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with Client(fake_server(*flags)) as client:
            client.request("fake/echo", {})
    return seen


def version_warnings(seen: List[warnings.WarningMessage]) -> List[DaemonVersionWarning]:
    return [w.message for w in seen if isinstance(w.message, DaemonVersionWarning)]


class VersionTests(unittest.TestCase):
    def test_one_version_for_daemon_and_package(self) -> None:
        swift = (PACKAGE_ROOT.parents[2] / "Sources" / "DiffableServer" / "Server" / "ServerVersion.swift")
        said = re.search(r'static let version = "([^"]+)"', swift.read_text(encoding="utf-8"))
        assert said is not None
        pyproject = re.search(r'^version = "([^"]+)"', (PACKAGE_ROOT / "pyproject.toml").read_text(encoding="utf-8"),
                              re.MULTILINE)
        assert pyproject is not None
        self.assertEqual((diffable.__version__, pyproject.group(1)), (said.group(1), said.group(1)))

    def test_major_minor(self) -> None:
        for text, expected in [("0.1.0", (0, 1)), ("12.34.5", (12, 34)), ("1.2", (1, 2)), ("1.2.3-beta", (1, 2)),
                               ("1.2-rc1", (1, 2)), ("0", None), ("", None), ("v1.2.3", None), ("1.x", None),
                               ("1.23a", (1, 23)), (None, None), (1.2, None)]:
            with self.subTest(text=text):
                self.assertEqual(major_minor(text), expected)

    def test_another_minor_warns_once_naming_both_versions(self) -> None:
        other = f"{MAJOR}.{MINOR + 1}.0"
        seen = caught("--server-version", other)
        found = version_warnings(seen)
        self.assertEqual(len(found), 1, [str(w.message) for w in seen])
        warning = found[0]
        self.assertEqual((warning.daemon_version, warning.client_version), (other, diffable.__version__))
        self.assertEqual(warning.daemon, fake_server()[0])
        self.assertIn(other, str(warning))
        self.assertIn(diffable.__version__, str(warning))
        # stacklevel: the warning points at the line that made the client, not into the package
        self.assertTrue(seen[0].filename.endswith("test_version.py"), seen[0].filename)

    def test_another_major_warns(self) -> None:
        self.assertEqual(len(version_warnings(caught("--server-version", f"{MAJOR + 1}.{MINOR}.{PATCH}"))), 1)

    def test_patch_levels_and_unreadable_versions_say_nothing(self) -> None:
        for version in (f"{MAJOR}.{MINOR}.{PATCH + 7}", f"{MAJOR}.{MINOR}", "0", "unknown"):
            with self.subTest(version=version):
                self.assertEqual(caught("--server-version", version), [])

    def test_the_async_client_warns_too(self) -> None:
        async def session() -> List[warnings.WarningMessage]:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                async with AsyncClient(fake_server("--server-version", f"{MAJOR}.{MINOR + 1}.0")) as client:
                    await client.request("fake/echo", {})
            return seen
        self.assertEqual(len(version_warnings(asyncio.run(session()))), 1)

    def test_an_error_filter_makes_the_mismatch_fatal(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DaemonVersionWarning)
            with self.assertRaises(DaemonVersionWarning):
                Client(fake_server("--server-version", f"{MAJOR}.{MINOR + 1}.0"))

    def test_the_real_daemon_matches(self) -> None:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            with Client(daemon_argv()) as client:
                said = client.server_info["serverInfo"]["version"]
                client.sources()
        self.assertEqual(version_warnings(seen), [])
        self.assertEqual(said, diffable.__version__)


if __name__ == "__main__":
    unittest.main()
