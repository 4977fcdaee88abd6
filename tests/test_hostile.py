"""Hostile and careless input, class by class: each ends in a clear, located message and exit 1
or 2, never a crash, a hang, "internal error", a leak of a file's content or raw control
characters on the terminal. Numbered as the items of the issue that found them."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from cardrules.interpreter import cards, diagnostics, engine, files, gamelog, notation, options
from cardrules.interpreter import compile as compiling
from cardrules.interpreter.errors import CardrulesError
from cardrules.interpreter.load import load, load_text

from .conftest import REPO, RULESETS, cli, cli_process, within

KLATS = (RULESETS / "klats.rules").read_text(encoding="utf-8")
HOUSE = "ruleset: {ruleset}\nname: x\nchanges:\n  - set: hand_size\n    to: 4\n"
SCENARIO = ("ruleset: {ruleset}\ndefaults: {{players: 2, seed: 1}}\nscenarios:\n  - name: a\n    clause: b\n"
            "    steps:\n      - expect: {{round: 0}}\n")




def run(*args, input: str | None = None):
    with within(20):
        r = cli(*args, input=input)
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    return r


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "klats.rules").write_text(KLATS, encoding="utf-8")
    return tmp_path


@pytest.fixture(scope="module")
def log_text(tmp_path_factory):
    """One whole match's log, as pretty JSON (a line of `selfplay --log`, indented)."""
    path = tmp_path_factory.mktemp("log") / "games.jsonl"
    assert cli("selfplay", "klats", "-p", "2", "--games", "1", "--log", path).code == 0
    data = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    return json.dumps(data, indent=2) + "\n"


# ---------------------------------------------------------------- 1. deep YAML


@pytest.mark.parametrize("kind", ["house", "scenarios"])
def test_yaml_nested_50000_deep_is_a_located_error_not_a_segfault(tmp_path, kind):
    path = tmp_path / "deep.yaml"
    path.write_text("ruleset: klats\nname: x\nchanges: " + "[" * 50_000 + "]" * 50_000 + "\n")
    r = cli_process(*(["house", "check"] if kind == "house" else ["scenarios"]), path, timeout=60)
    assert r.code == 1, r.stderr
    assert f"{path}:3:" in r.stderr and "nests more than 100 levels deep" in r.stderr


@pytest.mark.parametrize("text, phrase", [
    ("ruleset: klats\nname: x\nchanges: &a [*a]\n", "an alias refers to the value it stands in"),
    ("ruleset: klats\nname: x\n" + "".join(f"a{i}: &a{i} [{f'*a{i - 1}' if i else 1}]\n" for i in range(150))
     + "changes: []\n", "nests more than 100 levels deep once its aliases are followed"),
])
def test_aliases_cannot_loop_or_nest_past_the_limit(tmp_path, text, phrase):
    path = tmp_path / "alias.yaml"
    path.write_text(text)
    r = run("house", "check", path)
    assert r.code == 1 and phrase in r.stderr and f"{path}:" in r.stderr


# ---------------------------------------------------------------- 2. bounded readers


def _readers(tmp_path, bad: str) -> list[list]:
    """Every command that reads a file of the user's, pointed at `bad`."""
    (tmp_path / "house.yaml").write_text(HOUSE.format(ruleset=RULESETS / "klats.rules"))
    return [["check", bad], ["diff", bad, "klats"], ["diff", "klats", bad], ["replay", bad],
            ["log", "redact", bad, "--seat", "0"], ["scenarios", bad], ["house", "check", bad],
            ["house", "schema", bad], ["check", "klats", "--house", bad], ["check", f"klats+house:{bad}"],
            ["selfplay", bad, "-p", "2"], ["play", bad], ["export", bad]]


