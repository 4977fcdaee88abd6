"""What docs/editors.md promises an editor: the VS Code extension declares the language, the
grammar and the server the repository has; the TextMate grammar ships in the package; every
shipped house file names a schema, by its yaml-language-server line, that it validates against."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from importlib.resources import files

import pytest
from jsonschema import Draft202012Validator

from cardrules.interpreter.yamlfile import read_yaml

from .conftest import REPO, RULESETS

VSCODE = REPO / "editors" / "vscode"
HOUSE = sorted((RULESETS / "house").glob("*.yaml"))


def test_the_vscode_extension_declares_the_language_grammar_and_server():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    language, = package["contributes"]["languages"]
    grammar, = package["contributes"]["grammars"]
    tm = json.loads((REPO / "grammar" / "cardrules.tmLanguage.json").read_text(encoding="utf-8"))
    assert language["extensions"] == [".rules"] and grammar["language"] == language["id"] == "cardrules"
    assert grammar["scopeName"] == tm["scopeName"]
    assert "../../grammar/cardrules.tmLanguage.json" in package["scripts"]["grammar"]
    assert grammar["path"].lstrip("./") in package["scripts"]["grammar"]  # the copy lands where it is read
    settings = package["contributes"]["configuration"]["properties"]
    assert settings["cardrules.server.args"]["default"] == ["lsp"]
    assert (VSCODE / package["main"]).is_file()
    json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_vscode_extension_is_valid_javascript():
    done = subprocess.run(["node", "--check", str(VSCODE / "extension.js")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_textmate_grammar_ships_in_the_package():
    shipped = files("cardrules.grammar") / "cardrules.tmLanguage.json"
    assert json.loads(shipped.read_text(encoding="utf-8"))["scopeName"] == "source.cardrules"


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
def test_a_house_file_validates_against_the_schema_its_first_line_names(path):
    text = path.read_text(encoding="utf-8")
    line = re.match(r"# yaml-language-server: \$schema=(\S+)\n", text)
    assert line, "the first line names the schema for yaml-language-server"
    schema = json.loads((path.parent / line.group(1)).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    data = read_yaml(text, str(path), "ruleset")[1]
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
