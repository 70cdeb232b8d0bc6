"""Two-sided knockout (competition.md §2.5): slots by the standard seeding order, byes to the
lowest draw numbers, winners meeting in the next round until the final."""

from __future__ import annotations

from typing import Any

from ..pairing import knockout_first_round, knockout_next_round
from . import Format


class Knockout(Format):
    kinds = ("knockout",)
    knockout = True

    def pair(self, rnd: int) -> bool:
        """Round 1 from the slots; then the winners of consecutive matches meet, until the final
        has been played. Both entrants of a slot absent: an empty slot (a bye for nobody)."""
        if rnd == self.d.round0 + 1:
            pairs = knockout_first_round(self.d.n)
        else:
            winners = [m.result["winner"] for m in self.d.matches(rnd - 1)]
            if len(winners) == 1:
                return False
            pairs = knockout_next_round(winners)
        for i, pair in enumerate(pairs, 1):
            there = sorted(d for d in pair if d is not None)
            if len(there) == 2:      # a series, or a pair card table (a session of two sides)
                self.d.add_match(rnd, i, "series" if self.d.cfg.series is not None else "session", there)
            elif there:
                self.d.add_match(rnd, i, "bye", there, {"winner": there[0], "text": "bye"})
            else:                  # both entrants of the feeding matches were absent
                self.d.add_match(rnd, i, "bye", [], {"winner": None, "text": "empty slot"})
        return True

    def placings(self) -> dict[str, Any]:
        return final_placings(self.d)


def final_placings(d: Any) -> dict[str, Any]:
    """Champion and runner(s)-up of a knockout's final (§2.5): the loser of a two-sided final
    (or the other pair of a pair table); at a final table, every present seat ranked second."""
    name = {x: e.entrant_id for x, e in d.by_draw.items()}
    fm = d.matches(d.current_round())[0]
    out: dict[str, Any] = {"champion": name.get(fm.result["winner"])}
    if fm.kind == "series" or (fm.kind == "session" and d.cfg.pairs):
        out["runner_up"] = [name[x] for x in fm.entrants
                            if x != fm.result["winner"] and x not in (fm.absent or [])]
    elif fm.kind == "session":
        out["runner_up"] = [name[fm.entrants[s]] for s, r in enumerate(fm.result["ranks"])
                            if r == 2 and fm.entrants[s] not in d.out_seats(fm)]
    else:
        out["runner_up"] = []
    return out
