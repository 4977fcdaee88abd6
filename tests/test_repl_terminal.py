"""The REPL in a real pseudo-terminal (pexpect), as a person meets it: prompt_toolkit reads the
lines, rich draws the table. Whole matches of Klats and ARNE 92 against bots, the commands on
the way, hot-seat privacy and the interface in Russian. Short matches (params) keep it fast."""
from __future__ import annotations

import os
import re
import sys

import pytest

from .conftest import REPO, cli_process

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|[\x08\r]")
ENV = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1", "PYTHONIOENCODING": "utf-8"}


class Repl:
    """`cardrules ARGS` in a pseudo-terminal of 110 × 45, whose prompt reads `prompt`; `screen`
    is all it printed, escapes stripped."""

    ACCEPTED = re.escape("\x1b[?2004l")  # prompt_toolkit leaves bracketed paste as a line is taken

    def __init__(self, *args: str, prompt: str = r"seat 0>", env: dict | None = None):
        self.prompt = prompt
        self.child = pexpect.spawn(sys.executable, ["-m", "cardrules.cli.main", *args], cwd=str(REPO),
                                   env=env or ENV, encoding="utf-8", timeout=20, dimensions=(45, 110))
        self.raw = ""

    def expect(self, pattern) -> int:
        found = self.child.expect(pattern)
        self.raw += self.child.before + (self.child.after if isinstance(self.child.after, str) else "")
        return found

    def send(self, line: str) -> str:
        """Type a line and wait until it is taken; the output from then on is read by `expect`."""
        self.child.sendline(line)
        self.expect(self.ACCEPTED)
        return line

    def command(self, line: str) -> str:
        """Type a command at the prompt (already shown); what it printed until the next prompt."""
        self.send(line)
        start = len(self.raw)
        self.expect(self.prompt)
        return _plain(self.raw[start:])

    def play_out(self, mover: str, over: str) -> int:
        """At the prompt, answer every prompt with move 1 until `over` is printed, then no to
        another match; the moves made."""
        moves = 0
        while True:
            self.send("1")
            self.expect(mover)
            moves += 1
            if self.expect([self.prompt, over]) == 1:
                self.expect(r"\? \[y/N\]")  # play again? (in the interface's language)
                self.send("n")
                self.expect(pexpect.EOF)
                return moves

    @property
    def screen(self) -> str:
        return _plain(self.raw)


def _plain(text: str) -> str:
    return ANSI.sub("", text)


def test_a_whole_klats_match_at_the_terminal_with_its_commands():
    repl = Repl("play", "klats", "--seed", "3", "--seats", "human,random", "--param", "target_total=1")
    repl.expect(repl.prompt)
    first = repl.screen
    assert re.search(r"seat +total +now +hand +row", first)  # the round score so far beside the totals
    shown = repl.command("help")
    assert "Here, for instance:" in shown and "put orange1 @0" in shown and "put red7" not in shown
    shown = repl.command("put orang1 @0")
    assert "no card is called 'orang1'" in shown and "did you mean orange1?" in shown
    shown = repl.command("hitn")
    assert "did you mean hint?" in shown
    shown = repl.command("card gren8")
    assert "did you mean 'green8'?" in shown
    shown = repl.command("hint")
    assert re.search(r"hint \(\d+ lines played out from what seat 0 knows\):\n  1\. put \w+ @\d", shown)
    shown = repl.command("rules")
    assert "A turn" in shown and "six_piles: The round ends at once" in shown
    repl.send("1")
    repl.expect(r"seat 0 \(human\): put orange1 @0")
    repl.expect(repl.prompt)
    shown = repl.command("score")
    assert re.search(r"^seat 0 \(you\): \d+$", shown, re.M) and re.search(r"^seat 1 \(random\): \d+$", shown, re.M)
    shown = repl.command("undo")
    assert re.search(r"took back 2 moves: put orange1 @0, put \w+ @\d", shown)
    assert "orange1" in shown.split("took back", 1)[1]  # the hand holds it again
    moves = repl.play_out(r"seat 0 \(human\): ", "match over")
    assert moves >= 10
    screen = repl.screen
    assert re.search(r"^    orange1: your hand → your row \(pile 0\)$", screen, re.M)  # what a move did
    assert re.search(r"^    your row: piles \d, \d merged into pile \d$", screen, re.M)  # a merge, told
    assert re.search(r"· now: you \d+, 1 random \d+$", screen, re.M)  # the score line at a prompt
    assert re.search(r"^round 1 over after \d+ plays \((six_piles|cards_exhausted)\)", screen, re.M)
    assert re.search(r"match over after \d+ rounds?: seat \d \(\w+\) wins with \d+", screen)
    assert repl.child.wait() == 0


