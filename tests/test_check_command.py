"""`cardrules check`: the summary of a good ruleset, every error of a bad one located on stderr,
warnings that fail only under --strict, --json that prints nothing but JSON, bad paths."""
from __future__ import annotations

import json
import re

import pytest

from .conftest import RULESETS, cli, cli_process, write

# A small game of our own, so that these tests do not move when the shipped examples do.
SMALL = """game "Small" { document "book" "A test book" }
players 2..4  source "book: two to four"
param hand_size = 3 in 1..10  source "book: three each"
attribute suit { red, black }  source "book: two suits"
attribute rank in 1..6  source "book: six ranks"
card plain { suit each  rank each  copies 2 }
zone stock shared hidden  source "book: face down"
zone discard shared public  assumed "one card turned up"
zone hand per seat owner
setup {
    shuffle deck into stock
    deal hand_size from stock to hand
    move 1 from stock to discard
}
play discard {
    card from hand where card.suit == top(discard).suit  source "book: follow suit"
    to discard
}
turn {
    play one of discard or pass
    draw 1 from stock to hand when passed  ruling "draw instead of playing"
}
end round out when some s in seats: count(hand of s) == 0  source "book: empty hand"
score s = if count(hand of s) == 0 then 1 else 0
match { until max(totals) >= 3 }
"""


@pytest.fixture
def broken(tmp_path):
    """Klats with two mistakes, on lines 66 and 95."""
    text = (RULESETS / "klats.rules").read_text(encoding="utf-8")
    text = text.replace("top(pile).colour == card.colour", "top(pile).color == card.colour")
    text = text.replace("count(draw) == 0 and", "count(drow) == 0 and")
    path = tmp_path / "broken.rules"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def warned(tmp_path):
    """The small game with a zone nothing uses (line 10): a warning, not an error."""
    return write(tmp_path, "warned.rules", SMALL.replace("zone hand per seat owner\n",
                                                         "zone hand per seat owner\nzone spare shared public\n"))


def test_check_klats_prints_its_summary():
    r = cli("check", RULESETS / "klats.rules")
    assert r.code == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    assert lines[0] == "Klats"
    assert re.search(r"players\s+│ 2\.\.6", r.stdout)
    assert re.search(r"deck\s+│ 90 cards", r.stdout)
    # one row per player count: players, per seat, dealt, left in the draw pile
    rows = [re.findall(r"\d+", line) for line in lines if re.match(r"│ \d ", line)]
    assert rows == [[str(n), "90", "3", str(3 * n), str(90 - 3 * n)] for n in range(2, 7)]
    assert "left in draw" in r.stdout
    assert re.search(r"│ row\s+│ per seat\s+│ public\s+│ piles", r.stdout)
    assert re.search(r"│ target_total\s+│ 150\s+│ 1\.\.100000", r.stdout)
    assert re.search(r"│ 26\s+│ 21\s+│ 9\s+│ 4\s+│ 0 ", r.stdout)  # clauses, source, ruling, assumed, none


def test_check_by_shipped_name():
    assert cli("check", "klats").code == 0


def test_check_json_is_pure_json():
    r = cli_process("check", "klats", "--json")
    assert r.code == 0, r.stderr
    data = json.loads(r.stdout)  # the whole of stdout, nothing around it
    assert data["title"] == "Klats" and data["deck"] == 90
    assert data["selection"] == "" and "selections" not in data  # no editions or variants to choose among
    assert data["players"] == {"min": 2, "max": 6, "counts": [2, 3, 4, 5, 6]}
    assert {d["players"]: (d["deck"], d["per_seat"]) for d in data["deals"]} == {n: (90, 3) for n in range(2, 7)}
    assert data["provenance"] == {"clauses": 26, "sources": 21, "rulings": 9, "assumptions": 4, "none": 0}
    assert data["warnings"] == []


def test_check_a_broken_file_reports_every_error_located(broken):
    r = cli_process("check", broken)
    assert r.code == 1
    assert r.stdout == ""
    assert f"{broken}:66:30: error: no attribute 'color'" in r.stderr
    assert f"{broken}:95:38: error: unknown name 'drow'" in r.stderr
    assert "^^^^^" in r.stderr and "hint: did you mean 'colour'?" in r.stderr
    assert "Traceback" not in r.stderr


