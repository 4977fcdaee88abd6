"""The type check CI runs (.ci/typecheck.py, pyproject.toml's [tool.mypy]): the ratchet of
untyped modules names only modules that exist, CI runs the check before the tests, and the check
passes on the checkout yet fails on a new type error in a typed module."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from .conftest import REPO

SCRIPT = REPO / ".ci" / "typecheck.py"


def ratchet() -> list[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    return [name for o in config.get("overrides", []) if o.get("ignore_errors") for name in o["module"]]


def test_every_module_left_untyped_exists():
    """A module typed and removed, or renamed, leaves the list too: a stale name would hide nothing
    today but would silently exempt a new module that took its name."""
    for name in ratchet():
        package, _, rest = name.removeprefix("cardrules.").partition(".")
        assert (REPO / package / f"{rest.replace('.', '/')}.py").is_file(), \
            f"{name} is in the ratchet but no such module exists"


def test_ci_checks_types_after_the_install_and_before_the_tests():
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    install, check, tests = (run.index(s) for s in ("pip install '.[test]'", "python .ci/typecheck.py",
                                                    "python -m pytest"))
    assert install < check < tests


def typecheck(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), f"--cache-dir={cache}", *args], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow
def test_the_checkout_passes_and_a_new_error_in_a_typed_module_fails(tmp_path):
    clean = typecheck(cache=tmp_path / "cache")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Success" in clean.stdout
    typed = "interpreter/unparse.py"
    assert f"cardrules.{typed[:-3].replace('/', '.')}" not in ratchet()
    broken = tmp_path / "unparse.py"
    broken.write_text((REPO / typed).read_text(encoding="utf-8") + "\n\ndef half(n: int) -> str:\n    return n / 2\n",
                      encoding="utf-8")
    failed = typecheck("--shadow-file", typed, str(broken), cache=tmp_path / "cache")
    assert failed.returncode == 1
    assert f"{typed}:" in failed.stdout and "[return-value]" in failed.stdout
