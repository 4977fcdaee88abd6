"""The figures of a game measured under bots, and how two games differ in them.

`summarise` turns the measured matches of one SPEC into named figures, each a mean of per-match
values (with a t interval) or a rate (with a Wilson interval); `differences` pairs two summaries'
figures by name and tests each: Welch's t for means, the two-proportion z test for rates. Many
figures are tested at once, so each p-value is also Holm-adjusted over the comparison, and a
difference is marked significant when the adjusted p is below `ALPHA`: two runs of one game are
then all unmarked in at least 99 comparisons out of 100. The rows are sorted by effect size
(Cohen's d for means, Cohen's h for rates: one scale), the largest first.

Matches stopped by a safety limit count in the limit's rate and in nothing else.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import pstdev

from . import inference
from .inference import ChiSquare, Estimate, Test
from .measure import BINS, Record

ALPHA = 0.01
TURNS, LEAD_CHANGES, DRAMA, DECISIVENESS = "turns", "lead changes", "drama: deepest deficit", "decisiveness"
LIMIT = "stopped by a safety limit"

LENGTH, FAIRNESS, SCORE, LEAD = "length", "fairness", "score", "lead"
CARDS, ENDS, SKILL = "cards", "round ends", "skill"


@dataclass(frozen=True)
class Figure:
    """One figure of a game: a mean of per-match `values`, or a rate `successes / trials`."""

    name: str
    group: str
    estimate: Estimate
    values: tuple[float, ...] | None = None  # for a mean
    successes: float = 0.0  # for a rate
    trials: int = 0

    @property
    def is_rate(self) -> bool:
        return self.values is None


@dataclass(frozen=True)
class Summary:
    """The figures of one SPEC's matches."""

    spec: str
    players: int
    seats: tuple[str, ...]
    games: int  # matches played
    finished: int  # matches that reached their end
    figures: tuple[Figure, ...]
    fairness: ChiSquare  # the test that every seat wins an equal share
    gap: tuple[Estimate, ...]  # the mean gap, winner minus best other seat, at each of BINS points
    round_ends: dict[str, int]  # rounds ended by each `end round`, in the ruleset's order
    skill: Estimate | None = None  # the skilled seat's win rate, when measured
    limits: tuple[str, ...] = ()  # why matches were stopped, each once
    teams: tuple[tuple[int, ...], ...] = ()  # with a `teams` clause: each team's seats

    def figure(self, name: str) -> Figure | None:
        return next((f for f in self.figures if f.name == name), None)


def first_seat_advantage(summary: Summary) -> Estimate:
    """Seat 0's win rate above an equal share (1/N), with its interval."""
    figure = summary.figure(seat_wins(0))
    assert figure is not None  # every summary has each seat's win rate
    won, fair = figure.estimate, 1 / summary.players
    return Estimate(won.value - fair, won.low - fair, won.high - fair, 0.0, won.n)


def _mean(name: str, group: str, values: Sequence[float]) -> Figure:
    values = tuple(float(v) for v in values)
    return Figure(name, group, inference.mean_ci(values), values)


def _rate(name: str, group: str, successes: float, trials: int) -> Figure:
    return Figure(name, group, inference.wilson(successes, trials), None, successes, trials)


def played(kind: str) -> str:
    """The name of the figure of how often a card kind is played."""
    return f"{kind} played"


def seat_wins(seat: int) -> str:
    """The name of a seat's win rate."""
    return f"seat {seat} wins"


def team_wins(team: Sequence[int]) -> str:
    """The name of a team's win rate."""
    return f"team {'+'.join(map(str, team))} wins"


def _team_figures(teams: Sequence[tuple[int, ...]], wins: list[float], matches: int) -> list[Figure]:
    """Each team's share of the wins: its seats' shares together (teams that tie share it)."""
    return [_rate(team_wins(team), FAIRNESS, sum(wins[seat] for seat in team), matches) for team in teams]


def _side_totals(totals: Sequence[int], teams: Sequence[tuple[int, ...]]) -> list[int]:
    """The totals the score figures compare: the seats', or with teams each team's (the sum of
    its seats')."""
    return [sum(totals[s] for s in team) for team in teams] if teams else list(totals)


