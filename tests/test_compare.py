"""`cardrules compare`: the lead read from hand-made histories, a measured match is the match
self-play plays, the figures and their tests (no false alarms between two runs of one game, the
shorter rounds of a house rule found), the JSON against its schema, the HTML report, exit codes."""
from __future__ import annotations

import json
import sys
from functools import cache

import jsonschema
import pytest

from cardrules.interpreter import figures as fig
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.measure import BINS, measure, play_measured, read_lead, stream_seed
from cardrules.interpreter.selfplay import play_match, seeds

from .conftest import REPO, RULESETS, STUCK, cli, write

# A fast game of several rounds: each turn a seat draws a card and lays one before itself;
# its cards' numbers are its round's score.
RACE = """\
game "Race" { }
players 2..3
attribute n in 1..4
card step { n each  copies 3  face "s{n}" }
card leap { copies 2  face "leap" }
zone stock shared hidden
zone hand per seat owner
zone out per seat public
setup { shuffle deck into stock  deal 3 from stock to hand }
play put { card from hand  to out of self }
turn { draw 1 from stock to hand  play one of put }
end round empty when count(stock) == 0
score s = sum(cards(out of s).n)
match { until max(totals) >= 30 }
"""
KLATS = str(RULESETS / "klats.rules")
FIVE_PILES = f"{KLATS}+house:{RULESETS / 'house' / 'klats_five_piles.yaml'}"


@cache
def race(until: str = "max(totals) >= 30", winner: str = ""):
    text = RACE.replace("until max(totals) >= 30", f"until {until}  {winner}".rstrip())
    return load_text(text, "race.rules").model


def summary(model, games: int, seed: int, players: int = 2):
    compiled = compile_ruleset(model, players)
    records = measure(compiled, games, seed, ("random",) * players)
    return fig.summarise("race", records, model.round_end_names, [k.name for k in model.kinds],
                         model.match.winner == "lowest")


# ------------------------------------------------------------------ the lead


def test_the_lead_of_a_hand_made_history():
    # seat 0 wins. Leaders: 1, 0, 1, 0, 0: three changes. The winner trails at turns 0 (by 5) and
    # 2 (by 3): deepest 5, over the widest spread 9 (turns 2 and 3): 5/9; behind 2 of 5 turns; it
    # leads from turn 3 to the end: 2/5. Gaps to the best other seat: -5, 1, -3, 3, 3; bin b reads
    # turn int((b + 0.5) * 5 / 20): bins 0-3 turn 0, bin 19 turn 4.
    history = [(0, 5, 0), (6, 5, 0), (6, 9, 0), (12, 9, 3), (12, 9, 3)]
    lead = read_lead(history, 0)
    assert lead.changes == 3
    assert lead.drama == pytest.approx(5 / 9)
    assert lead.behind == pytest.approx(2 / 5)
    assert lead.decisiveness == pytest.approx(2 / 5)
    assert len(lead.gap) == BINS and lead.gap[:4] == (-5, -5, -5, -5) and lead.gap[4] == 1 and lead.gap[-1] == 3
    # won by the lowest: the same history turned round reads the same
    assert read_lead([tuple(-v for v in values) for values in history], 0, lowest=True) == lead


def test_a_tie_is_no_change_of_leader_and_sharing_the_lead_is_leading():
    lead = read_lead([(1, 0), (1, 1), (2, 1)], 0)
    assert lead.changes == 0 and lead.behind == 0 and lead.decisiveness == 1.0 and lead.drama == 0.0


# ------------------------------------------------------------------ measured matches


def test_measuring_a_match_does_not_change_it():
    """The lead is read by evaluating the score mid-round: the match must be the one self-play
    plays from the same seeds, move for move."""
    compiled = compile_ruleset(load(KLATS).model, 3)
    for index, (game_seed, bot_seed) in zip(range(3), seeds(5), strict=False):  # seeds() never ends
        plain = play_match(compiled, index, game_seed, bot_seed, ("random",) * 3)
        measured = play_measured(compiled, index, game_seed, bot_seed, seats=("random",) * 3)
        assert (measured.totals, measured.winners, measured.reasons, measured.plays, measured.rounds) == (
            plain.totals, plain.winners, plain.reasons, plain.plays, plain.rounds)
        assert measured.turns > measured.rounds and measured.decisions >= measured.plays
        assert sum(map(sum, measured.cards)) == measured.plays  # one card a play in Klats


