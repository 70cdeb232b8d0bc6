"""Trump declarations (rules/shengji.md §2.4–§2.6): which cards a seat may show and how strong
they are under each system.

A declaration is a tuple of face codes; its strength is comparable with ``>`` (an ``int`` step
for ``ladder2`` and ``grab3``, a ``(BJ, LJ, level cards)`` tuple for ``bao``). ``None`` strength
means "no declaration yet".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.errors import Message

from .trump import SUITS, rank_char

RED = ("H", "D")


def colour_joker(suit: str) -> str:
    """§2.5 colour rule: red suits go with BJ, black suits with LJ."""
    return "BJ" if suit in RED else "LJ"


def classify(system: str, faces: tuple[str, ...], level: int, phase: str = "") -> tuple[Any, str | None, str]:
    """``(strength, trump suit or None for NT, name)`` of the shown ``faces``; raises
    ``ValueError`` with the reason when they are not a declaration of ``system``.
    ``phase`` is ``bao`` or ``fan`` for the ``bao`` system (opening 报主 or 反主)."""
    r = rank_char(level)
    fs = sorted(faces)
    n = len(fs)
    same = len(set(fs)) == 1
    if system in ("ladder2", "grab3"):
        if not same:
            raise ValueError(Message("a declaration shows identical cards: level cards of one suit or one "
                                     "kind of joker", code="shengji.declare_identical"))
        f = fs[0]
        if f in ("LJ", "BJ"):
            if system == "ladder2":
                if n != 2:
                    raise ValueError(Message("jokers are declared as a pair (LJ LJ or BJ BJ)",
                                             code="shengji.declare_joker_pair"))
                return (3 if f == "LJ" else 4), None, "no-trump"
            if n not in (2, 3):
                raise ValueError(Message("jokers are declared as two or three identical jokers",
                                         code="shengji.declare_jokers"))
            return (3 if n == 2 else 5), None, "no-trump" if n == 2 else "天主"
        if f[0] != r:
            raise ValueError(Message(f"only level cards (rank {r}) or jokers can be declared",
                                     code="shengji.declare_level_only", params={"rank": r}))
        if system == "ladder2" and n > 2:
            raise ValueError(Message("declare one or two identical level cards",
                                     code="shengji.declare_one_two"))
        if n > 3:
            raise ValueError(Message("declare one, two or three identical level cards",
                                     code="shengji.declare_one_three"))
        return {1: 1, 2: 2, 3: 4}[n], f[1], f"{n}×{f}"
    # bao
    level_cards = [f for f in fs if f[0] == r and f not in ("LJ", "BJ")]
    jokers = [f for f in fs if f in ("LJ", "BJ")]
    if not level_cards or len(level_cards) + len(jokers) != n or len(set(level_cards)) != 1:
        raise ValueError(Message("报主/反主 shows level cards of one suit with jokers",
                                 code="shengji.bao_shape"))
    suit = level_cards[0][1]
    joker = colour_joker(suit)
    if any(j != joker for j in jokers) or not jokers:
        raise ValueError(Message(f"a {suit} declaration goes with {joker} (red suits with BJ, black with LJ)",
                                 code="shengji.bao_joker_colour", params={"suit": suit, "joker": joker}))
    nl, nj = len(level_cards), len(jokers)
    if phase == "bao" and (nl, nj) != (1, 1):
        raise ValueError(Message("报主 is one level card with one joker of its colour",
                                 code="shengji.bao_one"))
    if phase == "fan" and (nl != 2 or nj not in (1, 2)):
        raise ValueError(Message("反主 is two identical level cards with one or two jokers of their colour",
                                 code="shengji.fan_shape"))
    if (nl, nj) not in ((1, 1), (2, 1), (2, 2)):
        raise ValueError(Message("not a 报主 or 反主 shape", code="shengji.not_bao_fan"))
    key = (nj, 0, nl) if joker == "BJ" else (0, nj, nl)
    return key, suit, "报主" if nl == 1 else "反主"


def candidates(system: str, hand: Mapping[str, int], level: int, standing: Any,
               phase: str = "") -> list[tuple[str, ...]]:
    """Every declaration ``hand`` can show that is strictly stronger than ``standing``
    (``None`` = none yet; under ``ladder2`` the first must be a level card)."""
    r = rank_char(level)
    out: list[tuple[str, ...]] = []
    if system == "ladder2":
        st = standing or 0
        for s in SUITS:
            c = hand.get(r + s, 0)
            if c >= 1 and st < 1:
                out.append((r + s,))
            if c >= 2 and st < 2:
                out.append((r + s,) * 2)
        if st >= 1:
            if hand.get("LJ", 0) >= 2 and st < 3:
                out.append(("LJ", "LJ"))
            if hand.get("BJ", 0) >= 2 and st < 4:
                out.append(("BJ", "BJ"))
        return out
    if system == "grab3":
        st = standing or 0
        steps = {1: 1, 2: 2, 3: 4}
        for s in SUITS:
            for n in (1, 2, 3):
                if hand.get(r + s, 0) >= n and steps[n] > st:
                    out.append((r + s,) * n)
        for j in ("LJ", "BJ"):
            for n, step in ((2, 3), (3, 5)):
                if hand.get(j, 0) >= n and step > st:
                    out.append((j,) * n)
        return out
    shapes = [(1, 1)] if phase == "bao" else [(2, 1), (2, 2)]
    for s in SUITS:
        joker = colour_joker(s)
        for nl, nj in shapes:
            if hand.get(r + s, 0) >= nl and hand.get(joker, 0) >= nj:
                faces = (r + s,) * nl + (joker,) * nj
                key = classify("bao", faces, level, phase)[0]
                if standing is None or key > standing:
                    out.append(faces)
    return out
