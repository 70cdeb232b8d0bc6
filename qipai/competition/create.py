"""Creating an event: the entrants checked, the event description checked against its game,
the draw (§2.1) and round 1 (:func:`create_event`; registration by the players themselves is
:mod:`.registration`). Every refusal is an :class:`EventError` raised before anything is written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

import qipai
from qipai.core.errors import Message, QipaiError, why_cause

from . import lot
from .common import ENTRANT_ID_RE, ID_RE, EventError, check_name, now
from .config import EventConfig, event_data, parse_config, set_fields
from .db import EntrantRow, EventRow


def _check_engine(cfg: EventConfig, pid: str, bot: str) -> None:
    """An entrant played by an engine of the event's ``[engines]`` table."""
    from qipai.engines import protocols

    from .config import engines

    name = bot.split(":", 1)[1]
    table = engines(cfg.name, cfg.raw)
    if name not in table:
        valid = ", ".join(table) or "none (add them under [engines])"
        raise EventError(Message(f"player {pid}: unknown engine {name!r}; the event's engines: {valid}",
                                 code="event.unknown_engine", params={"who": pid, "engine": name,
                                                                      "valid": ", ".join(table)}))
    if not protocols(cfg.game_id):
        raise EventError(Message(f"player {pid}: no engine protocol plays {cfg.game_id}",
                                 code="event.no_engine_protocol", params={"who": pid, "game": cfg.game_id}))


def check_players(cfg: EventConfig, players: Sequence[dict[str, Any]], *,
                  enough: bool = True) -> list[dict[str, Any]]:
    """Validate the entrant list; returns normalised dicts. ``enough``: also require at least
    as many entrants as a table or match seats (off while registration is still open). Raises
    EventError."""
    from qipai.bots import bot_names

    out, seen = [], set()
    bots = None
    for i, p in enumerate(players, 1):
        p, pid = _take_id(p, f"player {i}: id", seen, "duplicate player {!r}")
        bot = p.get("bot") if p.get("level") is None else _level_bot(cfg, pid, p)
        if bot and str(bot).startswith("engine:"):
            _check_engine(cfg, pid, str(bot))
        elif bot:
            bots = bots if bots is not None else bot_names(cfg.game_id)
            if bot not in bots:
                raise EventError(Message(f"player {pid}: unknown bot {bot!r} for {cfg.game_id}; "
                                         f"valid: {', '.join(bots)}", code="event.unknown_bot",
                                         params={"who": pid, "bot": bot, "valid": ", ".join(bots)}))
        members = _check_members(cfg, pid, p, bot, seen)
        rating = p.get("rating")
        if rating is not None:
            try:
                rating = int(rating)
            except (TypeError, ValueError):
                raise EventError(Message(f"player {pid}: rating {rating!r} is not a whole number",
                                         code="event.bad_rating",
                                         params={"who": pid, "rating": str(rating)})) from None
        unit, who = p.get("unit"), f"player {pid}"
        out.append({"id": pid, "name": check_name(str(p.get("name") or pid), who), "bot": bot or None,
                    "unit": check_name(str(unit), who) if unit is not None else None,
                    "rating": int(rating) if rating is not None else None, "members": members})
    need = cfg.seats
    if enough and len(out) < need:
        text = f"{cfg.name} needs at least {need} {'pairs' if cfg.pairs else 'players'}, got {len(out)}"
        params = {"need": need, "got": len(out)}
        raise EventError(Message(text, code="event.too_few_pairs", params=params) if cfg.pairs
                         else Message(text, code="event.too_few", params=params))
    limit = cfg.raw.get("unit_limit")
    if limit:
        units: dict[str, int] = {}
        for p in out:
            if p["unit"]:
                units[p["unit"]] = units.get(p["unit"], 0) + 1
                if units[p["unit"]] > limit:
                    raise EventError(Message(f"unit {p['unit']!r} has more than {limit} entrant(s)",
                                                 code="event.unit_full",
                                                 params={"unit": p["unit"], "limit": limit}))
    return out


