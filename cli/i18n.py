"""The interface's own words in the player's language (gettext).

Card names come from the ruleset (`face ru ...`); everything else a player reads at the table
(labels, prompts, reports, help) is written in English in the code, wrapped in `_()`, and
translated through the gettext catalogs shipped with the package. With no catalog for a language
the English text is shown.
"""
from __future__ import annotations

import gettext

_translation: gettext.NullTranslations = gettext.NullTranslations()


def use(lang: str | None) -> None:
    """Show the interface in `lang` from now on (None or an unknown language: English)."""
    global _translation
    _translation = gettext.NullTranslations()


def _(text: str) -> str:
    """`text` in the language chosen with `use`."""
    return _translation.gettext(text)