def test_the_records_are_the_same_whatever_the_workers():
    compiled = compile_ruleset(race(), 2)
    one = measure(compiled, 12, 7, ("random", "random"))
    two = measure(compiled, 12, 7, ("random", "random"), workers=2)
    assert one == two and [r.index for r in one] == list(range(12))
    assert len({r.seed for r in one}) == 12


def test_lowest_wins_is_read_from_the_ruleset():
    s = summary(race("round >= 2", "winner lowest"), 40, 3)
    lowest = summary(race("round >= 2", "winner lowest"), 40, 3)
    assert s.figure("winner's total").estimate.value == lowest.figure("winner's total").estimate.value
    highest = summary(race("round >= 2"), 40, 3)
    # the same matches (same seeds, same play): only who wins differs, and the winner's total with it
    assert s.figure(fig.TURNS).values == highest.figure(fig.TURNS).values
    assert s.figure("winner's total").estimate.value < highest.figure("winner's total").estimate.value


# ------------------------------------------------------------------ the tests between SPECs


def test_two_runs_of_one_game_differ_in_nothing_in_at_least_95_of_100_seeds():
    """The false-positive check, on real play of a small fast game: 100 seeds, 20 matches a side,
    each side its own matches; a seed fails when any figure is marked (Holm-adjusted p < 0.01)."""
    model = race()
    flagged = 0
    for seed in range(100):
        a, b = (summary(model, 20, stream_seed(seed, k)) for k in (0, 1))
        rows = fig.differences(a, b)
        assert len(rows) > 15
        flagged += any(d.significant for d in rows)
    assert flagged <= 5


def test_a_real_difference_is_found():
    a = summary(race(), 60, stream_seed(1, 0))
    b = summary(race("max(totals) >= 60"), 60, stream_seed(1, 1))
    rows = fig.differences(a, b)
    assert rows[0].figure in ("rounds", fig.TURNS, "decisions", "plays", "winner's total") and rows[0].significant
    assert next(d for d in rows if d.figure == "rounds").test.difference > 0


@pytest.fixture(scope="module")
def klats_vs_five_piles():
    result = cli("compare", KLATS, FIVE_PILES, "-p", "3", "-g", "120", "-w", "1", "--json")
    assert result.code == 0, result.stderr
    return json.loads(result.stdout)


def test_five_piles_makes_shorter_rounds_and_that_is_significant(klats_vs_five_piles):
    rows = {d["figure"]: d for d in klats_vs_five_piles["differences"]}
    per_round = rows["turns per round"]
    assert per_round["significant"] and per_round["b"] < per_round["a"] and per_round["p_adjusted"] < 0.01
    assert klats_vs_five_piles["differences"][0]["figure"] in ("turns per round", "rounds")  # the largest effect


