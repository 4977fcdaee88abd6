"""Where cardrules keeps what it can always rebuild (the parser's tables): the user's cache folder.

`$CARDRULES_CACHE` names the folder (empty: keep nothing); else it is `cardrules` in the
platform's cache folder (`$XDG_CACHE_HOME` or `~/.cache`, `~/Library/Caches` on macOS,
`%LOCALAPPDATA%` on Windows). Every user of it names its files by a hash of what they were built
from, so a stale file is never read, and treats a folder it cannot create or write as no cache.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ENV = "CARDRULES_CACHE"


def cache_folder() -> Path | None:
    """The cache folder, created if need be; None when there is none to use."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        folder = Path(chosen) if chosen else None
    elif sys.platform == "win32":
        folder = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "cardrules" / "Cache"
    elif sys.platform == "darwin":
        folder = Path.home() / "Library" / "Caches" / "cardrules"
    else:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardrules"
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder
