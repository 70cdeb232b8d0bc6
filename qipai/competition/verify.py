"""Check a finished game's deals against its revealed secret (competition.md §6.1).

A record of a lobby table carries ``meta["rng"]`` (written when the game ends, see
:mod:`qipai.server.fairness` and docs/fairness.md)::

    {"version": "qipai-rng-v1", "purpose": "deal", "match": "<table id>",
     "commitment": "<hex>", "secret": "<hex>",
     "nonces": [["<account id>", "<nonce>"], ...],      # in derivation order
     "deals": [{"deal": 1, "attempt": 0, "seed": "<hex>"}, ...]}

:func:`verify_record` checks the commitment against the secret, derives every deal's seed from
the secret, the match id, the deal number, the attempt and the nonces, and deals again from it:
the record's actions must replay from the derived seed and give the record's deal.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from qipai.core.errors import Message, QipaiError, why_cause
from qipai.core.record import Record, replay
from qipai.core.registry import load

from . import dealing, lot


@dataclass
class DealCheck:
    """The verdict on one deal (``deal`` 0 for a check of the whole record); ``message`` names
    its catalogue entry (``verify.<code>``), for the reader's language."""

    deal: int
    attempt: int
    ok: bool
    message: str


def _norm(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def verify_record(record: Record, event_secret: str | None = None) -> list[DealCheck]:
    """One :class:`DealCheck` per deal of ``record`` (or one failed check when the record carries
    no revealed secret, or the secret does not match its commitment). An event game's record
    (``meta.rng.event``) is checked from the event's secret: the one the record carries once the
    event has ended, else ``event_secret`` (64 hex, as the event publishes it when it ends)."""
    rng = record.meta.get("rng")
    if not isinstance(rng, dict):
        return [DealCheck(0, 0, False, Message("the record carries no random-number data (meta.rng)",
                                               code="verify.no_rng"))]
    event = rng.get("event")
    secret = rng.get("secret") or (event_secret if event else None)
    if not secret:
        why = (Message(f"the secret of event {event} is not revealed yet (it is when the event ends); "
                       "give it with --secret", code="verify.event_secret", params={"event": event}) if event
               else Message("the record carries no revealed secret (meta.rng)", code="verify.no_secret"))
        return [DealCheck(0, 0, False, why)]
    commitment = rng.get("commitment", "")
    try:
        committed = hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    except ValueError:
        return [DealCheck(0, 0, False, Message("the revealed secret is not hex", code="verify.not_hex"))]
    if committed != commitment:
        why = f"sha256(secret) = {committed} is not the commitment {commitment}"
        return [DealCheck(0, 0, False, Message(why, code="verify.commitment",
                                               params={"hash": committed, "commitment": commitment}))]
    nonces = [n for _, n in rng.get("nonces", [])]
    out = []
    for d in rng.get("deals", []):
        number, attempt = int(d["deal"]), int(d["attempt"])
        if event:
            seed = dealing.derive_seed(rng, secret, number, attempt)
            out.append(_check_event_deal(record, rng, number, attempt, seed, d.get("seed")))
        else:
            seed = lot.deal_seed(secret, rng["match"], number, attempt, nonces)
            out.append(_check_deal(record, number, attempt, seed, d.get("seed")))
    return out or [DealCheck(0, 0, False, Message("the record lists no deal", code="verify.no_deal"))]


def _check_event_deal(record: Record, rng: dict[str, Any], number: int, attempt: int, seed: str,
                      published: Any) -> DealCheck:
    """An event game: its start made again from the derived seed and the published start parts
    (:func:`.dealing.start_state`) must be the record's start, and the record must replay."""
    def fail(why: Message) -> DealCheck:
        return DealCheck(number, attempt, False, why)
    if published != seed:
        return fail(Message(f"derived seed {seed} differs from the published {published}",
                            code="verify.seed_differs", params={"seed": seed, "published": published}))
    try:
        game = load(record.game, **record.options)
        start = dealing.start_state(game, seed, rng.get("start") or {}, record.num_seats or game.seats[0],
                                    rng.get("kind", "series"))
        replay(record)
        played = start
        for entry in record.actions:         # redeals draw on from the same stream
            seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
            if played.is_terminal():
                break
            played.apply(text, seat=seat)
    except QipaiError as e:
        return fail(Message(f"the record does not replay from the derived seed: {e}",
                            code="verify.no_replay", params=why_cause(e, "illegal")))
    if start.seed is None and start.deal is None:
        return DealCheck(number, attempt, True, Message(
            f"seed {seed}: {record.game} makes no random choice, so there is no deal to check",
            code="verify.no_chance", params={"seed": seed, "game": record.game}))
    if record.deal is not None:
        if _norm(played.deal) != _norm(record.deal):
            return fail(Message("dealing again from the derived seed gives another deal",
                                code="verify.another_deal"))
    elif str(record.seed) != str(start.seed):
        return fail(Message(f"the game was dealt from {record.seed}, not the derived {seed}",
                            code="verify.dealt_from", params={"dealt": record.seed, "seed": seed}))
    return DealCheck(number, attempt, True, Message(f"seed {seed}: the deal matches", code="verify.matches",
                                                    params={"seed": seed}))


def _check_deal(record: Record, number: int, attempt: int, seed: str, published: Any) -> DealCheck:
    def fail(why: Message) -> DealCheck:
        return DealCheck(number, attempt, False, why)
    if published != seed:
        return fail(Message(f"derived seed {seed} differs from the published {published}",
                            code="verify.seed_differs", params={"seed": seed, "published": published}))
    if record.seed is None and record.deal is None and not _uses_chance(record):
        return DealCheck(number, attempt, True, Message(
            f"seed {seed}: {record.game} makes no random choice, so there is no deal to check "
            "(the commitment matches)", code="verify.no_chance_committed",
            params={"seed": seed, "game": record.game}))
    if str(record.seed) != seed:
        return fail(Message(f"the game was dealt from {record.seed}, not the derived {seed}",
                            code="verify.dealt_from", params={"dealt": record.seed, "seed": seed}))
    again = Record(game=record.game, options=record.options, actions=record.actions, seed=seed,
                   num_seats=record.num_seats, result=record.result)
    try:
        state = replay(again)
    except QipaiError as e:
        return fail(Message(f"the record does not replay from the derived seed: {e}",
                            code="verify.no_replay", params=why_cause(e, "illegal")))
    if record.deal is not None and _norm(state.deal) != _norm(record.deal):
        return fail(Message("dealing again from the derived seed gives another deal",
                            code="verify.another_deal"))
    return DealCheck(number, attempt, True, Message(f"seed {seed}: the deal matches", code="verify.matches",
                                                    params={"seed": seed}))


def _uses_chance(record: Record) -> bool:
    """True when the record's game keeps a seed (it makes random choices from it); xiangqi, for
    one, makes none and drops any seed it is given."""
    game = load(record.game, **record.options)
    return game.new_state(seed="0" * 64, num_seats=record.num_seats).seed is not None


NOT_JSON = ("not a qipai JSON record (only a qipai JSON record carries the revealed secret: "
            "download the game with format=json)")


def load_record(text: str | bytes) -> Record:
    """A qipai JSON record, or the server's ``GET /api/records/{id}`` answer around one.
    Raises ValueError when it is neither."""
    try:
        data = json.loads(text)
    except ValueError:            # not JSON at all (a PGN, an SGF, text in another encoding)
        raise ValueError(NOT_JSON) from None
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("record"), dict):
        data = data["record"]
    if not isinstance(data, dict) or "game" not in data:
        raise ValueError(NOT_JSON)
    return Record.from_json(data)
