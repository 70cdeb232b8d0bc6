"""Card-table matches under the session rule (competition.md §2.3): the next deal of a table
from its finished deals, the session decided (target, deal count, time, ties), and the
comparison that decides the tables of a duplicate round (§2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import lot
from .common import FIRST_DEALER_OPTION
from .db import GameRow, MatchRow
from .measure import deal_outcome, next_deal, next_start
from .sessionrule import session_status

if TYPE_CHECKING:
    from .director import Director

LEVEL_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 15: "A+"}   # shengji levels as shown


def update_session(director: Director, m: MatchRow, done: list[GameRow]) -> None:
    """Decide session ``m`` from its finished deals (§2.3) or add its next deal. The units of
    the session are ``m.entrants``: the seats of an individual table, or the two pairs of a
    pair table (their accounts seated by :meth:`_pair_seats`)."""
    rule = director.rule(m)
    out = director.out_seats(m)
    absent = [s for s, d in enumerate(m.entrants) if d in out]
    present = [d for d in m.entrants if d not in out]
    if len(present) <= 1:        # §5.6: one present advances by walkover; none: nobody
        m.status = "finished"
        conceded = [d for d in m.entrants if d in out and d not in (m.absent or [])]
        text = ("walkover" if present else "all absent") if not conceded else \
            "forfeit by " + ", ".join(director.name(d) for d in conceded)
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
                    "text": session_text(director, rule, m, st)}
        return
    number = len(done) + 1
    prev = done[-1].result.get("first_actor") if done else None
    spec: dict[str, Any] = {"seed": lot.deal_seed(m.secret, director.key(m), number), "clock": rule.clock,
                            "extra": st.extra, "prev_first": prev}
    if st.eligible:
        spec["eligible"] = [m.entrants[u] for u in st.eligible]
    if rule.duplicate:      # every table of the round: the same seed, hands rotated by table
        group = f"{director.ev.id}.r{m.round}"
        secret = lot.seed(director.ev.secret, "match", [director.ev.id, m.round, "group"]).hex()
        spec["seed"] = lot.deal_seed(secret, group, number)
        spec["duplicate_table"] = m.index - 1
    carried = next_deal(played[-1].result if played else None)
    if carried is not None and not rule.duplicate:     # e.g. baohuang's tribute (§4.4)
        spec["deal"] = carried
    seats = list(m.entrants)
    if rule.sides:          # a pair table: the pairs' accounts on the partnerships' seats
        seats, spec["members"] = director.pair_seats(m)
        spec["start"] = next_start(played[-1].result if played else None)
        if not played and director.cfg.game_id in FIRST_DEALER_OPTION:   # §5.1 first-actor
            k = len(seats)
            first = lot.stream(m.secret, "first-actor", director.key(m)).uniform(k)
            spec["start"] = {FIRST_DEALER_OPTION[director.cfg.game_id]: first}
    m.games.append(GameRow(number=number, seats=seats, spec=spec, status="pending"))
    director.s.flush()


def session_text(director: Director, rule: Any, m: MatchRow, st: Any) -> str:
    """``a:12 b:-4 c:-8`` (scores), ``a:K b:9 (on stage)`` (levels, with how equal levels
    were decided), ``a:1 b:2 c:2`` (places)."""
    def show(v: float) -> str:
        return LEVEL_NAMES.get(int(v), f"{v:g}") if rule.measure == "level" else f"{v:g}"

    text = " ".join(f"{director.name(m.entrants[u])}:{show(st.totals[u])}" for u in st.ranking)
    if st.decided_by in ("on_stage", "captured_points", "extra_deals"):
        text += f" ({st.decided_by.replace('_', ' ')})"
    return text


def compare_duplicates(director: Director, ms: list[MatchRow]) -> None:
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
    k = director.cfg.seats
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
        absent = [s for s, d in enumerate(m.entrants) if d in director.out_seats(m)]
        present = [s for s in range(k) if s not in absent]
        best = max((mp[s], score[s]) for s in present)
        tied = [m.entrants[s] for s in present if (mp[s], score[s]) == best]
        label = f"duplicate-r{m.round}-m{m.index}"
        first = lot.lot_order(director.ev.secret, director.ev.id, director.stage_no, label, tied)[0]
        winner = m.entrants.index(first)
        keys = [(s != winner, s in absent, -mp[s], -score[s]) for s in range(k)]
        order = sorted(range(k), key=lambda s: (keys[s], s))
        unit = "mp" if method == "matchpoints" else ""
        m.result = {**m.result, "winner": first, "totals": list(mp),
                    "ranking": [m.entrants[s] for s in order],
                    "ranks": [1 + sum(1 for o in keys if o < keys[s]) for s in range(k)],
                    "text": " ".join(f"{director.name(m.entrants[s])}:{mp[s]:g}{unit} ({score[s]:+g})"
                                     for s in order)}
