"""The match runner: plays one game between seats under the clock and returns its record.

``GameRunner(game, players, clock=...)`` and ``await runner.run()`` play one game between any
mix of :class:`~qipai.match.players.BotPlayer`, :class:`~qipai.match.players.InputPlayer`
(humans, fed through :meth:`GameRunner.submit`) and scripted players. The runner is the referee
of everything outside the rules (competition.md §4, §5.4, §5.5, §5.8):

* each seat's clock (:mod:`qipai.match.clock`), with timeouts answered per the clock's
  consequence: loss (``reason="timeout"``), the game's ``default_action`` (card games, with
  trusteeship after repeated timeouts), or a skipped turn;
* resignation at any time, drawn-game offers (with a move or during the opponent's turn,
  declined by a move, a cooldown of 3 own moves after a decline), acceptance;
* refused submissions: an illegal action never changes the state; the runner counts them per
  seat and, where the game has a limit (xiangqi: the third refused submission loses, option
  ``illegal_limit`` of go), ends the game with ``reason="illegal_moves"``; a state with a
  ``penalize_illegal(seat)`` method that returns true has applied its own sanction instead
  (mahjong-gb under ``illegal_action_policy="botzone"``: the hand ends with a penalty);
* the game's own endings (mate, repetition, ...) come from the state itself;
* referee pauses (:class:`~qipai.match.players.Pause` / ``Resume`` from seat ``None``): every
  clock freezes and keeps the time already used in its turn; moves are refused while paused;
  the pause is not counted in the game's ``duration`` (so session time limits exclude it);
* trusteeship asked for by a player (``Entrust``) at most once per :data:`ENTRUST_COOLDOWN_MS`
  per seat (refused with ``trusteeship_cooldown`` and its ``retry_after`` in seconds); taking the
  seat back is never refused for it;
* absent seats (``trustee=[...]``, competition.md §5.6): in trusteeship for the whole game, so
  the game's default action is played for them after the clock's ``trustee_delay``.
* private answers (``private_hold=ms``, fouafour §3.4): while ``state.turns_private()`` (4A4's
  叉/勾 windows), the runner answers at once for every seat whose only legal answer is forced
  (it could not claim), and the answer that would end the window — the last one, or any answer
  of a seat that had a choice — is held and applied only when ``private_hold`` ms have passed
  since the window opened. Every window therefore stays open ``max(private_hold, the time a
  seat with a choice took)``, and the same number of actions is applied at its opening,
  whoever could claim. A held answer ends its seat's turn at once; only that seat is told
  (:meth:`GameRunner._answered`), and a timeout in such a window is told to its seat alone.
  With ``private_hold=0`` windows have no minimum time: forced answers are applied at once,
  and so is the answer of every seat whose player can give it at once (``answer_now``, the
  built-in bots), in the same change as the window's opening; only a seat that thinks on its
  own time (a person, an engine) keeps the window open.
  ``deal_hold=ms`` gives the prompts of a deal (``state.deal_prompt_open()``: shengji's
  ``deal_prompt="every_card"`` asks the seat dealt each card) a shorter minimum time of their
  own, the same for each of them whoever could declare. Such a prompt never waits past its
  hold: a seat with a choice that has not answered then is answered ``pass`` by the table, as a
  seat that could only pass is (no clock charged, no timeout, no trusteeship). A declaration
  sent ahead (``Move(ahead=True)``) during the deal is the answer of the seat's open prompt
  when legal there, else kept and sent at the seat's next prompt where it is legal.

The finished record carries, in ``meta``, the time each action took and every seat's clock
after it (``meta["times"]``), and the table events (``meta["events"]``: warnings, timeouts,
automatic actions, refused submissions, draw offers).

The runner's parts, each a class :class:`GameRunner` inherits: :mod:`.windows` (private
windows), :mod:`.timeouts` (deadlines and the actions made for a seat), :mod:`.refacts` (a
referee's pause, added time, disqualification), :mod:`.entrust` (trusteeship asked for and
taken back), :mod:`.drawoffers` (drawn-game offers).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import IllegalAction, QipaiError
from qipai.core.game import Game, Result, State
from qipai.core.record import Record

from . import players as messages
from . import takeback
from .clock import ClockSpec, SeatClock
from .drawoffers import DrawOffers
from .entrust import Trusteeship
from .players import (
    AcceptDraw,
    AddTime,
    Adjudicate,
    DeclineDraw,
    Disqualify,
    Forfeit,
    Move,
    OfferDraw,
    Pause,
    Player,
    RefereeNote,
    Resign,
    Resume,
)
from .presets import clock_preset
from .refacts import RefereeActs
from .timeouts import GAME_LIMIT, RELEASE, Timeouts
from .timesource import TimeSource, VirtualTime
from .windows import PrivateWindows

#: refused submissions that lose a game, for games whose rule file sets a limit without an option
ILLEGAL_LIMITS = {"xiangqi": 3}
#: go §5.2 ``time_control = seed002_walltime``: one 60-minute limit for the whole game
WALLTIME_MS = {"seed002_walltime": 3_600_000}


@dataclass
class GameOutcome:
    """What :meth:`GameRunner.run` returns."""

    record: Record
    result: Result
    state: State
    moves: int
    events: list[dict[str, Any]] = field(default_factory=list)


class GameRunner(PrivateWindows, Timeouts, RefereeActs, Trusteeship, DrawOffers):
    """Plays one game. See the module docstring.

    ``clock`` is a preset name, a dict, a :class:`ClockSpec`, or a list of them (one per seat).
    ``time`` defaults to :class:`VirtualTime`; a server passes ``RealTime()``.
    ``draw_offers`` is ``"allowed"``, ``"forbidden"`` or an int n (no offers before n moves).
    """

    def __init__(self, game: Game, players: list[Player], *, clock: Any = "none",
                 time: TimeSource | None = None, seed: Any = None, state: State | None = None,
                 names: list[str] | None = None, meta: dict[str, Any] | None = None,
                 illegal_limit: int | None | str = "game", draw_offers: Any = "allowed",
                 num_seats: int | None = None, trustee: Any = (),
                 private_hold: int | None = None, deal_hold: int | None = None) -> None:
        self.game = game
        self.state = state if state is not None else game.new_state(seed=seed, num_seats=num_seats)
        n = self.state.num_seats
        if len(players) != n:
            raise QipaiError(f"{game.id} needs {n} players, got {len(players)}")
        self.players = players
        specs = clock if isinstance(clock, list) else [clock] * n
        self.specs: list[ClockSpec] = [clock_preset(c) for c in specs]
        self.clocks = [SeatClock(s) for s in self.specs]
        self.time: TimeSource = time or VirtualTime()
        self.names = names or [p.name for p in players]
        self.meta = dict(meta or {})
        if illegal_limit == "game":
            illegal_limit = game.options.get("illegal_limit", ILLEGAL_LIMITS.get(game.id))
        self.illegal_limit = illegal_limit
        self.draw_offers = draw_offers
        self.illegal = [0] * n
        self.events: list[dict[str, Any]] = []
        self.times: list[list[Any]] = []
        self._autos: dict[int, tuple[int, str]] = {}   # actions the server made: place -> (seat, why)
        self._unlisted: set[int] = set()   # places of declines in private windows (auto_marks)
        self._inbox: asyncio.Queue[tuple[int | None, Any, int]] = asyncio.Queue()
        self._turn = [0] * n           # decision number per seat (0: none pending)
        self._turn_counter = 0
        #: each seat's own decision numbers, the ones it is shown (:meth:`shown_turn`)
        self._seat_turns = [0] * n
        self._shown = [0] * n
        self._offer: int | None = None  # seat whose draw offer is open
        self._held_offer: set[int] = set()   # offers made on the offerer's own turn, sent with its move
        self._cooldown = [0] * n        # own moves still needed before offering again
        self._moves_by = [0] * n
        self._takeback: int | None = None       # seat whose takeback request is open (.takeback)
        self._takeback_declined: dict[int, int] = {}   # seat -> _actions_done when declined
        self._actions_done = 0                  # actions ever applied (a takeback does not undo)
        #: added to the position's number to make ``seq`` (:meth:`shown_seq`): each takeback
        #: raises it, so that ``seq`` never goes back
        self._seq_shift = 0
        self._entrusted_at: list[int | None] = [None] * n   # time of each seat's last Entrust
        self.absent = set(trustee)       # seats in trusteeship they cannot leave (absent, conceded)
        if any(not 0 <= s < n for s in self.absent):
            raise QipaiError(f"trustee seats must be in 0..{n - 1}, got {sorted(self.absent)}")
        for s in self.absent:
            self.clocks[s].trusteeship = True
        #: who plays a seat in trusteeship: None, the game's ``default_action`` (§4.6); else a
        #: function ``(state, seat) -> action``, deterministic for a state (a journal replays it)
        self.trustee_policy: Callable[[State, int], Any] | None = None
        self.paused_at: int | None = None   # time the current referee pause began
        self.paused_ms = 0                  # total length of finished pauses
        #: when the game began (set by :meth:`run`, or beforehand for a game rebuilt from a log)
        self.start_time: int | None = None
        self.begun = False                  # the first turns were started (a rebuilt game's were)
        #: seats whose running out of time before their first move abandons the game (a lobby
        #: game of two, qipai.server.conduct): it stops there with nothing applied to the state
        #: (no loss, no forfeit in its history, no seat out), :attr:`abandoned` that seat, and
        #: the server aborts it
        self.abandon_unmoved: set[int] = set()
        self.abandoned: int | None = None
        # private answers (see the module docstring): None = off
        self.private_hold = private_hold
        #: the minimum time of a prompt of the deal itself (``state.deal_prompt_open()``:
        #: shengji's every_card asks the seat dealt each card); None: ``private_hold``
        self.deal_hold = deal_hold
        #: the minimum time of the open private window (``private_hold`` or ``deal_hold``)
        self.window_hold = private_hold or 0
        self._private_since: int | None = None      # when the open private window opened
        self._private_seats: set[int] = set()       # its seats still to act, at the last sync
        #: the length of the log when the open private window opened: while it is open a server
        #: shows this as the position (each answer logged as it comes, or applied at once for a
        #: seat that could only pass, would otherwise tell how many seats had no choice)
        self.window_seq = 0
        self._held: list[tuple[int, Any, int, str | None]] = []   # (seat, action, used, auto why)
        #: the open private window is a prompt of the deal that closes at its hold (.windows)
        self.deal_window = False
        #: seat -> a declaration sent ahead during the deal, for its next prompt (.windows)
        self._ahead: dict[int, Any] = {}
        #: seat -> turn started in a window without minimum time whose player answers at once:
        #: its ``on_turn`` waits until ``answer_now`` could not answer (no delayed answer that
        #: would only find its turn over)
        self._ask_now: dict[int, int] = {}
        #: the game's wall-clock limit (ms from its start, pauses excluded), or None
        self.game_limit = next((sp.game_limit for sp in self.specs if sp.game_limit), None) or \
            WALLTIME_MS.get(game.options.get("time_control"))

    # ----- API for players and servers -----------------------------------------------------
    def submit(self, seat: int | None, message: Any) -> None:
        """Deliver a message from ``seat`` (None: referee). Never blocks; safe at any time.
        The message is stamped with its receipt time (``time.now()`` now): it is judged at that
        time even if the game loop reads it later (server receipt time is authoritative, §0.3)."""
        self._inbox.put_nowait((seat, message, self.time.now()))

    def turn_of(self, seat: int) -> int:
        """The pending decision number of ``seat`` (0 when it has none)."""
        return self._turn[seat]

    def shown_turn(self, seat: int) -> int:
        """The pending decision of ``seat`` as the seat is shown it (0 when it has none): the
        count of the decisions that seat was given, 1, 2, 3, ... The decision numbers of
        :meth:`turn_of` count every seat's decisions, so the gap between two of one's own
        would tell how many other seats were given a decision meanwhile: in a private window,
        who could claim."""
        return self._shown[seat] if self._turn[seat] else 0

    def turns_given(self, seat: int) -> int:
        """How many decisions ``seat`` was given so far: no :meth:`shown_turn` of it is higher."""
        return self._seat_turns[seat]

    def shown_ply(self) -> int:
        """The number of the position every seat and spectator is shown: the number of actions
        applied, except in a private window (4A4's 叉/勾, the mahjong games' claims) held open
        for its minimum time, where it stays the window's opening number. The answers already
        applied there (those of seats that could not claim) tell how many seats could claim, so
        nothing a seat is sent — a state, a refusal, a stale move's ``current``, a move list's
        bounds, a Bot API answer, an engine's request — names another number until the window
        closes."""
        st = self.state
        if self.private_hold is not None and not st.is_terminal() and st.to_act and st.turns_private():
            return self.window_seq
        return len(st.log)

    def shown_seq(self) -> int:
        """The state's number (``seq``) a move answers: :meth:`shown_ply` while no action was
        taken back; a takeback makes it one more than before (never the number of an earlier
        state, which a late or repeated move sent for that state would match)."""
        return self.shown_ply() + self._seq_shift

    def renumber_after_takeback(self, before: int) -> None:
        """A takeback changed the position from the one numbered ``before``: the new one is
        numbered ``before + 1``."""
        self._seq_shift = before + 1 - self.shown_ply()

    def deadline_of(self, seat: int) -> int | None:
        return self.clocks[seat].deadline()

    def note(self, seat: int | None, event: dict[str, Any]) -> None:
        """Record a table event (at the current time) and announce it to the table."""
        event = {"t": self.time.now(), **({"seat": seat} if seat is not None else {}), **event}
        self.events.append(event)
        self.announce(event)

    def announce(self, event: dict[str, Any]) -> None:
        """Tell every seat about a table event (a server also tells its spectators)."""
        for s, p in enumerate(self.players):
            p.on_event(self, s, event)

    def game_limit_state(self) -> dict[str, Any] | None:
        """The game's wall-clock limit (go's 60 minutes for the game, then counted) for a state
        message: its length and when it ends (``deadline``, pauses added), None without one."""
        if self.game_limit is None:
            return None
        # at the limit the board is counted, or (a game that cannot count) the seat on turn loses
        out: dict[str, Any] = {"limit": self.game_limit, "then": "count" if self._counts() else "timeout"}
        if self.start_time is not None:
            out["deadline"] = self.start_time + self.game_limit + self.paused_ms
        return out

    def clock_state(self) -> list[dict[str, Any]]:
        """Every seat's clock (remaining bank, periods, warnings, deadline) for a state message;
        a seat in trusteeship it cannot leave (absent, conceded, disqualified) is ``held``."""
        out = [c.snapshot() for c in self.clocks]
        for c, o in zip(self.clocks, out):
            # a clock of a time a move and no bank (5 min a move): what a move may take, shown
            # beside a seat that waits too; warnings before the one that loses
            if c.spec.move_cap is not None and "bank" not in o:
                o["move_cap"] = c.spec.move_cap
            on_cap = c.spec.on_cap
            if on_cap is not None and on_cap.kind == "warn" and on_cap.max:
                o["warnings_left"] = max(0, on_cap.max - 1 - c.warnings)
        for s in self.absent:
            out[s]["held"] = True
        return out

    # ----- the game loop -------------------------------------------------------------------
    async def run(self) -> GameOutcome:
        """Play until the game ends; returns the outcome with the complete record."""
        if self.start_time is None:
            self.start_time = self.time.now()
        start = self.start_time
        self.meta.setdefault("clock", [s.to_dict() for s in self.specs]
                             if len(set(map(repr, self.specs))) > 1 else self.specs[0].to_dict())
        if not self.begun:
            for s, p in enumerate(self.players):      # engines start before the clocks do
                prepare = getattr(p, "prepare", None)
                if prepare is not None:
                    await prepare(self, s)
            if self.time.now() > start:              # getting ready took time: play starts now
                start = self.start_time = self.time.now()
            self.begun = True
            self._sync_turns(start, acted=None)
        last = max(start, self.time.now())  # the time of the last event handled: never backwards
        get = asyncio.ensure_future(self._inbox.get())
        try:
            while not self._stopped():
                seat, dl = self._earliest()
                done = await self.time.wait(get, dl)
                if done:
                    who, msg, t = get.result()
                    get = asyncio.ensure_future(self._inbox.get())
                    t = max(t, last)
                    # every deadline that passed before the receipt time comes first, in order
                    while dl is not None and t > dl and not self._stopped():
                        self._expire(seat, dl)
                        seat, dl = self._earliest()
                    if self._stopped():
                        break
                    self._handle(who, msg, t)
                    last = t
                else:
                    last = dl
                    self._expire(seat, dl)
        finally:
            get.cancel()
            end = self.time.now()
            for s, p in enumerate(self.players):      # engines are stopped (not timed)
                finish = getattr(p, "finish", None)
                if finish is not None:
                    await finish(self, s)
        if self.paused_at is not None:      # ended (adjudicated) during a pause
            self.paused_ms += end - self.paused_at
            self.paused_at = None
        for c in self.clocks:
            c.cancel_turn(end)
        self._turn = [0] * len(self._turn)
        self.meta.update({"times": self.times, "events": self.events,
                          "duration": end - start - self.paused_ms})
        if self.paused_ms:
            self.meta["paused"] = self.paused_ms
        if any(self.illegal):
            self.meta["illegal_submissions"] = list(self.illegal)
        record = self.state.to_record(seats=list(self.names), meta=self.meta)
        return GameOutcome(record, self.state.result, self.state, len(self.state.log), self.events)

    def _trustee_at(self, seat: int) -> int:
        """When the computer plays ``seat``'s pending decision in trusteeship: ``trustee_delay``
        after the turn's start, or after the seat's own request when it asked during the turn
        (from the turn's start the time was already past: the seat played back-dated and the
        turns after it started in the past, a bot's out of time before it was asked)."""
        c = self.clocks[seat]
        asked = self._entrusted_at[seat]
        return max(c.t0, asked if asked is not None else c.t0) + c.spec.trustee_delay

    def _stopped(self) -> bool:
        """The game is over, or abandoned before a seat's first move (:attr:`abandoned`)."""
        return self.abandoned is not None or self.state.is_terminal()

    def _earliest(self) -> tuple[int | None, int | None]:
        best: tuple[int | None, int | None] = (None, None)
        if self.paused_at is not None:
            return best
        for s, c in enumerate(self.clocks):
            if not c.running:
                continue
            d = c.deadline()
            if c.trusteeship:
                td = self._trustee_at(s)
                d = td if d is None else min(d, td)
            if d is not None and (best[1] is None or d < best[1]):
                best = (s, d)
        if self._held or (self.deal_window and self._private_since is not None):
            release = self._private_since + self.window_hold
            if best[1] is None or release <= best[1]:
                best = (RELEASE, release)
        if self.game_limit is not None and self.start_time is not None:
            limit = self.start_time + self.game_limit + self.paused_ms
            if best[1] is None or limit <= best[1]:
                best = (GAME_LIMIT, limit)
        return best

    def _counts(self) -> bool:
        """The game is stopped and counted instead of lost on time (go §5.2: ``on_timeout =
        count``, or its wall-clock limit) when the state can count itself."""
        return callable(getattr(self.state, "forced_count", None))

    def _count_now(self, t: int, reason: str) -> None:
        self.state.forced_count(reason)
        self._sync_turns(t, acted=None)

    def _sync_turns(self, t: int, acted: int | None) -> None:
        """After a state change at ``t``: end turns that are no longer pending, start new ones."""
        to_act = set(self.state.to_act) if not self.state.is_terminal() else set()
        for s, c in enumerate(self.clocks):
            if s not in to_act:
                c.cancel_turn(t)
                self._turn[s] = 0
        if self._private_window(t, to_act) and self._answer_forced(t):
            return                      # the answer's own sync started the remaining turns
        held = {h[0] for h in self._held}
        at_once = self.private_hold == 0 and bool(self._private_seats)
        for s in sorted(to_act):
            if s in held or (self.clocks[s].running and s != acted):
                continue
            phase = None
            hook = getattr(self.state, "clock_phase", None)
            if callable(hook):
                phase = hook(s)
            self.clocks[s].start_turn(t, phase)
            self._turn_counter += 1
            self._turn[s] = self._turn_counter
            self._seat_turns[s] += 1
            self._shown[s] = self._seat_turns[s]
            if at_once and getattr(self.players[s], "answer_now", None) is not None:
                self._ask_now[s] = self._turn_counter
                continue
            self.players[s].on_turn(self, s, self._turn_counter)
        if at_once:
            self._answer_at_once(t)
        # a turn kept for answer_now that was not asked (the window closed around it) is the
        # player's to answer in its own time after all
        for s, turn in list(self._ask_now.items()):
            del self._ask_now[s]
            if self._turn[s] == turn:
                self.players[s].on_turn(self, s, turn)
        if self._ahead:
            self._send_ahead(t)

    # ----- actions ------------------------------------------------------------------------
    def _after_action(self, seat: int, t: int, used: int) -> None:
        self.times.append([seat, used, [c.snapshot().get("bank") for c in self.clocks]])
        self._moves_by[seat] += 1
        self._actions_done += 1
        self._takeback = None            # a move lets an open takeback request lapse
        if self._cooldown[seat]:
            self._cooldown[seat] -= 1
        self._sync_turns(t, acted=seat)

    # ----- messages -----------------------------------------------------------------------
    def _reply_error(self, seat: int | None, reason: str, code: str = "illegal",
                     params: dict[str, Any] | None = None, refusal: str | None = None,
                     illegal: dict[str, int] | None = None) -> None:
        """Tell ``seat`` alone that its message was refused: ``code`` is a stable name
        (``illegal``, ``not_your_turn``, ``stale_turn``, ``paused``, ``no_draw_offer``,
        ``draw_not_allowed``, ``draw_too_early``, ``draw_offer_cooldown``, ``draw_offer_open``,
        ``not_in_trusteeship``, ``trusteeship_permanent``, ``trusteeship_cooldown``, the takeback
        refusals of :mod:`.takeback`), ``reason``
        the English text, ``params`` the values a catalogue template fills in (:mod:`qipai.i18n`,
        key ``error.<code>``) and ``refusal`` the referee's own code (``IllegalAction.code``)
        when the game refused it; ``illegal`` the seat's refused moves so far in this game and
        the limit that loses it (``{"count": 2, "limit": 3}``, rules/xiangqi.md §4.4), when the
        game has such a limit."""
        if seat is not None:
            event = {"type": "refused", "code": code, "reason": reason}
            if params:
                event["params"] = params
            if refusal is not None:
                event["refusal"] = refusal
            if illegal is not None:
                event["illegal"] = illegal
            self.players[seat].on_event(self, seat, event)

    def _handle(self, seat: int | None, msg: Any, t: int) -> None:
        if seat is None:
            by = {"by": msg.by} if getattr(msg, "by", "") else {}
            if isinstance(msg, Adjudicate):
                if msg.text == "count" and self._counts():
                    self.state.forced_count("arbiter")       # go §5.2 / competition.md §5.7
                else:
                    self.state.end_by_result_text(msg.text, msg.reason)
                self.note(None, {"type": "adjudication", "text": msg.text, "reason": msg.reason,
                                 "result": self.state.result.text if self.state.result else None, **by,
                                 **({"why": msg.why} if msg.why else {})})
                self._sync_turns(t, acted=None)
            elif isinstance(msg, Pause):
                self.pause(t, msg.reason, msg.by)
            elif isinstance(msg, Resume):
                self.resume(t, msg.by, msg.reason)
            elif isinstance(msg, AddTime):
                self.add_time(t, msg)
            elif isinstance(msg, Disqualify):
                self.disqualify(t, msg)
            elif isinstance(msg, RefereeNote):
                self.note(msg.seat, {"type": msg.kind, **dict(msg.data), **by,
                                     **({"reason": msg.reason} if msg.reason else {})})
            return
        if seat in self.absent:
            # absent, conceded and disqualified seats are played by trusteeship to the end of
            # the session and cannot leave it (competition.md §4.6): their player's own move,
            # resignation or draw offer would decide the others' game
            return self._reply_error(seat, "this seat stays in trusteeship until the session ends",
                                     "trusteeship_permanent")
        if isinstance(msg, Move):
            self._move(seat, msg, t)
        elif isinstance(msg, Resign):
            self.note(seat, {"type": "resign"})
            self._lose(seat, "resign", t)
        elif isinstance(msg, OfferDraw):
            self._offer_draw(seat)
        elif isinstance(msg, AcceptDraw):
            if self._offer is None or self._same_side(self._offer, seat):
                self._reply_error(seat, "no draw offer of the other side to accept", "no_draw_offer")
                return
            self.note(seat, {"type": "draw_accepted"})
            self.state.agree_draw("agreement")
            self._sync_turns(t, acted=None)
        elif isinstance(msg, DeclineDraw):
            if self._offer is None or self._same_side(self._offer, seat):
                self._reply_error(seat, "no draw offer of the other side to decline", "no_draw_offer")
                return
            self._decline(seat)
        elif isinstance(msg, messages.ProposeTakeback):
            takeback.propose(self, seat, t)
        elif isinstance(msg, messages.AcceptTakeback):
            takeback.accept(self, seat, t)
        elif isinstance(msg, messages.DeclineTakeback):
            takeback.decline(self, seat, t)
        elif isinstance(msg, messages.Reclaim):
            self._reclaim(seat, t)
        elif isinstance(msg, messages.Entrust):
            self._entrust(seat, t)
        elif isinstance(msg, Forfeit):
            self._forfeit(seat, msg, t)
        else:
            self._reply_error(seat, f"unknown message {msg!r}", "unknown_message")

    def _forfeit(self, seat: int, msg: Forfeit, t: int) -> None:
        """See :class:`~qipai.match.players.Forfeit`: the game's timeout rule, applied now."""
        self.note(seat, {"type": "forfeit", "why": msg.why})
        if type(self.state).default_action is not State.default_action:
            self.absent.add(seat)            # card and tile games: trusteeship to the end
            self.clocks[seat].trusteeship = True
            return
        if self.clocks[seat].running:
            self.clocks[seat].cancel_turn(t)
        self._turn[seat] = 0
        self._held_offer.discard(seat)
        if self.game.options.get("on_timeout") == "count" and self._counts():
            self._count_now(t, "timeout")
        else:
            self._lose(seat, "timeout", t)

    def _tell(self, seat: int, event: dict[str, Any], record: bool = False) -> None:
        """Announce an event of ``seat`` to the table, or to that seat alone while a private
        window is open (a timeout or an answer there would tell who could claim)."""
        if record:
            self.events.append(event)
        if self._private_since is None:
            self.announce(event)
        else:
            self.players[seat].on_event(self, seat, event)

    def _move(self, seat: int, msg: Move, t: int) -> None:
        if msg.turn is not None and msg.turn != self._turn[seat]:
            # an answer to a turn that ended meanwhile (a timeout, another seat's claim)
            return self._reply_error(seat, "that decision is over", "stale_turn")
        if self.paused_at is not None:
            return self._reply_error(seat, "the table is paused by the referee", "paused")
        if seat not in self.state.to_act or not self.clocks[seat].running:
            if msg.ahead and self._keep_ahead(seat, msg.action):
                return
            return self._reply_error(seat, "not your turn", "not_your_turn")
        if msg.ahead and not self._legal_now(seat, msg.action) and self._keep_ahead(seat, msg.action):
            return                       # sent ahead at an open prompt before it is legal: kept
        hold = self._must_hold(seat, t)
        try:
            if str(msg.action).strip().lower() in getattr(self.state, "clock_only_actions", ()):
                raise IllegalAction(f"{msg.action!r} is entered by the clock, not by a player",
                                    code="entered_clock_not_player", params={"action": msg.action})
            # an answer held for the window's minimum time is checked on a copy now
            if hold:
                self.state.clone().apply(msg.action, seat)
            else:
                self._apply_noted(msg.action, seat)
        except IllegalAction as e:
            self.illegal[seat] += 1
            self.events.append({"t": t, "seat": seat, "type": "refused", "action": str(msg.action),
                                "reason": e.reason, "count": self.illegal[seat]})
            counted = ({"count": self.illegal[seat], "limit": self.illegal_limit}
                       if self.illegal_limit else None)
            self._reply_error(seat, e.reason, params=e.params, refusal=e.code, illegal=counted)
            penalize = getattr(self.state, "penalize_illegal", None)
            if callable(penalize) and penalize(seat):
                self._penalized(seat, t)
                return
            if self.illegal_limit and self.illegal[seat] >= self.illegal_limit:
                self._lose(seat, "illegal_moves", t)
            return
        clock = self.clocks[seat]
        used = clock.act(t)
        if clock.trusteeship:           # the player's own action ends it
            self._end_trusteeship(seat, t, "action")
        if hold:
            self._hold(seat, msg.action, used, None)
            return
        if self._offer is not None and not self._same_side(self._offer, seat):
            self._decline(seat)          # a move declines the other side's offer
        self._after_action(seat, t, used)
        held = seat in self._held_offer
        self._held_offer.discard(seat)
        if (msg.offer_draw or held) and not self.state.is_terminal():
            self._offer_draw(seat)


async def play_game(game: Game, players: list[Player], **kw: Any) -> GameOutcome:
    """Convenience: build a :class:`GameRunner` and run it."""
    return await GameRunner(game, players, **kw).run()


def play_game_sync(game: Game, players: list[Player], **kw: Any) -> GameOutcome:
    """Run one game to the end from synchronous code (CLI, tests) in virtual time by default."""
    return asyncio.run(play_game(game, players, **kw))
