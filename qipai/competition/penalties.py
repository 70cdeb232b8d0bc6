"""The penalty ledger (competition.md §2.7): the preset's ``penalties`` table and the entries a
referee records against an entrant.

Kinds a preset may name (any other is refused):

* ``failed_throw = { points_per_card = N }`` (S0 shengji): applied by the game module itself
  (shengji option ``failed_throw_penalty = "per_card_10"``); the event only checks that the game
  is configured that way. Referees cannot enter it.
* ``deal_fault = { disqualify_at = N, source = "referee" }`` (S0 shengji): a dealing or kitty
  fault; the N-th entry against an entrant in one match disqualifies it (it loses the match at
  once, is ranked last and scores no placement points).
* ``follow_error = { effect = "minus_one_level_after_deal", lose_match_at = N, source =
  "referee" }`` (S2 tuolaji): entered against the deal in play and handed to the game as its
  own sanction entry (shengji ``fault follow TEAM``): after that deal is scored the entrant's
  side drops one level per entry (not below the start level) and, if it was the dealer team, the
  next dealer is the current dealer's next seat (shengji §5.3 s002); the N-th entry in one match
  loses the match at once.
* ``deal_forfeit = { source = "referee" }`` (S4 wakeng): the deal in play is lost by the
  entrant's seat under the game's own forfeit scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qipai.core.errors import Message, OptionError

if TYPE_CHECKING:
    from .acts import Act

KEYS = {"failed_throw": {"points_per_card", "source"}, "deal_fault": {"disqualify_at", "source"},
        "follow_error": {"effect", "lose_match_at", "source"}, "deal_forfeit": {"source"}}
ENGINE_KINDS = ("failed_throw",)
LEVEL_EFFECT = "minus_one_level_after_deal"


@dataclass(frozen=True)
class PenaltyRule:
    """One kind of penalty of a preset. Counts are per entrant and match."""

    kind: str
    source: str = "referee"                 # engine | referee
    disqualify_at: int | None = None        # deal_fault: this entry disqualifies
    lose_match_at: int | None = None        # follow_error: this entry loses the match
    level_effect: bool = False              # follow_error: -1 level after the deal
    points_per_card: int | None = None      # failed_throw (applied by the game)


def _count(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise OptionError(f"penalties.{what} must be a whole number >= 1, not {v!r}",
                          code="config.whole_number", params={"field": f"penalties.{what}", "least": 1})
    return v


def parse_penalties(data: Any) -> dict[str, PenaltyRule]:
    """The ``penalties`` table of a preset. Raises OptionError naming the kind and key."""
    if not data:
        return {}
    if not isinstance(data, dict):
        raise OptionError(f"penalties must be a table of penalty kinds, not {data!r}",
                          code="config.not_table", params={"field": "penalties"})
    out = {}
    for kind, d in data.items():
        if kind not in KEYS:
            raise OptionError(f"unknown penalty kind {kind!r}; valid: {', '.join(sorted(KEYS))}",
                              code="config.not_one_of", params={"field": "penalties", "valid": sorted(KEYS)})
        d = d or {}
        if not isinstance(d, dict):
            raise OptionError(f"penalties.{kind} must be a table",
                              code="config.not_table", params={"field": f"penalties.{kind}"})
        bad = set(d) - KEYS[kind]
        if bad:
            raise OptionError(f"penalties.{kind}: unknown key(s) {sorted(bad)}; valid: {sorted(KEYS[kind])}",
                              code="config.unknown_keys",
                              params={"field": f"penalties.{kind}", "keys": sorted(bad),
                                      "valid": sorted(KEYS[kind])})
        source = d.get("source", "engine" if kind in ENGINE_KINDS else "referee")
        want = "engine" if kind in ENGINE_KINDS else "referee"
        if source != want:
            raise OptionError(f"penalties.{kind}.source must be {want!r}: "
                              + ("the game module applies it" if want == "engine" else
                                 "the server rejects the misplay, so only a referee can record it"),
                              code="config.not_one_of",
                              params={"field": f"penalties.{kind}.source", "valid": [want]})
        effect = d.get("effect", LEVEL_EFFECT if kind == "follow_error" else None)
        if kind == "follow_error" and effect != LEVEL_EFFECT:
            raise OptionError(f"penalties.follow_error.effect must be {LEVEL_EFFECT!r}, not {effect!r}",
                              code="config.not_one_of",
                              params={"field": "penalties.follow_error.effect", "valid": [LEVEL_EFFECT]})
        out[kind] = PenaltyRule(
            kind, source,
            _count(d["disqualify_at"], f"{kind}.disqualify_at") if "disqualify_at" in d else None,
            _count(d["lose_match_at"], f"{kind}.lose_match_at") if "lose_match_at" in d else None,
            kind == "follow_error",
            _count(d["points_per_card"], f"{kind}.points_per_card") if "points_per_card" in d else None)
    return out


def check_game(penalties: dict[str, PenaltyRule], game: Any, level_session: bool, card_table: bool) -> None:
    """Refuse penalties the event's game or format cannot apply. Raises OptionError."""
    ft = penalties.get("failed_throw")
    if ft is not None:
        opt = game.options.get("failed_throw_penalty")
        if opt is None or ft.points_per_card is None or opt != f"per_card_{ft.points_per_card}":
            raise OptionError(f"penalties.failed_throw: {game.id} must charge {ft.points_per_card} points "
                              f"per card itself (option failed_throw_penalty), but it is set to {opt!r}",
                              code="config.conflict",
                              params={"field": "penalties.failed_throw",
                                      "other": "game.failed_throw_penalty"})
    if "follow_error" in penalties and not level_session:
        raise OptionError("penalties.follow_error changes levels: it needs a level session",
                          code="config.conflict",
                          params={"field": "penalties.follow_error", "other": "match.session.measure"})
    if "follow_error" in penalties and "follow_error" not in PENALTY_ACTIONS.get(game.id, {}):
        raise OptionError(f"penalties.follow_error: {game.id} cannot apply follow errors",
                          code="config.not_for_game",
                          params={"field": "penalties.follow_error", "game": game.id})
    if "deal_forfeit" in penalties and not card_table:
        raise OptionError("penalties.deal_forfeit forfeits a deal: it needs a card-table session",
                          code="config.conflict",
                          params={"field": "penalties.deal_forfeit", "other": "match.session"})


