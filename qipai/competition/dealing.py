"""How an event game is dealt, and what its record publishes so anyone can check the deal.

An event's games are dealt from seeds derived from the event's secret (competition.md §6.1):
the match secret is ``seed(event secret, "match", [event id, round, match index])`` (for a
duplicate round, ``[event id, round, "group"]``: every table of the round deals alike), and
game ``n`` of the match deals from ``deal_seed(match secret, match id, n)``, where the match id
is ``<event id>.r<round>.m<index>`` (duplicate: ``<event id>.r<round>``).

:func:`start_state` makes the start of a game from its seed and the rest of its *spec* (the
dealer a series rotates, baohuang's tribute, the duplicate table, doudizhu's shuffle after the
previous deal); :func:`rng_meta` is what an event game's record carries in ``meta["rng"]`` so that
``qipai verify`` can re-derive the seed once the event's secret is revealed (when it ends).
"""

from __future__ import annotations

from typing import Any

from . import lot

#: the parts of a game's spec, besides its seed, that shape its start
START_KEYS = ("deal", "duplicate_table", "prev_first")


def start_state(game: Any, seed: str, spec: dict[str, Any], num_seats: int, kind: str) -> Any:
    """The start of an event game of ``game`` (a loaded game) dealt from ``seed`` (64 hex),
    with ``spec``'s start parts (see :data:`START_KEYS`), ``num_seats`` seats, in a match of
    ``kind`` (``series`` or ``session``)."""
    if spec.get("deal") is not None:     # the deal's context: 4A4's dealer, baohuang's tribute
        return game.new_state(seed=seed, deal=spec["deal"])
    if spec.get("duplicate_table") is not None:
        from .duplicate import table_deals

        return game.new_state(deal=table_deals(game, seed, spec["duplicate_table"]))
    if kind == "session" and game.id == "doudizhu" and game.options.get("deal") == "shuffle":
        from qipai.core.rng import DealRng
        from qipai.games.doudizhu.bidding import draw_deal

        return game.new_state(deal=draw_deal(DealRng(seed), "shuffle", spec.get("prev_first")))
    if num_seats != game.seats[0]:          # a game played at several table sizes
        return game.new_state(seed=seed, num_seats=num_seats)
    return game.new_state(seed=seed)


def match_fields(event_id: str, rnd: int, index: int, duplicate: bool) -> tuple[list[Any], str]:
    """``(fields of the match secret's derivation, match id)`` of match ``index`` of round ``rnd``."""
    if duplicate:
        return [event_id, rnd, "group"], f"{event_id}.r{rnd}"
    return [event_id, rnd, index], f"{event_id}.r{rnd}.m{index}"


def rng_meta(event_id: str, commitment: str, rnd: int, index: int, number: int, kind: str,
             spec: dict[str, Any], secret: str | None = None) -> dict[str, Any]:
    """An event game's ``meta["rng"]``: the event's commitment, the derivation of the game's seed,
    the published seed and the start parts of its spec; ``secret`` once the event has ended."""
    fields, match = match_fields(event_id, rnd, index, spec.get("duplicate_table") is not None)
    return {"version": lot.PREFIX, "purpose": "deal", "event": event_id, "commitment": commitment,
            "secret": secret, "match_secret": fields, "match": match, "kind": kind, "nonces": [],
            "deals": [{"deal": number, "attempt": spec.get("attempt", 0), "seed": spec["seed"]}],
            "start": {k: spec[k] for k in START_KEYS if spec.get(k) is not None}}


def derive_seed(rng: dict[str, Any], secret: str, number: int, attempt: int = 0) -> str:
    """The seed of deal ``number`` of an event game whose ``meta["rng"]`` is ``rng``, derived
    from the event's ``secret`` (64 hex)."""
    match_secret = lot.seed(secret, "match", rng["match_secret"]).hex()
    return lot.deal_seed(match_secret, rng["match"], number, attempt)
