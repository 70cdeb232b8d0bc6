"""Table Swiss (competition.md §2.8): entrants ordered by table points and seated in groups of
k each round; table points by rank at the table; standings by table points, then the total
session measure, then lot."""

from __future__ import annotations

from typing import Any

from ..pairing import table_points, table_swiss_round
from ..standings import break_ties, disqualified_last
from . import Format
from .tablegroups import add_tables


class TableSwiss(Format):
    kinds = ("table_swiss",)

    def pair(self, rnd: int) -> bool:
        """Table Swiss (§2.8): entrants ordered by table points, then draw number, seated in
        groups of k (repeat of the last round avoided by one swap), the lowest-ranked without a bye
        sitting out; seats at each table by lot (purpose ``seats``)."""
        if rnd - self.d.round0 > self.d.cfg.swiss_rounds(self.d.n):
            return False
        pts, _, byes_had = self.scores()
        order = sorted(self.d.by_draw, key=lambda d: (-pts[d], d))
        last = [m.entrants for m in self.d.matches(rnd - 1) if m.kind == "session"]
        tables, byes = table_swiss_round(order, self.d.cfg.seats, byes_had, last)
        add_tables(self.d, rnd, tables, byes)
        return True

    def scores(self) -> tuple[dict[int, float], dict[int, float], dict[int, int]]:
        """Table Swiss scores so far: table points (first k - 1 ... last 0, shared ranks share the
        average; a bye (k - 1) / 2), total session measure, and byes had, per draw number."""
        k = self.d.cfg.seats
        pts = {d: 0.0 for d in self.d.by_draw}
        measure = {d: 0.0 for d in self.d.by_draw}
        byes: dict[int, int] = {}
        for m in self.d.counted():
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
                    measure[d] += self.d.rule(m).better(t)
        return pts, measure, byes

    def standings(self) -> list[dict[str, Any]]:
        """Table Swiss standings (§2.8): table points, then total session measure, then lot."""
        pts, measure, byes = self.scores()
        keys = [lambda g: {d: pts[d] for d in g}]
        if "measure" in self.d.cfg.tiebreak_order(self.d.stage):
            keys.append(lambda g: {d: measure[d] for d in g})
        order, by_lot = break_ties(self.d, sorted(self.d.by_draw), keys)
        order = disqualified_last(self.d, order)
        return [{"rank": i, "id": self.d.by_draw[d].entrant_id, "draw": d, "points": pts[d],
                 "measure": measure[d], "byes": byes.get(d, 0), **({"lot": True} if d in by_lot else {}),
                 **({"disqualified": True} if self.d.by_draw[d].status == "disqualified" else {})}
                for i, d in enumerate(order, 1)]