def test_a_whole_arne_92_match_at_the_terminal_in_russian():
    repl = Repl("play", "arne_92", "--seed", "5", "--seats", "human,random,random", "--lang", "ru", prompt=r"место 0>")
    repl.expect(repl.prompt)
    shown = repl.command("help")
    assert "Здесь, например:" in shown and "put red7" not in shown
    examples = shown.split("Здесь, например:", 1)[1].split("\n")[1].strip().split(", ")
    plays = {"lay", "double", "discard", "take1", "get2", "draw3", "triple", "pair", "minus200", "zero", "zap",
             "steal_top", "steal_pair", "reverse", "pass"}
    assert examples and all(example.split()[0] in plays for example in examples), examples
    shown = repl.command("rules")
    assert "Цель игры" in shown and "Окна ответа" in shown
    shown = repl.command("score")
    assert re.search(r"^место 0 \(вы\): -?\d+", shown, re.M)
    moves = repl.play_out(r"место 0 \(human\): ", "матч окончен")
    assert moves >= 5
    screen = repl.screen
    assert re.search(r"ARNE · раунд 1 · (ходит место \d|ход места \d · место \d может ответить или спасовать)", screen)
    assert re.search(r"\d+ карт", screen) and "всего" in screen and re.search(r"· сейчас: вы -?\d+", screen)
    took = re.search(r"^место \d \(\w+\): take1 take1 @\d\n(    .*\n)*?    (карта|\w+): hand места \d → "
                     r"(ваш hand|hand места \d)$", screen, re.M)
    assert took, "a take1, and the card it took, told"
    assert re.search(r"^раунд 1 окончен после \d+ ходов? \(last_black\)", screen, re.M)
    assert re.search(r"матч окончен, позади 1 раунд: побеждает место \d \((human|random)\), очков: -?\d+", screen)
    assert repl.child.wait() == 0


def test_hot_seat_hides_a_hand_before_the_next_person_looks():
    repl = Repl("play", "klats", "--seed", "3", "--seats", "human,human", "--param", "max_piles=3")
    repl.expect("seat 0, press Enter")
    repl.send("")
    repl.expect(r"seat 0>")
    repl.send("1")
    repl.expect("seat 1, press Enter")
    after_move = repl.raw.rsplit("\x1b[2J", 1)[1]  # since the screen was last cleared
    assert "seat 0 (human): put orange1 @0" in _plain(after_move)  # what was played stays told
    assert not re.search(r"seat +total", _plain(after_move))  # no table, so seat 0's hand is gone:
    assert "green8" not in _plain(after_move) and "green5" not in _plain(after_move)  # the cards it kept
    repl.send("")
    repl.expect(r"seat 1>")
    assert "seat 1 to move (you)" in _plain(repl.raw.rsplit("\x1b[2J", 1)[1])
    repl.send("quit")
    repl.expect(pexpect.EOF)


def test_hot_seat_from_a_pipe_draws_a_line_between_people_and_waits_for_no_one():
    done = cli_process("play", "klats", "--seed", "3", "--seats", "human,human", input="1\n1\nquit\n")
    assert done.code == 0, done.stderr
    assert "press Enter" not in done.stdout
    turns = re.findall(r"^─+ seat (\d): your turn ─+$", done.stdout, re.M)
    assert turns == ["0", "1", "0"]


def test_colour_and_symbols_at_a_colour_terminal_and_plain_under_no_color():
    args = ("play", "docs/examples/crazy_eights.rules", "--seed", "2", "--seats", "human,random")
    coloured = Repl(*args, env={**ENV, "NO_COLOR": "", "COLORTERM": "truecolor", "TERM": "xterm-256color"})
    coloured.expect(r"seat 0>")
    coloured.send("quit")
    coloured.expect(pexpect.EOF)
    assert re.search(r"[AJQK2-9]0?-[♥♦♠♣]", coloured.screen)  # symbols in the hand
    assert re.search(r"\x1b\[[0-9;]*(31|38;5;9|38;5;1|91)m[^\x1b]*[♥♦]", coloured.raw)  # red suits in red
    env = {k: v for k, v in ENV.items()}
    plain = Repl(*args, env=env)  # NO_COLOR=1: symbols still, no colour
    plain.expect(r"seat 0>")
    plain.send("quit")
    plain.expect(pexpect.EOF)
    assert re.search(r"[AJQK2-9]0?-[♥♦♠♣]", plain.screen)
    assert not re.search(r"\x1b\[[0-9;]*3[0-9]m|\x1b\[38;", plain.raw)
    piped = cli_process(*args, input="quit\n")  # not a terminal: faces as typed
    assert re.search(r"\b\d+-(hearts|spades|clubs|diamonds)\b", piped.stdout) and "♥" not in piped.stdout
