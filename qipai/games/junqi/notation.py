"""Junqi action notation (rules/junqi.md §8).

Canonical texts (``str(action)``):

* **move** ``from-to`` (``a4-a9``, ``S31-W35``); engineers give only the end points, the referee
  finds the path. In the game log an attack carries its outcome class: ``a4-a9:win``, ``:lose``,
  ``:both``, ``:flag``. A move text may carry that suffix on input; it must then match the
  outcome the referee computes.
* **layout** 25 entries ``point=code`` (``b1=F d1=M a1=M e1=33 ...``), see :mod:`.layout`.
* ``timeout`` the record of a turn skipped on a timeout (§7.2); in the layout phase, the seeded
  random layout placed for the seat (§4). It is never among the legal actions; the match layer
  plays it through :meth:`JunqiState.skip_turn`.
* ``resign`` the seat resigns (§5.1). ``forfeit:<reason>`` the record of a seat defeated from
  outside the rules (illegal moves, absence); both can be made out of turn.

Points: ``luzhan`` ``a1`` .. ``e12`` (read case-insensitively, written lowercase); ``siguo``
``S11`` .. ``W65`` and ``C11`` .. ``C33`` (written uppercase).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...core.errors import IllegalAction
from .board import Board
from .pieces import OUTCOMES


class Move(NamedTuple):
    """A move of the piece on ``frm`` to ``to`` (point names); ``outcome`` is the combat class
    written after a colon in records, ``None`` when not given."""

    frm: str
    to: str
    outcome: str | None = None

    def __str__(self) -> str:
        base = f"{self.frm}-{self.to}"
        return f"{base}:{self.outcome}" if self.outcome else base


class Layout(NamedTuple):
    """A layout: its canonical text (see :mod:`.layout`)."""

    text: str

    def __str__(self) -> str:
        return self.text


class Special(NamedTuple):
    """``timeout``, ``resign`` or ``forfeit:<reason>`` (``kind`` and ``reason``)."""

    kind: str
    reason: str = ""

    def __str__(self) -> str:
        return f"forfeit:{self.reason}" if self.kind == "forfeit" else self.kind


TIMEOUT = Special("timeout")
RESIGN = Special("resign")

_MOVE = re.compile(r"^([A-Za-z]\d{1,2})\s*[-x]\s*([A-Za-z]\d{1,2})(?::(\w+))?$")
_REASON = re.compile(r"^[a-z_]+$")


def parse_action(board: Board, text: str) -> Move | Layout | Special:
    """The action written ``text``; points are checked against ``board`` and written in their
    canonical case. Raises :class:`IllegalAction` with the reason on bad text."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is a text, not {type(text).__name__}", text,
                            code="junqi.action_text_not", params={"type": type(text).__name__})
    t = text.strip()
    low = t.lower()
    if low in ("timeout", "resign"):
        return Special(low)
    if low.startswith("forfeit:"):
        reason = low[len("forfeit:"):]
        if not _REASON.match(reason):
            raise IllegalAction("forfeit:<reason> needs a reason in lowercase letters", text,
                                code="junqi.forfeit_reason_needs_reason")
        return Special("forfeit", reason)
    if "=" in t:
        return Layout(t)
    m = _MOVE.match(t)
    if not m:
        raise IllegalAction("not a junqi action: expected from-to (a4-a9), a layout "
                            "(b1=F d1=M ...), resign or timeout", text,
                            code="junqi.not_junqi_action_expected")
    names = []
    for g in (m.group(1), m.group(2)):
        try:
            names.append(board.names[board.point(g)])
        except KeyError:
            raise IllegalAction(f"no point {g!r} on the {board.variant} board", text,
                                code="junqi.no_point_board",
                                params={"g": g, "variant": board.variant}) from None
    outcome = m.group(3)
    if outcome is not None:
        outcome = outcome.lower()
        if outcome not in OUTCOMES:
            raise IllegalAction(f"unknown combat result {outcome!r} (one of {', '.join(OUTCOMES)})",
                                text,
                                code="junqi.unknown_combat_result",
                                params={"outcome": outcome, "OUTCOMES": ', '.join(OUTCOMES)})
    return Move(names[0], names[1], outcome)