#: how a game applies a referee's entry itself, as an action of the deal in play (the text, with
#: ``{team}`` the index of the entrant's side in ``state.sides()``); shengji logs it as a ``fault``
PENALTY_ACTIONS = {"shengji": {"follow_error": "fault follow {team}"}}


def entry_actions(game_id: str, kinds_and_seats: list[tuple[str, list[int]]], sides: list[tuple[int, ...]]
                  ) -> list[tuple[str, int]]:
    """The actions that hand ledger entries (kind, the entrant's seats) to the game, as
    ``(text, seat)``: the game takes an entry only in the name of a seat of the faulted side."""
    out = []
    for kind, seats in kinds_and_seats:
        text = PENALTY_ACTIONS.get(game_id, {}).get(kind)
        if text is not None:
            team = next(i for i, side in enumerate(sides) if seats[0] in side)
            out.append((text.format(team=team), seats[0]))
    return out


def penalize(db: Any, event_id: str | None, entrant_id: str, kind: str,
             reason: str, by: str | None = None, *, log: Act | None = None) -> dict[str, Any]:
    """Record a referee's penalty entry (§2.7) against ``entrant_id`` in its pending match, and
    act on it: ``deal_fault`` disqualifies at the preset's ``disqualify_at``-th entry in the
    match; ``follow_error`` is held against the deal in play (its side drops a level after that
    deal) and loses the match at the ``lose_match_at``-th; ``deal_forfeit`` scores the deal in
    play as lost by the entrant's seat; ``by``, or ``log`` (an :class:`~.acts.Act`): the act is
    also recorded in the event's log, in the same transaction. Returns the entry and its
    consequence. Raises
    EventError (nothing changed) for a finished event, an unknown or inactive player, a kind the
    preset does not list or the game applies itself, no pending match or deal, or no reason."""
    from .db import PenaltyRow
    from .event import Director, EventError, _now, _running

    if not reason or not reason.strip():
        raise EventError(Message("give the reason for the penalty", code="event.penalty_reason"))
    with db() as s:
        ev = _running(s, event_id)
        d = Director(s, ev)
        rule = d.cfg.penalties.get(kind)
        if rule is None:
            listed = ", ".join(k for k, r in d.cfg.penalties.items() if r.source == "referee") or "none"
            raise EventError(Message(f"preset {ev.preset} has no penalty {kind!r}; a referee may enter: "
                                     f"{listed}",
                                     code="event.no_penalty", params={"kind": kind, "valid": listed}))
        if rule.source != "referee":
            raise EventError(Message(f"penalty {kind!r} is applied by the game itself, not entered by a "
                                     "referee",
                                     code="event.penalty_by_game", params={"kind": kind}))
        rows = [e for e in ev.entrants if e.entrant_id == entrant_id]
        if not rows:
            raise EventError(Message(f"event {ev.id} has no player {entrant_id!r}", code="event.no_player",
                                     params={"who": entrant_id}))
        if rows[0].status != "active":
            raise EventError(Message(f"player {entrant_id!r} is {rows[0].status}", code="event.not_active",
                                     params={"who": entrant_id, "status": rows[0].status}))
        draw = next(n for n, e in d.by_draw.items() if e.entrant_id == entrant_id)
        ms = [m for m in d.matches(d.current_round()) if m.status == "pending" and draw in m.entrants]
        if not ms:
            raise EventError(Message(f"player {entrant_id!r} has no pending match",
                                     code="event.no_pending_match",
                                     params={"who": entrant_id, "round": d.current_round()}))
        m = ms[0]
        pending = [g for g in m.games if g.status == "pending"]
        if kind in ("follow_error", "deal_forfeit") and not pending:
            raise EventError(Message(f"player {entrant_id!r} has no deal in play to hold the {kind} against",
                                     code="event.no_deal_in_play", params={"who": entrant_id, "kind": kind}))
        game = pending[0] if pending else None
        s.add(PenaltyRow(event_id=ev.id, match_id=m.id, game_id=game.id if game else None,
                         entrant_id=entrant_id, kind=kind, source="referee", reason=reason.strip(),
                         created=_now()))
        s.flush()
        count = d.penalty_counts(m, kind).get(draw, 0)
        effect = f"{kind} {count} of {entrant_id} in match r{m.round}.m{m.index}"
        effects: list[str] = []          # what followed, for the terminal to word (cli.ev.penalty.*)
        if kind == "deal_fault" and rule.disqualify_at is not None and count >= rule.disqualify_at:
            rows[0].status = "disqualified"
            effect += ": disqualified"
            effects.append("disqualified")
        elif kind == "follow_error":
            effect += ": one level down after the deal"
            effects.append("levelDown")
            if rule.lose_match_at is not None and count >= rule.lose_match_at:
                effect += "; the match is lost"
                effects.append("matchLost")
        elif kind == "deal_forfeit" and game is not None:
            g_state = d.new_state(d.game_for(game), game)
            seat = game.seats.index(draw)
            g_state.forfeit(seat, "arbiter")       # a recognised external ending: records replay
            meta = {"event": ev.id, "penalty": kind, "reason": reason.strip()}
            rec = g_state.to_record(seats=[d.seat_player(game, i)[0] for i in range(len(game.seats))],
                                    meta=meta).to_json()
            d.store_result(game, g_state, rec, "referee", 0)
            effect += f": deal {game.number} lost by seat {seat}"
            effects.append("dealLost")
        s.flush()
        d.advance()
        if log is None and by:
            from .acts import Act

            log = Act("penalty", by, reason.strip())
        if log is not None:
            log.write(s, ev.id, entrant=entrant_id, game_id=game.id if game else None,
                      data={"kind": kind, "count": count, "effect": effect})
        s.commit()
        return {"entrant": entrant_id, "kind": kind, "count": count, "match": m.id,
                "game": game.id if game else None, "effect": effect, "effects": effects,
                "round": m.round, "index": m.index, "deal": game.number if game else None,
                "seat": seat if "dealLost" in effects else None}
