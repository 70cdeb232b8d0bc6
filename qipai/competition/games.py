"""The games of an event: which wait, the game and start state each is played from (its stored
seed and spec), playing the bots' games, storing a finished or entered result with its record,
and the event's secret revealed in every record once it ends (§6.1). A part of the
:class:`~qipai.competition.director.Director`."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import select

import qipai
from qipai.core.errors import IllegalAction, Message, why_cause
from qipai.match import BotPlayer, GameRunner, Player, RealTime, VirtualTime

from .common import EventError, now
from .db import GameRow, MatchRow
from .dealing import rng_meta, start_state
from .measure import MeasureError, facts, session_options

BOT_THINK_MS = 1000     # virtual thinking time of a bot in a bot event (moves the clocks)


class EventGames:
    """The games part of the event director (which provides ``s``, ``ev``, ``cfg``,
    ``by_draw``, ``rule``, ``out_seats``, ``seat_player`` and ``name``)."""

    def pending_games(self) -> list[GameRow]:
        q = (select(GameRow).join(MatchRow)
             .where(MatchRow.event_id == self.ev.id, GameRow.status == "pending")
             .order_by(MatchRow.round, MatchRow.index, GameRow.number))
        return list(self.s.scalars(q))

    def is_bot_game(self, g: GameRow) -> bool:
        """Every seat is a bot, or an absent or withdrawn entrant (played by trusteeship)."""
        out = self.out_seats(g.match)
        return all(d in out or self.seat_player(g, i)[1] for i, d in enumerate(g.seats))

    def game_obj(self, variant: str | None = None, start: dict[str, Any] | None = None,
                 rule: Any = None):
        """The event's game with its options; ``variant`` (a series' ``extra_variant``) switches
        on the game option of that name, or sets the option that has it as a value; a level
        session ``rule`` hands over its start level and must-play levels, and ``start`` (the
        previous deal's ``next`` fact) the options that continue the session."""
        from qipai.core.registry import game_class

        extra = {**variant_options(self.cfg.game_id, variant),
                 **session_options(game_class(self.cfg.game_id), rule), **(start or {})}
        return qipai.load(self.cfg.game_id, **{**self.cfg.game_options, **extra})

    def game_for(self, g: GameRow):
        """The game that plays game row ``g`` (its variant, its place in a level session)."""
        rule = self.rule(g.match) if g.match.kind == "session" else None
        return self.game_obj(g.spec.get("variant"), g.spec.get("start"), rule)

    def new_state(self, game, g: GameRow):
        """The start of game ``g``: its stored seed, with the dealer a series rotates (4A4) or the
        first-actor rotation of sessions, and the referee's ledger entries against it that the
        game applies itself (shengji follow errors, §2.7)."""
        state = self._start_state(game, g)
        if self.cfg.penalties and g.id is not None:
            from .db import PenaltyRow
            from .penalties import entry_actions

            q = select(PenaltyRow).where(PenaltyRow.game_id == g.id).order_by(PenaltyRow.id)
            rows = self.s.scalars(q)
            ids = {self.by_draw[d].entrant_id: d for d in set(g.seats) if d in self.by_draw}
            entries = [(r.kind, [s for s, d in enumerate(g.seats) if d == ids[r.entrant_id]])
                       for r in rows if r.entrant_id in ids]
            for text, seat in entry_actions(game.id, entries, state.sides()):
                state.apply(text, seat=seat)
        return state

    def _start_state(self, game, g: GameRow):
        return start_state(game, g.spec["seed"], g.spec, len(g.seats), g.match.kind)

    def rng_meta(self, g: GameRow) -> dict[str, Any]:
        """What game ``g``'s record carries in ``meta["rng"]`` (see :mod:`.dealing`); the event's
        secret is in it once the event has ended."""
        m = g.match
        return rng_meta(self.ev.id, self.ev.commitment, m.round, m.index, g.number, m.kind, g.spec,
                        self.ev.secret if self.ev.status == "finished" else None)

    def reveal(self) -> None:
        """§6.1: once the event has ended, every stored record of its games carries the event's
        secret (``meta["rng"]``), so each can be checked with ``qipai verify``."""
        if self.ev.status != "finished":
            return
        every_stage = select(MatchRow).where(MatchRow.event_id == self.ev.id)
        for m in self.s.scalars(every_stage):
            for g in m.games:
                if g.record is not None:
                    meta = dict(g.record.get("meta") or {})
                    meta["rng"] = self.rng_meta(g)
                    g.record = {**g.record, "meta": meta}      # assigned whole (a JSON column)

    def play(self, g: GameRow, think_ms: int = BOT_THINK_MS) -> None:
        """Play pending game ``g`` with the entrants' bots in virtual time and store it."""
        from qipai.bots import make_bot

        game = self.game_for(g)
        state = self.new_state(game, g)
        base = int(g.spec["seed"][:8], 16)
        out = self.out_seats(g.match)
        absent = [i for i, d in enumerate(g.seats) if d in out]
        who = [self.seat_player(g, i) for i in range(len(g.seats))]
        engines = any(w[1] and w[1].startswith("engine:") for w in who)
        players = [Player() if i in absent
                   else self._engine(game, who[i]) if who[i][1].startswith("engine:")
                   else BotPlayer(make_bot(game.id, who[i][1], seed=base + i),
                                  think_ms=0 if engines else think_ms, name=who[i][0])
                   for i in range(len(g.seats))]
        meta = {"event": self.ev.id, "round": g.match.round, "match": g.match.index, "game": g.number,
                "rng": self.rng_meta(g)}
        if self.cfg.pairs:
            meta["entrants"] = [self.name(d) for d in g.seats]
        # engines think in real time: a game with one is played on the wall clock
        runner = GameRunner(game, players, clock=g.spec.get("clock") or "none",
                            time=RealTime() if engines else VirtualTime(),
                            state=state, names=[w[0] for w in who], meta=meta,
                            trustee=absent)
        out = asyncio.run(runner.run())
        self.store_result(g, out.state, out.record.to_json(), "played", out.record.meta.get("duration", 0))

    def _engine(self, game, who: tuple[str, str]) -> Player:
        from qipai.engines import engine_player

        from .config import engines

        return engine_player(game, engines(self.cfg.name, self.cfg.raw)[who[1].split(":", 1)[1]],
                             name=who[0])

    def store_result(self, g: GameRow, state, record: dict[str, Any] | None, source: str, duration: int,
                     moves: int | None = None) -> None:
        """Store finished ``state`` as game ``g``'s result (uncommitted; the caller advances the
        event and commits): ``record`` its record (JSON), ``source`` ``played`` (at a table or by
        bots), ``entered`` (by hand) or ``referee`` (a penalty scored it), ``duration`` in ms,
        ``moves`` the moves completed when known (an entered result without it: unknown, never a
        short game, §2.6). A session's deal gets its measured facts; raises EventError when the
        state cannot be measured."""
        res = state.result
        kind = g.match.kind
        result = {"returns": list(res.returns), "reason": res.reason, "text": res.text,
                  "winners": list(res.winners), "winner_draws": [g.seats[s] for s in res.winners],
                  # an entered result without its move count: unknown (None), never a short game
                  "moves": moves if moves is not None else (
                      None if source == "entered" else res.details.get("moves", len(state.log))),
                  "duration": duration, "void": bool(res.details.get("void") or res.reason == "void"),
                  "first_actor": getattr(state, "first_bidder", None)}
        if kind == "series" and len(res.winners) > 1:
            result["winner_draws"] = [g.seats[res.winners[0]]]
        if kind == "session" and not result["void"]:
            try:
                result["facts"] = facts(self.rule(g.match), state)
            except MeasureError as e:
                raise EventError(Message(str(e), code="event.cannot_measure",
                                         params={"game": g.id,
                                                 **why_cause(e, "event.check_fields")})) from None
        g.result = result          # assigned whole: a JSON column does not see changes made in place
        g.record = record
        g.status = "finished"
        g.source = source
        g.finished = now()

    def enter(self, g: GameRow, text: str, moves: int | None = None, duration: int = 0) -> None:
        """Store a result entered by hand: the game's result notation (``1-0``), or the seats'
        scores separated by commas for a deal; at a placement table (multi-player tiaoqi) the
        seats' places (``1,2,2``); a level session's hand as ``dealer D attack S`` (shengji). Raises
        EventError, changing nothing."""
        rule = self.rule(g.match) if g.match.kind == "session" else None
        game = self.game_for(g)
        state = self.new_state(game, g)
        if rule is not None and rule.measure == "placement":
            self._enter_places(g, state, text, moves, duration)
            return
        try:
            state.end_by_result_text(text, "unknown")
        except IllegalAction as e:
            scores = _scores(text, state.num_seats)
            names = [self.seat_player(g, i)[0] for i in range(len(g.seats))]   # {seat|seat}
            if scores is None:
                raise EventError(Message(f"cannot read result {text!r} for {game.id}: {e.reason}; "
                                         f"give the game's result text or {state.num_seats} scores "
                                         "separated by commas",
                                         code="event.unreadable_result",
                                         params={"names": names, "cause": e.code, **e.params, "result": text,
                                                 "game": g.id, "n": state.num_seats})) from None
            from qipai.core.game import Result

            best = max(scores)
            winners = tuple(s for s, v in enumerate(scores) if v == best) if len(set(scores)) > 1 else ()
            if not winners:
                try:                       # the referee says whether this deal can be drawn
                    state.clone()._draw_result("entered")
                except IllegalAction as no:
                    raise EventError(Message(f"game {g.id}: {no.reason}; not {text!r}", code="event.no_draw",
                                             params={"cause": no.code, **no.params, "game": g.id,
                                                     "result": text})) from None
            state.result = Result(tuple(scores), "unknown", text, winners)
        rec = state.to_record(seats=[self.seat_player(g, i)[0] for i in range(len(g.seats))],
                              meta={"event": self.ev.id, "entered": True}).to_json()
        self.store_result(g, state, rec, "entered", duration, moves)

    def _enter_places(self, g: GameRow, state: Any, text: str, moves: int | None, duration: int = 0) -> None:
        """An entered placement game: ``text`` gives each seat's place, 1 = best (shared places
        repeat, e.g. ``1,1,3``). Raises EventError."""
        from qipai.core.game import Result

        n = state.num_seats
        places = _scores(text, n)
        if places is None or any(p != int(p) or not 1 <= p <= n for p in places) or 1 not in places:
            example = ",".join(map(str, range(1, n + 1)))
            raise EventError(Message(f"game {g.id} is a placement game: give the place of each of the {n} "
                                     f"seats (1 = best) separated by commas, e.g. {example}; not {text!r}",
                                     code="event.places", params={"game": g.id, "n": n, "example": example,
                                                                  "result": text}))
        ints = [int(p) for p in places]
        state.result = Result(tuple(float(n - p) for p in ints), "entered", text,
                              tuple(s for s, p in enumerate(ints) if p == 1), {"places": ints})
        rec = state.to_record(seats=[self.seat_player(g, i)[0] for i in range(n)],
                              meta={"event": self.ev.id, "entered": True}).to_json()
        self.store_result(g, state, rec, "entered", duration, moves)


def variant_options(game_id: str, variant: str | None) -> dict[str, Any]:
    """The game options that play ``variant`` (a series' ``extra_variant``, §2.2): a boolean
    option of that name set true (e.g. 4A4's ``first_out_wins``), or the option that lists it
    among its values. Raises EventError when the game has neither."""
    if not variant:
        return {}
    from qipai.core.registry import game_class

    spec = game_class(game_id).option_spec
    for opt in spec:
        if opt.name == variant and (opt.kind is bool or isinstance(opt.default, bool)):
            return {variant: True}
    for opt in spec:
        if opt.choices and variant in opt.choices:
            return {opt.name: variant}
    raise EventError(Message(f"{game_id} has no variant {variant!r} (no option of that name or value) for "
                             "series.extra_variant", code="event.no_variant",
                             params={"game": game_id, "variant": variant}))


def _scores(text: str, n: int) -> list[float] | None:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != n:
        return None
    try:
        return [float(p) for p in parts]
    except ValueError:
        return None
