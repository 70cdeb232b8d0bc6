"""Junqi pieces and combat (rules/junqi.md §2 and §5.4).

Pieces are small integers inside the engine: the officers are their ranks 32 (engineer 工兵) ..
40 (commander 司令); ``FLAG`` = 0, ``BOMB`` = 1, ``MINE`` = 2. Their codes in the notation are
``40 39 38 37 36 35 34 33 32 M B F``.
"""

from __future__ import annotations

FLAG, BOMB, MINE = 0, 1, 2
ENGINEER, COMMANDER = 32, 40
OFFICERS = tuple(range(40, 31, -1))

#: how many of each piece every player has (§2): 25 in all
COUNTS = {40: 1, 39: 1, 38: 2, 37: 2, 36: 2, 35: 2, 34: 3, 33: 3, 32: 3, MINE: 3, BOMB: 2, FLAG: 1}

CODE = {FLAG: "F", BOMB: "B", MINE: "M", **{r: str(r) for r in OFFICERS}}
PIECE = {v: k for k, v in CODE.items()}

NAME_ZH = {40: "司令", 39: "军长", 38: "师长", 37: "旅长", 36: "团长", 35: "营长", 34: "连长",
           33: "排长", 32: "工兵", MINE: "地雷", BOMB: "炸弹", FLAG: "军旗"}

#: combat outcome classes (§5.4): defender removed, attacker removed, both removed, flag taken
WIN, LOSE, BOTH, FLAG_TAKEN = "win", "lose", "both", "flag"
OUTCOMES = (WIN, LOSE, BOTH, FLAG_TAKEN)


def movable(piece: int) -> bool:
    """Mines and the flag never move (§5.2)."""
    return piece > MINE or piece == BOMB


def combat(attacker: int, defender: int) -> str:
    """The outcome class of ``attacker`` moving onto ``defender`` (§5.4, rules applied in order):

    1. the defender is the flag → ``flag`` (taken; a bomb is removed with it);
    2. either is a bomb → ``both``;
    3. the defender is a mine → ``win`` for an engineer, else ``lose``;
    4. two officers → the higher rank ``win``/``lose``; equal ranks ``both``.
    """
    if defender == FLAG:
        return FLAG_TAKEN
    if attacker == BOMB or defender == BOMB:
        return BOTH
    if defender == MINE:
        return WIN if attacker == ENGINEER else LOSE
    if attacker > defender:
        return WIN
    if attacker < defender:
        return LOSE
    return BOTH
