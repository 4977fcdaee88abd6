"""The interface's own words in the player's language (gettext).

Card names come from the ruleset (`face ru ...`); everything else a player reads at the table
(labels, prompts, reports, help) is written in English in the code, wrapped in `_()` (or
`ngettext` for a count), and translated through the catalogs shipped with the package in
cli/locale (CONTRIBUTING.md says how to extract, update and compile them). With no catalog for a
language the English text is shown.
"""
from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "cardrules"
LOCALE = Path(__file__).parent / "locale"  # LANG/LC_MESSAGES/cardrules.mo, and the .po they are compiled from

_translation: gettext.NullTranslations = gettext.NullTranslations()


def languages() -> tuple[str, ...]:
    """The languages the interface speaks besides English: those with a compiled catalog."""
    return tuple(sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")))


def use(lang: str | None) -> None:
    """Show the interface in `lang` from now on (None or a language with no catalog: English)."""
    global _translation
    _translation = gettext.translation(DOMAIN, LOCALE, languages=[lang], fallback=True) if lang else \
        gettext.NullTranslations()


def _(text: str) -> str:
    """`text` in the language chosen with `use`."""
    return _translation.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a text about `n` things in the language chosen with `use` (Russian has three)."""
    return _translation.ngettext(singular, plural, n)
