"""Every file of the user's is read here, under bounds, and decoded with located errors.

A path on the command line or inside a data file (a house file's ruleset, a log's ruleset) may
name anything: a folder, a FIFO that blocks a reader for ever, `/dev/zero` that never ends, a
file of gigabytes. `read_bytes` refuses what is not a regular file before reading a byte, opens
without blocking, and reads at most the limit and one byte more, so no file can hang or flood
the process. `decode` turns the bytes into text (a byte order mark allowed), or says at which
line and column a byte is not UTF-8.
"""
from __future__ import annotations

import os
import stat

from .diagnostics import Diagnostic, RulesError, Span


class FileRefused(RulesError):
    """A file that cannot be read as the text it should be: missing, not a regular file, too
    large, binary or not UTF-8. Located at the file, and at its line and column when the
    content is at fault."""

    @classmethod
    def at(cls, file: str, message: str, hint: str) -> FileRefused:
        """Refused as a whole: no line of it is at fault."""
        return cls([Diagnostic("error", message, None, hint, file)])


def read_bytes(path: str, limit: int, what: str = "the file", kind: str = "a rules file") -> bytes:
    """At most `limit` bytes of the regular file at `path`, or `FileRefused`. `what` names the file
    in a message (`cannot read the house rules: ...`), `kind` says what it should have been."""
    shown = str(path)
    if not shown:
        raise FileRefused.at("''", "the path is empty", f"give the path of {kind}")
    try:
        fd = os.open(shown, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path
        raise FileRefused.at(shown, f"cannot read {what}: {getattr(e, 'strerror', None) or e}",
                          f"check the path; give the path of {kind}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused.at(shown, f"this is a directory, not {kind}", f"give the path of {kind}")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused.at(shown, f"this is not a regular file (a FIFO, a device or a socket), not {kind}",
                              f"give the path of {kind}")
        chunks, size = [], 0
        while size <= limit:  # a file may grow, or report no size (/proc): read one byte past the limit at most
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise FileRefused.at(shown, f"cannot read {what}: {e.strerror or e}", f"give the path of {kind}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if size > limit:  # told where it passes the limit
        head = data[:limit].decode("utf-8", "replace")
        told = f"{info.st_size:,}" if info.st_size > limit else f"more than {limit:,}"
        raise FileRefused([Diagnostic("error", f"the file is {told} bytes; the limit is {limit:,}",
                                      Span.point(*position(head, len(head))),
                                      f"{kind} is far smaller: check that it is the right file", shown)], head)
    return data


def _mode(path: str | os.PathLike[str]) -> int | None:
    """The file type and mode bits at `path` (links followed), or None: missing, or a path no
    file can have (too long, a NUL in it), which `Path.exists()` raises for."""
    try:
        return os.stat(path).st_mode
    except (OSError, ValueError):
        return None


def exists(path: str | os.PathLike[str]) -> bool:
    return _mode(path) is not None


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """Whether `path` names a regular file (following links), without opening it."""
    mode = _mode(path)
    return mode is not None and stat.S_ISREG(mode)


def is_folder(path: str | os.PathLike[str]) -> bool:
    mode = _mode(path)
    return mode is not None and stat.S_ISDIR(mode)


def decode(data: bytes, file: str, kind: str = "a rules file", nul: bool = False) -> str:
    """UTF-8 text of a file (a byte order mark allowed, and no column; CR or CR LF line ends read
    as LF, as the parsers count lines), or `FileRefused` at the
    line and column of the first NUL byte (a binary file; `nul`: a NUL is left for the reader
    of the text to refuse) or byte that is not UTF-8."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    if not nul and b"\x00" in data:  # before UTF-8: a binary file is told so, not that some byte is wrong
        before = data[: data.index(b"\x00")].decode("utf-8", "replace")
        raise FileRefused([Diagnostic("error", f"the file holds a NUL byte: it looks binary, not {kind}",
                                      Span.point(*position(before, len(before))), f"give the path of {kind}",
                                      file)], data.decode("utf-8", "replace"))
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # old Mac line ends are line ends
    except UnicodeDecodeError as e:
        before = data[: e.start].decode("utf-8")  # valid up to the bad byte; columns count characters
        raise FileRefused([Diagnostic("error", f"byte 0x{data[e.start]:02x} is not UTF-8 text",
                                      Span.point(*position(before, len(before))), "save the file as UTF-8", file)],
                          data.decode("utf-8", "replace")) from None


def position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of `text[index]`."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1
