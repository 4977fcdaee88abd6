"""Teams and the direction of play at work in small games of our own: partners by seat
(`teams 0+2, 1+3`, `teams opposite`), read in expressions (`team`, `partner`, `team_total`,
`direction`), team totals deciding the winners, both engines equal. Each mistake is a located
error."""
from __future__ import annotations

import pytest

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import Game, new_game
from cardrules.interpreter.equivalence import compare
from cardrules.interpreter.load import load_text

# Partners 0+2 against 1+3: a card goes on one's own table only above the partner's top card;
# a seat scores its table's cards, the team its seats' sum; the first team to 8 wins.
PAIRS = """
game "Pairs" { }
players 4
teams 0+2, 1+3
attribute value in 1..6
card chip { value each  copies 4 }
zone stock shared hidden
zone table per seat public
zone hand per seat owner
setup { shuffle deck into stock  deal 3 from stock to hand }
play lay {
    card from hand where count(table of partner(self)) == 0 or card.value > top(table of partner(self)).value
    to table of self
}
turn { play one of lay or pass  draw 1 from stock to hand }
end round out when some s in seats: count(hand of s) == 0
end round stuck when passes >= players
score s = count(table of s)
match {
    until max(s in seats: team_total(s)) >= 8 or round >= 6
    winner highest
}
"""

# Partners across the table at 4 or 6: a turn card reverses play; a skip card gives the next
# turn to the seat after next, whichever way play goes; the team that empties a hand first
# scores for each card its rivals hold.
ACROSS = """
game "Across" { }
players 4, 6
teams opposite
attribute kind { plain, turn, skip }
attribute value in 0..5
card plain { kind = plain  value each  copies 3 }
card turn { kind = turn  value = 0  copies 4 }
card skip { kind = skip  value = 0  copies 4 }
zone stock shared hidden
zone heap shared public
zone hand per seat owner
setup { shuffle deck into stock  deal 4 from stock to hand }
play lay { card from hand where card.kind == plain  to heap }
play turn { card from hand where card.kind == turn  to heap  then reverse }
play skip {
    card from hand where card.kind == skip
    to heap
    then next turn to seat(index(self) + 2 * direction)
}
turn { play one of lay, turn, skip or pass  draw 1 from stock to hand when passed }
end round out when some s in seats: count(hand of s) == 0
end round stuck when count(stock) == 0 and passes >= players
score s = if some t in team(s): count(hand of t) == 0
          then sum(t in seats: if t == s or t == partner(s) then 0 else count(hand of t))
          else 0
match { until round >= 3 }
"""


def model(text: str):
    return load_text(text, "teams.rules").model


def errors(text: str) -> list[str]:
    with pytest.raises(RulesError) as e:
        load_text(text, "teams.rules")
    return [d.message for d in e.value.diagnostics if d.severity == "error"]


def test_listed_teams_and_opposite_teams_seat_every_player():
    assert compile_ruleset(model(PAIRS), 4).team_of == ((0, 2), (1, 3), (0, 2), (1, 3))
    across = model(ACROSS)
    assert compile_ruleset(across, 4).team_of == ((0, 2), (1, 3), (0, 2), (1, 3))
    assert compile_ruleset(across, 6).team_of == ((0, 3), (1, 4), (2, 5), (0, 3), (1, 4), (2, 5))


def test_a_single_player_count_is_accepted():
    m = model(PAIRS)
    assert m.counts == (4,)


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_partner_reads_the_partners_zone(engine):
    game = new_game(compile_ruleset(model(PAIRS), 4), 1, engine=engine)
    # seat 0's partner is seat 2, whose top card is a 4: only a 5 or 6 may go down; seat 1's
    # table (a 6) is no partner's of seat 0's and changes nothing
    game.set_position({"hand": {0: ["chip-2", "chip-5"]}, "table": {1: ["chip-6"], 2: ["chip-4"]}}, active=0,
                      rest="stock")
    assert [str(m) for m in game.legal_moves(0)] == ["lay chip-5 @0"]
    game.set_position({"hand": {1: ["chip-2", "chip-5"]}, "table": {1: ["chip-6"], 2: ["chip-4"]}}, active=1,
                      rest="stock")
    assert sorted(str(m) for m in game.legal_moves(1)) == ["lay chip-2 @1", "lay chip-5 @1"]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_the_best_teams_seats_all_win(engine):
    game = new_game(compile_ruleset(model(PAIRS), 4), 1, engine=engine)
    game.set_position({"hand": {0: ["chip-1"]}}, totals=[5, 4, 0, 3], rest="stock")
    assert game.winners() == [1, 3]  # 4 + 3 against 5 + 0: the seat with the most is not a winner
    game.set_position({"hand": {0: ["chip-1"]}}, totals=[5, 4, 2, 3], rest="stock")
    assert game.winners() == [0, 1, 2, 3]  # 7 and 7: the teams share the win


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_team_total_ends_the_match(engine):
    game = new_game(compile_ruleset(model(PAIRS), 4), 1, engine=engine)
    # seat 0 lays its last card: the round ends; seat 0's table of 5 and seat 2's of 3 make 8
    game.set_position({"hand": {0: ["chip-6"], 1: ["chip-5"], 2: ["chip-5"], 3: ["chip-5"]},
                       "table": {0: ["chip-1", "chip-2", "chip-3", "chip-4"], 2: ["chip-2"] * 3}}, active=0,
                      rest="stock")
    game.apply("lay chip-6 @0")
    assert game.over and game.state.totals == [5, 0, 3, 0] and game.winners() == [0, 2]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_direction_is_read_after_a_reverse(engine):
    game = new_game(compile_ruleset(model(ACROSS), 4), 1, engine=engine)
    game.set_position({"hand": {0: ["skip", "plain-1"], 1: ["plain-1"], 2: ["plain-1"], 3: ["plain-2"]}},
                      active=0, rest="stock")
    game.apply("skip skip")
    assert game.state.active == 2  # the seat after next, play going up
    game.set_position({"hand": {0: ["turn", "plain-1"], 1: ["skip", "plain-1"], 2: ["plain-1", "plain-3"],
                                3: ["plain-2", "plain-3"]}}, active=0, rest="stock")
    game.apply("turn turn")
    assert game.state.direction == -1 and game.state.active == 3
    game.apply("lay plain-2")  # seat 3
    assert game.state.active == 2
    game.apply("lay plain-1")  # seat 2
    game.apply("skip skip")  # seat 1: the seat after next, play going down, is seat 3
    assert game.state.active == 3


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_team_scores_for_the_rivals_cards(engine):
    game = new_game(compile_ruleset(model(ACROSS), 4), 1, engine=engine)
    game.set_position({"hand": {0: ["plain-1"], 1: ["plain-1", "plain-2"], 2: ["plain-3"], 3: ["plain-4"]}},
                      active=0, rest="stock")
    game.apply("lay plain-1")
    # seat 0 is out: it and its partner (seat 2) score the rivals' three cards
    assert game.state.results[0].scores == (3, 0, 3, 0)


@pytest.mark.parametrize("text, players", [(PAIRS, 4), (ACROSS, 4), (ACROSS, 6)])
def test_both_engines_are_equal_with_teams(text, players):
    assert compare(compile_ruleset(model(text), players), positions=300, seed=players).positions >= 300


def test_the_reference_engine_plays_teams_out():
    c = compile_ruleset(model(ACROSS), 6)
    for seed in range(5):
        game = Game(c, seed)
        while not game.over:
            game.play(game.actions()[0])
        winners = game.winners()
        assert winners and set(winners) == {s for w in winners for s in c.team_of[w]}  # whole teams win


@pytest.mark.parametrize("change, message", [
    ("players 4\nteams 0+2, 1+3", None),
    ("players 4\nteams 0+3, 1", "the teams leave out seat 2"),
    ("players 4\nteams 0+2, 1+2+3", "seat 2 is on two teams"),
    ("players 4\nteams 0+1+2+3", "one team: nobody plays against it"),
    ("players 4, 6\nteams 0+2, 1+3", "the teams seat 4 players, but players allows 6"),
    ("players 4..6\nteams opposite", "teams opposite needs an even number of players, 4 or more; players allows 5"),
    ("players 2, 4\nteams opposite", "teams opposite needs an even number of players, 4 or more; players allows 2"),
])
def test_teams_that_do_not_seat_every_player_are_errors(change, message):
    text = PAIRS.replace("players 4\nteams 0+2, 1+3", change)
    if message is None:
        assert model(text).teams.listed == ((0, 2), (1, 3))
    else:
        assert message in errors(text)


