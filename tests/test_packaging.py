"""The installed package carries its grammar, rulesets and schemas, puts nothing generic at the
top of site-packages, and its console script works from any folder."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

from .conftest import REPO


@pytest.mark.parametrize("shipped", ["grammar/cardrules.lark", "rulesets/klats.rules",
                                     "rulesets/house/klats_five_piles.yaml",
                                     "schemas/ruleset.schema.json", "schemas/scenarios.schema.json",
                                     "cli/locale/ru/LC_MESSAGES/cardrules.mo",
                                     "cli/server/static/table.html", "cli/server/static/table.js"])
def test_shipped_files_are_found_through_the_package(shipped):
    folder, _, name = shipped.partition("/")
    assert (files(f"cardrules.{folder}") / name).is_file()


@pytest.mark.parametrize("generic", ["cli", "interpreter", "grammar", "rulesets", "schemas"])
def test_no_generic_top_level_module(generic):
    spec = importlib.util.find_spec(generic)
    assert spec is None or "cardrules" not in str(spec.origin or spec.submodule_search_locations)


def test_console_script_runs_from_another_folder(tmp_path):
    exe = shutil.which("cardrules")
    if exe is None:
        pytest.skip("the console script is not installed in this environment (pip install . installs it)")
    done = subprocess.run([exe, "check", "rulesets/klats.rules"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Klats" in done.stdout


SOURCES = ("pyproject.toml", "README.md", "grammar", "rulesets", "interpreter", "schemas", "cli", "docs")


def _copy_checkout(into: Path) -> Path:
    """The folders a build reads, copied so that a test may edit them."""
    into.mkdir()
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy(source, into / name)
    return into


def _run(*args, cwd: Path) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_an_editable_install_runs_the_checkout(tmp_path):
    """`pip install -e .` maps the folders under `cardrules`, and an edit is seen by the next run
    without reinstalling."""
    checkout = _copy_checkout(tmp_path / "checkout")
    _run(sys.executable, "-m", "venv", tmp_path / "env", cwd=tmp_path)
    python = tmp_path / "env" / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", "--no-deps", "-e", checkout, cwd=tmp_path)
    probe = checkout / "interpreter" / "editable_probe.py"
    read = ["-c", "import cardrules.interpreter.editable_probe as p; print(p.VALUE, p.__file__)"]
    probe.write_text("VALUE = 1\n")
    assert _run(python, *read, cwd=tmp_path).split() == ["1", str(probe)]
    probe.write_text("VALUE = 2\n")
    assert _run(python, *read, cwd=tmp_path).split()[0] == "2"
    grammar = _run(python, "-c", "from importlib.resources import files; "
                   "print(files('cardrules.grammar') / 'cardrules.lark')", cwd=tmp_path).strip()
    assert Path(grammar) == checkout / "grammar" / "cardrules.lark"


def test_a_wheel_ships_the_data_under_one_package(tmp_path):
    checkout = _copy_checkout(tmp_path / "checkout")
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp_path / "dist", checkout,
         cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("cardrules-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in ("cardrules/grammar/cardrules.lark", "cardrules/rulesets/klats.rules",
                    "cardrules/rulesets/klats.scenarios.yaml", "cardrules/rulesets/house/klats_five_piles.yaml",
                    "cardrules/schemas/ruleset.schema.json", "cardrules/interpreter/engine.py",
                    "cardrules/cli/locale/ru/LC_MESSAGES/cardrules.mo",
                    "cardrules/cli/main.py", "cardrules/cli/server/static/table.js",
                    "cardrules/cli/server/static/lobby.html", "cardrules/cli/server/static/style.css",
                    # what `card` quotes and `list` offers, one folder above the rulesets as in a checkout
                    "cardrules/docs/rulings.md", "cardrules/docs/examples/crazy_eights.rules"):
        assert shipped in names
    version = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert {name.split("/")[0] for name in names} == {"cardrules", f"cardrules-{version}.dist-info"}
