"""Per-seat logs and self-play logs: `selfplay --log` writes one replayable log a line;
`log redact` keeps what one seat saw, and no card it did not see (counted card by card, since
faces come in copies); bad seats, games and logs get clear messages."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from cardrules.interpreter import gamelog
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.gamelog import NoSuchGame

from .conftest import RULESETS, cli

GAMES = 4

# A card game where cards change hands face down: passed to a seat's hand, or buried unseen, also
# out of turn (a response window, whose logs have passes in them).
PASS_ALONG = """
game "Pass Along" { }
players 3..4
attribute value in 1..6
card chip {
    value each
    copies 2
}
zone stock shared hidden
zone vault shared hidden
zone hand per seat owner
zone table shared public
setup {
    shuffle deck into stock
    deal 2 from stock to hand
}
play give {
    card from hand
    to hand of any seat
}
play show {
    card from hand where card.value > 4
    to table
}
play bury {
    card from hand where card.value == 1
    to vault
}
turn {
    play one of give, show, bury or pass
    draw 1 from stock to hand
}
window {
    play any of bury
    open after every step
}
end round dry when count(stock) == 0
score s = count(hand of s)
match {
    until round >= 2
    winner lowest
}
"""


@pytest.fixture(scope="module")
def selfplay_log(tmp_path_factory):
    """GAMES matches of three random bots at Klats, logged one a line, and the run's figures."""
    path = tmp_path_factory.mktemp("selfplay") / "klats.jsonl"
    done = cli("selfplay", "klats", "--players", "3", "--games", GAMES, "--seed", "5", "--json", "--log", path)
    assert done.code == 0, done.stderr
    return path, json.loads(done.stdout)


def seat_log(path, seat: int, game: int = 1) -> dict:
    done = cli("log", "redact", path, "--seat", seat, "--game", game)
    assert done.code == 0, done.stderr
    return json.loads(done.stdout)