def test_team_functions_need_teams_and_a_seat():
    assert "partner(...) reads the teams, and the ruleset has none" in errors(PAIRS.replace("teams 0+2, 1+3", ""))
    assert "team(...) takes a seat, not a number" in errors(PAIRS.replace("partner(self)) == 0", "team(1)) == 0"))
    text = PAIRS.replace("count(table of partner(self))", "count(table of team(self))")
    assert "'table of ...' needs a seat, not a list of seats" in errors(text)


def test_a_variant_adds_replaces_and_removes_teams():
    solo = PAIRS.replace("partner(self)", "seat(index(self) + 2)").replace(
        "max(s in seats: team_total(s)) >= 8 or ", "")
    text = solo.replace("players 4\nteams 0+2, 1+3", "players 4") + """
variant pairs { teams 0+1, 2+3 }
variant across { teams opposite }
"""
    assert model(text).teams is None
    assert load_text(text, "t.rules", variants=("pairs",)).model.teams.listed == ((0, 1), (2, 3))
    assert load_text(text, "t.rules", variants=("across",)).model.teams.kind == "opposite"
    removed = solo + "variant solo { remove teams }"
    assert load_text(removed, "t.rules", variants=("solo",)).model.teams is None


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_team_total_in_a_round_reads_the_rounds_scored_so_far(engine):
    text = PAIRS.replace("score s = count(table of s)", "score s = count(table of s) + team_total(s)")
    game = new_game(compile_ruleset(model(text), 4), 1, engine=engine)
    game.set_position({"hand": {0: ["chip-6"], 1: ["chip-5"], 2: ["chip-5"], 3: ["chip-5"]},
                       "table": {0: ["chip-1"], 3: ["chip-2"]}}, active=0, totals=[1, 2, 0, 0], rest="stock")
    game.apply("lay chip-6 @0")
    # seat 0: 2 cards + its team's 1 + 0; seat 1: none + 2 + 0; seat 3: 1 card + 2
    assert game.state.results[0].scores == (3, 2, 1, 3) and game.state.totals == [4, 4, 1, 3]


def test_the_table_shows_each_seat_its_partner_and_the_team_totals():
    from rich.console import Console

    from cardrules.cli.render import view_of

    m = model(PAIRS)
    game = new_game(compile_ruleset(m, 4), 1)
    game.set_position({"hand": {0: ["chip-1"]}}, totals=[5, 4, 2, 3], rest="stock")

    def shown(seat: int) -> str:
        console = Console(width=100, record=True, file=None)
        with console.capture() as captured:
            console.print(view_of(game.view(seat), m, ["random"] * 4))
        return captured.get().splitlines()[1]

    assert shown(2) == "teams: 0+2 (your team, partner 0) total 7 · 1+3 total 7"
    assert shown(1) == "teams: 0+2 total 7 · 1+3 (your team, partner 3) total 7"
    solo = model(PAIRS.replace("teams 0+2, 1+3", "").replace("partner(self)", "seat(index(self) + 2)").replace(
        "max(s in seats: team_total(s)) >= 8 or ", ""))
    console = Console(width=100, record=True)
    with console.capture() as captured:
        console.print(view_of(new_game(compile_ruleset(solo, 4), 1).view(0), solo, ["random"] * 4))
    assert "teams" not in captured.get() and "partner" not in captured.get()


def test_selfplay_counts_the_teams_wins(tmp_path):
    import json

    from .conftest import cli, write

    path = write(tmp_path, "pairs.rules", PAIRS)
    result = cli("selfplay", path, "-p", "4", "-g", "40", "-s", "3", "--json")
    assert result.code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["teams"] == [[0, 2], [1, 3]]
    wins = data["wins_by_seat"]
    # a team wins when its seats do: partners win together, so their counts are the team's
    assert wins[0] == wins[2] == data["wins_by_team"][0] and wins[1] == wins[3] == data["wins_by_team"][1]
    assert sum(data["wins_by_team"]) >= 40
    text = cli("selfplay", path, "-p", "4", "-g", "10", "-s", "3").stdout
    assert "wins by team" in text and "0+2" in text
    assert "wins_by_team" not in cli("selfplay", "klats", "-p", "2", "-g", "2", "--json").stdout


