"""`cardrules list`: the rulesets that can be named by their name alone, with their players,
editions and variants."""
from __future__ import annotations

from rich.table import Table

from ..interpreter.book import player_counts
from ..interpreter.diagnostics import RulesError
from ..interpreter.load import catalogue, load
from ..interpreter.options import SelectionError
from .common import out
from .i18n import _


def list_rulesets() -> None:
    """List the shipped rulesets and the examples, each nameable by its name alone.

    Each can be given to play, check, book and the other commands by its name alone
    (`cardrules play NAME`), with its editions and variants (`NAME@EDITION+VARIANT`)."""
    table = Table(box=None, padding=(0, 2), pad_edge=False, header_style="bold dim")
    for head in (_("name"), _("game"), _("players"), _("editions"), _("variants"), _("from")):
        table.add_column(head, overflow="fold")
    shipped_folder = None
    for name, path in catalogue().items():
        shipped_folder = shipped_folder or path.parent
        try:
            model = load(str(path)).model
        except (RulesError, SelectionError):
            table.add_row(
                name, _("(does not check: `cardrules check {name}` says why)").format(name=name), "", "", "", ""
            )
            continue
        editions = [o.name for o in model.options if o.kind == "edition"]
        variants = [o.name for o in model.options if o.kind == "variant"]
        table.add_row(
            name,
            model.title,
            player_counts(model.counts),
            ", ".join(editions) or "–",
            ", ".join(variants) or "–",
            _("shipped") if path.parent == shipped_folder else _("example"),
        )
    out.print(table)
    out.print(_("give a name to any command: cardrules play NAME, cardrules book NAME@EDITION+VARIANT"), style="dim")
