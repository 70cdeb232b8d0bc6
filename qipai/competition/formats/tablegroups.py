"""Table knockout (competition.md §2.5): tables of k seats formed round by round, one winner
per table, byes to those who had fewest, lucky losers filling a short round, and a short final
table with empty seats when no-shows leave too few (§5.6)."""

from __future__ import annotations

from typing import Any

from .. import lot
from ..common import VACANT
from ..pairing import table_round
from . import Format
from .knockout import final_placings


class TableKnockout(Format):
    kinds = ("table_knockout",)
    knockout = True

    def pair(self, rnd: int) -> bool:
        """Tables of k for everyone still in (winners, byes and lucky losers of the round before),
        byes to those who had fewest; over once the final table (or a walkover) is played."""
        k = self.d.cfg.seats
        if rnd == self.d.round0 + 1:
            active = sorted(self.d.by_draw)
        else:
            if len(self.d.matches(rnd - 1)) == 1:
                return False                       # that was the final (a table, or a walkover)
            active = self._advancing(rnd - 1)
        if len(active) < k:
            return self._short_final(rnd, active)
        byes_had: dict[int, int] = {}
        for m in self.d.matches():
            if m.kind == "bye" and m.entrants:
                byes_had[m.entrants[0]] = byes_had.get(m.entrants[0], 0) + 1
        tables, byes = table_round(active, k, byes_had)
        add_tables(self.d, rnd, tables, byes)
        return True

    def _short_final(self, rnd: int, active: list[int]) -> bool:
        """Fewer than k entrants reach a round of a table knockout: only possible when no-shows
        left too few winners and lucky losers (absent entrants never advance). Per §5.6, two or
        more present play the final table with the empty seats (draw number ``VACANT``) in
        trusteeship, ranked last and unable to win; one present is champion by walkover; none
        gives no champion."""
        k = self.d.cfg.seats
        if len(active) <= 1:
            self.d.add_match(rnd, 1, "bye", active, {"winner": active[0] if active else None, "final": True,
                                                    "text": "walkover" if active else "nobody left"})
            return True
        table = sorted(active) + [VACANT] * (k - len(active))
        secret = lot.seed(self.d.ev.secret, "match", [self.d.ev.id, rnd, 1]).hex()
        seats = lot.stream(secret, "seats", f"{self.d.ev.id}.r{rnd}.m1").shuffle(table)
        m = self.d.add_match(rnd, 1, "session", seats)
        m.absent = [VACANT] * (k - len(active))
        return True

    def _advancing(self, rnd: int) -> list[int]:
        """Who goes on after table-knockout round ``rnd``: winners, byes, lucky losers."""
        ms = self.d.matches(rnd)
        k = self.d.cfg.seats
        m_count = sum(len(m.entrants) for m in ms)
        adv = [m.result["winner"] for m in ms if m.result["winner"] is not None]
        short = k - len(adv) if (len(adv) < k and m_count > k) else 0
        if short:
            cands = []
            for m in ms:
                if m.kind != "session":
                    continue
                for seat, d in enumerate(m.entrants):
                    if d == m.result["winner"] or d in self.d.out_seats(m):
                        continue
                    better = self.d.rule(m).better(m.result["totals"][seat])
                    cands.append((m.result["ranks"][seat], -better, d))
            cands.sort(key=lambda c: (c[0], c[1]))
            # remaining exact ties are broken by lot (purpose lot)
            ev = self.d.ev
            order = lot.stream(ev.secret, "lot", ev.id, self.d.stage_no, f"lucky-r{rnd}").shuffle(
                sorted(c[2] for c in cands))
            pos = {d: i for i, d in enumerate(order)}
            cands.sort(key=lambda c: (c[0], c[1], pos[c[2]]))
            adv += [c[2] for c in cands[:short]]
        return sorted(adv)

    def placings(self) -> dict[str, Any]:
        return final_placings(self.d)


def add_tables(director: Any, rnd: int, tables: list[list[int]], byes: list[int]) -> None:
    """Session matches for ``tables`` (seats by lot, purpose ``seats``), then the byes."""
    idx = 0
    for t in tables:
        idx += 1
        secret = lot.seed(director.ev.secret, "match", [director.ev.id, rnd, idx]).hex()
        seats = lot.stream(secret, "seats", f"{director.ev.id}.r{rnd}.m{idx}").shuffle(sorted(t))
        director.add_match(rnd, idx, "session", seats)
    for d in byes:
        idx += 1
        director.add_match(rnd, idx, "bye", [d], {"winner": d, "text": "bye"})