def _take_id(p: Any, label: str, seen: set[str], duplicate: str) -> tuple[dict[str, Any], str]:
    """``p`` as a dict (a bare id becomes ``{"id": p}``) and its checked id, added to ``seen``.
    Raises EventError for a malformed id or one already in ``seen`` (``duplicate`` formats it)."""
    p = dict(p) if isinstance(p, dict) else {"id": p}
    pid = str(p.get("id", "")).strip()
    if not ENTRANT_ID_RE.match(pid):
        raise EventError(Message(f"{label} {pid!r} must be at most 40 letters (Chinese too), digits, "
                                 "'_', '-' or '.'",
                                 code="event.bad_entrant", params={"id": pid}))
    if pid in seen:
        raise EventError(Message(duplicate.format(pid), code="event.duplicate", params={"id": pid}))
    seen.add(pid)
    return p, pid


def _level_bot(cfg: EventConfig, pid: str, p: dict[str, Any]) -> str:
    """The bot of entrant ``pid``'s ``level`` (1-5, docs/bots.md), which may not come with a
    ``bot``. Raises EventError."""
    from qipai.bots import level_bot
    from qipai.core.errors import OptionError

    if p.get("bot"):
        raise EventError(Message(f"player {pid}: give a bot or a level, not both", code="event.bot_and_level",
                                 params={"who": pid}))
    try:
        return level_bot(cfg.game_id, p["level"])
    except OptionError as e:
        raise EventError(Message(f"player {pid}: {e}", code="event.bad_level",
                                 params={"who": pid, **why_cause(e, "options.see_help")})) from None


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
            raise EventError(Message(f"player {pid}: {cfg.name} has individual entrants, not pairs with "
                                     "members",
                                     code="event.not_pairs", params={"who": pid}))
        return None
    if not isinstance(raw, list) or len(raw) != 2:
        raise EventError(Message(f"pair {pid}: {cfg.name} has pair entrants: give exactly two members "
                                 f"(members = [\"a\", \"b\"]), not {raw!r}", code="event.two_members",
                                 params={"who": pid}))
    out = []
    for m in raw:
        m, mid = _take_id(m, f"pair {pid}: member id", seen,
                          f"pair {pid}: account {{!r}} is already entered (one account, one seat)")
        mbot = m.get("bot") or bot
        if mbot and mbot not in bot_names(cfg.game_id):
            valid = ", ".join(bot_names(cfg.game_id))
            raise EventError(Message(f"pair {pid}: member {mid}: unknown bot {mbot!r} for {cfg.game_id}; "
                                     f"valid: {valid}", code="event.member_bot",
                                     params={"who": pid, "member": mid, "bot": mbot, "valid": valid}))
        name = check_name(str(m.get("name") or mid), f"pair {pid}")
        out.append({"id": mid, "name": name, "bot": mbot or None})
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
        raise EventError(Message(f"preset {preset}: unknown game {gid!r}; available games: {avail}",
                                 code="event.unknown_game", params={"game": str(gid)})) from None


def _check_sides(cfg: EventConfig, game: Any) -> None:
    """Pair entrants need a game of two sides of two seats (partners, §0.2); individual
    entrants of two-sided matches need a two-seat game. Raises EventError."""
    if cfg.series is None:
        return
    sides = [tuple(x) for x in game.new_state(seed=0).sides()]
    shape = [len(x) for x in sides]
    if cfg.pairs and shape != [2, 2]:
        raise EventError(Message(f"preset {cfg.name}: pair entrants need a game of two sides of two "
                                 f"partners; {game.id} has sides {sides}", code="event.pairs_need_partners",
                                 params={"game": game.id}))
    if not cfg.pairs and shape != [1, 1]:
        raise EventError(Message(f"preset {cfg.name}: {game.id} is played by sides {sides}; its entrants "
                                 "must be pairs (entrants = \"pairs\")", code="event.needs_pairs",
                                 params={"game": game.id}))


