"""Who sits in a seat: a built-in bot, a human (an async input source), or a script (tests).

A player is told when its seat has a decision pending (``on_turn``) and about table events
(``on_event``: draw offers, warnings, results). It answers by calling
``runner.submit(seat, message)`` at any time, from any coroutine. Nothing here blocks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .timesource import RealTime

# ----- messages a seat may send ---------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """An action (object or canonical text). ``offer_draw`` delivers a drawn-game offer with it.
    ``turn`` is the turn number the move answers (None: the seat's current turn). ``ahead``:
    a declaration sent while the deal goes on (:meth:`~qipai.core.game.State.deal_prompt_open`)
    that the seat's own prompt need not be open for: it is kept and sent at the seat's next
    prompt where it is legal (see :class:`~qipai.match.windows.PrivateWindows`)."""

    action: Any
    offer_draw: bool = False
    turn: int | None = None
    ahead: bool = False


@dataclass(frozen=True)
class Resign:
    """Resign the game (two-sided games; allowed at any time, also on the opponent's turn)."""


@dataclass(frozen=True)
class OfferDraw:
    """Offer a drawn game (delivered at once; open until accepted, declined or a move)."""


@dataclass(frozen=True)
class AcceptDraw:
    """Accept the opponent's open draw offer: the game ends drawn at once."""


@dataclass(frozen=True)
class DeclineDraw:
    """Decline the opponent's open draw offer."""


@dataclass(frozen=True)
class ProposeTakeback:
    """Ask the opponent to take back this seat's last move, and the opponent's reply after it,
    so that it is this seat's turn again (a casual table's takeback, :mod:`.takeback`)."""


@dataclass(frozen=True)
class AcceptTakeback:
    """Accept the opponent's open takeback request: the moves are taken back at once."""


@dataclass(frozen=True)
class DeclineTakeback:
    """Decline the opponent's open takeback request (it cannot be asked again before a move)."""


@dataclass(frozen=True)
class Entrust:
    """The player hands its seat to trusteeship (托管, competition.md §4.6) of its own accord:
    its decisions are taken by the game's default action after ``trustee_delay`` until it acts
    or sends :class:`Reclaim`. Only in games with a default action (card and tile games)."""


@dataclass(frozen=True)
class Reclaim:
    """The player takes its seat back from trusteeship (competition.md §4.6 "resume")."""


@dataclass(frozen=True)
class Adjudicate:
    """A referee ends the game with a result in the game's notation (seat ``None``); ``by``
    names the referee. The text ``count`` is go's forced count (go §5.2: the game stops and is
    scored as it stands)."""

    text: str
    reason: str = "adjudication"
    by: str = ""
    why: str = ""           # the referee's written reason (kept in the record's events)


@dataclass(frozen=True)
class Pause:
    """A referee pauses the table (seat ``None``): every clock freezes, the time already used
    in each running turn is kept, and no move is accepted until :class:`Resume` (§4.7)."""

    reason: str = ""
    by: str = ""


@dataclass(frozen=True)
class Resume:
    """A referee resumes a paused table: every running turn's T0 moves by the pause length."""

    by: str = ""
    reason: str = ""


@dataclass(frozen=True)
class AddTime:
    """A referee gives seat ``seat`` ``ms`` more time (competition.md §5.7; see
    :meth:`~qipai.match.clock.SeatClock.add_time` for where it goes)."""

    seat: int
    ms: int
    by: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Disqualify:
    """A referee disqualifies the player of ``seat`` (competition.md §2.7): in a game with a
    default action (card and tile games) its seat goes into trusteeship for the rest of the
    game, which it cannot leave; elsewhere it loses the game (reason ``disqualification``)."""

    seat: int
    by: str = ""
    reason: str = ""


@dataclass(frozen=True)
class RefereeNote:
    """A referee's act that changes nothing at the table but is announced to it and kept in
    the game's record (a warning, a penalty entry, a ruling): ``kind`` names it, ``seat`` the
    seat concerned (or None), ``data`` its details."""

    kind: str
    seat: int | None = None
    by: str = ""
    reason: str = ""
    data: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Forfeit:
    """The seat's player cannot go on (an engine that died and could not be restarted, one
    that keeps sending refused moves with no clock to stop it): it forfeits as the game's
    timeout rule says, at once (a loss on time; go with ``on_timeout = count``: the game is
    counted; card and tile games: trusteeship for the rest of the game). ``why`` names the
    cause (``engine_failed``; ``bot_error``: a built-in bot raised) and is kept in the record's
    events."""

    why: str = "engine_failed"


# ----- players ----------------------------------------------------------------------------------


class Player:
    """Base player: ignores events. Subclasses override :meth:`on_turn`."""

    name = "player"

    def on_turn(self, runner: Any, seat: int, turn: int) -> None:
        """Seat ``seat`` has decision number ``turn`` pending. Must return at once."""

    def on_event(self, runner: Any, seat: int, event: dict[str, Any]) -> None:
        """A table event this seat may see (JSON-ready)."""

    async def prepare(self, runner: Any, seat: int) -> None:
        """Before the game's first turn, off the clock: get ready (an engine is started and
        greeted). Awaited by :meth:`~qipai.match.runner.GameRunner.run`."""

    async def finish(self, runner: Any, seat: int) -> None:
        """The game is over: release what the player holds (an engine process). Awaited by
        the runner before :meth:`~qipai.match.runner.GameRunner.run` returns."""


def _held_window(runner: Any) -> bool:
    """A private window held to a minimum time is open (a runner built with ``private_hold``,
    while ``state.turns_private()``): the hold is the time every seat asked is seen to take, so
    a bot shows no thinking time of its own there. A bot is asked in such a window only when it
    has a choice (the runner answers a lone legal action itself), so a pause longer than the
    hold (shengji's deal prompts are held ``deal_hold``, 280 ms, less than the server's
    bot_delay_ms) would tell every seat that this one could declare or claim."""
    return bool(getattr(runner, "private_hold", None)) and runner.state.turns_private()


class BotPlayer(Player):
    """A built-in bot (``qipai.bots.make_bot``): answers each turn after ``think_ms``.

    A bot that raises gives no answer, which the clock treats as a timeout (competition.md §6.6).
    A bot with ``choose_async(state, seat, ms_left, due_ms)`` (the search bots of levels 3–5) is
    awaited under real time, so it thinks off the event loop; ``ms_left`` is the time to the
    seat's deadline (``None`` without a clock), ``due_ms`` the time to the end of a held private
    window's minimum time (``None`` outside one), by which the answer must be back. Under
    virtual time every bot answers with ``choose``.
    """

    def __init__(self, bot: Any, think_ms: int = 0, name: str | None = None) -> None:
        self.bot = bot
        self.think_ms = think_ms
        self.name = name or f"bot:{getattr(bot, 'name', type(bot).__name__)}"
        self._tasks: set[asyncio.Task[None]] = set()

    def answer_now(self, runner: Any, seat: int) -> Any:
        """The bot's answer given at once, without ``think_ms`` (the runner asks it in a private
        window that has no minimum time, before telling the seat :meth:`on_turn`, so an answer
        given here leaves no delayed answer behind); ``None`` for a bot that thinks off the
        event loop (``choose_async``) or fails, which the runner then tells :meth:`on_turn`."""
        if hasattr(self.bot, "choose_async"):
            return None
        try:
            return self.bot.choose(runner.state, seat)
        except Exception:  # noqa: BLE001 - on_turn asks again and forfeits the seat
            return None

    def on_turn(self, runner: Any, seat: int, turn: int) -> None:
        task = asyncio.ensure_future(self._answer(runner, seat, turn))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, runner: Any, seat: int, turn: int) -> None:
        if self.think_ms and not _held_window(runner):
            await runner.time.sleep(self.think_ms)
        if runner.turn_of(seat) != turn:
            return
        try:
            if hasattr(self.bot, "choose_async") and isinstance(runner.time, RealTime):
                # a search bot thinks in a worker process, off the event loop, within its clock
                now = runner.time.now()
                deadline = runner.deadline_of(seat)
                left = None if deadline is None else deadline - now
                # in a held private window the answer is due by the hold's end, whatever the clock
                by = runner.window_ms_left(now) if _held_window(runner) else None
                action = await self.bot.choose_async(runner.state, seat, left, by)
                if runner.turn_of(seat) != turn:
                    return
            else:
                action = self.bot.choose(runner.state, seat)
        except Exception as e:  # noqa: BLE001 - a failing bot must not hang the table
            # the seat cannot go on: it forfeits by the game's timeout rule (a loss on time, or
            # trusteeship to the end in card and tile games), so the game never waits for it
            runner.note(seat, {"type": "bot_error", "error": f"{type(e).__name__}: {e}"})
            runner.submit(seat, Forfeit("bot_error"))
            return
        runner.submit(seat, Move(action, turn=turn))


#: legal sets longer than this are announced to an input seat by their length only
MAX_LISTED = 5000


class InputPlayer(Player):
    """A human or remote seat: ``notify(seat, message)`` is called with each request or event;
    answers come back through ``runner.submit``."""

    def __init__(self, name: str = "human", notify: Callable[[int, dict[str, Any]], None] | None = None):
        self.name = name
        self.notify = notify

    def on_turn(self, runner: Any, seat: int, turn: int) -> None:
        if self.notify:
            legal = runner.state.legal_actions(seat)
            # Some sets are far too long to send (a shengji kitty of 8 from 33 cards): those go as
            # a count only, and the seat reads the shape of its choice from its view.
            listed = [str(a) for a in legal] if len(legal) <= MAX_LISTED else None
            self.notify(seat, {"type": "turn", "turn": turn, "deadline": runner.deadline_of(seat),
                               "legal": listed, "legal_count": len(legal)})

    def on_event(self, runner: Any, seat: int, event: dict[str, Any]) -> None:
        if self.notify:
            self.notify(seat, event)


class ScriptedPlayer(Player):
    """Plays a script of ``(delay_ms, message)`` entries, one entry per turn (tests, demos).

    A message may be a Move, an action text, or any other message; ``None`` stays silent (the
    clock runs out). Entries ``(delay, message, "now")`` are sent at once, not on a turn, e.g.
    to resign or offer a draw during the opponent's turn.
    """

    def __init__(self, script: Iterable[tuple[Any, ...]], name: str = "script") -> None:
        self.script = list(script)
        self.name = name

    def on_turn(self, runner: Any, seat: int, turn: int) -> None:
        asyncio.ensure_future(self._play(runner, seat, turn))

    async def _play(self, runner: Any, seat: int, turn: int) -> None:
        while self.script:
            entry = self.script.pop(0)
            delay, msg = entry[0], entry[1]
            if delay:
                await runner.time.sleep(delay)
            if msg is None:
                return
            if isinstance(msg, str):
                msg = Move(msg, turn=turn)
            runner.submit(seat, msg)
            if not (len(entry) > 2 and entry[2] == "now"):
                return
