"""The event director: creates an event from a preset, draws, pairs, plays or awaits games,
records results and standings — all state in the database (:mod:`qipai.competition.db`).

Everything is derived from stored rows: the next game of a match is computed from its finished
games (series or session rule), the next round from the finished round. A game is committed
the moment it finishes, so a killed process resumes exactly where it stood; an unfinished game
is played again from its start (its seed is stored, so bots replay identically).

Errors (unknown preset, duplicate player, unknown game, result entered twice, ...) raise
:class:`EventError` before anything is written.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

import qipai
from qipai.core.errors import IllegalAction, OptionError, QipaiError
from qipai.match import BotPlayer, GameRunner, Player, VirtualTime

from . import lot
from .config import EventConfig, event_data, parse_config, round_label, set_fields, stage_data
from .db import EntrantRow, EventRow, GameRow, MatchRow, StageRow
from .dealing import rng_meta, start_state
from .measure import MeasureError, deal_outcome, facts, next_deal, next_start, session_options
from .pairing import (
    berger_rounds,
    knockout_first_round,
    knockout_next_round,
    swiss_pairings,
    table_points,
    table_round,
    table_swiss_round,
)
from .rules import SeriesGame, series_status, session_status

ID_RE = re.compile(r"^[A-Za-z0-9_.\-]+$")
BOT_THINK_MS = 1000     # virtual thinking time of a bot in a bot event (moves the clocks)
VACANT = 0              # the draw number of an empty seat at a short final table (§5.6)
LEVEL_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 15: "A+"}   # shengji levels as shown
#: games whose series deals rotate the dealer (game id -> seats): the first dealer of a match by
#: lot (purpose ``first-actor``, §5.1), then the next seat each game; passed as ``deal={"dealer"}``
ROTATING_DEALER = {"fouafour": 4}
#: games whose session starts from a provisional dealer the match draws (§5.1 ``first-actor``):
#: game id -> the option that takes it
FIRST_DEALER_OPTION = {"shengji": "provisional_dealer"}


class EventError(QipaiError):
    """A refused organiser request; nothing was changed."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ----- creating --------------------------------------------------------------------------------


