"""`compare --html`: one self-contained HTML file, its plots drawn by matplotlib as inline SVG
(text as paths, so it needs no font and no network). matplotlib is the optional extra
`cardrules[plots]`; `compare` checks that it is there before it plays a match."""
from __future__ import annotations

import html
import io
from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..interpreter import figures as fig
from ..interpreter.measure import BINS
from .logs import write_or_exit
from .measure import Pair, known, number

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { padding: 0.2em 0.7em; text-align: right; } th { border-bottom: 1px solid #888; }
td:first-child, th:first-child { text-align: left; }
tr.group td { font-weight: bold; text-align: left; padding-top: 0.6em; }
tr.significant td { font-weight: bold; background: #fff3d6; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; } .plots svg { width: 520px; height: auto; }
.note { color: #555; font-size: 0.9em; }
"""


def write_report(path: Path, summaries: Sequence[fig.Summary], pairs: Sequence[Pair], titles: Sequence[str], games: int,
                 seed: int) -> None:
    """Write the report to `path`, whole or not at all."""
    write_or_exit(path, render(summaries, pairs, titles, games, seed))


def render(summaries: Sequence[fig.Summary], pairs: Sequence[Pair], titles: Sequence[str], games: int,
           seed: int) -> str:
    names = [s.spec for s in summaries]
    heading = " vs ".join(names)
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>compare: "
             f"{_e(heading)}</title><style>{STYLE}</style></head><body>",
             f"<h1>cardrules compare: {_e(heading)}</h1>",
             f"<p class=\"note\">{games} matches per SPEC, {summaries[0].players} seats "
             f"({_e(', '.join(summaries[0].seats))}), seed {seed}. 95% confidence intervals; a difference is marked "
             f"where its Holm-adjusted p-value is below {fig.ALPHA} (Welch's t for means, the two-proportion z test "
             f"for rates), the largest effect first.</p>",
             "<h2>Plots</h2><div class=\"plots\">",
             _svg(_histograms(summaries, fig.TURNS, "turns per match")),
             _svg(_histograms(summaries, "winner's total", "winner's final total")),
             _svg(_win_rates(summaries)),
             _svg(_lead(summaries)),
             "</div>"]
    for a, b, rows in pairs:
        parts.append(f"<h2>{_e(b.spec)} (b) against {_e(a.spec)} (a)</h2>")
        parts.append(_differences(rows))
    for summary, title in zip(summaries, titles, strict=True):
        parts.append(f"<h2>{_e(summary.spec)}: {_e(title)}</h2>")
        parts.append(_summary(summary))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _e(text: str) -> str:
    return html.escape(str(text))


def _value(x: float, rate: bool) -> str:
    return f"{x:.1%}" if rate else number(x)


def _summary(s: fig.Summary) -> str:
    rows, group = [], None
    for f in s.figures:
        if f.group != group:
            group = f.group
            rows.append(f"<tr class=\"group\"><td colspan=\"3\">{_e(group)}</td></tr>")
        e = f.estimate
        rows.append(f"<tr><td>{_e(f.name)}</td><td>{_value(e.value, f.is_rate)}</td>"
                    f"<td>{_value(e.low, f.is_rate)} .. {_value(e.high, f.is_rate)}</td></tr>")
    fair, first = s.fairness, fig.first_seat_advantage(s)
    note = (f"<p class=\"note\">Fairness: chi-square {fair.statistic:.2f} on {fair.df} df, p = {fair.p_value:.3g}; "
            f"the first seat's advantage {first.value:+.1%} ({first.low:+.1%} .. {first.high:+.1%}). "
            f"{s.finished} of {s.games} matches reached their end.</p>")
    return f"<table><tr><th>figure</th><th>value</th><th>95% CI</th></tr>{''.join(rows)}</table>{note}"


def _differences(rows: Sequence[fig.Difference]) -> str:
    head = "".join(f"<th>{h}</th>" for h in ("figure", "a", "b", "b − a", "95% CI", "test", "p", "p (Holm)", "effect"))
    body = []
    for d in rows:
        t, rate = d.test, d.rate
        marked = ' class="significant"' if d.significant else ""
        body.append(f"<tr{marked}><td>{_e(d.figure)}"
                    f"{' *' if d.significant else ''}</td><td>{_value(d.a.value, rate)}</td>"
                    f"<td>{_value(d.b.value, rate)}</td>"
                    f"<td>{'+' if t.difference > 0 else ''}{_value(t.difference, rate)}</td>"
                    f"<td>{_value(t.low, rate)} .. {_value(t.high, rate)}</td><td>{'z' if rate else 'Welch t'}</td>"
                    f"<td>{t.p_value:.2g}</td><td>{d.p_adjusted:.2g}</td><td>{d.effect:+.2f}</td></tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


# ---------------------------------------------------------------- plots


def _svg(figure: Figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight",
                   metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # the XML prolog and doctype have no place inside HTML


def _new(title: str, xlabel: str, ylabel: str) -> tuple[Figure, Axes]:
    figure = Figure(figsize=(6.4, 4.0))
    axes = figure.subplots()
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(alpha=0.3)
    return figure, axes


def _histograms(summaries: Sequence[fig.Summary], name: str, label: str) -> Figure:
    """One outline histogram per SPEC on shared bins: the distributions side by side."""
    figure, axes = _new(f"{label} (the middle 99% of matches)", label, "share of matches")
    values = [_values(s, name) for s in summaries]
    everything = sorted(v for vs in values for v in vs)
    cut = len(everything) // 200  # a long tail would squeeze the rest into a bar or two
    everything = everything[cut:len(everything) - cut]
    bins = fig.histogram(everything, 30)
    edges = [low for low, _, _ in bins] + [bins[-1][1]]
    for k, (s, vs) in enumerate(zip(summaries, values, strict=True)):
        axes.hist([min(max(v, edges[0]), edges[-1]) for v in vs], bins=edges, histtype="step", linewidth=1.8,
                  color=COLOURS[k % len(COLOURS)],
                  weights=[1 / len(vs)] * len(vs), label=s.spec)
    axes.legend(fontsize="small")
    return figure


def _values(summary: fig.Summary, name: str) -> tuple[float, ...]:
    """The per-match values of a mean figure."""
    values = known(summary, name).values
    assert values is not None, f"{name} is a rate, not a mean"
    return values


def _win_rates(summaries: Sequence[fig.Summary]) -> Figure:
    """Each seat's win rate per SPEC, with its 95% interval, against an equal share."""
    players = summaries[0].players
    figure, axes = _new("win rate by seat (ties shared)", "seat", "win rate")
    width = 0.8 / len(summaries)
    for k, s in enumerate(summaries):
        estimates = [known(s, fig.seat_wins(seat)).estimate for seat in range(players)]
        xs = [seat - 0.4 + width * (k + 0.5) for seat in range(players)]
        axes.bar(xs, [e.value for e in estimates], width, color=COLOURS[k % len(COLOURS)], alpha=0.75, label=s.spec,
                 yerr=[[e.value - e.low for e in estimates], [e.high - e.value for e in estimates]], capsize=3)
    axes.axhline(1 / players, color="#444", linestyle="--", linewidth=1, label="equal share")
    axes.set_xticks(range(players))
    axes.set_ylim(0, axes.get_ylim()[1] * 1.3)  # room above the bars for the legend
    axes.legend(fontsize="small", loc="upper right", ncol=2)
    return figure


def _lead(summaries: Sequence[fig.Summary]) -> Figure:
    """The mean gap between the eventual winner and the best other seat over a match's course."""
    figure, axes = _new("lead history: eventual winner minus best other seat", "course of the match (0 = start, "
                        "1 = end)", "mean gap (points)")
    xs = [(b + 0.5) / BINS for b in range(BINS)]
    for k, s in enumerate(summaries):
        colour = COLOURS[k % len(COLOURS)]
        axes.plot(xs, [e.value for e in s.gap], color=colour, linewidth=2, label=s.spec)
        axes.fill_between(xs, [e.low for e in s.gap], [e.high for e in s.gap], color=colour, alpha=0.15)
    axes.axhline(0, color="#444", linewidth=1)
    axes.legend(fontsize="small")
    return figure