def test_compare_reports_each_teams_win_rate(tmp_path):
    import json

    import jsonschema

    from .conftest import REPO, cli, write

    path = write(tmp_path, "pairs.rules", PAIRS)
    result = cli("compare", path, "-p", "4", "-g", "40", "--json")
    assert result.code == 0, result.stderr
    data = json.loads(result.stdout)
    jsonschema.validate(data, json.loads((REPO / "schemas" / "compare.schema.json").read_text(encoding="utf-8")))
    spec = data["specs"][0]
    rates = {tuple(r["team"]): r["value"] for r in spec["team_win_rates"]}
    seats = [r["value"] for r in spec["seat_win_rates"]]
    assert set(rates) == {(0, 2), (1, 3)}
    assert rates[(0, 2)] == pytest.approx(seats[0] + seats[2]) and sum(rates.values()) == pytest.approx(1)


def test_the_teams_export_as_written_and_valid():
    import json

    import jsonschema

    from cardrules.interpreter.export import export
    from cardrules.interpreter.load import load

    from .conftest import REPO, RULESETS

    schema = json.loads((REPO / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    pairs = export(model(PAIRS))
    jsonschema.validate(pairs, schema)
    assert pairs["teams"]["kind"] == "listed" and pairs["teams"]["teams"] == [[0, 2], [1, 3]]
    arne = export(load(str(RULESETS / "arne_total.rules"), "en", ("teams",)).model)
    jsonschema.validate(arne, schema)
    assert arne["teams"]["kind"] == "opposite" and arne["teams"]["provenance"]["sources"]
    assert export(model(ACROSS))["match"]["until"]["expr"]["text"] == "round >= 3"


def test_check_shows_the_teams_and_diff_compares_them(tmp_path):
    from .conftest import cli, write

    path = write(tmp_path, "pairs.rules", PAIRS)
    r = cli("check", path)
    assert r.code == 0 and "0+2, 1+3" in r.stdout
    across = write(tmp_path, "across.rules", PAIRS.replace("teams 0+2, 1+3", "teams 0+1, 2+3"))
    d = cli("diff", path, across)
    assert d.code == 1 and "teams 0+2, 1+3" in d.stdout and "teams 0+1, 2+3" in d.stdout


def test_the_book_says_who_plays_with_whom(tmp_path):
    from .conftest import cli, write

    path = write(tmp_path, "pairs.rules", PAIRS)
    r = cli("book", path, "--format", "md")
    assert r.code == 0 and "4 players." in r.stdout
    assert "The players play in teams of these seats: 0+2, 1+3." in r.stdout
    assert "teams" not in cli("book", "klats", "--format", "md").stdout


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_bot_weighs_a_seat_as_its_team_stands(engine):
    from cardrules.interpreter.outcome import margin, standing

    game = new_game(compile_ruleset(model(PAIRS), 4), 1, engine=engine)
    game.set_position({"hand": {0: ["chip-1"], 1: ["chip-2"], 2: ["chip-3"], 3: ["chip-4"]},
                       "table": {0: ["chip-5"], 2: ["chip-6", "chip-4"], 3: ["chip-1"]}}, totals=[1, 4, 0, 0],
                      rest="stock")
    # the round now: 1, 0, 2, 1; with the totals, 0+2 stand at 4 and 1+3 at 5, whichever partner asks
    assert standing(game) == [4, 5, 4, 5]
    assert margin(game, 0) == margin(game, 2) == -1 and margin(game, 3) == 1


def test_compare_reads_the_score_and_the_lead_by_team():
    from cardrules.interpreter import figures as fig
    from cardrules.interpreter.measure import play_measured, read_lead

    c = compile_ruleset(model(PAIRS), 4)
    records = [play_measured(c, i, 100 + i, 200 + i, seats=("random",) * 4) for i in range(12)]
    done = [r for r in records if r.over]
    teams = c.model.teams.at(4)
    summary = fig.summarise("pairs", records, c.model.round_end_names, ["chip"], teams=teams)
    best = [max(sum(r.totals[s] for s in team) for team in teams) for r in done]
    assert summary.figure("winner's total").estimate.value == pytest.approx(sum(best) / len(best))
    # the lead of two teams: the final reading is the teams' totals, the winner's team ahead
    last = done[-1]
    winner_team = next(k for k, team in enumerate(teams) if last.winners[0] in team)
    final = [sum(last.totals[s] for s in team) for team in teams]
    assert last.lead.gap[-1] == final[winner_team] - final[1 - winner_team]
    assert read_lead([final], winner_team).gap[-1] == last.lead.gap[-1]