def check_players(cfg: EventConfig, players: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validate the entrant list; returns normalised dicts. Raises EventError."""
    from qipai.bots import bot_names

    out, seen = [], set()
    bots = None
    for i, p in enumerate(players, 1):
        p, pid = _take_id(p, f"player {i}: id", seen, "duplicate player {!r}")
        bot = p.get("bot")
        if bot:
            bots = bots if bots is not None else bot_names(cfg.game_id)
            if bot not in bots:
                raise EventError(f"player {pid}: unknown bot {bot!r} for {cfg.game_id}; "
                                 f"valid: {', '.join(bots)}")
        members = _check_members(cfg, pid, p, bot, seen)
        rating = p.get("rating")
        if rating is not None:
            try:
                rating = int(rating)
            except (TypeError, ValueError):
                raise EventError(f"player {pid}: rating {rating!r} is not a whole number") from None
        out.append({"id": pid, "name": str(p.get("name") or pid), "bot": bot or None,
                    "unit": p.get("unit"), "rating": int(rating) if rating is not None else None,
                    "members": members})
    need = cfg.seats
    if len(out) < need:
        raise EventError(f"{cfg.name} needs at least {need} {'pairs' if cfg.pairs else 'players'}, "
                         f"got {len(out)}")
    limit = cfg.raw.get("unit_limit")
    if limit:
        units: dict[str, int] = {}
        for p in out:
            if p["unit"]:
                units[p["unit"]] = units.get(p["unit"], 0) + 1
                if units[p["unit"]] > limit:
                    raise EventError(f"unit {p['unit']!r} has more than {limit} entrant(s)")
    return out


def _take_id(p: Any, label: str, seen: set[str], duplicate: str) -> tuple[dict[str, Any], str]:
    """``p`` as a dict (a bare id becomes ``{"id": p}``) and its checked id, added to ``seen``.
    Raises EventError for a malformed id or one already in ``seen`` (``duplicate`` formats it)."""
    p = dict(p) if isinstance(p, dict) else {"id": p}
    pid = str(p.get("id", "")).strip()
    if not ID_RE.match(pid):
        raise EventError(f"{label} {pid!r} must be ASCII letters, digits, '_', '-' or '.'")
    if pid in seen:
        raise EventError(duplicate.format(pid))
    seen.add(pid)
    return p, pid


def _check_members(cfg: EventConfig, pid: str, p: dict[str, Any], bot: str | None,
                   seen: set[str]) -> list[dict[str, Any]] | None:
    """The two accounts of pair entrant ``pid`` (§0.2, §6.3): ``members`` lists two ids or
    ``{id, name, bot}`` objects (a member without a bot takes the entrant's ``bot``). Every
    account id must be unique in the event (one account, one seat) and differ from every entrant
    id. Raises EventError."""
    from qipai.bots import bot_names

    raw = p.get("members")
    if not cfg.pairs:
        if raw:
            raise EventError(f"player {pid}: {cfg.name} has individual entrants, not pairs with members")
        return None
    if not isinstance(raw, list) or len(raw) != 2:
        raise EventError(f"pair {pid}: {cfg.name} has pair entrants: give exactly two members "
                         f"(members = [\"a\", \"b\"]), not {raw!r}")
    out = []
    for m in raw:
        m, mid = _take_id(m, f"pair {pid}: member id", seen,
                          f"pair {pid}: account {{!r}} is already entered (one account, one seat)")
        mbot = m.get("bot") or bot
        if mbot and mbot not in bot_names(cfg.game_id):
            raise EventError(f"pair {pid}: member {mid}: unknown bot {mbot!r} for {cfg.game_id}; "
                             f"valid: {', '.join(bot_names(cfg.game_id))}")
        out.append({"id": mid, "name": str(m.get("name") or mid), "bot": mbot or None})
    return out


def _check_game(preset: str, data: dict[str, Any]) -> None:
    """Refuse a preset (or overrides) naming a game qipai does not have, before anything else is
    looked at."""
    from qipai.core.registry import game_class

    gid = (data.get("game") or {}).get("id") if isinstance(data.get("game"), dict) else None
    if gid is None:
        return
    try:
        game_class(gid)
    except QipaiError:
        avail = ", ".join(sorted(g.id for g in qipai.games()))
        raise EventError(f"preset {preset}: unknown game {gid!r}; available games: {avail}") from None


def _check_sides(cfg: EventConfig, game: Any) -> None:
    """Pair entrants need a game of two sides of two seats (partners, §0.2); individual
    entrants of two-sided matches need a two-seat game. Raises EventError."""
    if cfg.series is None:
        return
    sides = [tuple(x) for x in game.new_state(seed=0).sides()]
    shape = [len(x) for x in sides]
    if cfg.pairs and shape != [2, 2]:
        raise EventError(f"preset {cfg.name}: pair entrants need a game of two sides of two partners; "
                         f"{game.id} has sides {sides}")
    if not cfg.pairs and shape != [1, 1]:
        raise EventError(f"preset {cfg.name}: {game.id} is played by sides {sides}; its entrants must be "
                         "pairs (entrants = \"pairs\")")


FIRST_BIDDER_DEALS = {"lot_then_rotate": "shuffle", "face_up_card": "cut_faceup"}   # doudizhu's deal option


def _check_rules_fit_game(cfg: EventConfig, game: Any) -> None:
    """Penalties the game and format can apply; ``first_bidder`` agreeing with how the game picks
    its first bidder (doudizhu ``deal``). Raises EventError."""
    from .penalties import check_game

    s = cfg.session
    try:
        check_game(cfg.penalties, game, s is not None and s.measure == "level", s is not None)
    except QipaiError as e:
        raise EventError(f"preset {cfg.name}: {e}") from None
    fb = cfg.raw.get("first_bidder")
    deal = game.options.get("deal") if game.id == "doudizhu" else None
    if fb is not None and deal is not None and FIRST_BIDDER_DEALS[fb] != deal:
        raise EventError(f"preset {cfg.name}: first_bidder = {fb!r} needs the doudizhu option deal = "
                         f"{FIRST_BIDDER_DEALS[fb]!r}, but the game is set to {deal!r}")


def prepare_event(preset: str | dict[str, Any], overrides: dict[str, Any] | None = None,
                  fields: dict[str, Any] | None = None) -> tuple[str, dict[str, Any], EventConfig]:
    """``(preset name, event data, config)`` of an event description, checked against its game
    (see :func:`create_event` for the arguments). Raises EventError naming what is wrong."""
    try:
        preset, data = event_data(preset)
        if overrides:
            data = {**data, **overrides}
        if fields:
            data = set_fields(data, fields)
        _check_game(preset, data)
        cfg = parse_config(preset, data)
        game = qipai.load(cfg.game_id, **cfg.game_options)
    except QipaiError as e:
        raise EventError(str(e)) from None
    _check_sides(cfg, game)
    if cfg.session is not None and not cfg.session.sides and cfg.session.seats not in game.seats:
        raise EventError(f"preset {preset}: match.session.seats: {game.id} is played at tables of "
                         f"{', '.join(map(str, game.seats))}, not {cfg.session.seats}")
    _check_rules_fit_game(cfg, game)
    if cfg.session is not None and cfg.session.duplicate:
        from .duplicate import supports

        if not supports(cfg.game_id):
            raise EventError(f"preset {preset}: duplicate deals are not available for {cfg.game_id}")
    return preset, data, cfg


def check_field(cfg: EventConfig, players: Sequence[Any]) -> list[dict[str, Any]]:
    """The entrants, checked (:func:`check_players`), and enough of them for every stage."""
    entrants = check_players(cfg, players)
    have = len(entrants)
    for i, st in enumerate(cfg.then, 2):
        if st["take"] > have:
            raise EventError(f"preset {cfg.name}: stage {i} takes {st['take']} entrants but only {have} "
                             f"reach it")
        have = st["take"]
    return entrants


def new_event_id(s: Session, preset: str, secret: str, event_id: str | None) -> str:
    """``event_id`` checked (or ``<preset>-<commitment prefix>``). Raises EventError."""
    if event_id is None:
        event_id = f"{preset}-{lot.commitment(secret)[:6]}"
    if not ID_RE.match(event_id):
        raise EventError(f"event id {event_id!r} must be ASCII letters, digits, '_', '-' or '.'")
    if s.get(EventRow, event_id) is not None:
        raise EventError(f"event {event_id!r} already exists")
    return event_id


def make_draw(s: Session, ev: EventRow, cfg: EventConfig, entrants: list[dict[str, Any]],
              nonces: Sequence[str] = ()) -> None:
    """The draw (§2.1: by lot, or seeded; ``nonces``: the registration nonces ordered by entrant
    id) and round 1: entrant rows with their draw numbers, then the first pairings. The caller
    commits. Raises EventError."""
    if cfg.seeded:
        try:
            order = lot.seeded_draw_order(ev.secret, ev.id, 1, {p["id"]: p["rating"] for p in entrants},
                                          cfg.seeded, nonces)
        except ValueError as e:
            raise EventError(str(e)) from None
    else:
        order = lot.draw_order(ev.secret, ev.id, 1, [p["id"] for p in entrants], nonces)
    draw = {pid: i for i, pid in enumerate(order, 1)}
    for p in entrants:
        s.add(EntrantRow(event_id=ev.id, entrant_id=p["id"], name=p["name"], unit=p["unit"],
                         rating=p["rating"], bot=p["bot"], draw=draw[p["id"]], status="active",
                         members=p["members"]))
    ev.status = "running"
    s.flush()
    s.expire(ev, ["entrants"])
    Director(s, ev).advance()


def create_event(db: sessionmaker[Session], preset: str | dict[str, Any], players: Sequence[Any], *,
                 event_id: str | None = None, name: str | None = None,
                 secret: str | None = None, overrides: dict[str, Any] | None = None,
                 fields: dict[str, Any] | None = None) -> str:
    """Create an event, make the draw and pair round 1. Returns the event id. ``preset``: a
    preset's name, or an event description (:func:`.config.event_data`: a preset with fields
    changed, or a whole event in the presets' format).

    ``overrides`` replaces whole top-level tables of the preset (``{"stage": {...}}``);
    ``fields`` then sets single fields by dotted path, keeping the rest of each table
    (``{"game.repetition_rule": "seed000_same_move", "match.series.clock": "xq_s2_15s"}``, see
    :func:`.config.set_fields`). Raises EventError naming the field and the valid values for a
    bad one; nothing is created then. (Registration by the players themselves:
    :mod:`.registration`.)"""
    preset, data, cfg = prepare_event(preset, overrides, fields)
    entrants = check_field(cfg, players)
    secret = secret or lot.new_secret()
    with db() as s:
        event_id = new_event_id(s, preset, secret, event_id)
        ev = EventRow(id=event_id, name=name or cfg.title, preset=preset, game=cfg.game_id, config=data,
                      status="running", secret=secret, commitment=lot.commitment(secret), created=_now())
        s.add(ev)
        make_draw(s, ev, cfg, entrants)
        s.commit()
    return event_id


# ----- the director ----------------------------------------------------------------------------


class Director:
    """Works on one event inside one database session (the caller commits)."""

    def __init__(self, s: Session, ev: EventRow, stage: int | None = None) -> None:
        """The director of stage ``stage`` (default: the current, i.e. latest, stage). Stage 1
        uses the entrants' draw numbers; a later stage (multi-stage events, §2.8) numbers its
        entrants 1..take from its ``stages`` row, and its rounds continue the event's round
        numbers after ``round0``."""
        self.s = s
        self.ev = ev
        self.full = parse_config(ev.preset, ev.config)
        rows = list(s.scalars(select(StageRow).where(StageRow.event_id == ev.id).order_by(StageRow.number)))
        by_id = {e.entrant_id: e for e in ev.entrants}
        #: stage number -> {draw number: entrant id} for every stage begun
        self.stage_maps = {1: {e.draw: e.entrant_id for e in ev.entrants},
                           **{r.number: dict(enumerate(r.draws, 1)) for r in rows}}
        self.stage_no = stage or (rows[-1].number if rows else 1)
        if self.stage_no == 1:
            self.cfg = self.full
            self.by_draw = {e.draw: e for e in ev.entrants}
            self.round0 = 0
        else:
            row = next(r for r in rows if r.number == self.stage_no)
            self.cfg = parse_config(ev.preset, stage_data(ev.config, self.stage_no))
            self.by_draw = {i: by_id[x] for i, x in enumerate(row.draws, 1)}
            self.round0 = row.first_round - 1
        self.n = len(self.by_draw)
        self.stage = self.cfg.stage_for(self.n)
        self.stages = len(self.full.then) + 1

    # ----- helpers ----------------------------------------------------------------------------
    def matches(self, rnd: int | None = None) -> list[MatchRow]:
        q = select(MatchRow).where(MatchRow.event_id == self.ev.id, MatchRow.stage == self.stage_no)
        if rnd is not None:
            q = q.where(MatchRow.round == rnd)
        return list(self.s.scalars(q.order_by(MatchRow.round, MatchRow.index)))

    def current_round(self) -> int:
        """The event round number of this stage's latest round (``round0`` before its first)."""

        r = self.s.scalar(select(func.max(MatchRow.round)).where(MatchRow.event_id == self.ev.id,
                                                                  MatchRow.stage == self.stage_no))
        return r or self.round0

    def _key(self, m: MatchRow) -> str:
        return f"{self.ev.id}.r{m.round}.m{m.index}"

    def _add_match(self, rnd: int, index: int, kind: str, entrants: list[int],
                   result: dict[str, Any] | None = None) -> MatchRow:
        secret = lot.seed(self.ev.secret, "match", [self.ev.id, rnd, index]).hex()
        m = MatchRow(event_id=self.ev.id, round=rnd, index=index, kind=kind, entrants=entrants,
                     status="finished" if result is not None else "pending", result=result, secret=secret,
                     stage=self.stage_no)
        self.s.add(m)
        self.s.flush()
        return m

    # ----- advancing --------------------------------------------------------------------------
    def advance(self) -> None:
        """Bring the event up to date: decide matches, create games and rounds, finish."""
        while self.ev.status == "running":
            rnd = self.current_round()
            if rnd == self.round0:
                self._new_round(rnd + 1)
                continue
            ms = self.matches(rnd)
            for m in ms:
                if m.status == "pending":
                    self._update_match(m)
            if any(m.status == "pending" for m in ms):
                return
            self._compare_duplicates(ms)
            self._new_round(rnd + 1)

    def _withdrawn(self, m: MatchRow) -> list[int]:
        """Draw numbers of the entrants of ``m`` who have withdrawn or been disqualified (§2.7), or
        who lost the match by a penalty count (``lose_match_at``)."""
        lost = self._penalty_losers(m)
        return [d for d in m.entrants if d in self.by_draw
                and (self.by_draw[d].status in ("withdrawn", "disqualified") or d in lost)]

    def penalty_counts(self, m: MatchRow, kind: str) -> dict[int, int]:
        """Entries of ``kind`` per draw number in match ``m`` (the penalty ledger, §2.7)."""
        from .db import PenaltyRow

        if not self.cfg.penalties or m.id is None:
            return {}
        ids = {self.by_draw[d].entrant_id: d for d in m.entrants if d in self.by_draw}
        out: dict[int, int] = {}
        q = select(PenaltyRow).where(PenaltyRow.match_id == m.id, PenaltyRow.kind == kind)
        for row in self.s.scalars(q):
            if row.entrant_id in ids:
                out[ids[row.entrant_id]] = out.get(ids[row.entrant_id], 0) + 1
        return out

    def _penalty_losers(self, m: MatchRow) -> set[int]:
        rule = self.cfg.penalties.get("follow_error")
        if rule is None or rule.lose_match_at is None:
            return set()
        return {d for d, n in self.penalty_counts(m, "follow_error").items() if n >= rule.lose_match_at}

    def out_seats(self, m: MatchRow) -> list[int]:
        """Draw numbers at table ``m`` played by trusteeship, ranked last and unable to advance:
        absent entrants (§5.6) and entrants who withdrew (a concession, §5.5)."""
        return sorted({*(m.absent or []), *self._withdrawn(m)})

    def _update_match(self, m: MatchRow) -> None:
        games = sorted(m.games, key=lambda g: g.number)
        if m.kind == "series" and not m.absent and self._withdrawn(m):
            self._forfeit_series(m, loser=self._withdrawn(m)[0], games=games)
            return
        if m.kind == "session" and sum(d not in self.out_seats(m) for d in m.entrants) <= 1:
            for g in games:          # nobody left to play the deal in progress with
                if g.status == "pending":
                    g.status, g.source, g.finished = "finished", "forfeit", _now()
                    g.result = {"returns": [0.0] * len(g.seats), "reason": "withdrawal", "text": "void",
                                "winners": [], "winner_draws": [], "moves": 0, "duration": 0,
                                "void": True}
        if any(g.status == "pending" for g in games):
            return
        done = [g for g in games if g.status == "finished"]
        if m.kind == "series":
            self._update_series(m, done)
        else:
            self._update_session(m, done)

    def rule(self, m: MatchRow) -> Any:
        """The match rule of ``m``: the stage's series or session rule, or the one a
        ``round_overrides`` entry gives its round (``final``, ``semifinal``, ... by the number of
        matches in the round; ``round_N`` by the stage's round number)."""
        label = round_label(self.stage, self._round_size(m.round))
        return self.cfg.rule_for(label, m.round - self.round0)

    def _round_size(self, rnd: int) -> int:
        """How many matches round ``rnd`` of this stage has (a count: a round of 512 matches
        is not loaded once per match)."""
        return self.s.scalar(select(func.count(MatchRow.id)).where(
            MatchRow.event_id == self.ev.id, MatchRow.stage == self.stage_no, MatchRow.round == rnd)) or 0

    def _series_rule(self, m: MatchRow):
        rule = self.rule(m)
        if self.stage in ("round_robin", "swiss"):    # the pairing gives the first mover
            rule = dataclasses.replace(rule, first_game1="lower_draw_number", tiebreak="none")
        return rule

    def _update_series(self, m: MatchRow, done: list[GameRow]) -> None:
        a, b = m.entrants
        if m.absent:
            self._walkover_series(m)
            return
        games = []
        for g in done:
            first = 0 if g.seats[0] == a else 1
            w = g.result.get("winner_draws") or []
            winner = None if not w else (0 if w[0] == a else 1)
            games.append(SeriesGame(first, winner, g.result.get("moves") if g.result.get("moves") is not None
                                    else 10**6))
        key = self._key(m)
        rule = self._series_rule(m)
        st = series_status(rule, games, coin=lambda n: lot.coin(m.secret, key, n),
                           lot=lambda: lot.stream(m.secret, "lot", key, "series").uniform(2))
        if st.done:
            winner = None if st.winner is None else m.entrants[st.winner]
            m.status = "finished"
            m.result = {"winner": winner, "points": list(st.points), "games": len(games),
                        "decided_by": st.decided_by, "text": st.describe(len(games))}
            return
        seats = [a, b] if st.first == 0 else [b, a]
        spec = {"seed": lot.deal_seed(m.secret, key, st.number), "clock": st.clock,
                "extra": st.number > rule.scheduled}
        if st.variant:
            spec["variant"] = st.variant
        if self.cfg.game_id in ROTATING_DEALER:     # 4A4 §2.2: first dealer by lot, then the next seat
            first = lot.stream(m.secret, "first-actor", key).uniform(ROTATING_DEALER[self.cfg.game_id])
            spec["deal"] = {"dealer": (first + st.number - 1) % ROTATING_DEALER[self.cfg.game_id]}
        if self.cfg.pairs:
            seats, spec["members"] = self._pair_seats(m, seats)
        m.games.append(GameRow(number=st.number, seats=seats, spec=spec, status="pending"))
        self.s.flush()

    def _pair_seats(self, m: MatchRow, order: list[int] | None = None) -> tuple[list[int], list[str]]:
        """Seats of a game between two pairs (§5.1 ``seats``): the first mover's pair takes the
        game's first side (``state.sides()[0]``, partners opposite each other), the other the
        second; without ``order`` (a pair card table) the pairs, sorted by draw number, are first
        shuffled by the match's ``seats`` stream to give that order. Each pair's two accounts,
        sorted by id, are shuffled onto its seats (lower seat first) by the same stream, pairs in
        draw-number order, so partners keep their seats through the match. Returns (draw number
        per seat, account id per seat)."""
        sides = self.game_obj().new_state(seed=0).sides()
        stream = lot.stream(m.secret, "seats", self._key(m))
        if order is None:       # a pair table: the pairs' order by lot gives the sides (§5.1 seats)
            order = stream.shuffle(sorted(m.entrants))
        accounts = {d: stream.shuffle(sorted(x["id"] for x in self.by_draw[d].members))
                    for d in sorted(m.entrants)}
        n = sum(len(x) for x in sides)
        seats, members = [0] * n, [""] * n
        for d, side in zip(order, sides, strict=True):
            for seat, acc in zip(sorted(side), accounts[d], strict=True):
                seats[seat], members[seat] = d, acc
        return seats, members

    def seat_player(self, g: GameRow, seat: int) -> tuple[str, str | None]:
        """(name, bot or None) of the account in ``seat`` of game ``g``: the entrant, or for a
        pair entrant the member seated there."""
        d = g.seats[seat]
        if d == VACANT:
            return self.name(d), None
        e = self.by_draw[d]
        members = g.spec.get("members")
        if members:
            acc = next(x for x in e.members if x["id"] == members[seat])
            return acc["id"], acc["bot"]
        return e.entrant_id, e.bot

    def _walkover_series(self, m: MatchRow) -> None:
        """No-show (§5.6): the present entrant wins, every game is a forfeit (0 moves), as many
        as the series rule needs to decide; if both are absent, neither advances."""
        a, b = m.entrants
        gp = self._series_rule(m).game_points
        if len(m.absent) == 2:
            m.status = "finished"
            m.result = {"winner": None, "points": [gp.loss, gp.loss], "games": 0,
                        "decided_by": "double_no_show", "text": "both absent"}
            return
        winner = b if m.absent[0] == a else a
        games: list[SeriesGame] = []
        key = self._key(m)
        while True:
            st = series_status(self._series_rule(m), games, coin=lambda n: lot.coin(m.secret, key, n),
                               lot=lambda: lot.stream(m.secret, "lot", key, "series").uniform(2))
            if st.done:
                break
            games.append(SeriesGame(st.first, 0 if winner == a else 1, 0))
            seats = [a, b] if st.first == 0 else [b, a]
            m.games.append(GameRow(number=st.number, seats=seats, spec={"forfeit": True}, status="finished",
                                   source="forfeit", finished=_now(),
                                   result={"reason": "no_show", "winner_draws": [winner], "moves": 0,
                                           "text": "forfeit"}))
        m.status = "finished"
        m.result = {"winner": winner, "points": list(st.points), "games": len(games),
                    "decided_by": "walkover",
                    "text": f"walkover: {self.by_draw[m.absent[0]].entrant_id} absent"}

    def _forfeit_series(self, m: MatchRow, loser: int, games: list[GameRow]) -> None:
        """``loser`` has withdrawn: the match is lost by forfeit. The game waiting to be played
        (if any) becomes the forfeited game, keeping its number and seats; otherwise a forfeited
        game is added. Finished games stand."""
        a, b = m.entrants
        winner = b if loser == a else a
        gp = self._series_rule(m).game_points
        done = [g for g in games if g.status == "finished"]
        pw = sum(_pts(gp, g, winner) for g in done) + gp.score(True, 0)
        pl = sum(_pts(gp, g, loser) for g in done) + gp.score(False, 0)
        status = self.by_draw[loser].status
        why = {"withdrawn": "withdrawal", "disqualified": "disqualification"}.get(status, "penalties")
        result = {"reason": why, "winner_draws": [winner], "moves": 0, "text": "forfeit"}
        pending = [g for g in games if g.status == "pending"]
        if pending:
            g = pending[0]
            g.status, g.source, g.finished, g.result = "finished", "forfeit", _now(), result
            g.spec = {**g.spec, "forfeit": True}
        else:
            m.games.append(GameRow(number=len(done) + 1, seats=[winner, loser], spec={"forfeit": True},
                                   status="finished", source="forfeit", finished=_now(), result=result))
        pts = [pw, pl] if winner == a else [pl, pw]
        m.status = "finished"
        m.result = {"winner": winner, "points": pts, "games": len(done) + 1, "decided_by": "forfeit",
                    "text": f"forfeit by {self.by_draw[loser].entrant_id}"}

    def _update_session(self, m: MatchRow, done: list[GameRow]) -> None:
        """Decide session ``m`` from its finished deals (§2.3) or add its next deal. The units of
        the session are ``m.entrants``: the seats of an individual table, or the two pairs of a
        pair table (their accounts seated by :meth:`_pair_seats`)."""
        rule = self.rule(m)
        out = self.out_seats(m)
        absent = [s for s, d in enumerate(m.entrants) if d in out]
        present = [d for d in m.entrants if d not in out]
        if len(present) <= 1:        # §5.6: one present advances by walkover; none: nobody
            m.status = "finished"
            conceded = [d for d in m.entrants if d in out and d not in (m.absent or [])]
            text = ("walkover" if present else "all absent") if not conceded else \
                "forfeit by " + ", ".join(self.name(d) for d in conceded)
            m.result = {"winner": present[0] if present else None, "totals": [0] * len(m.entrants),
                        "ranking": present + [d for d in m.entrants if d not in present],
                        "ranks": [1 if d in present else 2 for d in m.entrants], "deals": 0,
                        "ended_by": "forfeit" if conceded else "no_show", "absent": list(m.absent or []),
                        "text": text}
            return
        played = [g for g in done if not g.result.get("void")]
        if rule.duplicate and rule.advance_by != "score" and len(played) >= rule.deals:
            # the comparison needs every table of the round: decided in _compare_duplicates
            totals = [sum(g.result["returns"][s] for g in played) for s in range(len(m.entrants))]
            m.status = "finished"
            m.result = {"winner": None, "session_totals": totals, "deals": len(played), "ended_by": "deals",
                        "compare": rule.advance_by, **({"absent": list(m.absent)} if m.absent else {})}
            return
        deals = [deal_outcome(rule, g.result, g.seats, m.entrants) for g in played]
        st = session_status(rule, deals, absent=absent)
        if st.done:
            m.status = "finished"
            m.result = {"winner": m.entrants[st.ranking[0]], "totals": list(st.totals),
                        "ranking": [m.entrants[s] for s in st.ranking], "ranks": list(st.ranks),
                        "deals": len(played), "ended_by": st.ended_by, "decided_by": st.decided_by,
                        "measure": rule.measure,
                        **({"attack": list(st.attack)} if rule.ties.startswith("captured") else {}),
                        **({"absent": list(m.absent)} if m.absent else {}),
                        "text": self._session_text(rule, m, st)}
            return
        number = len(done) + 1
        prev = done[-1].result.get("first_actor") if done else None
        spec: dict[str, Any] = {"seed": lot.deal_seed(m.secret, self._key(m), number), "clock": rule.clock,
                                "extra": st.extra, "prev_first": prev}
        if st.eligible:
            spec["eligible"] = [m.entrants[u] for u in st.eligible]
        if rule.duplicate:      # every table of the round: the same seed, hands rotated by table
            group = f"{self.ev.id}.r{m.round}"
            secret = lot.seed(self.ev.secret, "match", [self.ev.id, m.round, "group"]).hex()
            spec["seed"] = lot.deal_seed(secret, group, number)
            spec["duplicate_table"] = m.index - 1
        carried = next_deal(played[-1].result if played else None)
        if carried is not None and not rule.duplicate:     # e.g. baohuang's tribute (§4.4)
            spec["deal"] = carried
        seats = list(m.entrants)
        if rule.sides:          # a pair table: the pairs' accounts on the partnerships' seats
            seats, spec["members"] = self._pair_seats(m)
            spec["start"] = next_start(played[-1].result if played else None)
            if not played and self.cfg.game_id in FIRST_DEALER_OPTION:   # §5.1 first-actor
                k = len(seats)
                first = lot.stream(m.secret, "first-actor", self._key(m)).uniform(k)
                spec["start"] = {FIRST_DEALER_OPTION[self.cfg.game_id]: first}
        m.games.append(GameRow(number=number, seats=seats, spec=spec, status="pending"))
        self.s.flush()

    def _session_text(self, rule: Any, m: MatchRow, st: Any) -> str:
        """``a:12 b:-4 c:-8`` (scores), ``a:K b:9 (on stage)`` (levels, with how equal levels
        were decided), ``a:1 b:2 c:2`` (places)."""
        def show(v: float) -> str:
            return LEVEL_NAMES.get(int(v), f"{v:g}") if rule.measure == "level" else f"{v:g}"

        text = " ".join(f"{self.name(m.entrants[u])}:{show(st.totals[u])}" for u in st.ranking)
        if st.decided_by in ("on_stage", "captured_points", "extra_deals"):
            text += f" ({st.decided_by.replace('_', ' ')})"
        return text

    def _compare_duplicates(self, ms: list[MatchRow]) -> None:
        """Decide the tables of a finished duplicate round whose advancement is by comparison
        (``advance_by = "matchpoints"`` or ``"average"``, §2.8): each seat's deal scores are
        compared with those of every other holder of the same hand in the round
        (:func:`~qipai.competition.duplicate.duplicate_scores`). At each table the best
        comparison total wins; equal totals are ordered by session score, then by lot (purpose
        ``lot``). Absent seats are ranked last and cannot win. ``totals`` become the comparison
        totals (what lucky losers are compared by); the session scores stay in
        ``session_totals``."""
        from .duplicate import duplicate_scores

        todo = [m for m in ms if m.kind == "session" and m.result and "compare" in m.result
                and m.result["winner"] is None and "ranking" not in m.result]
        if not todo:
            return
        tables = [m for m in ms if m.kind == "session"]
        k = self.cfg.seats
        results: list[list[list[float] | None]] = [[] for _ in range(max(m.index for m in tables))]
        for m in tables:
            by_no = {g.number: (None if g.result.get("void") else g.result["returns"])
                     for g in m.games if g.status == "finished" and g.source != "forfeit"}
            results[m.index - 1] = [by_no.get(n) for n in range(1, max(by_no, default=0) + 1)]
        method = todo[0].result["compare"]
        comp = duplicate_scores(results, k, method)
        for m in todo:
            mp = comp[m.index - 1]
            score = m.result["session_totals"]
            absent = [s for s, d in enumerate(m.entrants) if d in self.out_seats(m)]
            present = [s for s in range(k) if s not in absent]
            best = max((mp[s], score[s]) for s in present)
            tied = [m.entrants[s] for s in present if (mp[s], score[s]) == best]
            label = f"duplicate-r{m.round}-m{m.index}"
            first = lot.lot_order(self.ev.secret, self.ev.id, self.stage_no, label, tied)[0]
            winner = m.entrants.index(first)
            keys = [(s != winner, s in absent, -mp[s], -score[s]) for s in range(k)]
            order = sorted(range(k), key=lambda s: (keys[s], s))
            unit = "mp" if method == "matchpoints" else ""
            m.result = {**m.result, "winner": first, "totals": list(mp),
                        "ranking": [m.entrants[s] for s in order],
                        "ranks": [1 + sum(1 for o in keys if o < keys[s]) for s in range(k)],
                        "text": " ".join(f"{self.name(m.entrants[s])}:{mp[s]:g}{unit} ({score[s]:+g})"
                                         for s in order)}

    # ----- rounds -----------------------------------------------------------------------------
    def _new_round(self, rnd: int) -> None:
        maker = {"knockout": self._knockout_round, "table_knockout": self._table_round,
                 "round_robin": self._rr_round, "swiss": self._swiss_round,
                 "table_swiss": self._table_swiss_round}[self.stage]
        if not maker(rnd):
            self._finish()

    def _knockout_round(self, rnd: int) -> bool:
        if rnd == self.round0 + 1:
            pairs = knockout_first_round(self.n)
        else:
            winners = [m.result["winner"] for m in self.matches(rnd - 1)]
            if len(winners) == 1:
                return False
            pairs = knockout_next_round(winners)
        for i, pair in enumerate(pairs, 1):
            there = sorted(d for d in pair if d is not None)
            if len(there) == 2:      # a series, or a pair card table (a session of two sides)
                self._add_match(rnd, i, "series" if self.cfg.series is not None else "session", there)
            elif there:
                self._add_match(rnd, i, "bye", there, {"winner": there[0], "text": "bye"})
            else:                  # both entrants of the feeding matches were absent
                self._add_match(rnd, i, "bye", [], {"winner": None, "text": "empty slot"})
        return True

    def _table_round(self, rnd: int) -> bool:
        k = self.cfg.seats
        if rnd == self.round0 + 1:
            active = sorted(self.by_draw)
        else:
            if len(self.matches(rnd - 1)) == 1:
                return False                       # that was the final (a table, or a walkover)
            active = self._advancing(rnd - 1)
        if len(active) < k:
            return self._short_final(rnd, active)
        byes_had: dict[int, int] = {}
        for m in self.matches():
            if m.kind == "bye" and m.entrants:
                byes_had[m.entrants[0]] = byes_had.get(m.entrants[0], 0) + 1
        tables, byes = table_round(active, k, byes_had)
        self._add_tables(rnd, tables, byes)
        return True

    def _add_tables(self, rnd: int, tables: list[list[int]], byes: list[int]) -> None:
        """Session matches for ``tables`` (seats by lot, purpose ``seats``), then the byes."""
        idx = 0
        for t in tables:
            idx += 1
            secret = lot.seed(self.ev.secret, "match", [self.ev.id, rnd, idx]).hex()
            seats = lot.stream(secret, "seats", f"{self.ev.id}.r{rnd}.m{idx}").shuffle(sorted(t))
            self._add_match(rnd, idx, "session", seats)
        for d in byes:
            idx += 1
            self._add_match(rnd, idx, "bye", [d], {"winner": d, "text": "bye"})

    def _short_final(self, rnd: int, active: list[int]) -> bool:
        """Fewer than k entrants reach a round of a table knockout: only possible when no-shows
        left too few winners and lucky losers (absent entrants never advance). Per §5.6, two or
        more present play the final table with the empty seats (draw number ``VACANT``) in
        trusteeship, ranked last and unable to win; one present is champion by walkover; none
        gives no champion."""
        k = self.cfg.seats
        if len(active) <= 1:
            self._add_match(rnd, 1, "bye", active, {"winner": active[0] if active else None, "final": True,
                                                    "text": "walkover" if active else "nobody left"})
            return True
        table = sorted(active) + [VACANT] * (k - len(active))
        secret = lot.seed(self.ev.secret, "match", [self.ev.id, rnd, 1]).hex()
        seats = lot.stream(secret, "seats", f"{self.ev.id}.r{rnd}.m1").shuffle(table)
        m = self._add_match(rnd, 1, "session", seats)
        m.absent = [VACANT] * (k - len(active))
        return True

    def name(self, d: int) -> str:
        """The entrant id of draw number ``d`` (``(vacant)`` for an empty seat)."""
        return "(vacant)" if d == VACANT else self.by_draw[d].entrant_id

    def _advancing(self, rnd: int) -> list[int]:
        """Who goes on after table-knockout round ``rnd``: winners, byes, lucky losers."""
        ms = self.matches(rnd)
        k = self.cfg.seats
        m_count = sum(len(m.entrants) for m in ms)
        adv = [m.result["winner"] for m in ms if m.result["winner"] is not None]
        short = k - len(adv) if (len(adv) < k and m_count > k) else 0
        if short:
            cands = []
            for m in ms:
                if m.kind != "session":
                    continue
                for seat, d in enumerate(m.entrants):
                    if d == m.result["winner"] or d in self.out_seats(m):
                        continue
                    cands.append((m.result["ranks"][seat], -self.rule(m).better(m.result["totals"][seat]), d))
            cands.sort(key=lambda c: (c[0], c[1]))
            # remaining exact ties are broken by lot (purpose lot)
            order = lot.stream(self.ev.secret, "lot", self.ev.id, self.stage_no, f"lucky-r{rnd}").shuffle(
                sorted(c[2] for c in cands))
            pos = {d: i for i, d in enumerate(order)}
            cands.sort(key=lambda c: (c[0], c[1], pos[c[2]]))
            adv += [c[2] for c in cands[:short]]
        return sorted(adv)

    def _rr_round(self, rnd: int) -> bool:
        rounds = berger_rounds(self.n)
        if self.cfg.double:      # the second cycle repeats the first with the first mover swapped
            rounds += [[(b, a) for a, b in r] for r in rounds]
        loc = rnd - self.round0
        if loc > len(rounds):
            return False
        for i, (a, b) in enumerate(rounds[loc - 1], 1):
            if a > self.n or b > self.n:
                self._add_match(rnd, i, "bye", [min(a, b)], {"winner": None, "text": "sits out"})
            else:
                self._add_match(rnd, i, "series", [a, b])
        return True

    def _swiss_round(self, rnd: int) -> bool:
        total = self.cfg.swiss_rounds(self.n)
        if rnd - self.round0 > total:
            return False
        history: list[list[tuple[int, str, str]]] = [[] for _ in range(self.n)]
        for m in self.matches():
            if m.kind == "bye":
                history[m.entrants[0] - 1].append((0, "-", "U"))
                continue
            a, b = m.entrants
            w = m.result["winner"]
            ra, rb = ("=", "=") if w is None else (("1", "0") if w == a else ("0", "1"))
            if m.result.get("decided_by") == "walkover":      # not played: may still meet
                ra, rb = ("+", "-") if w == a else ("-", "+")
            elif m.result.get("decided_by") == "double_no_show":
                ra, rb = "-", "-"
            history[a - 1].append((b, "w", ra))
            history[b - 1].append((a, "b", rb))
        withdrawn = [d for d, e in self.by_draw.items() if e.status in ("withdrawn", "disqualified")]
        try:
            pairs = swiss_pairings(self.n, total, history, withdrawn)
        except Exception as e:           # py4swiss: PairingError, "Round can not be paired"
            if type(e).__name__ != "PairingError":
                raise
            pairs = []
        if not any(b is not None for _, b in pairs):
            # nobody left to play anybody new (rematches are not allowed): the stage ends
            # here with the standings as they are, as lichess ends such a tournament
            self.stage_note = (f"round {rnd - self.round0} could not be paired (the players left "
                               "have all met or withdrawn): the stage ended after round "
                               f"{rnd - self.round0 - 1}")
            return False
        for i, (a, b) in enumerate(pairs, 1):
            if b is None:
                self._add_match(rnd, i, "bye", [a], {"winner": a, "text": "bye"})
            else:
                self._add_match(rnd, i, "series", [a, b])
        return True

    def _table_swiss_round(self, rnd: int) -> bool:
        """Table Swiss (§2.8): entrants ordered by table points, then draw number, seated in
        groups of k (repeat of the last round avoided by one swap), the lowest-ranked without a bye
        sitting out; seats at each table by lot (purpose ``seats``)."""
        if rnd - self.round0 > self.cfg.swiss_rounds(self.n):
            return False
        pts, _, byes_had = self._table_scores()
        order = sorted(self.by_draw, key=lambda d: (-pts[d], d))
        last = [m.entrants for m in self.matches(rnd - 1) if m.kind == "session"]
        tables, byes = table_swiss_round(order, self.cfg.seats, byes_had, last)
        self._add_tables(rnd, tables, byes)
        return True

    def _table_scores(self) -> tuple[dict[int, float], dict[int, float], dict[int, int]]:
        """Table Swiss scores so far: table points (first k - 1 ... last 0, shared ranks share the
        average; a bye (k - 1) / 2), total session measure, and byes had, per draw number."""
        k = self.cfg.seats
        pts = {d: 0.0 for d in self.by_draw}
        measure = {d: 0.0 for d in self.by_draw}
        byes: dict[int, int] = {}
        for m in self.matches():
            if m.status != "finished":
                continue
            if m.kind == "bye":
                for d in m.entrants:
                    pts[d] += (k - 1) / 2
                    byes[d] = byes.get(d, 0) + 1
                continue
            for d, p, t in zip(m.entrants, table_points(m.result["ranks"]), m.result["totals"], strict=True):
                if d in pts:
                    pts[d] += p
                    measure[d] += self.rule(m).better(t)
        return pts, measure, byes

    def _table_standings(self) -> list[dict[str, Any]]:
        """Table Swiss standings (§2.8): table points, then total session measure, then lot."""
        pts, measure, byes = self._table_scores()
        keys = [lambda g: {d: pts[d] for d in g}, lambda g: {d: measure[d] for d in g}]
        order, by_lot = self._break_ties(sorted(self.by_draw), keys)
        order = self._disqualified_last(order)
        return [{"rank": i, "id": self.by_draw[d].entrant_id, "draw": d, "points": pts[d],
                 "measure": measure[d], "byes": byes.get(d, 0), **({"lot": True} if d in by_lot else {}),
                 **({"disqualified": True} if self.by_draw[d].status == "disqualified" else {})}
                for i, d in enumerate(order, 1)]

    def _finish(self) -> None:
        if self.stage_no < self.stages:
            self._next_stage()
            return
        self.ev.status = "finished"
        self.ev.outcome = self.outcome()
        self.reveal()

    def _next_stage(self) -> None:
        """Start the next stage of a multi-stage event (§2.8): the ``take`` best of this stage's
        final standings (withdrawn and disqualified entrants left out) go on; with ``draw =
        "from_previous_stage"`` their draw numbers are their places 1..take, with ``"random"`` a
        new draw (purpose ``draw``, stage number). Then this director moves to that stage."""
        nxt = self.full.then[self.stage_no - 1]
        ids = [r["id"] for r in self.standings()
               if self.by_draw[r["draw"]].status not in ("withdrawn", "disqualified")][:nxt["take"]]
        if nxt["draw"] == "random":
            ids = lot.draw_order(self.ev.secret, self.ev.id, self.stage_no + 1, ids)
        self.s.add(StageRow(event_id=self.ev.id, number=self.stage_no + 1,
                            first_round=self.current_round() + 1, draws=ids, created=_now()))
        self.s.flush()
        self.__init__(self.s, self.ev)

    # ----- results ----------------------------------------------------------------------------
    def outcome(self) -> dict[str, Any]:
        """Champion, runner(s)-up, standings and placement points."""
        name = {d: e.entrant_id for d, e in self.by_draw.items()}
        out: dict[str, Any] = {}
        if self.stage in ("knockout", "table_knockout"):
            final = self.matches(self.current_round())
            fm = final[0]
            out["champion"] = name.get(fm.result["winner"])
            if fm.kind == "series" or (fm.kind == "session" and self.cfg.pairs):
                out["runner_up"] = [name[d] for d in fm.entrants
                                    if d != fm.result["winner"] and d not in (fm.absent or [])]
            elif fm.kind == "session":
                out["runner_up"] = [name[fm.entrants[s]] for s, r in enumerate(fm.result["ranks"])
                                    if r == 2 and fm.entrants[s] not in self.out_seats(fm)]
            else:
                out["runner_up"] = []
        else:
            table = self.standings()
            out["standings"] = table
            out["champion"] = table[0]["id"]
            out["runner_up"] = [table[1]["id"]] if len(table) > 1 else []
        if self.stages > 1:
            out["stages"] = [{"stage": n, "kind": Director(self.s, self.ev, n).stage,
                              "order": [r["id"] for r in Director(self.s, self.ev, n).standings()]}
                             for n in range(1, self.stages)]
        if getattr(self, "stage_note", None):
            out["note"] = self.stage_note
        pp = self.cfg.placement_points
        if pp is not None:
            played = self._played()
            pts = {}
            for e in self.ev.entrants:
                pid = e.entrant_id
                if e.status == "disqualified":
                    pts[pid] = pp.disqualified
                elif pid == out["champion"]:
                    pts[pid] = pp.champion
                elif pid in out["runner_up"]:
                    pts[pid] = pp.runner_up
                else:
                    pts[pid] = pp.other if pid in played else pp.no_show
            out["placement_points"] = pts
        return out

    def _played(self) -> set[str]:
        """Ids of the entrants who played a game or deal in any stage of the event."""
        got: set[str] = set()
        ms = self.s.scalars(select(MatchRow).where(MatchRow.event_id == self.ev.id))
        for m in ms:
            names = self.stage_maps[m.stage]
            for g in m.games:
                if g.status == "finished" and g.source in ("played", "entered"):
                    got.update(names[d] for d in g.seats if d not in (m.absent or []))
        return got

    def standings(self) -> list[dict[str, Any]]:
        """Round robin / Swiss table (§2.8), best first. Points (match points, or game points
        with ``standings = "game_points"``), then the tie-breaks — round robin: head-to-head
        points among the tied, Sonneborn-Berger, wins, lot; Swiss: Buchholz minus the lowest
        opponent, Buchholz, Sonneborn-Berger, wins, direct encounter, lot. The lot (purpose
        ``lot``) shuffles the entrants still tied, sorted by draw number; equal places are never
        shared. Table Swiss: :meth:`_table_standings`."""
        if self.stage == "table_swiss":
            return self._table_standings()
        pts = {d: 0.0 for d in self.by_draw}
        wins = {d: 0 for d in self.by_draw}
        opps: dict[int, list[tuple[int, float]]] = {d: [] for d in self.by_draw}
        met: dict[tuple[int, int], float] = {}          # (a, b) -> a's standings points vs b
        bye_value = 1.0 if self.cfg.standings == "match_points" else self.cfg.game_points.win
        for m in self.matches():
            if m.status != "finished":
                continue
            if m.kind == "bye":
                if m.result.get("winner") is not None:
                    pts[m.entrants[0]] += bye_value
                continue
            a, b = m.entrants
            w = m.result["winner"]
            if m.result.get("decided_by") == "double_no_show":
                continue                                      # both absent: nothing for anyone
            sa = 0.5 if w is None else (1.0 if w == a else 0.0)
            if self.cfg.standings == "game_points":
                ga, gb = m.result["points"]
            else:
                ga, gb = sa, 1 - sa
            pts[a] += ga
            pts[b] += gb
            wins[a] += w == a
            wins[b] += w == b
            opps[a].append((b, sa))
            opps[b].append((a, 1 - sa))
            met[a, b] = met.get((a, b), 0.0) + ga
            met[b, a] = met.get((b, a), 0.0) + gb

        def sb(d):
            return sum(pts[o] * r for o, r in opps[d])

        def buch(d, cut=0):
            vals = sorted(pts[o] for o, _ in opps[d])
            return sum(vals[cut:])

        def h2h(group: list[int]) -> dict[int, float]:
            """Points scored against the others of ``group``; only when every pair of the group
            has met (otherwise the comparison says nothing and everyone gets 0)."""
            if any((a, b) not in met for a in group for b in group if a != b):
                return {d: 0.0 for d in group}
            return {a: sum(met[a, b] for b in group if b != a) for a in group}

        def each(f):
            return lambda group: {d: f(d) for d in group}

        swiss = self.stage == "swiss"
        keys = ([each(lambda d: pts[d]), each(lambda d: buch(d, 1)), each(buch), each(sb),
                 each(lambda d: wins[d]), h2h] if swiss else
                [each(lambda d: pts[d]), h2h, each(sb), each(lambda d: wins[d])])
        order, decided_by = self._break_ties(sorted(self.by_draw), keys)
        order = self._disqualified_last(order)
        return [{"rank": i, "id": self.by_draw[d].entrant_id, "draw": d, "points": pts[d],
                 "sb": sb(d), "wins": wins[d],
                 **({"buchholz_cut1": buch(d, 1), "buchholz": buch(d)} if swiss else {}),
                 **({"lot": True} if d in decided_by else {}),
                 **({"disqualified": True} if self.by_draw[d].status == "disqualified" else {})}
                for i, d in enumerate(order, 1)]

    def _disqualified_last(self, order: list[int]) -> list[int]:
        """§2.7: a disqualified entrant is ranked last whatever its score (its results against
        others stand, so their points and tie-breaks do not change)."""
        out = [d for d in order if self.by_draw[d].status == "disqualified"]
        return [d for d in order if d not in out] + out

    def _break_ties(self, entrants: list[int], keys: list[Callable[[list[int]], dict[int, float]]]
                    ) -> tuple[list[int], set[int]]:
        """Order ``entrants`` by each key in turn (higher first), every key recomputed inside
        the group still tied; groups tied after the last key are ordered by lot. Returns the
        order and the entrants whose place the lot decided."""
        groups = [entrants]
        for key in keys:
            nxt = []
            for g in groups:
                if len(g) == 1:
                    nxt.append(g)
                    continue
                val = key(g)
                for v in sorted({val[d] for d in g}, reverse=True):
                    nxt.append([d for d in g if val[d] == v])
            groups = nxt
        order: list[int] = []
        by_lot: set[int] = set()
        for g in groups:
            if len(g) > 1:
                label = "standings-" + "-".join(map(str, sorted(g)))
                g = lot.lot_order(self.ev.secret, self.ev.id, self.stage_no, label, g)
                by_lot.update(g)
            order += g
        return order, by_lot

    # ----- games ------------------------------------------------------------------------------
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
        players = [Player() if i in absent else
                   BotPlayer(make_bot(game.id, who[i][1], seed=base + i), think_ms=think_ms, name=who[i][0])
                   for i in range(len(g.seats))]
        meta = {"event": self.ev.id, "round": g.match.round, "match": g.match.index, "game": g.number,
                "rng": self.rng_meta(g)}
        if self.cfg.pairs:
            meta["entrants"] = [self.name(d) for d in g.seats]
        runner = GameRunner(game, players, clock=g.spec.get("clock") or "none", time=VirtualTime(),
                            state=state, names=[w[0] for w in who], meta=meta,
                            trustee=absent)
        out = asyncio.run(runner.run())
        self._store(g, out.state, out.record.to_json(), "played", out.record.meta.get("duration", 0))

    def _store(self, g: GameRow, state, record: dict[str, Any] | None, source: str, duration: int,
               moves: int | None = None) -> None:
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
                raise EventError(str(e)) from None
        g.result = result          # assigned whole: a JSON column does not see changes made in place
        g.record = record
        g.status = "finished"
        g.source = source
        g.finished = _now()

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
            if scores is None:
                raise EventError(f"cannot read result {text!r} for {game.id}: {e.reason}; give the game's "
                                 f"result text or {state.num_seats} scores separated by commas") from None
            from qipai.core.game import Result

            best = max(scores)
            winners = tuple(s for s, v in enumerate(scores) if v == best) if len(set(scores)) > 1 else ()
            if not winners:
                try:                       # the referee says whether this deal can be drawn
                    state.clone()._draw_result("entered")
                except IllegalAction as why:
                    raise EventError(f"game {g.id}: {why.reason}; not {text!r}") from None
            state.result = Result(tuple(scores), "unknown", text, winners)
        rec = state.to_record(seats=[self.seat_player(g, i)[0] for i in range(len(g.seats))],
                              meta={"event": self.ev.id, "entered": True}).to_json()
        self._store(g, state, rec, "entered", duration, moves)

    def _enter_places(self, g: GameRow, state: Any, text: str, moves: int | None, duration: int = 0) -> None:
        """An entered placement game: ``text`` gives each seat's place, 1 = best (shared places
        repeat, e.g. ``1,1,3``). Raises EventError."""
        from qipai.core.game import Result

        n = state.num_seats
        places = _scores(text, n)
        if places is None or any(p != int(p) or not 1 <= p <= n for p in places) or 1 not in places:
            raise EventError(f"game {g.id} is a placement game: give the place of each of the {n} seats "
                             f"(1 = best) separated by commas, e.g. {','.join(map(str, range(1, n + 1)))}; "
                             f"not {text!r}")
        ints = [int(p) for p in places]
        state.result = Result(tuple(float(n - p) for p in ints), "entered", text,
                              tuple(s for s, p in enumerate(ints) if p == 1), {"places": ints})
        rec = state.to_record(seats=[self.seat_player(g, i)[0] for i in range(n)],
                              meta={"event": self.ev.id, "entered": True}).to_json()
        self._store(g, state, rec, "entered", duration, moves)


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
    raise EventError(f"{game_id} has no variant {variant!r} (no option of that name or value) for "
                     "series.extra_variant")


def _pts(gp, g: GameRow, d: int) -> float:
    w = g.result.get("winner_draws") or []
    moves = g.result.get("moves")          # None: entered without a count, so not a short game
    return gp.score(None if not w else w[0] == d, 10**6 if moves is None else moves)


def _scores(text: str, n: int) -> list[float] | None:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != n:
        return None
    try:
        return [float(p) for p in parts]
    except ValueError:
        return None


# ----- operations on a stored event (each one transaction) ---------------------------------------


def _event(s: Session, event_id: str | None) -> EventRow:
    if event_id is None:
        ev = s.scalars(select(EventRow).order_by(EventRow.created.desc(), EventRow.id.desc())).first()
        if ev is None:
            raise EventError("no event yet; create one with `qipai event new`")
        return ev
    ev = s.get(EventRow, event_id)
    if ev is None:
        raise EventError(f"no event {event_id!r}")
    return ev


def _running(s: Session, event_id: str | None) -> EventRow:
    """The event ``event_id`` (default: the latest), refused with EventError if it is finished."""
    ev = _event(s, event_id)
    if ev.status != "running":
        raise EventError(f"event {ev.id} is finished")
    return ev


def run_event(db: sessionmaker[Session], event_id: str | None = None, *, max_games: int | None = None,
              think_ms: int = BOT_THINK_MS,
              on_game: Callable[[GameRow], None] | None = None) -> dict[str, Any]:
    """Play every pending game whose seats are all bots, one committed game at a time, until the
    event is finished or waits for entered results. Returns a summary."""
    played = 0
    with db() as s:
        ev = _event(s, event_id)
        d = Director(s, ev)
        while ev.status == "running" and (max_games is None or played < max_games):
            todo = [g for g in d.pending_games() if d.is_bot_game(g)]
            if not todo:
                break
            g = todo[0]
            d.play(g, think_ms=think_ms)
            s.flush()
            d.advance()
            s.commit()           # one finished game per transaction: nothing finished is lost
            played += 1
            if on_game:
                on_game(g)
        waiting = [g.id for g in d.pending_games()]
        return {"event": ev.id, "played": played, "status": ev.status, "waiting": waiting,
                "outcome": ev.outcome}


def enter_result(db: sessionmaker[Session], event_id: str | None, game_id: int, text: str,
                 moves: int | None = None, duration: int | str | None = None) -> GameRow:
    """Enter the result of pending game ``game_id``; ``duration`` (ms, or ``"12m30s"``-style
    text as clocks take it) is how long it took, which session time limits count (§2.3).
    Raises EventError (nothing changed) for an unknown game, a game of another event, a game
    that already has a result, or a bad move count or duration."""
    if moves is not None and (isinstance(moves, bool) or not isinstance(moves, int) or moves < 0):
        raise EventError(f"moves must be a whole number >= 0, not {moves!r}")
    ms = 0
    if duration is not None:
        from qipai.match.clock import duration_ms

        try:
            ms = duration_ms(duration)
        except OptionError as e:
            raise EventError(f"duration: {e}") from None
        if ms < 0:
            raise EventError(f"duration must not be negative, not {duration!r}")
    with db() as s:
        ev = _event(s, event_id)
        g = s.get(GameRow, game_id)
        if g is None or g.match.event_id != ev.id:
            raise EventError(f"event {ev.id} has no game {game_id}")
        if g.status != "pending":
            raise EventError(f"game {game_id} already has a result ({g.result.get('text')}, {g.source})")
        d = Director(s, ev)
        d.enter(g, text, moves, ms)
        s.flush()
        d.advance()
        s.commit()
        return g


def no_show(db: sessionmaker[Session], event_id: str | None, entrant_ids: Sequence[str]) -> list[int]:
    """Declare entrants absent from their pending match after the grace period (§5.6), all at
    once. Two-sided match: the present entrant wins by walkover, each game a forfeit; both
    absent: neither advances (a knockout slot becomes a bye). Table: with two or more present
    the session is played with the absent seats in trusteeship, ranked last and unable to
    advance; one present advances by walkover; none: the table gives nobody.
    Returns the ids of the matches concerned. Raises EventError (nothing changed) for an unknown
    or repeated player, one with no pending match, or a match that has already started."""
    if not entrant_ids:
        raise EventError("name at least one absent player")
    if len(set(entrant_ids)) != len(entrant_ids):
        raise EventError("a player is named twice")
    with db() as s:
        ev = _running(s, event_id)
        d = Director(s, ev)
        ids = {e.entrant_id: e.draw for e in ev.entrants}
        rnd = d.current_round()
        found: dict[int, tuple[MatchRow, list[int]]] = {}
        for pid in entrant_ids:
            if pid not in ids:
                raise EventError(f"event {ev.id} has no player {pid!r}")
            draw = ids[pid]
            ms = [m for m in d.matches(rnd) if m.status == "pending" and draw in m.entrants]
            if not ms:
                raise EventError(f"player {pid!r} has no pending match in round {rnd}")
            m = ms[0]
            if any(g.status == "finished" for g in m.games):
                raise EventError(f"the match of {pid!r} has started: absence is now handled by the clock")
            if draw in (m.absent or []):
                raise EventError(f"player {pid!r} is already marked absent")
            found.setdefault(m.id, (m, []))[1].append(draw)
        for m, draws in found.values():
            m.absent = sorted([*(m.absent or []), *draws])
            present = [x for x in m.entrants if x not in m.absent]
            if m.kind == "series" or len(present) <= 1:
                for g in list(m.games):
                    if g.status == "pending":
                        s.delete(g)
        s.flush()
        for m, _ in found.values():
            s.expire(m, ["games"])
        d.advance()
        s.commit()
        return sorted(found)


def withdraw(db: sessionmaker[Session], event_id: str | None, entrant_id: str) -> None:
    """Withdraw an entrant. Two-sided matches: its pending match is lost by forfeit — the game
    waiting to be played becomes the forfeited game (same game number) — and so is every later
    match it is paired in (round robin); Swiss pairs it no more. Card tables: a concession
    (§5.5): its seat is played by trusteeship for the rest of the session, ranked last, never
    advancing. Results already reached stand. Raises EventError (nothing changed) for an
    unknown player, one already withdrawn, or a finished event."""
    _leave(db, event_id, entrant_id, "withdrawn", "has already withdrawn")


def _leave(db: sessionmaker[Session], event_id: str | None, entrant_id: str, status: str,
           already: str) -> None:
    """Set an entrant's status to ``withdrawn`` or ``disqualified`` and advance the event.
    Raises EventError (nothing changed) for an unknown player, one already so, or a finished
    event."""
    with db() as s:
        ev = _event(s, event_id)
        rows = [e for e in ev.entrants if e.entrant_id == entrant_id]
        if not rows:
            raise EventError(f"event {ev.id} has no player {entrant_id!r}")
        if rows[0].status == status:
            raise EventError(f"player {entrant_id!r} {already}")
        if ev.status != "running":
            raise EventError(f"event {ev.id} is finished")
        rows[0].status = status
        s.flush()
        Director(s, ev).advance()
        s.commit()



def disqualify(db: sessionmaker[Session], event_id: str | None, entrant_id: str) -> None:
    """Disqualify an entrant (competition.md §2.7, a referee's act): it is removed from the
    event. Two-sided: its pending match is lost at once (the game waiting or in play becomes
    the forfeited game); card tables: its seat is played by trusteeship for the rest of the
    session and it is ranked last; standings rank it last whatever its score; its placement
    points are 0. Results it already reached stand. Raises EventError (nothing changed) for an
    unknown player, one already disqualified, or a finished event."""
    _leave(db, event_id, entrant_id, "disqualified", "is already disqualified")


def void_game(db: sessionmaker[Session], event_id: str | None, game_id: int,
              note: dict[str, Any]) -> GameRow:
    """A referee voids pending game ``game_id`` and orders it replayed (competition.md §5.7):
    it stays pending, dealt again with the next RNG attempt (§5.1: a new seed from the same
    derivation with ``attempt + 1``), and ``note`` (who, why, the voided table) is kept in its
    spec's ``voided`` list. Raises EventError for an unknown or finished game."""
    from .dealing import match_fields

    with db() as s:
        ev = _running(s, event_id)
        g = s.get(GameRow, game_id)
        if g is None or g.match.event_id != ev.id:
            raise EventError(f"event {ev.id} has no game {game_id}")
        if g.status != "pending":
            raise EventError(f"game {game_id} already has a result ({g.result.get('text')}, {g.source})")
        m = g.match
        attempt = int(g.spec.get("attempt", 0)) + 1
        fields, match = match_fields(ev.id, m.round, m.index, g.spec.get("duplicate_table") is not None)
        secret = lot.seed(ev.secret, "match", fields).hex()
        g.spec = {**g.spec, "seed": lot.deal_seed(secret, match, g.number, attempt), "attempt": attempt,
                  "voided": [*g.spec.get("voided", []), note]}
        s.commit()
        return g