def test_the_json_follows_its_schema(klats_vs_five_piles):
    schema = json.loads((REPO / "schemas" / "compare.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(klats_vs_five_piles, schema, cls=jsonschema.Draft202012Validator)
    first = klats_vs_five_piles["specs"][0]
    assert first["games"] == 120 and len(first["seat_win_rates"]) == 3
    assert sum(rate["value"] for rate in first["seat_win_rates"]) == pytest.approx(1.0)
    assert first["first_seat_advantage"]["value"] == pytest.approx(first["seat_win_rates"][0]["value"] - 1 / 3)


def test_a_seed_repeats_the_run_whatever_the_workers(tmp_path):
    path = write(tmp_path, "race.rules", RACE)
    runs = [cli("compare", path, path, "-g", "10", "--seed", "4", "-w", workers, "--json") for workers in ("1", "2")]
    assert runs[0].code == runs[1].code == 0
    assert json.loads(runs[0].stdout) == json.loads(runs[1].stdout)


def test_the_tables(tmp_path):
    path = write(tmp_path, "race.rules", RACE)
    result = cli("compare", path, "-g", "30", "-p", "3")
    assert result.code == 0, result.stderr
    for words in ("turns", "seat 2 wins", "drama: deepest deficit", "decisiveness", "ends by empty", "fairness:"):
        assert words in result.stdout
    assert "against" not in result.stdout  # one SPEC: a report on one game


def test_text_from_the_user_reaches_the_terminal_escaped(tmp_path):
    """A file name is user text: an escape sequence in it (here, clear the screen) is shown, never
    sent, in every table, the differences too."""
    path = write(tmp_path, "race\x1b[2J.rules", RACE)
    result = cli("compare", path, write(tmp_path, "race.rules", RACE), "-g", "10", "-p", "3", "-w", "1")
    assert result.code == 0, result.stderr
    assert "\x1b" not in result.stdout and "race\\x1b[2J" in result.stdout


# ------------------------------------------------------------------ the HTML report


def test_the_html_report_is_one_file_with_its_plots(tmp_path):
    path = write(tmp_path, "race.rules", RACE)
    report = tmp_path / "report.html"
    result = cli("compare", path, f"{path}", "-g", "20", "--html", report)
    assert result.code == 0, result.stderr
    text = report.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.count("<svg") == 4
    assert "<script" not in text and "<link" not in text and "src=" not in text  # nothing fetched
    assert "lead history" in text and "win rate by seat" in text


def test_the_html_report_never_overwrites_an_input(tmp_path):
    path = write(tmp_path, "race.rules", RACE)
    result = cli("compare", path, "-g", "5", "--html", path)
    assert result.code == 2 and "is an input of this command" in result.stderr
    assert path.read_text(encoding="utf-8") == RACE


def test_html_without_matplotlib_says_what_to_install(tmp_path, monkeypatch):
    path = write(tmp_path, "race.rules", RACE)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # an import of it now fails
    result = cli("compare", path, "-g", "5", "--html", tmp_path / "r.html")
    assert result.code == 1 and "cardrules[plots]" in result.stderr
    assert not (tmp_path / "r.html").exists()


# ------------------------------------------------------------------ bad input


def test_a_bad_spec_is_located_and_exits_1(tmp_path):
    bad = write(tmp_path, "bad.rules", RACE.replace("play one of put", "play one of jump"))
    result = cli("compare", KLATS, bad, "-p", "2", "-g", "5")
    assert result.code == 1
    assert "bad.rules:11:" in result.stderr and "^" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, words", [
    (["-g", "0"], "--games must be at least 1"),
    (["--seats", "wizard"], "seat kind not available: 'wizard'"),
    (["--seats", "random,random,random"], "names 3 seats for 2 players"),
    (["-p", "9"], "players"),
])
def test_usage_errors_exit_2(tmp_path, args, words):
    path = write(tmp_path, "race.rules", RACE)
    result = cli("compare", path, *args)
    assert result.code == 2 and words in result.stderr, result.stderr


def test_a_game_that_cannot_end_is_reported_not_hung(tmp_path):
    path = write(tmp_path, "stuck.rules", STUCK)
    result = cli("compare", path, "-g", "3")
    assert result.code == 1 and "stuck.rules: round 1 cannot end" in result.stderr
    assert "hint: every round needs an `end round`" in result.stderr and "Traceback" not in result.stderr


def test_skill_seats_one_kind_at_every_seat_in_turn(tmp_path, monkeypatch):
    """--skill goes through the one function that makes bots (self-play's): with a stand-in for
    the skilled kind (a random bot under its name), the skilled seat moves round and wins about 1/N."""
    from cardrules.interpreter import bots

    monkeypatch.setitem(bots.BOTS, "ismcts", bots.RandomBot)
    compiled = compile_ruleset(race(), 3)
    seated = [play_measured(compiled, index, 1, 2, seats=("ismcts", "random", "random"), rotate=True).seats
              for index in range(4)]
    assert [s.index("ismcts") for s in seated] == [0, 1, 2, 0]
    path = write(tmp_path, "race.rules", RACE)
    result = cli("compare", path, "-p", "3", "-g", "5", "--skill", "--skill-games", "60", "-w", "1", "--json")
    assert result.code == 0, result.stderr
    skill = json.loads(result.stdout)["specs"][0]["skill"]
    assert skill["n"] == 60 and skill["low"] < 1 / 3 < skill["high"]


def test_a_card_kind_only_one_side_has_is_played_no_times_on_the_other():
    bonus = load_text(RACE.replace('card leap { copies 2  face "leap" }',
                                   'card leap { copies 2  face "leap" }\ncard bonus { copies 4  face "bonus" }'),
                      "bonus.rules").model
    a, b = summary(race(), 30, 1), summary(bonus, 30, 2)
    assert a.figure(fig.played("bonus")) is None and b.figure(fig.played("bonus")).estimate.value > 0
    row = next(d for d in fig.differences(a, b) if d.figure == fig.played("bonus"))
    assert row.a.value == 0 and row.significant
    back = next(d for d in fig.differences(b, a) if d.figure == fig.played("bonus"))  # and the other way round
    assert back.b.value == 0 and back.test.difference == -row.test.difference
