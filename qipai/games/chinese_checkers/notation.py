"""Text forms of Chinese checkers actions and positions (rules §6).

Actions (canonical text = ``str(action)``):

* a move: the holes it visits joined by ``>``: a step ``-1,5>-1,4``, a chain
  ``-2,6>0,4>2,2``; also read as JSON ``[[-2,6],[0,4],[2,2]]``;
* ``pass`` (only when the player has no move, §3.4);
* ``resign`` (any seat still playing, at any time);
* ``timeout``: the turn skipped on a clock timeout, counted as a pass (3+ players, §5);
* ``forfeit:<reason>``: the seat is out for ``reason`` (a clock's final timeout, refused
  submissions...), written by the match layer; with 2 players it loses the game.

Positions (for ``new_state(position=...)``): fields separated by ``;``: one ``<camp>=<holes>``
per seat of the layout (its marbles, holes separated by spaces, may be empty), ``to=<camp>``
(the seat to move; default the first seat), ``moves=<n>,<n>,...`` (own moves already made by
each seat, in seat order; default: the first round). The counts must be those of a round in
progress: the seats before the one to move have made one move more than it and the seats
after it (every seat moves once a round). Example: ``S=0,0 1,0;N=2,-1;to=S;moves=0,0``.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from ...core.errors import IllegalAction, NotationError, why_cause
from .board import CAMP_NAMES, hole_at, hole_name, names_by_owner, parse_hole

MOVE, PASS, RESIGN, TIMEOUT, FORFEIT = "move", "pass", "resign", "timeout", "forfeit"
#: action kinds that take a seat out of the game rather than move a marble
LEAVING = (RESIGN, FORFEIT)


class Action(NamedTuple):
    """One action. ``path`` (hole indices, start first) is set for a move; ``reason`` for a
    forfeit. Immutable and hashable; two actions are equal when all three fields are."""

    kind: str
    path: tuple[int, ...] = ()
    reason: str = ""

    def __str__(self) -> str:
        if self.kind == MOVE:
            return ">".join(hole_name(h) for h in self.path)
        if self.kind == FORFEIT:
            return f"forfeit:{self.reason}"
        return self.kind

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def dest(self) -> int:
        return self.path[-1]


def move(*holes: int) -> Action:
    return Action(MOVE, tuple(holes))


def parse_action(text: str) -> Action:
    """Read an action in the notation above. Raises :class:`IllegalAction` naming what is
    wrong (not a hole, off the board, a one-hole move, unknown word)."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is a text, not {type(text).__name__}", text,
                            code="chinese-checkers.action_text_not", params={"type": type(text).__name__})
    t = text.strip()
    low = t.lower()
    if low in (PASS, RESIGN, TIMEOUT):
        return Action(low)
    if low.startswith("forfeit:") and len(low) > len("forfeit:"):
        reason = low[len("forfeit:"):].strip()
        if not reason.replace("_", "").isalnum():
            raise IllegalAction("a forfeit reason is a word such as timeout", text,
                                code="chinese-checkers.forfeit_reason_word_such")
        return Action(FORFEIT, reason=reason)
    if ">" in t:                       # holes joined by '>' (a hole may be [q,r] or (q,r))
        holes = [parse_hole(p) for p in t.split(">")]
    elif t.startswith("["):
        try:
            data = json.loads(t)
        except json.JSONDecodeError:
            raise IllegalAction("not valid JSON for a move ([[q,r],[q,r],...])", text,
                                code="chinese-checkers.not_valid_json_move") from None
        if not (isinstance(data, list) and all(
                isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p)
                for p in data)):
            raise IllegalAction("a JSON move is a list of [q, r] integer pairs", text,
                                code="chinese-checkers.json_move_list_q")
        holes = [hole_at(q, r) for q, r in data]
    else:
        raise IllegalAction("not a move: write holes joined by '>' (e.g. -1,5>-1,4), "
                            "or pass / resign", text, code="chinese-checkers.not_move_write_holes")
    if len(holes) < 2:
        raise IllegalAction("a move names its start hole and at least one more hole", text,
                            code="chinese-checkers.move_names_start_hole")
    return Action(MOVE, tuple(holes))