def strings(value) -> list[str]:
    """Every string value inside a JSON value (keys are names, never faces)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


# ------------------------------------------------------------------ selfplay --log


def test_selfplay_log_holds_one_replayable_match_a_line(selfplay_log, klats):
    path, stats = selfplay_log
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == GAMES
    logs = [gamelog.read(path, game) for game in range(1, GAMES + 1)]
    assert len({log.seed for log in logs}) == GAMES
    assert all(log.seats == ("random",) * 3 and log.ruleset == "klats" and log.params["target_total"] == 150
               and log.ruleset_sha256 == gamelog.sha256_of(RULESETS / "klats.rules") for log in logs)
    compiled = compile_ruleset(klats.model, 3, logs[0].params)
    wins = [0, 0, 0]
    for log in logs:
        game = gamelog.replay(log, compiled)  # raises unless the moves give the logged result
        assert tuple(game.state.totals) == log.result.totals and game.over
        for seat in log.result.winners:
            wins[seat] += 1
    # the logs are the matches the figures were counted from
    assert wins == stats["wins_by_seat"]
    assert sum(log.result.rounds for log in logs) / GAMES == pytest.approx(stats["mean_rounds"])
    assert sum(len(log.moves) for log in logs) / GAMES == pytest.approx(stats["mean_moves"])
    assert sum(max(log.result.totals) for log in logs) / GAMES == pytest.approx(stats["mean_winning_total"])


def test_selfplay_figures_do_not_depend_on_logging(selfplay_log):
    _, logged = selfplay_log
    plain = json.loads(cli("selfplay", "klats", "--players", "3", "--games", GAMES, "--seed", "5", "--json").stdout)
    for key in ("wall_seconds", "games_per_second"):
        del plain[key], logged[key]
    assert plain == logged


def test_replay_reads_a_selfplay_log_first_match_by_default(selfplay_log):
    path, _ = selfplay_log
    first = gamelog.read(path)
    done = cli("replay", path)
    assert done.code == 0, done.stderr
    assert f"seed {first.seed}: {len(first.moves)} moves replayed" in done.stdout
    assert "the result matches the log" in done.stdout


def test_selfplay_log_to_a_missing_folder_is_a_usage_error(tmp_path):
    done = cli("selfplay", "klats", "--players", "2", "--games", "1", "--log", tmp_path / "no" / "x.jsonl")
    assert done.code == 2 and "--log: no folder" in done.stderr


def test_reading_a_file_of_logs_by_number(selfplay_log, tmp_path):
    path, _ = selfplay_log
    lines = path.read_text(encoding="utf-8").splitlines()
    assert gamelog.read(path, 3) == gamelog.parse(lines[2])
    with pytest.raises(NoSuchGame, match=f"holds {GAMES} game logs, one a line; there is no game {GAMES + 1}"):
        gamelog.read(path, GAMES + 1)
    single = tmp_path / "one.json"
    single.write_text(json.dumps(json.loads(lines[1]), indent=2), encoding="utf-8")  # as play --log wrote it once
    assert gamelog.read(single) == gamelog.read(path, 2)
    with pytest.raises(NoSuchGame, match="holds one game log; there is no game 2"):
        gamelog.read(single, 2)
    lines[2] = lines[2].replace('"players":3', '"players":"3"')
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert gamelog.read(broken, 2) == gamelog.read(path, 2)  # only the line asked for is read
    with pytest.raises(gamelog.LogError, match=r"broken\.jsonl:3:\d+: 'players' must be a positive integer"):
        gamelog.read(broken, 3)


# ------------------------------------------------------------------ log redact


def test_a_klats_seat_never_sees_a_card_hidden_from_it(selfplay_log, klats):
    """Move by move, each face shows up in the seat's view exactly as many times as copies of it lie
    where the seat may look (its hand, the rows): never a copy in another hand or the draw pile."""
    path, _ = selfplay_log
    log = gamelog.read(path, 2)
    compiled = compile_ruleset(klats.model, log.players, log.params)
    faces, face_of = compiled.faces, compiled.face_of
    hand, draw, row = (compiled.zone_index[z] for z in ("hand", "draw", "row"))
    truth = {}

    def snapshot(number, mover, text, game):
        zones = game.state.zones
        seen = {seat: Counter(faces[face_of[c]] for c in zones[hand][seat]) +
                Counter(faces[face_of[c]] for r in zones[row] for pile in r for c in pile) for seat in range(3)}
        hidden = {seat: Counter(faces[face_of[c]] for c in zones[draw]) +
                  Counter(faces[face_of[c]] for s in range(3) if s != seat for c in zones[hand][s])
                  for seat in range(3)}
        truth[number] = (seen, hidden, [len(h) for h in zones[hand]], len(zones[draw]), len(game.state.results))

    gamelog.replay(log, compiled, on_move=snapshot)
    assert len(truth) == len(log.moves) > 50
    for seat in range(3):
        redacted = seat_log(path, seat, 2)
        assert [m["number"] for m in redacted["moves"]] == list(range(1, len(log.moves) + 1))
        checked_hidden, rounds = 0, 0
        for entry in redacted["moves"]:
            seen, hidden, hand_sizes, draw_size, ended = truth[entry["number"]]
            view = entry["view"]
            assert view["zones"]["draw"] == {"count": draw_size}
            for other in set(range(3)) - {seat}:
                assert view["zones"]["hand"][other] == {"count": hand_sizes[other]}
            shown = Counter(s for s in strings(view) if s in compiled.face_index)
            assert shown == seen[seat], entry["number"]
            assert not any(hidden[seat][face] for face in shown if not seen[seat][face])
            card = entry["move"].split()[1]
            if ended == rounds:  # a Klats play lays its card face up in a row (cleared when the round ends)
                assert seen[seat][card] >= 1
            rounds = ended
            checked_hidden += sum(hidden[seat].values())
        assert checked_hidden > 1000  # there was a lot to hide


def test_a_seat_log_has_no_seed_and_seats_see_differently(selfplay_log):
    path, _ = selfplay_log
    log = gamelog.read(path)
    zero, one = seat_log(path, 0), seat_log(path, 1)
    for data, seat in ((zero, 0), (one, 1)):
        assert data["format"] == "cardrules-seat-log/1" and data["seat"] == seat
        assert "seed" not in data and str(log.seed) not in json.dumps(data)
        assert (data["ruleset"], data["players"], data["params"], data["seats"]) == (
            log.ruleset, log.players, log.params, list(log.seats))
        assert data["result"] == {"totals": list(log.result.totals), "winners": list(log.result.winners),
                                  "rounds": log.result.rounds}
        # every Klats play lays its card face up, so each move reads as in the full log
        assert [m["move"] for m in data["moves"]] == list(log.moves)
        assert [m["seat"] for m in data["moves"]][:3] == [0, 1, 2]
    own = zero["start"]["zones"]["hand"][0]
    assert isinstance(own, list) and len(own) == 3  # seat 0's hand, face by face, to seat 0 ...
    assert one["start"]["zones"]["hand"][0] == {"count": 3}  # ... and a count to seat 1
    assert zero["start"] != one["start"] and zero["moves"] != one["moves"]


def test_cards_passed_face_down_read_as_unseen(tmp_path):
    rules = tmp_path / "pass_along.rules"
    rules.write_text(PASS_ALONG, encoding="utf-8")
    path = tmp_path / "pass.jsonl"
    assert cli("selfplay", rules, "--players", "3", "--games", "2", "--seed", "4", "--log", path).code == 0
    log = gamelog.read(path)
    views = [seat_log(path, seat)["moves"] for seat in range(3)]
    kinds = Counter()
    for number, text in enumerate(log.moves):
        words = text.split()
        play, target = words[0], words[2] if words[0] == "give" else ""
        mover = views[0][number]["seat"]
        for seat in range(3):
            saw = seat in (mover, int(target[1:])) if play == "give" else play in ("show", "pass") or seat == mover
            assert views[seat][number]["move"] == (text if saw else f"{play} ? {target}".strip())
            kinds[play, saw] += 1
    assert all(kinds[play, saw] for play, saw in (("give", False), ("give", True), ("show", True), ("bury", False),
                                                  ("bury", True), ("pass", True)))


def test_output_file(selfplay_log, tmp_path):
    path, _ = selfplay_log
    out = tmp_path / "seat2.json"
    done = cli("log", "redact", path, "--seat", "2", "--game", "4", "-o", out)
    assert done.code == 0, done.stderr
    assert re.search(rf"the log of seat 2 \(\d+ moves\) written to {re.escape(str(out))}", done.stdout)
    assert json.loads(out.read_text(encoding="utf-8")) == seat_log(path, 2, 4)


@pytest.mark.parametrize("args, message", [
    (("--seat", "3"), "--seat 3: the match in {log} has seats 0 to 2"),
    (("--seat", "-1"), "--seat -1: the match in {log} has seats 0 to 2"),
    (("--seat", "0", "--game", "9"), f"{{log}} holds {GAMES} game logs, one a line; there is no game 9"),
    (("--seat", "0", "--game", "0"), "games are numbered from 1, not 0"),
    (("--seat", "0", "-o", "/no/such/folder/x.json"), "--output: no folder '/no/such/folder'"),
])
def test_bad_seat_game_or_output_is_a_usage_error(selfplay_log, args, message):
    path, _ = selfplay_log
    done = cli("log", "redact", path, *args)
    assert done.code == 2
    assert message.format(log=path) in done.stderr
    assert done.stdout == ""


def test_a_broken_log_gets_a_located_message(selfplay_log, tmp_path):
    path, _ = selfplay_log
    lines = path.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([lines[0], lines[1].replace('"seed":', '"seed":"'), *lines[2:]]), encoding="utf-8")
    done = cli("log", "redact", broken, "--seat", "0", "--game", "2")
    assert done.code == 1
    assert re.search(re.escape(str(broken)) + r":2:\d+: not valid JSON", done.stderr), done.stderr
    data = json.loads(lines[0])
    data["moves"][4] = "put " + data["moves"][4].split()[1] + " @7"
    edited = tmp_path / "edited.jsonl"
    edited.write_text(json.dumps(data) + "\n", encoding="utf-8")
    done = cli("log", "redact", edited, "--seat", "1")
    assert done.code == 1
    assert f"{edited}: move 5 '{data['moves'][4]}' by seat 1 does not apply" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_replay_takes_any_match_of_a_selfplay_log(tmp_path):
    from .conftest import cli

    log = tmp_path / "many.jsonl"
    assert cli("selfplay", "klats", "-p", "2", "-g", "3", "--log", str(log), "--json").code == 0
    for k in ("1", "3"):
        done = cli("replay", str(log), "--game", k)
        assert done.code == 0 and "the result matches the log" in done.stdout
    missing = cli("replay", str(log), "--game", "4")
    assert missing.code == 2 and missing.stdout == ""