def _shares(record: Record) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k between k tied winners."""
    shares = [0.0] * len(record.totals)
    for seat in record.winners:
        shares[seat] = 1.0 / len(record.winners)
    return shares


def summarise(spec: str, records: Sequence[Record], round_end_names: Iterable[str], kind_names: Sequence[str],
              lowest: bool = False, skill: Sequence[Record] = (), skilled: str | None = None,
              teams: Sequence[tuple[int, ...]] = ()) -> Summary:
    """The figures of `records` (one SPEC's matches, at least one of them finished); `lowest`:
    the lowest total wins. With `skill`, matches in which one seat is of the kind `skilled`: its
    win rate is the skill. With `teams`, each team's win rate too."""
    done = [r for r in records if r.over]
    if not done:
        raise ValueError("no match reached its end")
    players = len(done[0].totals)
    figures = [_mean(what, LENGTH, [getattr(r, what) for r in done])
               for what in ("rounds", TURNS, "decisions", "plays")]
    figures.append(_mean("turns per round", LENGTH, [r.turns / max(r.rounds, 1) for r in done]))
    shares = [_shares(r) for r in done]
    wins = [sum(s[seat] for s in shares) for seat in range(players)]
    figures += [_rate(seat_wins(seat), FAIRNESS, wins[seat], len(done)) for seat in range(players)]
    figures += _team_figures(teams, wins, len(done))
    sides = [_side_totals(r.totals, teams) for r in done]
    ordered = [sorted(totals, reverse=not lowest) for totals in sides]
    figures += [_mean("winner's total", SCORE, [o[0] for o in ordered]),
                _mean("margin to the runner-up", SCORE, [abs(o[0] - o[1]) if len(o) > 1 else 0 for o in ordered]),
                _mean("spread of totals (sd)", SCORE, [pstdev(totals) for totals in sides])]
    leads = [r.lead for r in done if r.lead is not None]  # all of them: a match that ended has its lead
    figures += [_mean(LEAD_CHANGES, LEAD, [lead.changes for lead in leads]),
                _mean(DRAMA, LEAD, [lead.drama for lead in leads]),
                _mean("drama: time trailing", LEAD, [lead.behind for lead in leads]),
                _rate("comebacks", LEAD, sum(lead.behind > 0 for lead in leads), len(done)),
                _mean(DECISIVENESS, LEAD, [lead.decisiveness for lead in leads])]
    for k, kind in enumerate(kind_names):
        figures.append(_mean(played(kind), CARDS, [sum(r.cards[seat][k] for seat in range(players)) for r in done]))
        if not figures[-1].estimate.value:
            continue
        seats_playing = [(i, seat) for i, r in enumerate(done) for seat in range(players) if r.cards[seat][k]]
        figures.append(_rate(f"{kind} players' wins", CARDS,
                             sum(shares[i][seat] for i, seat in seats_playing), len(seats_playing)))
    ends = Counter(reason for r in done for reason in r.reasons)
    round_ends = {name: ends.get(name, 0) for name in round_end_names}
    rounds = sum(round_ends.values())
    figures += [_rate(f"ends by {name}", ENDS, count, rounds) for name, count in round_ends.items()]
    figures.append(_rate(LIMIT, ENDS, len(records) - len(done), len(records)))
    skill_rate = None
    if skill:
        ended = [r for r in skill if r.over]
        if ended:
            won = sum(_shares(r)[r.seats.index(skilled)] for r in ended)
            figures.append(_rate(f"{skilled} seat's wins", SKILL, won, len(ended)))
            skill_rate = figures[-1].estimate
    gap = tuple(inference.mean_ci([lead.gap[b] for lead in leads]) for b in range(BINS))
    return Summary(spec, players, done[0].seats, len(records), len(done), tuple(figures),
                   inference.chi_square_equal(wins), gap, round_ends, skill_rate,
                   tuple(sorted({r.limit for r in records if r.limit})), tuple(teams))


@dataclass(frozen=True)
class Difference:
    """A figure of two games side by side: b against a."""

    figure: str
    group: str
    a: Estimate
    b: Estimate
    rate: bool  # a rate (tested by two proportions), else a mean (Welch's t)
    test: Test
    effect: float  # Cohen's d (means) or h (rates), b against a
    p_adjusted: float  # Holm-adjusted over the comparison's figures

    @property
    def significant(self) -> bool:
        return self.p_adjusted < ALPHA


def differences(a: Summary, b: Summary) -> list[Difference]:
    """Every figure of the two summaries, tested, sorted by effect size (largest first). A card
    kind that only one side's ruleset has is played no times on the other."""
    rows = []
    names = [f.name for f in a.figures] + [f.name for f in b.figures if a.figure(f.name) is None]
    for name in names:
        fa, fb = a.figure(name), b.figure(name)
        fa, fb = fa or _none_played(a, fb), fb or _none_played(b, fa)
        if fa is None or fb is None or fa.is_rate != fb.is_rate:
            continue
        if fa.values is None or fb.values is None:  # rates, both (`is_rate`, the same on both sides)
            if not fa.trials or not fb.trials:
                continue
            test = inference.two_proportions(fa.successes, fa.trials, fb.successes, fb.trials)
            effect = inference.cohens_h(fa.estimate.value, fb.estimate.value)
        else:
            if len(fa.values) < 2 or len(fb.values) < 2:
                continue
            test = inference.welch(fa.values, fb.values)
            effect = inference.cohens_d(fa.values, fb.values)
        rows.append((fa, fb, test, effect))
    adjusted = inference.holm([test.p_value for _, _, test, _ in rows])
    found = [Difference(fa.name, fa.group, fa.estimate, fb.estimate, fa.is_rate, test, effect, p)
             for (fa, fb, test, effect), p in zip(rows, adjusted, strict=True)]
    return sorted(found, key=lambda d: (-abs(d.effect), d.test.p_value))


def _none_played(side: Summary, other: Figure | None) -> Figure | None:
    """On `side`, the figure of a card kind only the other side's ruleset has: played no times."""
    if other is None or other.group != CARDS or other.is_rate:
        return None
    return _mean(other.name, CARDS, [0] * side.finished)


def histogram(values: Sequence[float], bins: int = 12) -> tuple[tuple[float, float, int], ...]:
    """(low, high, count) of `bins` equal bins spanning the values; whole-number bins when the
    values are whole numbers and few."""
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low + 1 <= bins:
        edges = [low + k for k in range(int(high - low) + 2)]
    elif high == low:
        edges = [low, low + 1]
    else:
        edges = [low + (high - low) * k / bins for k in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[min(len(counts) - 1, int((v - low) / (edges[1] - edges[0])))] += 1
    return tuple((edges[k], edges[k + 1], counts[k]) for k in range(len(counts)))
