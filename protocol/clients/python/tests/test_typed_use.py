"""A user's annotated program (tests/typed_program.py) type-checks with `mypy --strict` against the
*installed* package and runs: the wheel is written by protocol/tools/package's own `build_wheel`
(standard library only, no network), installed into a fresh venv with `pip --no-index`, and mypy
and the program run from a temporary folder where the source tree is not on any path."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import tempfile
import typing
import unittest
from pathlib import Path
from types import ModuleType

from support import PACKAGE_ROOT, daemon_argv, diffable
from test_install import pip_can_target_another_python

REPO = PACKAGE_ROOT.parents[2]
PROGRAM = Path(__file__).resolve().parent / "typed_program.py"


def mypy() -> Path:
    """mypy from the test venv (as run-tests finds it); its absence fails the test."""
    venv = Path(os.environ.get("DIFFABLE_TEST_VENV") or REPO / ".build" / "test-venv")
    path = venv / "bin" / "mypy"
    if not path.is_file():
        raise AssertionError(f"mypy not found at {path}; run protocol/tools/install-test-tools "
                             "(or point DIFFABLE_TEST_VENV at a venv with mypy)")
    return path


def package_tool() -> ModuleType:
    path = REPO / "protocol" / "tools" / "package"
    loader = importlib.machinery.SourceFileLoader("diffable_package_tool", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class TypedUseTests(unittest.TestCase):
    def test_every_public_type_is_exported(self) -> None:
        """Every TypedDict, dataclass and alias of diffable.types is in `diffable.__all__`, so a
        type added there and not exported fails here (Path excepted: `diffable.types.Path`, a
        `[section, row]` list, would shadow pathlib's in `from diffable import *`)."""
        from diffable import types
        public = {name for name, value in vars(types).items()
                  if not name.startswith("_") and getattr(value, "__module__", None) == types.__name__}
        aliases = {name for name, value in vars(types).items()
                   if not name.startswith("_") and typing.get_origin(value) in (typing.Literal, typing.Union)}
        self.assertEqual(sorted((public | aliases) - set(diffable.__all__) - {"Path"}), [], "not exported")
        self.assertTrue(all(inspect.isclass(getattr(diffable, name)) for name in public))

    def test_mypy_strict_user_program_against_the_installed_wheel(self) -> None:
        checker = mypy()
        version = diffable.__version__
        with tempfile.TemporaryDirectory() as temp:
            root = Path(temp)
            # the daemon a wheel carries is not what this test is about: a stub stands in for it
            stub = root / "diffable-stub"
            stub.write_text("#!/bin/sh\necho 'the stub daemon of test_typed_use' >&2\nexit 1\n")
            stub.chmod(0o755)
            dist = root / "dist"
            dist.mkdir()
            wheel = package_tool().build_wheel(stub, version, 17, dist)  # manylinux_2_17: any glibc x86-64
            venv = root / "venv"
            python = venv / "bin" / "python"
            reuse_pip = pip_can_target_another_python()
            subprocess.run([sys.executable, "-m", "venv", *(["--without-pip"] if reuse_pip else []), str(venv)],
                           check=True, timeout=120)
            pip = [sys.executable, "-m", "pip", "--python", str(python)] if reuse_pip else [str(python), "-m", "pip"]
            installed = subprocess.run([*pip, "install", "-q", "--disable-pip-version-check", "--no-index",
                                        "--no-deps", str(wheel)], capture_output=True, text=True, timeout=180)
            self.assertEqual(installed.returncode, 0, installed.stdout + installed.stderr)

            user = root / "user"
            user.mkdir()
            (user / "app.py").write_text(PROGRAM.read_text(encoding="utf-8"), encoding="utf-8")
            env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MYPYPATH")}
            probe = subprocess.run([str(python), "-c", "import diffable; from diffable import *; "
                                    "print(diffable.__file__, diffable.__version__)"],
                                   capture_output=True, text=True, cwd=user, env=env, timeout=60)
            self.assertEqual(probe.returncode, 0, probe.stderr)
            location, installed_version = probe.stdout.split()
            self.assertTrue(location.startswith(str(venv)), location)
            self.assertEqual(installed_version, version)

            checked = subprocess.run([str(checker), "--strict", "--verbose", "--python-executable", str(python),
                                      "--cache-dir", str(root / "mypy-cache"), "--no-error-summary",
                                      "--show-error-codes", "app.py"],
                                     capture_output=True, text=True, cwd=user, env=env, timeout=240)
            self.assertEqual(checked.returncode, 0, "mypy --strict on the user program:\n" + checked.stdout)
            # --verbose logs each module it parses: `diffable` must be the venv's copy, not this checkout's
            parsed = re.findall(r"^LOG:  Parsing (\S+) \(diffable\)$", checked.stderr, re.MULTILINE)
            self.assertEqual(len(parsed), 1, checked.stderr[-4000:])
            self.assertTrue(parsed[0].startswith(str(venv)), parsed[0])

            ran = subprocess.run([str(python), "app.py"], capture_output=True, text=True, cwd=user,
                                 env={**env, "DIFFABLE_BIN": daemon_argv()[0]}, timeout=120)
            self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
            self.assertEqual(re.findall(r"^(\[People\]|\* Grace|unknown \w+)$", ran.stdout, re.MULTILINE),
                             ["[People]", "* Grace", "unknown nobody"], ran.stdout + ran.stderr)


if __name__ == "__main__":
    unittest.main()