# ----- positions --------------------------------------------------------------------------------
def parse_position(text: str, layout: tuple[str, ...] | None) -> tuple[
        tuple[str, ...], dict[str, list[int]], int, list[int]]:
    """Read a position: ``(camps in seat order, marbles per camp, seat to move, moves per
    seat)``. ``layout`` is the expected camps (None: any layout of a valid player count).
    Raises :class:`NotationError` naming the bad field."""
    from .board import LAYOUTS

    marbles: dict[str, list[int]] = {}
    to = None
    moves = None
    for field in filter(None, (f.strip() for f in text.split(";"))):
        key, sep, value = field.partition("=")
        key = key.strip()
        if not sep:
            raise NotationError(f"expected name=value, got {field!r}", "position",
                                code="notation.position_syntax")
        if key in CAMP_NAMES:
            if key in marbles:
                raise NotationError(f"camp {key} given twice", key,
                                    code="notation.twice", params={"what": key})
            try:
                marbles[key] = [parse_hole(h) for h in value.split()]
            except IllegalAction as e:
                raise NotationError(e.reason, key,
                                    code="notation.position_unreadable",
                                    params=why_cause(e, "unreadable")) from None
        elif key == "to":
            if to is not None:
                raise NotationError("to given twice", "to",
                                    code="notation.twice", params={"what": "to"})
            to = value.strip()
        elif key == "moves":
            if moves is not None:
                raise NotationError("moves given twice", "moves",
                                    code="notation.twice", params={"what": "moves"})
            try:
                moves = [int(v) for v in value.split(",")]
            except ValueError:
                raise NotationError(f"expected integers separated by commas, got {value!r}",
                                    "moves",
                                    code="notation.position_syntax") from None
        else:
            raise NotationError(f"unknown field {key!r} (camps {', '.join(CAMP_NAMES)}, to, moves)",
                                "position",
                                code="notation.unknown_symbol", params={"symbol": key})
    camps = next((lay for lay in LAYOUTS.values() if set(lay) == set(marbles)), None)
    if camps is None or (layout is not None and camps != layout):
        want = ", ".join("+".join(lay) for lay in LAYOUTS.values()) if layout is None else \
            "+".join(layout)
        raise NotationError(f"the camps given ({'+'.join(marbles) or 'none'}) are not a seat "
                            f"layout; expected {want}", "position",
                            code="notation.position_impossible")
    seen: set[int] = set()
    for camp, holes in marbles.items():
        if len(holes) > 10:
            raise NotationError("a player has at most 10 marbles", camp,
                                code="notation.position_impossible")
        for h in holes:
            if h in seen:
                raise NotationError(f"hole {hole_name(h)} given twice", camp,
                                    code="notation.twice", params={"what": hole_name(h)})
            seen.add(h)
    if to is None:
        seat = 0
    elif to in camps:
        seat = camps.index(to)
    else:
        raise NotationError(f"to={to!r} is not a camp in play ({', '.join(camps)})", "to",
                            code="notation.position_syntax")
    if moves is None:
        moves = [1 if s < seat else 0 for s in range(len(camps))]
    if len(moves) != len(camps) or any(m < 0 for m in moves):
        raise NotationError(f"moves needs {len(camps)} counts >= 0", "moves",
                            code="notation.position_syntax")
    # every seat moves once a round (passes count): before ``seat`` moves, the seats ahead of
    # it in the round have made one move more than it and the seats after it
    m = moves[seat]
    if any(moves[s] != (m + 1 if s < seat else m) for s in range(len(camps))):
        want = ",".join(str(m + 1 if s < seat else m) for s in range(len(camps)))
        raise NotationError(f"moves {','.join(map(str, moves))} cannot be a round in progress "
                            f"with {camps[seat]} to move (e.g. {want})", "moves",
                            code="notation.position_impossible")
    return camps, marbles, seat, moves


def position_text(camps: tuple[str, ...], board: list[int], to: int | None,
                  moves: list[int], marbles: list[list[str]] | None = None) -> str:
    """The position notation of a board (the inverse of :func:`parse_position`); ``marbles``
    is ``names_by_owner(board, len(camps))`` when the caller has it already."""
    if marbles is None:
        marbles = names_by_owner(board, len(camps))
    fields = [f"{camp}={' '.join(holes)}" for camp, holes in zip(camps, marbles)]
    if to is not None:
        fields.append(f"to={camps[to]}")
    fields.append("moves=" + ",".join(str(m) for m in moves))
    return ";".join(fields)