FIRST_BIDDER_DEALS = {"lot_then_rotate": "shuffle", "face_up_card": "cut_faceup"}   # doudizhu's deal option


def _check_rules_fit_game(cfg: EventConfig, game: Any) -> None:
    """Penalties the game and format can apply; ``first_bidder`` agreeing with how the game picks
    its first bidder (doudizhu ``deal``). Raises EventError."""
    from .penalties import check_game

    s = cfg.session
    try:
        check_game(cfg.penalties, game, s is not None and s.measure == "level", s is not None)
    except QipaiError as e:
        raise EventError(Message(f"preset {cfg.name}: {e}", code="event.rules_misfit",
                                 params=why_cause(e, "event.check_fields"))) from None
    fb = cfg.raw.get("first_bidder")
    deal = game.options.get("deal") if game.id == "doudizhu" else None
    if fb is not None and deal is not None and FIRST_BIDDER_DEALS[fb] != deal:
        raise EventError(Message(f"preset {cfg.name}: first_bidder = {fb!r} needs the doudizhu option "
                                 f"deal = {FIRST_BIDDER_DEALS[fb]!r}, but the game is set to {deal!r}",
                                 code="event.first_bidder",
                                 params={"first_bidder": fb, "need": FIRST_BIDDER_DEALS[fb], "deal": deal}))


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
        raise EventError(Message(str(e), code="event.config",
                                 params=why_cause(e, "event.check_fields"))) from None
    _check_sides(cfg, game)
    if cfg.session is not None and not cfg.session.sides and cfg.session.seats not in game.seats:
        valid = ", ".join(map(str, game.seats))
        raise EventError(Message(f"preset {preset}: match.session.seats: {game.id} is played at tables of "
                                 f"{valid}, not {cfg.session.seats}", code="event.table_size",
                                 params={"game": game.id, "valid": valid, "seats": cfg.session.seats}))
    _check_rules_fit_game(cfg, game)
    if cfg.session is not None and cfg.session.duplicate:
        from .duplicate import supports

        if not supports(cfg.game_id):
            raise EventError(Message(f"preset {preset}: duplicate deals are not available for {cfg.game_id}",
                                     code="event.no_duplicate", params={"game": cfg.game_id}))
    return preset, data, cfg


def check_field(cfg: EventConfig, players: Sequence[Any]) -> list[dict[str, Any]]:
    """The entrants, checked (:func:`check_players`), and enough of them for every stage."""
    entrants = check_players(cfg, players)
    have = len(entrants)
    for i, st in enumerate(cfg.then, 2):
        if st["take"] > have:
            raise EventError(Message(f"preset {cfg.name}: stage {i} takes {st['take']} entrants but only "
                                     f"{have} reach it", code="event.take_too_many",
                                     params={"stage": i, "take": st["take"], "have": have}))
        have = st["take"]
    return entrants


def new_event_id(s: Session, preset: str, secret: str, event_id: str | None) -> str:
    """``event_id`` checked (or ``<preset>-<commitment prefix>``). Raises EventError."""
    if event_id is None:
        event_id = f"{preset}-{lot.commitment(secret)[:6]}"
    if not ID_RE.match(event_id):
        raise EventError(Message(f"event id {event_id!r} must be ASCII letters, digits, '_', '-' or '.'",
                                 code="event.bad_id", params={"id": event_id}))
    if s.get(EventRow, event_id) is not None:
        raise EventError(Message(f"event {event_id!r} already exists", code="event.exists",
                                 params={"id": event_id}))
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
            raise EventError(Message(str(e), code="event.seeding",
                                     params=why_cause(e, "event.check_fields"))) from None
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
    from .director import Director

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
                      status="running", secret=secret, commitment=lot.commitment(secret), created=now())
        s.add(ev)
        make_draw(s, ev, cfg, entrants)
        s.commit()
    return event_id
