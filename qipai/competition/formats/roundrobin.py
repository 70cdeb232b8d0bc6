"""Round robin (competition.md §2.8): Berger tables (circle method), a phantom entrant for an
odd field, a second cycle with the first mover swapped when ``double``; standings by match or
game points, then head-to-head, Sonneborn-Berger, wins, lot."""

from __future__ import annotations

from ..pairing import berger_rounds
from . import Format


class RoundRobin(Format):
    kinds = ("round_robin",)
    points = True

    def pair(self, rnd: int) -> bool:
        """The Berger round of this stage round; the phantom's opponent sits out."""
        rounds = berger_rounds(self.d.n)
        if self.d.cfg.double:      # the second cycle repeats the first with the first mover swapped
            rounds += [[(b, a) for a, b in r] for r in rounds]
        loc = rnd - self.d.round0
        if loc > len(rounds):
            return False
        for i, (a, b) in enumerate(rounds[loc - 1], 1):
            if a > self.d.n or b > self.d.n:
                self.d.add_match(rnd, i, "bye", [min(a, b)], {"winner": None, "text": "sits out"})
            else:
                self.d.add_match(rnd, i, "series", [a, b])
        return True
