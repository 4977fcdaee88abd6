"""The installed package carries its grammar, rulesets and schemas, puts nothing generic at the
top of site-packages, and its console script works from any folder."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
from importlib.resources import files

import pytest


@pytest.mark.parametrize("shipped", ["grammar/cardrules.lark", "rulesets/klats.rules",
                                     "rulesets/house/klats_five_piles.yaml",
                                     "schemas/ruleset.schema.json", "schemas/scenarios.schema.json"])
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
