"""`pip install` of the package into a fresh venv, then `import diffable` from outside the source tree."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from support import PACKAGE_ROOT


def pip_can_target_another_python() -> bool:
    try:
        import pip
    except ImportError:
        return False
    major, minor = (int(part) for part in pip.__version__.split(".")[:2])
    return (major, minor) >= (22, 3)


class InstallTests(unittest.TestCase):
    def test_pip_install_into_a_fresh_venv(self) -> None:
        with tempfile.TemporaryDirectory() as temp:
            # a copy, so the build leaves no build/ or *.egg-info in the working tree
            source = Path(temp) / "source"
            shutil.copytree(PACKAGE_ROOT, source, ignore=shutil.ignore_patterns(
                "__pycache__", "*.egg-info", "build", ".mypy_cache", "tests"))
            venv = Path(temp) / "venv"
            python = venv / "bin" / "python"
            # A normal, build-isolated install: pip fetches setuptools from PyPI as pyproject.toml asks
            # (a fresh 3.11 venv's bundled setuptools cannot build a wheel without the `wheel` package).
            # When this interpreter's pip can target another one (pip >= 22.3), the venv is made without
            # its own pip: ensurepip alone costs ~10 s on this machine.
            reuse_pip = pip_can_target_another_python()
            subprocess.run([sys.executable, "-m", "venv", *(["--without-pip"] if reuse_pip else []), str(venv)],
                           check=True, timeout=120)
            pip = [sys.executable, "-m", "pip", "--python", str(python)] if reuse_pip else [str(python), "-m", "pip"]
            installed = subprocess.run([*pip, "install", "-q", "--disable-pip-version-check", str(source)],
                                       capture_output=True, text=True, timeout=180)
            self.assertEqual(installed.returncode, 0, installed.stdout + installed.stderr)
            shutil.rmtree(source)  # the installed copy must not need its source
            probe = ("import diffable, diffable.frontend, os, sys; from importlib import resources; "
                     "print(diffable.__file__); print(resources.files('diffable').joinpath('py.typed').is_file()); "
                     "print(diffable.Client.__name__, diffable.AsyncClient.__name__, diffable.frontend.Frontend.__name__)")
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            imported = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=temp,
                                      env=env, timeout=60)
            self.assertEqual(imported.returncode, 0, imported.stderr)
            location, typed, names = imported.stdout.splitlines()
            self.assertTrue(location.startswith(str(venv)), location)
            self.assertEqual(typed, "True", "py.typed is not installed")
            self.assertEqual(names, "Client AsyncClient Frontend")
            script = subprocess.run([str(venv / "bin" / "diffable-client"), "--help"], capture_output=True,
                                    text=True, cwd=temp, env=env, timeout=60)
            self.assertEqual(script.returncode, 0, script.stderr)


if __name__ == "__main__":
    unittest.main()
