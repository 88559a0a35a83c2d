"""Finding the daemon: explicit argument, $DIFFABLE_BIN, the bundled daemon, PATH, the checkout's builds;
the error message."""
from __future__ import annotations

import os
import stat
import tempfile
import unittest
from pathlib import Path

from support import diffable
from diffable import DaemonNotFound, bundled_daemon, find_daemon


def make_executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


class DiscoveryTests(unittest.TestCase):
    def setUp(self) -> None:
        self.temp = tempfile.TemporaryDirectory()
        self.root = Path(self.temp.name)
        self.checkout = self.root / "checkout"
        (self.checkout / "protocol" / "clients" / "python").mkdir(parents=True)
        (self.checkout / "Package.swift").write_text("// swift-tools-version:5.9\n")
        self.module_dir = self.checkout / "protocol" / "clients" / "python"
        self.empty_path = str(self.root / "empty-bin")
        os.mkdir(self.empty_path)

    def tearDown(self) -> None:
        self.temp.cleanup()

    def installed_package(self, record: str) -> Path:
        """A venv-like layout: site-packages with the package and its dist-info RECORD, and bin/."""
        site = self.root / "venv" / "lib" / "python3" / "site-packages"
        package = site / "diffable"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("")
        info = site / "diffable-0.1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: diffable\nVersion: 0.1.0\n")
        (info / "RECORD").write_text(f"diffable/__init__.py,,\n{record}diffable-0.1.0.dist-info/RECORD,,\n")
        return package

    def test_nothing_found_lists_every_place_and_how_to_build(self) -> None:
        with self.assertRaises(DaemonNotFound) as caught:
            find_daemon(environ={"PATH": self.empty_path}, search_from=self.module_dir)
        message = str(caught.exception)
        for place in ("$DIFFABLE_BIN (not set)", "the daemon bundled with the package (none: ",
                      f"`diffable` on $PATH ({self.empty_path})",
                      str(self.checkout / ".build" / "release" / "diffable"),
                      str(self.checkout / ".build" / "debug" / "diffable")):
            self.assertIn(place, message)
        self.assertIn(f"swift build -c release` (in {self.checkout})", message)
        self.assertEqual(len(caught.exception.looked_in), 5)

    def test_outside_a_checkout_the_message_says_so(self) -> None:
        outside = self.root / "elsewhere"
        outside.mkdir()
        with self.assertRaises(DaemonNotFound) as caught:
            find_daemon(environ={"PATH": self.empty_path}, search_from=outside)
        self.assertIn("no Package.swift above", str(caught.exception))
        self.assertIn("pip install diffable-", str(caught.exception), "outside a checkout: install a package")
        self.assertNotIn("swift build", str(caught.exception))

    def test_the_daemon_a_wheel_installed_is_found_through_its_record(self) -> None:
        package = self.installed_package("../../../bin/diffable,sha256=x,1\n")
        self.assertEqual(bundled_daemon(package)[0], None, "recorded but not there: not found")
        installed = make_executable(self.root / "venv" / "bin" / "diffable")
        self.assertEqual(bundled_daemon(package)[0], str(installed))
        env = {"PATH": self.empty_path}
        self.assertEqual(find_daemon(environ=env, search_from=self.root, package_dir=package), [str(installed)])

    def test_a_package_installed_without_a_daemon_says_so(self) -> None:
        package = self.installed_package("../../../bin/diffable-client,,\n")
        make_executable(self.root / "venv" / "bin" / "diffable-client")
        with self.assertRaises(DaemonNotFound) as caught:
            find_daemon(environ={"PATH": self.empty_path}, search_from=self.root, package_dir=package)
        self.assertIn("the daemon bundled with the package (none: diffable 0.1.0 in "
                      f"{package.parent.resolve()} was installed without one)", str(caught.exception))

    def test_a_source_tree_has_no_bundled_daemon(self) -> None:
        found, where = bundled_daemon(self.module_dir)
        self.assertIsNone(found)
        self.assertIn("is not an installed package", where)

    def test_order_release_before_debug_then_path_then_bundled_then_env_then_explicit(self) -> None:
        debug = make_executable(self.checkout / ".build" / "debug" / "diffable")
        env = {"PATH": self.empty_path}
        package = self.installed_package("../../../bin/diffable,,\n")

        def find() -> list[str]:
            return find_daemon(environ=env, search_from=self.module_dir, package_dir=package)
        self.assertEqual(find(), [str(debug)])
        release = make_executable(self.checkout / ".build" / "release" / "diffable")
        self.assertEqual(find(), [str(release)])
        on_path = make_executable(Path(self.empty_path) / "diffable")
        self.assertEqual(find(), [str(on_path)])
        bundled = make_executable(self.root / "venv" / "bin" / "diffable")
        self.assertEqual(find(), [str(bundled)])
        pinned = make_executable(self.root / "pinned" / "diffable")
        env["DIFFABLE_BIN"] = str(pinned)
        self.assertEqual(find(), [str(pinned)])
        explicit = make_executable(self.root / "explicit" / "diffable")
        self.assertEqual(find_daemon(explicit, environ=env, search_from=self.module_dir), [str(explicit)])
        self.assertEqual(find_daemon([str(explicit), "--log-level", "debug"], environ=env),
                         [str(explicit), "--log-level", "debug"])

    def test_a_pinned_binary_that_is_missing_is_an_error_not_a_fallback(self) -> None:
        make_executable(self.checkout / ".build" / "release" / "diffable")
        missing = str(self.root / "nope" / "diffable")
        with self.assertRaises(DaemonNotFound) as caught:
            find_daemon(missing, search_from=self.module_dir)
        self.assertIn(missing, str(caught.exception))
        with self.assertRaises(DaemonNotFound) as caught:
            find_daemon(environ={"DIFFABLE_BIN": missing, "PATH": self.empty_path}, search_from=self.module_dir)
        self.assertIn(f"$DIFFABLE_BIN: {missing}", str(caught.exception))

    def test_client_raises_daemon_not_found_before_starting_anything(self) -> None:
        with self.assertRaises(DaemonNotFound):
            diffable.Client(str(self.root / "nope"))


if __name__ == "__main__":
    unittest.main()
