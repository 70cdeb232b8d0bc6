"""Standings of a stage (competition.md §2.8): the two-sided match table of round robin and
Swiss with their tie-breaks, the tie-break procedure every format shares (each key recomputed
inside the group still tied, then lot), and the rule that a disqualified entrant is ranked last
(§2.7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import lot

if TYPE_CHECKING:
    from .director import Director


def two_sided_standings(director: Director, swiss: bool) -> list[dict[str, Any]]:
    """Round robin / Swiss table (§2.8), best first, each row with its tie-break values
    (``direct``: the direct encounter, where it was asked). Points (match points, or game points
    with ``standings = "game_points"``), then the tie-breaks — round robin: head-to-head
    points among the tied, Sonneborn-Berger, wins, lot; Swiss: Buchholz minus the lowest
    opponent, Buchholz, Sonneborn-Berger, wins, direct encounter, lot; the stage's ``tiebreaks``
    may give another order (:meth:`.config.EventConfig.tiebreak_order`). The lot (purpose
    ``lot``) shuffles the entrants still tied, sorted by draw number; equal places are never
    shared."""
    pts = {d: 0.0 for d in director.by_draw}
    wins = {d: 0 for d in director.by_draw}
    opps: dict[int, list[tuple[int, float]]] = {d: [] for d in director.by_draw}
    met: dict[tuple[int, int], float] = {}          # (a, b) -> a's standings points vs b
    bye_value = 1.0 if director.cfg.standings == "match_points" else director.cfg.game_points.win
    for m in director.counted():
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
        if director.cfg.standings == "game_points":
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

    direct: dict[int, float] = {}        # the direct encounter of those it separated

    def h2h(group: list[int]) -> dict[int, float]:
        """Points scored against the others of ``group``; only when every pair of the group
        has met (otherwise the comparison says nothing and everyone gets 0)."""
        if any((a, b) not in met for a in group for b in group if a != b):
            return {d: 0.0 for d in group}
        out = {a: sum(met[a, b] for b in group if b != a) for a in group}
        direct.update(out)
        return out

    def each(f):
        return lambda group: {d: f(d) for d in group}

    tiebreaks = {"buchholz_cut1": each(lambda d: buch(d, 1)), "buchholz": each(buch),
                 "sonneborn_berger": each(sb), "wins": each(lambda d: wins[d]), "head_to_head": h2h}
    keys = [each(lambda d: pts[d])] + [tiebreaks[t] for t in director.cfg.tiebreak_order(director.stage)]
    order, decided_by = break_ties(director, sorted(director.by_draw), keys)
    order = disqualified_last(director, order)
    # "direct": the points scored against those it was still tied with when the direct
    # encounter was asked, None when it was not asked for this entrant (not tied then, or
    # the tied had not all met)
    return [{"rank": i, "id": director.by_draw[d].entrant_id, "draw": d, "points": pts[d],
             "sb": sb(d), "wins": wins[d], "direct": direct.get(d),
             **({"buchholz_cut1": buch(d, 1), "buchholz": buch(d)} if swiss else {}),
             **({"lot": True} if d in decided_by else {}),
             **({"disqualified": True} if director.by_draw[d].status == "disqualified" else {})}
            for i, d in enumerate(order, 1)]


def disqualified_last(director: Director, order: list[int]) -> list[int]:
    """§2.7: a disqualified entrant is ranked last whatever its score (its results against
    others stand, so their points and tie-breaks do not change)."""
    out = [d for d in order if director.by_draw[d].status == "disqualified"]
    return [d for d in order if d not in out] + out


def break_ties(director: Director, entrants: list[int], keys: list[Callable[[list[int]], dict[int, float]]]
                ) -> tuple[list[int], set[int]]:
    """Order ``entrants`` by each key in turn (higher first), every key recomputed inside
    the group still tied; groups tied after the last key are ordered by lot. Returns the
    order and the entrants whose place the lot decided: those of a tied group whose results
    so far are all in (each has a finished match of the stage and none still to finish). A
    group one of whose members is still playing, or has not played yet, is in the lot's order
    for now, but no place in it is decided yet: its rows are not marked (mid-round, the losers
    and the entrants still playing all tie on 0)."""
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
    done: set[int] | None = None
    for g in groups:
        if len(g) > 1:
            label = "standings-" + "-".join(map(str, sorted(g)))
            g = lot.lot_order(director.ev.secret, director.ev.id, director.stage_no, label, g)
            if done is None:
                done = results_in(director)
            if done.issuperset(g):
                by_lot.update(g)
        order += g
    return order, by_lot


def results_in(director: Director) -> set[int]:
    """The entrants (draw numbers) whose results of the stage so far (the rounds the standings
    count) are all in: at least one finished match (a bye counts) and no match still pending."""
    played: set[int] = set()
    pending: set[int] = set()
    for m in director.counted():
        (played if m.status == "finished" else pending).update(m.entrants)
    return played - pending
