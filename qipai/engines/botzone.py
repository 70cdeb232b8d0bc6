"""Botzone JSON door: any game, the card and tile games especially.

A Botzone-style bot reads one JSON object on its standard input and writes one JSON line. The
door asks one seat at a time and only at that seat's decisions, with only what the seat may
see; it speaks both of Botzone's ways of running a bot:

* **restart per turn** — a new process for every decision, given the whole history of this
  game as one line::

      {"requests": [R1, ..., Rn], "responses": [A1, ..., An-1],
       "data": "...", "globaldata": "...", "time_limit": 1.0}

  and answering one line ``{"response": A, "data": "...", "globaldata": "...", "debug": ...}``;
  then it exits. ``data`` is handed back at the seat's next decision of this game,
  ``globaldata`` for as long as the door lives (across games); ``debug`` is ignored.
* **keep running** — a bot that prints the line ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after
  its answer stays alive; at the next decision it is given the new request alone (one JSON
  line, ``Rn+1``) and answers as before. A bot that restarts (it died, or was killed for
  hanging) is given the whole history again.

Each request ``R`` is qipai's, the same for every game: ``{"game": id, "options": {...},
"seat": s, "seq": actions so far (in a private window, the number it opened at),
"view": state.view(s), "legal": [action texts] or null, "legal_count": n,
"hint": text or null, "turn": the seat's own decision count (1, 2, 3 …), "clock": {...},
"refused": [answers of this decision the referee refused]}``. ``legal`` is null when the view
lists the legal actions itself (xiangqi's ``legal_moves``, mahjong's ``legal``) or there are
more than 5,000 of them (``hint`` is then one legal action). In a private window the view's
``to_act`` names the seat alone. ``A`` is the action in the game's own notation (a string).

The per-turn time limit (``time_limit`` in seconds) is the door's ``movetime`` (1000 ms by
default) cut to the seat's clock; a bot that has not answered ``hang_ms`` after it (2,000 ms
by default) is killed and restarted, as one that crashes, closes its output or writes a line
that is not such JSON (the referee judges a well-formed answer, legal or not, as a person's
move). See :mod:`.player` for restarts, refusals and forfeits.
"""

from __future__ import annotations

import json
from typing import Any

from qipai.match.players import MAX_LISTED

from .player import EnginePlayer, clock_parts
from .process import EngineError

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
DEFAULT_LIMIT_MS = 1000


def request_for(state: Any, seat: int, turn: int, refused: list[str],
                clock: dict[str, Any] | None = None, seq: int | None = None) -> dict[str, Any]:
    """The request for ``seat``'s decision ``turn`` in ``state``: built from ``view(seat)``
    and the seat's own legal actions only (see the module docstring). ``seq`` is the position
    number shown (default: the actions applied); a runner's own numbers are the ones it shows
    its seats (``shown_seq``, ``shown_turn``), which tell nothing of other seats' answers in a
    private window."""
    view = state.view(seat)
    private = getattr(state, "turns_private", None)      # (a bot connected to a server reads the
    if state.to_act and private and private() and "to_act" in view:   # server's view, shown so)
        # who else is deciding a private window (4A4's 叉/勾, the mahjong games' claims) is
        # private: a seat learns only its own turn, as at a server's table
        view["to_act"] = [seat] if seat in state.to_act else []
    out: dict[str, Any] = {"game": state.game.id, "options": dict(state.game.options), "seat": seat,
                           "seq": len(state.log) if seq is None else seq, "view": view,
                           "legal": None, "hint": None, "turn": turn,
                           "clock": clock or {}, "refused": list(refused)}
    listed = "legal_moves" in view or "legal" in view
    if not listed:
        legal = state.legal_actions(seat)
        if len(legal) <= MAX_LISTED:
            out["legal"] = [str(a) for a in legal]
        else:
            out["legal_count"] = len(legal)
    if out["legal"] is None:
        hint = state.default_action(seat)
        if hint is None:
            legal = state.legal_actions(seat)
            hint = legal[0] if legal else None
        out["hint"] = None if hint is None else str(hint)
    return out