@pytest.mark.parametrize("bad", ["fifo", "/dev/zero", "folder"])
def test_no_reader_hangs_on_a_fifo_a_device_or_a_folder(tmp_path, bad):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    path = str(tmp_path / bad) if not bad.startswith("/") else bad
    for args in _readers(tmp_path, path):
        r = run(*args, input="")
        assert r.code in (1, 2), (args, r.stderr)
        assert path in r.stderr, (args, r.stderr)


def test_a_log_naming_house_rules_on_dev_zero_is_refused(tmp_path, log_text):
    data = json.loads(log_text)
    data["ruleset"] = "klats+house:/dev/zero"
    (tmp_path / "log.json").write_text(json.dumps(data))
    r = run("replay", tmp_path / "log.json")
    assert r.code == 1 and "/dev/zero: error: this is not a regular file" in r.stderr


def test_an_empty_path_is_not_the_current_folder():
    r = run("check", "")
    assert r.code == 1 and "the path is empty" in r.stderr and "directory" not in r.stderr


def test_a_file_larger_than_the_limit_is_read_no_further(tmp_path):
    path = tmp_path / "big.rules"
    path.write_bytes(b"#" * 5000)
    with pytest.raises(files.FileRefused) as e:
        files.read_bytes(str(path), 1000)
    assert "the limit is 1,000" in e.value.diagnostics[0].message


@pytest.mark.parametrize("option", [["play", "klats", "--log"], ["selfplay", "klats", "-p", "2", "--log"],
                                    ["export", "klats", "-o"], ["log", "redact", "LOG", "--seat", "0", "-o"]])
def test_an_output_fifo_is_refused_before_any_work(tmp_path, option, log_text):
    (tmp_path / "log.json").write_text(log_text)
    os.mkfifo(tmp_path / "out")
    args = [str(tmp_path / "log.json") if a == "LOG" else a for a in option]
    r = run(*args, tmp_path / "out", input="")
    assert r.code == 2 and "not a regular file" in r.stderr


# ---------------------------------------------------------------- 3. JSON logs


@pytest.mark.parametrize("change, where, phrase", [
    (lambda t: re.sub(r'"seed": \d+', '"seed": ' + "9" * 5000, t), r":\d+:\d+: ", "a number of more than 30 digits"),
    (lambda t: t.replace('"seats": [', '"deep": ' + "[" * 10_000 + "]" * 10_000 + ', "seats": ['), r":\d+:\d+: ",
     "nests more than 100 levels deep"),
    (lambda t: re.sub(r'"seed": (\d+)', r'"seed": \1, "seed": 4', t), r":\d+:\d+: ", "the key 'seed' comes twice"),
    (lambda t: t.replace('"players": 2', '"players": 2\xff'), r":\d+:\d+: ", "is not UTF-8"),
])
def test_a_hostile_log_is_a_located_not_valid_json(tmp_path, log_text, change, where, phrase):
    path = tmp_path / "bad.json"
    text = change(log_text)
    path.write_bytes(text.encode("utf-8").replace("\xff".encode(), b"\xff"))
    r = run("replay", path)
    assert r.code == 1 and re.search(re.escape(str(path)) + where, r.stderr) and phrase in r.stderr, r.stderr


def test_a_log_may_start_with_a_bom(tmp_path, log_text):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + log_text.encode())
    assert run("replay", path).code == 0


def test_a_huge_move_is_cut_in_the_message(tmp_path, log_text):
    data = json.loads(log_text)
    data["moves"][0] = "put " + "x" * 500_000
    (tmp_path / "huge.json").write_text(json.dumps(data))
    r = run("replay", tmp_path / "huge.json")
    assert r.code == 1 and "move 1" in r.stderr and len(r.stderr) < 2000


# ---------------------------------------------------------------- 4. digits


@pytest.mark.parametrize("value, phrase", [("²", "is not NAME=NUMBER"), ("٣", "is not NAME=NUMBER"),
                                           ("9" * 29, "has too many digits"), ("-" + "9" * 5000, "too many digits")])
