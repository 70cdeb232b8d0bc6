"""Game records: the JSON format every game shares, and replay.

A record is::

    {
      "format": "qipai-record/1",
      "game": "xiangqi",
      "options": {...},                   # the rule variants played
      "seats": ["Alice", "Bob"],          # who sat where (names, optional)
      "seed": ..., "deal": ..., "position": ...,   # origin: at most what the game needs
      "actions": ["h2e2", "h9g7", ...],   # canonical action texts; [seat, text] in simultaneous phases
      "result": {"text": "1-0", "reason": "checkmate", "returns": [1, 0],   # or null
                 "winners": [0], "details": {...}},
      "meta": {...},                      # event, date, site, clock times, ...
    }

The result keeps what a reader needs to word it without replaying the game (``Result``):
``winners``, the seats that won (empty for a draw), and ``details``, the game's own facts (the
landlord and the spring of a doudizhu deal, shengji's levels gained, the places of a Chinese
checkers game ...; absent when the game gives none). Records written before these were kept
have neither; they read as before, and a reader falls back to ``returns`` and ``reason``.

:func:`replay` rebuilds the game from the origin, applies every action through the referee,
and checks the recorded result against what the rules decide.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction, OptionError, QipaiError, RecordError, why_inner

FORMAT = "qipai-record/1"

# End reasons that the rules decide by themselves from the moves; any other reason
# (resign, timeout, agreement, ...) is an external ending applied after the moves.
EXTERNAL_REASONS = {"resign", "timeout", "agreement", "illegal_moves", "forfeit", "adjourned",
                    "abandoned", "unknown", "arbiter", "disqualification"}


@dataclass
class Record:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Any] = field(default_factory=list)
    seats: list[str] | None = None
    seed: Any = None
    deal: Any = None
    position: str | None = None
    num_seats: int | None = None
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    # ----- JSON ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": self.game, "options": dict(self.options)}
        if self.seats is not None:
            out["seats"] = list(self.seats)
        if self.num_seats is not None:
            out["num_seats"] = self.num_seats
        for key in ("seed", "deal", "position"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["actions"] = list(self.actions)
        out["result"] = self.result
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    def dumps(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, data: dict[str, Any], source: str | None = None) -> Record:
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object", source=source, code="record.not_object")
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise RecordError(f"unknown record format {fmt!r} (expected {FORMAT!r})", source=source,
                              code="record.unknown_format", params={"format": fmt, "expected": FORMAT})
        if not isinstance(data.get("game"), str):
            raise RecordError("missing or invalid 'game'", source=source, code="record.no_game")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list", source=source, code="record.actions_not_list")
        for i, a in enumerate(actions, 1):
            ok = isinstance(a, str) or (isinstance(a, list) and len(a) == 2
                                        and isinstance(a[0], int) and isinstance(a[1], str))
            if not ok:
                raise RecordError("an action must be a string or [seat, string]", source=source,
                                  move=i, text=str(a), code="record.bad_action")
        result = data.get("result")
        if result is not None and not (
                isinstance(result, dict) and isinstance(result.get("reason") or "", str)):
            raise RecordError("'result' must be an object with 'text' and 'reason'", source=source,
                              code="record.bad_result_field")
        return cls(
            game=data["game"], options=dict(data.get("options") or {}), actions=list(actions),
            seats=data.get("seats"), seed=data.get("seed"), deal=data.get("deal"),
            position=data.get("position"), num_seats=data.get("num_seats"), result=result,
            meta=dict(data.get("meta") or {}),
        )

    @classmethod
    def loads(cls, text: str, source: str | None = None) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON: {e.msg}", source=source, line=e.lineno,
                              code="record.not_json") from None
        return cls.from_json(data, source=source)

    @classmethod
    def from_state(cls, state, seats: list[str] | None = None,
                   meta: dict[str, Any] | None = None) -> Record:
        result = None
        if state.result is not None:
            result = {"text": state.result.text, "reason": state.result.reason,
                      "returns": list(state.result.returns), "winners": list(state.result.winners)}
            if state.result.details:
                result["details"] = copy.deepcopy(state.result.details)
        default_seats = state.game.seats[0]
        return cls(
            game=state.game.id, options=dict(state.game.options), actions=list(state.log),
            seats=seats, seed=state.seed, deal=state.deal, position=state.position,
            num_seats=None if state.num_seats == default_seats else state.num_seats,
            result=result, meta=dict(meta or {}),
        )


def replay(record: Record, game=None, source: str | None = None, check_result: bool = True):
    """Replay ``record`` through the referee and return the final state.

    Every action is checked. If the record has a result: when the rules ended the game
    (checkmate, stalemate, ...) the recorded reason and result text must match; otherwise the
    recorded ending (resign, agreement, timeout, ...) is applied. Raises :class:`RecordError`
    naming the move (1-based ply) and its text on the first problem.
    """
    from .registry import load

    if game is None:
        try:
            game = load(record.game, **record.options)
        except OptionError as e:
            raise RecordError(str(e), source=source,
                              code="record.bad_options", params=why_inner(e, "record.unreadable")) from None
    try:
        state = game.new_state(seed=record.seed, deal=record.deal, position=record.position,
                               num_seats=record.num_seats)
    except QipaiError as e:
        raise RecordError(f"bad start: {e}", source=source,
                          code="record.bad_start", params=why_inner(e, "record.unreadable")) from None
    lines = record.meta.get("move_lines") or []   # source line of each action, when read from text
    game_no = record.meta.get("game_index")
    for i, entry in enumerate(record.actions, 1):
        seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
        line = lines[i - 1] if i - 1 < len(lines) else None
        if state.is_terminal():
            raise RecordError(f"the game was already over ({state.result.reason}) before this move",
                              source=source, game=game_no, line=line, move=i, text=text,
                              code="record.over", params={"reason": state.result.reason})
        try:
            state.apply(text, seat=seat)
        except IllegalAction as e:
            raise RecordError(f"illegal move: {e.reason}", source=source, game=game_no, line=line,
                              move=i, text=text, code="record.illegal_move",
                              params=why_inner(e, "illegal")) from None
    if check_result and record.result:
        check_final(state, record.result.get("text"), record.result.get("reason"), source, game_no)
    return state


def check_final(state, text: str | None, reason: str | None, source: str | None = None,
                game: int | None = None) -> None:
    """Check (or apply) a recorded ending on a replayed ``state``. Raises :class:`RecordError`."""
    n = len(state.log)
    if state.is_terminal():
        got = state.result
        if reason and reason not in ("unknown",) and reason != got.reason:
            raise RecordError(f"recorded ending {reason!r} but the rules end the game by "
                              f"{got.reason!r} ({got.text})", source=source, game=game, move=n,
                              code="record.other_ending", params={"reason": reason, "got": got.reason})
        if text and text != got.text:
            raise RecordError(f"recorded result {text} but the rules give {got.text} ({got.reason})",
                              source=source, game=game, move=n, code="record.other_result",
                              params={"text": text, "got": got.text, "reason": got.reason})
        return
    if reason and reason not in EXTERNAL_REASONS:
        raise RecordError(f"recorded ending {reason!r} but the game is not over by the rules",
                          source=source, game=game, move=n, code="record.not_over",
                          params={"reason": reason})
    if text:
        try:
            state.end_by_result_text(text, reason or "unknown")
        except IllegalAction as e:
            raise RecordError(f"cannot apply recorded result: {e.reason}", source=source, game=game,
                              move=n, code="record.bad_result", params=why_inner(e, "illegal")) from None