def test_check_json_on_a_broken_file_prints_no_json(broken):
    r = cli("check", broken, "--json")
    assert r.code == 1 and r.stdout == ""
    assert ":66:30: error" in r.stderr


def test_warnings_alone_pass_unless_strict(warned):
    r = cli("check", warned)
    assert r.code == 0
    assert "Small" in r.stdout
    assert f"{warned}:10:6: warning: zone 'spare' is never used" in r.stderr

    strict = cli("check", warned, "--strict")
    assert strict.code == 1
    assert "zone 'spare' is never used" in strict.stderr
    assert "--strict counts warnings as errors" in strict.stderr


def test_warnings_in_json(warned):
    r = cli("check", warned, "--json", "--strict")
    assert r.code == 1
    data = json.loads(r.stdout)
    assert data["warnings"] == [{"severity": "warning", "message": "zone 'spare' is never used", "file": str(warned),
                                 "line": 10, "column": 6, "end_line": 10, "end_column": 11,
                                 "hint": "use it or remove it"}]
    assert "never used" in r.stderr


def test_a_warning_in_a_variant_alone_is_shown_and_fails_strict(tmp_path):
    """The default selection is clean; the variant declares a zone nothing uses."""
    path = write(tmp_path, "variant.rules", SMALL + "variant spare { zone spare shared public }\n")
    r = cli("check", path)
    assert r.code == 0
    assert "warning: zone 'spare' is never used" in r.stderr and "in: +spare" in r.stderr
    strict = cli("check", path, "--strict")
    assert strict.code == 1 and "--strict counts warnings as errors" in strict.stderr
    data = json.loads(cli("check", path, "--json").stdout)
    assert [w["message"] for w in data["warnings"]] == ["zone 'spare' is never used"]
    assert cli("check", path, "--strict", "--variant", "spare").code == 1
    assert cli("check", write(tmp_path, "clean.rules", SMALL), "--strict").code == 0


def test_check_small_game_figures_and_unbacked_clauses(tmp_path):
    r = cli("check", write(tmp_path, "small.rules", SMALL))
    assert r.code == 0, r.stderr
    assert "without provenance: card plain, zone hand, setup, score, match" in r.stdout
    # 24 cards; 3 each; one turned up: players, in play, per seat, dealt, left in stock, in discard
    for n in (2, 3, 4):
            assert re.search(rf"│ {n}\s+│ 24\s+│ 3\s+│ {3 * n}\s+│ {24 - 3 * n - 1}\s+│ 1 ", r.stdout), n
    assert "left in stock" in r.stdout and "in discard" in r.stdout


def test_check_a_setup_that_fails_for_some_player_counts(tmp_path):
    path = write(tmp_path, "greedy.rules", SMALL.replace("deal hand_size from", "deal hand_size * players * 2 from"))
    r = cli("check", path)
    assert r.code == 1
    assert "with 3 players: the deck of 24 cards cannot deal 18 to each of 3 players" in r.stderr
    assert "with 2 players" not in r.stderr
    assert "setup cannot run for every player count" in r.stderr


def test_titles_from_the_file_are_not_rich_markup(tmp_path):
    r = cli("check", write(tmp_path, "markup.rules", SMALL.replace('"Small"', '"[bold]Small[/bold]"')))
    assert r.code == 0
    assert "[bold]Small[/bold]" in r.stdout


@pytest.mark.parametrize("command", ["check", "export"])
def test_bad_paths_exit_1_with_a_clear_message(tmp_path, command):
    missing = cli(command, tmp_path / "nope.rules")
    assert missing.code == 1 and missing.stdout == ""
    assert "nope.rules: error: cannot read the file: No such file or directory" in missing.stderr
    folder = cli(command, tmp_path)
    assert folder.code == 1 and folder.stdout == ""
    assert "error: this is a directory, not a rules file" in folder.stderr


def test_check_without_a_file_is_a_usage_error():
    r = cli("check")
    assert r.code == 2
