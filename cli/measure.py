"""`cardrules compare SPEC SPEC ...`: what a variant does to the game, measured under bots: each
SPEC's figures with 95% intervals, and every figure of each SPEC against the first, tested;
as rich tables, JSON (schemas/compare.schema.json) or a self-contained HTML report."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, TypeAlias

import typer
from rich import box
from rich.console import JustifyMethod
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..interpreter import figures as fig
from ..interpreter.engine import EngineError
from ..interpreter.errors import EXIT_USAGE
from ..interpreter.export import Json
from ..interpreter.inference import Estimate
from ..interpreter.load import resolve, split_selection
from ..interpreter.measure import SeatKindError, check_kinds, measure, seat_kinds, stream_seed
from .common import SafeConsole, compile_or_exit, err, fail, load_or_exit, out, seed_in_range
from .logs import writable_or_exit

SKILLED = "ismcts"  # the seat kind whose win rate against random seats is the skill
SPARK = "▁▂▃▄▅▆▇█"
BAR_WIDTH = 12
DIFFERENCES_WIDTH = 104  # the table of differences needs this many columns

Pair: TypeAlias = tuple[fig.Summary, fig.Summary, list[fig.Difference]]  # a SPEC (b) against the first (a)


def compare(
    specs: Annotated[list[str], typer.Argument(
        metavar="SPEC", help="Rulesets to measure: FILE, FILE@EDITION+VARIANT..., FILE+house:HOUSE.yaml. "
                                "Each is compared with the first.", show_default=False)],
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N",
                                                help="Number of seats (default: the first "
                                                "count the first SPEC allows).", show_default=False)] = None,
    games: Annotated[int, typer.Option("--games", "-g", metavar="GAMES", help="Matches to play for each SPEC.")] = 1000,
    seats: Annotated[str, typer.Option("--seats", metavar="KINDS", help="The bot at each seat: one kind for all, "
                                       "or one per seat separated by commas.")] = "random",
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="SEED", callback=seed_in_range,
                                              help="Seed of the run (0 to 2^63-1): the same seed gives the same "
                                                           "figures, whatever the workers.")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", "-w", metavar="N", help="Processes that play the matches "
                                                "(default: one per core).", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (schemas/compare.schema.json), "
                                                         "nothing else.")] = False,
    html: Annotated[Path | None, typer.Option("--html", metavar="FILE", help="Also write a self-contained HTML "
                                              "report with plots (needs matplotlib: pip install "
                                              "'cardrules\\[plots]').", show_default=False)] = None,
    skill: Annotated[bool, typer.Option("--skill", help=f"Also measure skill: the win rate of one {SKILLED} seat "
                                                        "against random seats, from every seat in turn.")] = False,
    skill_games: Annotated[int, typer.Option("--skill-games", metavar="GAMES",
                                             help="Matches to play for the skill of each SPEC.")] = 50,
) -> None:
    """Measure how rulesets play: bots play each SPEC, and the figures are compared.

    GAMES matches of each SPEC are played between bots, with a report of what the rules do to play: length,
    fairness (each seat's win rate, ties shared, and a chi-square test of equal shares), score,
    the lead (lead changes, drama, decisiveness), cards played, how rounds end, and with --skill
    how much a good player's choices matter. With two SPECs or more, every figure of each against
    the first: the difference, its 95% interval, a test (Welch's t for means, two proportions for
    rates), and its p-value, marked * where the Holm-adjusted p is below 0.01; the largest effects
    first. docs/compare.md tells how to read it."""
    for value, option, example in ((games, "--games", 1000), (workers or 1, "--workers", 2),
                                   (skill_games, "--skill-games", 50)):
        if value < 1:
            raise fail(f"{option} must be at least 1, not {value}", f"e.g. {option} {example}", EXIT_USAGE)
    if html is not None:
        _html_ready_or_exit(html, specs)
    loaded = [load_or_exit(spec, show_warnings=False) for spec in specs]
    count = compile_or_exit(loaded[0], players).players  # every SPEC with the same seats
    compiled = [compile_or_exit(one, count) for one in loaded]
    try:
        kinds = seat_kinds(seats, count)
        skilled = (SKILLED,) + ("random",) * (count - 1)
        if skill:
            check_kinds(skilled)
    except SeatKindError as e:
        raise fail(e.message, e.hint, EXIT_USAGE) from None
    workers = workers or os.cpu_count() or 1
    total = len(specs) * (games + (skill_games if skill else 0))
    summaries: list[fig.Summary] = []
    with _progress(total, not as_json) as advance:
        for k, (spec, one, table) in enumerate(zip(specs, loaded, compiled, strict=True)):
            try:
                records = measure(table, games, stream_seed(seed, k), kinds, workers=workers, progress=advance)
                skilled_records = measure(table, skill_games, stream_seed(seed, len(specs) + k), skilled, rotate=True,
                                          workers=workers, progress=advance) if skill else ()
            except EngineError as e:
                raise fail(f"{one.model.file}: {e}",
                           "every round needs an `end round` condition that the play can reach") from None
            if not any(record.over for record in records):
                raise fail(f"{spec}: none of its {games} matches reached its end: {records[0].limit}",
                           "every match must be able to end under these bots")
            model = one.model
            summaries.append(fig.summarise(spec, records, model.round_end_names, [kind.name for kind in model.kinds],
                                           model.match.winner == "lowest", skilled_records, SKILLED,
                                           model.teams.at(count) if model.teams else ()))
    pairs = [(summaries[0], b, fig.differences(summaries[0], b)) for b in summaries[1:]]
    titles = [one.model.title + one.model.selection for one in loaded]
    if as_json:
        typer.echo(json.dumps(to_json(summaries, pairs, titles, count, games, seed, kinds), ensure_ascii=False,
                              indent=2))
    else:
        for summary, title in zip(summaries, titles, strict=True):
            _print_summary(summary, title, seed)
        for a, b, rows in pairs:
            _print_differences(a, b, rows)
    if html is not None:
        from .report import write_report

        write_report(html, summaries, pairs, titles, games, seed)
        if not as_json:
            out.print(f"report written to {html}", markup=False)


def _html_ready_or_exit(html: Path, specs: list[str]) -> None:
    """Refuse, before any match, an HTML path that is an input or cannot be written, and
    --html without matplotlib."""
    selections = [split_selection(spec) for spec in specs]
    writable_or_exit(html, "--html", [path for s in selections for path in (resolve(s.path), s.house)])
    try:
        import matplotlib  # noqa: F401 - only asking whether it is there
    except ImportError:
        raise fail("--html draws its plots with matplotlib, which is not installed",
                   "pip install 'cardrules[plots]'") from None


@contextmanager
def _progress(total: int, show: bool) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr when it is a terminal; what it yields advances it by one match."""
    with Progress(TextColumn("compare"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  transient=True, disable=not (show and err.is_terminal)) as bar:
        task = bar.add_task("", total=total)
        yield lambda: bar.advance(task)


# ---------------------------------------------------------------- rich text


def number(x: float) -> str:
    """A figure to as many places as its size needs."""
    if x != x or abs(x) == float("inf"):
        return str(x)
    size = abs(x)
    return f"{x:,.0f}" if size >= 1000 else f"{x:.1f}" if size >= 100 else f"{x:.2f}" if size >= 1 else f"{x:.3f}"


def value(estimate: Estimate, rate: bool) -> str:
    return f"{estimate.value:.1%}" if rate else number(estimate.value)


def interval(low: float, high: float, rate: bool) -> str:
    if rate:
        return f"{low:.1%} .. {high:.1%}"
    return f"{number(low)} .. {number(high)}"


def p_value(p: float) -> str:
    """A p-value to two figures; below 0.0001 it is only that small."""
    return f"{p:.2g}" if p >= 1e-4 else "<0.0001"


def sparkline(values: Sequence[float]) -> str:
    counts = [count for _, _, count in fig.histogram(values)]
    top = max(counts)
    return "".join(SPARK[min(len(SPARK) - 1, int(c / top * (len(SPARK) - 1) + 0.5))] if c else " " for c in counts)


def bar(share: float) -> str:
    filled = max(0.0, min(1.0, share)) * BAR_WIDTH
    return "█" * int(filled) + ("▌" if filled - int(filled) >= 0.5 else "")


def _print_summary(s: fig.Summary, title: str, seed: int) -> None:
    seats = ", ".join(sorted(set(s.seats))) if len(set(s.seats)) == 1 else ",".join(s.seats)
    table = Table(title=Text(f"{s.spec} ({title}): {s.games} matches, {s.players} seats ({seats}), seed {seed}"),
                  title_justify="left", header_style="bold", box=box.SIMPLE_HEAD)
    columns: tuple[tuple[str, JustifyMethod], ...] = (("figure", "left"), ("value", "right"), ("95% CI", "right"),
                                                     ("", "left"))
    for column, justify in columns:
        table.add_column(column, justify=justify, no_wrap=column != "figure")
    group = None
    for f in s.figures:
        if f.group != group:
            group = f.group
            table.add_row(Text(group, style="bold"), "", "", "")
        shape = bar(f.estimate.value) if f.values is None else sparkline(f.values)
        table.add_row(Text("  " + f.name), value(f.estimate, f.is_rate),
                      interval(f.estimate.low, f.estimate.high, f.is_rate), Text(shape, style="cyan"))
    out.print(table)
    first = fig.first_seat_advantage(s)
    out.print(Text(f"fairness: chi-square {s.fairness.statistic:.2f} on {s.fairness.df} df, p = "
                   f"{s.fairness.p_value:.3g}{' (unequal shares)' if s.fairness.p_value < fig.ALPHA else ''}; "
                   f"first seat's advantage {first.value:+.1%} ({first.low:+.1%} .. {first.high:+.1%})"))
    gap = " ".join(number(e.value) for e in s.gap[::4])
    out.print(Text(f"lead: mean gap winner vs best other seat over the match (every fifth of it): {gap}"))
    if s.limits:
        out.print(Text(f"stopped by a safety limit: {s.games - s.finished} matches ({'; '.join(s.limits)})"))


def _print_differences(a: fig.Summary, b: fig.Summary, rows: list[fig.Difference]) -> None:
    marked = sum(d.significant for d in rows)
    table = Table(title=Text(f"{b.spec} (b) against {a.spec} (a): {marked} of {len(rows)} figures differ (*: "
                             f"Holm-adjusted p < {fig.ALPHA}; Welch's t for means, z for rates); largest effect "
                             "first"), title_justify="left", header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("figure", "a", "b", "b - a", "95% CI", "p", "p adj.", "effect", ""):
        table.add_column(column, justify="left" if column in ("figure", "") else "right", no_wrap=column != "figure",
                         min_width=18 if column == "figure" else 1)
    for d in rows:
        rate = d.rate
        sign = "+" if d.test.difference >= 0 else ""
        diff = f"{d.test.difference:+.1%}" if rate else f"{sign}{number(d.test.difference)}"
        style = "bold" if d.significant else ""
        table.add_row(Text(d.figure, style=style), value(d.a, rate), value(d.b, rate), Text(diff, style=style),
                      interval(d.test.low, d.test.high, rate),
                      p_value(d.test.p_value), p_value(d.p_adjusted), f"{d.effect:+.2f}",
                      Text("*" if d.significant else "", style="bold red"))
    # narrower, and rich would drop the column of the figures' names: on a narrow terminal, lines wrap
    wide = SafeConsole(file=out.file, width=max(out.width, DIFFERENCES_WIDTH),
                    color_system=out.color_system, force_terminal=out.is_terminal)
    wide.print(table)


# ---------------------------------------------------------------- JSON


def _estimate(e: Estimate) -> Json:
    return {"value": e.value, "low": e.low, "high": e.high, "n": e.n}


def _figure(f: fig.Figure) -> Json:
    data: Json = {"name": f.name, "group": f.group, "kind": "rate" if f.is_rate else "mean", **_estimate(f.estimate)}
    if f.values is None:  # a rate
        data.update(successes=f.successes, trials=f.trials)
    else:
        data.update(sd=f.estimate.sd, histogram=[{"low": low, "high": high, "count": count}
                                                 for low, high, count in fig.histogram(f.values)])
    return data


def to_json(summaries: list[fig.Summary], pairs: list[Pair], titles: list[str], players: int, games: int, seed: int,
            seats: tuple[str, ...]) -> Json:
    """The run as one object (schemas/compare.schema.json)."""
    specs = []
    for s, title in zip(summaries, titles, strict=True):
        specs.append({
            "spec": s.spec, "title": title, "games": s.games, "finished": s.finished, "seats": list(s.seats),
            "seat_win_rates": [_estimate(known(s, fig.seat_wins(seat)).estimate) for seat in range(s.players)],
            "fairness": {"chi_square": s.fairness.statistic, "df": s.fairness.df, "p_value": s.fairness.p_value},
            "first_seat_advantage": _estimate(fig.first_seat_advantage(s)),
            "mean_turns": _estimate(known(s, fig.TURNS).estimate),
            "lead_changes": _estimate(known(s, fig.LEAD_CHANGES).estimate),
            "drama": _estimate(known(s, fig.DRAMA).estimate),
            "decisiveness": _estimate(known(s, fig.DECISIVENESS).estimate),
            "skill": None if s.skill is None else _estimate(s.skill),
            "round_ends": s.round_ends, "limits": list(s.limits),
            "gap_curve": [_estimate(e) for e in s.gap],
            "figures": [_figure(f) for f in s.figures],
            **_team_json(s),
        })
    differences = [{"spec_a": a.spec, "spec_b": b.spec, "figure": d.figure, "group": d.group,
                    "kind": "rate" if d.rate else "mean", "a": d.a.value, "b": d.b.value,
                    "difference": d.test.difference, "low": d.test.low, "high": d.test.high,
                    "test": "two proportions z" if d.rate else "Welch t", "statistic": _finite(d.test.statistic),
                    "p_value": d.test.p_value, "p_adjusted": d.p_adjusted, "effect": _finite(d.effect),
                    "significant": d.significant}
                   for a, b, rows in pairs for d in rows]
    return {"format": "cardrules-compare/1", "players": players, "games": games, "seed": seed, "seats": list(seats),
            "alpha": fig.ALPHA,
            "specs": specs, "differences": differences}


def _team_json(s: fig.Summary) -> Json:
    """`team_win_rates`, for a ruleset with teams: each team's seats and win rate."""
    if not s.teams:
        return {}
    return {"team_win_rates": [{"team": list(team), **_estimate(known(s, fig.team_wins(team)).estimate)}
                               for team in s.teams]}


def known(summary: fig.Summary, name: str) -> fig.Figure:
    """A figure every summary has: the turns, the lead, each seat's (or team's) win rate."""
    figure = summary.figure(name)
    assert figure is not None, name
    return figure


def _finite(x: float) -> float | None:
    """JSON has no infinity: a test between two constant, different sides says null."""
    return None if x in (float("inf"), float("-inf")) else x
