"""The melds a hand can lay: sets of LOW..HIGH of its cards, one per choice of faces.

Copies of one face are alike in play, so a meld is a multiset of faces: its action names the
faces in ascending order, and two hands that differ only in which copy they hold lay the same
melds. The candidates are every multiset of the hand's faces of an allowed size; a condition
of the form `count(distinct(m.A)) == 1` (every card alike in A) is used to look only within
each value of A. Both engines list melds here, in the same order.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

from . import model as m
from .errors import CardrulesError

MAX_SETS = 100_000  # candidate sets tested for one meld play in one position


class MeldBoundError(CardrulesError):
    """A hand that would give more candidate melds than MAX_SETS."""


def candidates(hand: list[int], face_of: Sequence[int], low: int, high: int,
               groups: tuple[Sequence[Any], ...]) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Every multiset of the hand's faces of size LOW..HIGH, as (faces ascending, cards), the
    cards alike within each group of `groups` (attribute tables: one value each)."""
    if len(groups) == 1:  # the usual `count(distinct(m.A)) == 1`: a plain key, no tuple
        table = groups[0]
        keys: list[Any] = [table[card] for card in hand]
    else:
        keys = [tuple(table[card] for table in groups) for card in hand]
    tested = 0
    for key in dict.fromkeys(keys):  # the groups in the order the hand first shows them
        if keys.count(key) < low:
            continue  # too few cards alike for any meld: most groups, most of the time
        faces: dict[int, list[int]] = {}
        for card, its in zip(hand, keys, strict=True):
            if its == key:
                faces.setdefault(face_of[card], []).append(card)
        slots = [(face, card) for face in sorted(faces) for card in faces[face]]  # copies side by side
        copies = len(slots) > len(faces)
        for size in range(low, min(high, len(slots)) + 1):
            for chosen in combinations(range(len(slots)), size):
                if copies and any(k > 0 and k - 1 not in chosen and slots[k - 1][0] == slots[k][0] for k in chosen):
                    continue  # a later copy of a face only with the earlier ones: each multiset once
                tested += 1
                if tested > MAX_SETS:
                    raise MeldBoundError(f"a hand of {len(hand)} cards gives more than {MAX_SETS:,} melds to test",
                                         "narrow the meld's sizes, or add `count(distinct(m.A)) == 1` to its "
                                         "condition so that melds are looked for within each value of A")
                yield tuple(slots[k][0] for k in chosen), [slots[k][1] for k in chosen]


def alike_attributes(where: object, name: str) -> tuple[str, ...]:
    """The attributes A of the conjuncts `count(distinct(NAME.A)) == 1` of a meld's condition."""
    parts = m.conjuncts(where) if where is not None else []
    return tuple(a for e in parts if (a := _alike(e, name)) is not None)


def beyond_alike(where: object, name: str) -> object | None:
    """A meld's condition without its conjuncts `count(distinct(NAME.A)) == 1`, which every
    candidate meets (`candidates` looks within each value of A); None when nothing is left."""
    rest = [e for e in m.conjuncts(where) if _alike(e, name) is None] if where is not None else []
    return m.all_of(rest) if rest else None


def _alike(e: object, name: str) -> str | None:
    """The attribute A where `e` is `count(distinct(NAME.A)) == 1`, else None."""
    if (isinstance(e, m.Op) and e.op == "==" and isinstance(e.right, m.Const) and e.right.value == 1
            and isinstance(e.left, m.Call) and e.left.function == "count"
            and isinstance(e.left.args[0], m.Call) and e.left.args[0].function == "distinct"
            and isinstance(e.left.args[0].args[0], m.AttrOf)
            and e.left.args[0].args[0].obj == m.Ref(name, "list:card")):
        return e.left.args[0].args[0].attr
    return None


def meld_actions(play: Any, keep: Callable[[list[Any]], Any] | None, env: list[Any], hand: list[int],
                 face_of: Sequence[int], seats: Sequence[int], add: Callable[[tuple[Any, ...]], None],
                 slot: int) -> None:
    """The actions of a meld play: each set that `keep`, the play's condition, keeps (the set in
    env[slot] as it is tested), for each seat whose zone may take it; both engines list them
    so, each with its own `keep` (the closure, or the generated function)."""
    meld = play.meld
    low, high, alike = meld.low, meld.high, meld.alike
    if len(hand) < low:
        return
    for faces, cards in candidates(hand, face_of, low, high, alike):
        env[slot] = cards
        if keep is None or keep(env):
            for t in seats:
                add((play, faces, t, -1))
