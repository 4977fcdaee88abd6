"""Fuzzing the command line: texts drawn from the grammar, every shipped ruleset, house file,
scenario file and log mutated byte by byte (flips, deletions, duplications, truncations,
insertions of hostile bytes), and lines typed at the REPL. For every input the command ends
with exit 0, 1 or 2, no "internal error", no traceback, a located message (FILE:LINE:COL) when a
file was refused with exit 1, and within a time bound (a hang is a failure, not a slow test).

Fast by default: a few dozen examples a target, derandomized, so CI is repeatable. Set
CARDRULES_FUZZ_EXAMPLES=N to draw N examples a target from a fresh random seed (a long run).
"""
from __future__ import annotations

import json
import os
import re
import shutil
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from .conftest import REPO, RULESETS, cli, within

LONG = "CARDRULES_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("CARDRULES_FUZZ_EXAMPLES", "20"))
TIME_BOUND = 60 if LONG else 30  # seconds an input may take before it counts as a hang
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG, database=None,
                suppress_health_check=list(HealthCheck))
FEW = settings(FUZZ, max_examples=max(5, EXAMPLES // 3))  # targets that run a whole scenario file

HOSTILE = [b"\x00", b"\xff", b"\xc3", b"\x1b[2J", b"\r", b"\r\n", b"[" * 150, b"{" * 150, b"(" * 90, b"9" * 40,
           b"-1", b"0", b"2.0", b"null", b"~", b"&a ", b"*a", b"!!python/object/apply:os.system ['true']", b'"',
           b"'", b"#", b"\xe2\x80\x8b", b"\xe2\x80\xae", b"\xd0\xb4", b": ", b"\n  - ", b"0x10", b"1e999", b"\t",
           b"\xef\xbb\xbf", b"[b]", b":thumbs_up:", b"/dev/zero", b"/proc/self/environ", b"{}", b"[]", b"-",
           b"@", b"+", b"\\", b"\\u0000", b"99999999999999999999", b"\xf0\x9f\x91\x8d", b"\n"]




def run(*args, input: str | None = None, located: str | None = None):
    """Run the command and check what every input must give; `located`: the file whose refusal
    must name a line and column."""
    with within(TIME_BOUND):
        r = cli(*map(str, args), input=input)
    both = r.stdout + r.stderr
    assert r.code in (0, 1, 2), (args, r.code, r.stderr[-2000:])
    assert "internal error" not in both and "Traceback" not in both, (args, r.stderr[-2000:])
    if r.code == 1 and located is not None:
        assert re.search(re.escape(located) + r":\d+:\d+", both), (args, r.stderr[-2000:])
    return r


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """`data` with one to four edits: a byte flipped, a run deleted or duplicated, the end cut,
    or a hostile piece inserted."""
    edits = draw(st.lists(st.tuples(st.sampled_from(["flip", "delete", "duplicate", "truncate", "insert"]),
                                    st.integers(0, max(len(data) - 1, 0)), st.integers(1, 80),
                                    st.sampled_from(HOSTILE), st.integers(0, 255)), min_size=1, max_size=4))
    for kind, at, size, piece, byte in edits:
        at = min(at, len(data))
        if kind == "flip" and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([byte]) + data[at + 1:]
        elif kind == "delete":
            data = data[:at] + data[at + size:]
        elif kind == "duplicate":
            data = data[:at + size] + data[at:at + size] + data[at + size:]
        elif kind == "truncate":
            data = data[:at]
        else:
            data = data[:at] + piece + data[at:]
    return data


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    """A copy of rulesets/ (so house and scenario files find their rulesets by the same
    relative paths) and two logs: the journal of a match of `play`, three of `selfplay`, one a line."""
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(RULESETS, root / "rulesets", ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    assert cli("play", "klats", "--seed", "5", "--seats", "random,random", "--log", root / "play.json").code == 0
    assert cli("selfplay", "klats", "-p", "3", "--games", "3", "--log", root / "selfplay.jsonl").code == 0
    return root


# ---------------------------------------------------------------- texts from the grammar


@cache
def _grammar_strategy():
    grammar = (REPO / "grammar" / "cardrules.lark").read_text(encoding="utf-8")
    lark = Lark(grammar, parser="lalr", lexer="contextual")
    names = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
    return from_lark(lark, explicit={"NAME": names, "INT": st.from_regex(r"[0-9]{1,12}", fullmatch=True),
                                     "STRING": st.from_regex(r'"[^"\\\n]{0,12}"', fullmatch=True),
                                     "COMMENT": st.just("# c")})


@FUZZ
@given(data=st.data())
def test_texts_from_the_grammar(shop, data):
    text = data.draw(_grammar_strategy())
    path = shop / "drawn.rules"
    path.write_text(text, encoding="utf-8")
    run("check", path, located=str(path))


# ---------------------------------------------------------------- mutated shipped files


@pytest.mark.parametrize("name", ["klats", "arne_92", "arne_total"])
@FUZZ
@given(data=st.data())
def test_mutated_rulesets(shop, name, data):
    source = (RULESETS / f"{name}.rules").read_bytes()
    path = shop / "rulesets" / f"mutated_{name}.rules"
    path.write_bytes(data.draw(mutated(source)))
    run("check", path, *(["--edition", "en"] if name == "arne_total" else []), located=str(path))


HOUSE_FILES = sorted(p.name for p in (RULESETS / "house").glob("*.yaml"))


@pytest.mark.parametrize("name", HOUSE_FILES)
@FUZZ
@given(data=st.data())
def test_mutated_house_files(shop, name, data):
    path = shop / "rulesets" / "house" / f"mutated_{name}"
    path.write_bytes(data.draw(mutated((RULESETS / "house" / name).read_bytes())))
    run("house", "check", path, located=str(path))


@pytest.mark.parametrize("name", ["klats", "arne_92", "arne_total"])
@FEW
@given(data=st.data())
def test_mutated_scenario_files(shop, name, data):
    path = shop / "rulesets" / f"mutated_{name}.scenarios.yaml"
    path.write_bytes(data.draw(mutated((RULESETS / f"{name}.scenarios.yaml").read_bytes())))
    run("scenarios", path, located=str(path))


@pytest.mark.parametrize("name", ["play.json", "selfplay.jsonl"])
@FUZZ
@given(data=st.data())
def test_mutated_logs(shop, name, data):
    path = shop / f"mutated_{name}"
    path.write_bytes(data.draw(mutated((shop / name).read_bytes())))
    game = data.draw(st.sampled_from(["1", "2"]))
    run("replay", path, "--game", game)
    run("log", "redact", path, "--game", game, "--seat", data.draw(st.sampled_from(["0", "1"])))
    if name == "play.json":  # a journal: resume reads it too, and goes on writing it
        run("resume", path, input="moves\nquit\n")


def test_a_valid_log_changed_in_its_values_is_refused_cleanly(shop):
    """Not bytes but values: every key of the log set to each hostile JSON value in turn."""
    original = json.loads((shop / "selfplay.jsonl").read_text(encoding="utf-8").splitlines()[0])
    values = [None, True, -1, 0, 2.0, 10 ** 40, "", "x" * 100_000, [], {}, ["\x1b[2J"], {"a": 1}, [[[]]],
              "klats+house:/dev/zero", "/proc/self/environ", "../../../../etc/passwd", "klats@nope+nope",
              "kl\x00ats.rules", "x" * 5000 + ".rules", "klats+house:", "klats@"]
    path = shop / "valued.json"
    for key in original:
        for value in values:
            path.write_text(json.dumps({**original, key: value}), encoding="utf-8")
            run("replay", path)


# ---------------------------------------------------------------- the REPL


LINES = st.one_of(
    st.sampled_from(["moves", "view", "help", "?", "card", "card skull", "card ²", "why", "why 1", "why ²",
                     "why " + "9" * 50, "1", "2", "0", "-1", "²", "٣", "9" * 5000, "put", "put blue1",
                     "put blue1 @0", "put blue1 @0/0", "put blue1 @9999/9999", "@", "/", "+", "pass", "put +",
                     "\x1b[2J", "[b]x", ":thumbs_up:", "\u202e", "", "   "]),
    st.text(max_size=40).map(lambda s: s.replace("\n", " ").replace("\r", " ")),
)


@FUZZ
@given(lines=st.lists(LINES, max_size=12), seed=st.integers(0, 1000))
def test_repl_input(lines, seed):
    r = run("play", "klats", "--seed", seed, input="\n".join(lines) + "\nquit\n")
    assert r.code == 0, r.stderr[-2000:]