def test_param_values_are_ascii_digits_of_bounded_length(value, phrase):
    r = run("selfplay", "klats", "-p", "2", "--games", "1", "--param", f"hand_size={value}")
    assert r.code == 2 and phrase in r.stderr


def test_the_repl_takes_only_ascii_move_numbers():
    r = run("play", "klats", "--seed", "1", input="²\n" + "9" * 5000 + "\nwhy ²\nwhy " + "7" * 5000 + "\n٣\n1\nquit\n")
    assert r.code == 0
    assert "there is no move 99999" in r.stderr and "…" in r.stderr
    assert "seat 0 (human): put" in r.stdout  # `1` still plays the first move


# ---------------------------------------------------------------- 5. positions


def test_an_empty_pile_in_a_position_is_refused_where_it_is_written(tmp_path, folder):
    text = SCENARIO.format(ruleset="klats.rules").replace(
        "    steps:", "    position:\n      zones: {hand: {0: [blue1]}, row: {0: [[]]}}\n    steps:")
    path = folder / "s.yaml"
    path.write_text(text)
    r = run("scenarios", path)
    assert r.code == 1 and f"{path}:7:" in r.stderr and "is empty" in r.stderr


def test_the_engine_refuses_an_empty_pile_rather_than_crash(klats):
    game = engine.Game(compiling.compile_ruleset(klats.model, 2), 1, deal=False)
    with pytest.raises(engine.PositionError):
        game.set_position({"hand": {0: ["blue1"]}, "row": {0: [[]]}})


# ---------------------------------------------------------------- 6. integral floats


@pytest.mark.parametrize("change, line", [("  - card: skull\n    copies: 2.0\n", 5),
                                          ("  - set: hand_size\n    to: 1.0\n", 5),
                                          ("  - add: skull\n    copies: 1.5\n", 5)])
def test_house_whole_numbers_are_not_floats(folder, change, line):
    path = folder / "h.yaml"
    path.write_text("ruleset: klats.rules\nname: x\nchanges:\n" + change)
    r = run("house", "check", path)
    assert r.code == 1 and f"{path}:{line}:" in r.stderr and "expected a whole number" in r.stderr


def test_scenario_whole_numbers_are_not_floats(folder):
    path = folder / "s.yaml"
    path.write_text(SCENARIO.format(ruleset="klats.rules").replace("players: 2,", "players: 2.0,"))
    r = run("scenarios", path)
    assert r.code == 1 and f"{path}:2:" in r.stderr and "expected a whole number, found 2.0" in r.stderr


# ---------------------------------------------------------------- 7. one root error, broken streams


def test_every_error_of_the_input_has_one_root():
    for error in (diagnostics.RulesError, files.FileRefused, gamelog.LogError, gamelog.NoSuchGame,
                  gamelog.ReplayError, notation.MoveError, notation.IllegalMoveError, engine.EngineError,
                  engine.PositionError, options.SelectionError, compiling.ConfigError, cards.UnknownCard):
        assert issubclass(error, CardrulesError), error
    assert issubclass(gamelog.LogError, ValueError) and issubclass(cards.UnknownCard, LookupError)


def _process(*args, stdout=None, env=None, shell=None):
    command = shell or [sys.executable, "-m", "cardrules.cli.main", *map(str, args)]
    return subprocess.run(command, stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                          text=True, timeout=60, cwd=REPO, shell=bool(shell),
                          env={**os.environ, "COLUMNS": "100", **(env or {})})


def test_output_to_a_full_disk_is_one_line_not_an_internal_error():
    with open("/dev/full", "w") as full:
        done = _process("check", "klats", stdout=full)
    assert done.returncode == 1
    assert done.stderr.strip() == "error: cannot write the output: No space left on device"


def test_a_terminal_that_cannot_show_a_character_gets_an_escape():
    done = _process("play", "klats", "--seed", "1", "--lang", "ru", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and "\\u" in done.stdout


def test_a_closed_pipe_ends_quietly():
    done = _process(shell=f"{sys.executable} -m cardrules.cli.main selfplay klats -p 2 --games 300 | head -1")
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr and "Exception" not in done.stderr


# ---------------------------------------------------------------- 9. no file's content quoted


@pytest.mark.parametrize("target", ["/proc/self/environ", "/etc/shadow", "link.rules", "secret.txt"])
def test_a_file_that_is_not_a_ruleset_is_never_quoted(tmp_path, log_text, monkeypatch, target):
    monkeypatch.setenv("CARDRULES_TEST_SECRET", "hunter2-token")
    (tmp_path / "secret.txt").write_text("CARDRULES_TEST_SECRET=hunter2-token\n")
    (tmp_path / "link.rules").symlink_to("/proc/self/environ")
    path = target if target.startswith("/") else str(tmp_path / target)
    (tmp_path / "h.yaml").write_text(HOUSE.format(ruleset=path))
    (tmp_path / "s.yaml").write_text(SCENARIO.format(ruleset=path))
    data = json.loads(log_text)
    data["ruleset"] = path
    (tmp_path / "l.json").write_text(json.dumps(data))
    for args in (["check", path], ["house", "check", tmp_path / "h.yaml"], ["scenarios", tmp_path / "s.yaml"],
                 ["replay", tmp_path / "l.json"], ["diff", "klats", path]):
        r = run(*args)
        assert r.code in (1, 2), args
        assert "hunter2" not in r.stdout + r.stderr and "PATH=" not in r.stdout + r.stderr, args


# ---------------------------------------------------------------- 10, 11. user text on the terminal


def test_markup_and_emoji_codes_print_as_written(tmp_path):
    text = KLATS.replace('game "Klats"', 'game "rules.rules:100:20 :thumbs_up: [b]x[/b]"', 1).replace(
        'face "{colour}{value}"', 'face "[b]{colour}{value}"')
    (tmp_path / "m.rules").write_text(text)
    r = run("check", tmp_path / "m.rules")
    assert "rules.rules:100:20 :thumbs_up: [b]x[/b]" in r.stdout
    r = run("play", tmp_path / "m.rules", "--seed", "1", input="moves\nquit\n")
    assert "put [b]" in r.stdout and "💯" not in r.stdout and "👍" not in r.stdout


def test_control_characters_from_files_are_shown_escaped(tmp_path, log_text):
    (tmp_path / "klats.rules").write_text(KLATS.replace('game "Klats"', 'game "K\x1b]0;pwned\x07"', 1))
    (tmp_path / "h.yaml").write_text('ruleset: klats.rules\nname: "N\\e[2J\\u202e"\nchanges: []\n')
    data = json.loads(log_text)
    data["seats"] = ["random\x1b[31m", "random"]
    (tmp_path / "l.json").write_text(json.dumps(data))
    outputs = [run("check", tmp_path / "klats.rules"), run("house", "check", tmp_path / "h.yaml"),
               run("check", tmp_path / "no\x1b[2Jsuch.rules"), run("replay", tmp_path / "l.json", "-v"),
               run("check", tmp_path / "klats.rules", "--json")]
    for r in outputs:
        assert "\x1b" not in r.stdout + r.stderr and "\x07" not in r.stdout + r.stderr
        assert "\u202e" not in r.stdout + r.stderr
    assert "\\x1b]0;pwned" in outputs[0].stdout and "\\x1b[2J\\u202e" in outputs[1].stdout
    assert json.loads(outputs[4].stdout)["title"] == "K\x1b]0;pwned\x07"


@pytest.mark.parametrize("mark", ["\u200b", "\u202e", "\u2066", "\x1b", "\x7f"])
def test_faces_with_invisible_characters_are_refused_at_the_face(mark):
    text = KLATS.replace('face "{colour}{value}"', 'face "{colour}' + mark + '{value}"')
    with pytest.raises(diagnostics.RulesError) as e:
        load_text(text, "k.rules")
    d = e.value.diagnostics[0]
    assert "invisible character" in d.message and d.span.line == KLATS[:KLATS.index('face "{colour}')].count("\n") + 1


# ---------------------------------------------------------------- 12. located errors


@pytest.mark.parametrize("content, at, phrase", [
    (b"ruleset: klats\nname: \xff\n", ":2:7:", "is not UTF-8"),
    (b"ruleset: klats\nname: a\x07b\n", ":2:8:", "not allowed in YAML text"),
    (b"ruleset: klats\nname: x\nchanges: []\nnull: 1\n", ":4:1:", "a key is null"),
    (b"ruleset: klats\nname: x\nchanges:\n  - set: hand_size\n    to: 2020-13-01\n", ":5:9:",
     "expected a whole number, found '2020-13-01'"),
    (b"ruleset: klats\nname: x\nchanges:\n  - set: hand_size\n    to: " + b"9" * 5000 + b"\n", ":5:9:", "digits"),
])
def test_yaml_errors_are_located(tmp_path, content, at, phrase):
    path = tmp_path / "h.yaml"
    path.write_bytes(content)
    r = run("house", "check", path)
    assert r.code == 1 and f"{path}{at}" in r.stderr and phrase in r.stderr, r.stderr


def test_a_deal_that_cannot_be_made_is_told_at_its_deal_line(tmp_path):
    text = KLATS.replace("deal hand_size from draw to hand", "deal hand_size * players * 3 from draw to hand")
    (tmp_path / "d.rules").write_text(text)
    r = run("check", tmp_path / "d.rules")
    line = text[:text.index("deal hand_size")].count("\n") + 1
    assert r.code == 1 and f"d.rules:{line}:5: error: with 4 players: the deck of 90 cards cannot deal" in r.stderr


def test_house_copies_past_the_deck_limit_are_told_in_the_house_file(folder):
    path = folder / "h.yaml"
    path.write_text("ruleset: klats.rules\nname: x\nchanges:\n  - card: skull\n    copies: 1000\n")
    r = run("house", "check", path)
    assert r.code == 1 and f"{path}:5:13: error: the deck holds" in r.stderr


def test_cr_line_ends_read_as_line_ends(tmp_path):
    for end in ("\r", "\r\n"):
        path = tmp_path / "cr.rules"
        path.write_bytes(KLATS.replace("\n", end).encode())
        assert load(str(path)).model == load_text(KLATS, str(path)).model
    path.write_bytes(KLATS.replace("\n", "\r").replace("zone draw shared", "zone draw shared $").encode())
    r = run("check", path)
    line = KLATS[:KLATS.index("zone draw shared")].count("\n") + 1
    assert f"cr.rules:{line}:18: error: unexpected character '$'" in r.stderr


def test_a_letter_of_another_script_in_a_name_says_which():
    with pytest.raises(diagnostics.RulesError) as e:
        load_text(KLATS.replace("zone draw shared", "zone drаw shared"), "k.rules")  # a Cyrillic а
    assert "names are Latin letters, digits and _; 'а' is Cyrillic" in e.value.diagnostics[0].message


def test_the_repl_reads_bounded_lines():
    r = run("play", "klats", "--seed", "1", input="\x00" * 50_000)
    assert r.code == 0 and "an input line longer than 10,000 characters" in r.stdout


def test_seeds_are_bounded_so_every_log_written_can_be_read():
    r = run("selfplay", "klats", "-p", "2", "--seed", "9" * 25)
    assert r.code == 2


def test_a_move_that_does_not_replay_is_located_in_the_log(tmp_path, log_text):
    data = json.loads(log_text)
    data["moves"][1] = "put nothing"
    (tmp_path / "l.json").write_text(json.dumps(data, indent=2))
    r = run("replay", tmp_path / "l.json")
    line = json.dumps(data, indent=2).split("\n").index('    "put nothing",') + 1
    assert r.code == 1 and f"the move is at {tmp_path / 'l.json'}:{line}:5" in r.stderr