def parse_answer(line: str) -> tuple[str, dict[str, Any]]:
    """The action text of a bot's output line and the whole object; raises
    :class:`EngineError` for a line that is not a JSON object with a string ``response``."""
    try:
        obj = json.loads(line)
    except ValueError:
        raise EngineError(f"not a JSON line: {line[:200]!r}") from None
    if not isinstance(obj, dict) or "response" not in obj:
        raise EngineError(f"no 'response' in the bot's output: {line[:200]!r}")
    answer = obj["response"]
    if not isinstance(answer, str):
        raise EngineError(f"the response is not an action text: {json.dumps(answer)[:200]}")
    return answer, obj


class BotzonePlayer(EnginePlayer):
    """A Botzone-style JSON bot; see the module docstring. ``movetime`` (ms) is the per-turn
    time limit the bot is given (cut to the clock); ``hang_ms`` how much longer it may take."""

    protocol = "botzone"
    quit_line = None

    def __init__(self, command: Any, *, movetime: int | None = None, hang_ms: int = 2000,
                 **kw: Any) -> None:
        super().__init__(command, movetime=movetime, hang_ms=hang_ms, **kw)
        self.requests: list[dict[str, Any]] = []     # this game's requests to the seat
        self.responses: list[str] = []
        self.data = ""
        self.globaldata = ""
        self.keep = False            # the running process keeps running (told us so)
        self.fresh = True            # the running process has been told nothing yet

    def forget(self) -> None:
        self.keep = False
        self.fresh = True

    async def greet(self, runner: Any, seat: int) -> None:
        """Botzone bots have no greeting."""

    def limit_ms(self, runner: Any, seat: int) -> int:
        """The per-turn time limit: the door's ``movetime`` (default 1000 ms), at most the
        time to the seat's deadline less the margin."""
        budget = self.move_budget(runner, seat)
        limit = self.movetime or DEFAULT_LIMIT_MS
        return max(10, min(limit, budget)) if budget is not None else limit

    async def think(self, runner: Any, seat: int, wait_s: float) -> Any:
        if not self.engine.alive or (not self.keep and not self.fresh):
            await self._boot(runner, seat)          # restart per turn: a new process
        limit = self.limit_ms(runner, seat)
        parts = clock_parts(runner, seat)
        shown_turn = getattr(runner, "shown_turn", runner.turn_of)
        shown_seq = getattr(runner, "shown_seq", None)
        request = request_for(runner.state, seat, shown_turn(seat), self.refused,
                              {k: v for k, v in parts.items() if not isinstance(v, tuple)},
                              seq=shown_seq() if shown_seq else None)
        if self.fresh:
            payload = {"requests": [*self.requests, request], "responses": list(self.responses),
                       "data": self.data, "globaldata": self.globaldata, "time_limit": limit / 1000}
            await self.engine.send(json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
            self.fresh = False
        else:
            await self.engine.send(json.dumps(request, ensure_ascii=False, separators=(",", ":")))
        wait = min(wait_s, (limit + self.hang_ms) / 1000)
        lines = await self.engine.read_until(lambda s: bool(s.strip()), wait)
        answer, obj = parse_answer(lines[-1].strip())
        if isinstance(obj.get("data"), str):
            self.data = obj["data"]
        if isinstance(obj.get("globaldata"), str):
            self.globaldata = obj["globaldata"]
        self.requests.append(request)
        self.responses.append(answer)
        await self._after_answer()
        return answer

    async def _after_answer(self) -> None:
        """Keep running (the marker line) or exit (restart per turn); a bot that does neither
        within half a second is stopped and started afresh at its next decision."""
        try:
            line = await self.engine.readline(0.5)
        except EngineError:              # exited or silent: restart per turn
            await self.engine.stop()
            self.keep = False
            return
        if line.strip() == KEEP_RUNNING:
            self.keep = True
        else:
            await self.engine.stop()
            self.keep = False

    async def finish(self, runner: Any, seat: int) -> None:
        await super().finish(runner, seat)
        self.requests, self.responses, self.data = [], [], ""
