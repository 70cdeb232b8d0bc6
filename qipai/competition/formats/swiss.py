"""Swiss, two-sided (competition.md §2.8): FIDE Dutch pairings (py4swiss) from the history of
the stage; a round nobody can pair ends the stage cleanly, with a note saying so. Standings:
points, Buchholz cut 1, Buchholz, Sonneborn-Berger, wins, direct encounter, lot."""

from __future__ import annotations

from typing import Any

from ..pairing import swiss_pairings
from . import Format


class Swiss(Format):
    kinds = ("swiss",)
    points = True

    def pair(self, rnd: int) -> bool:
        """The next round from the stage's history (played, walkover and bye results; withdrawn
        and disqualified entrants left out), until the announced number of rounds."""
        total = self.d.cfg.swiss_rounds(self.d.n)
        if rnd - self.d.round0 > total:
            return False
        history: list[list[tuple[int, str, str]]] = [[] for _ in range(self.d.n)]
        for m in self.d.matches():
            if m.kind == "bye":
                history[m.entrants[0] - 1].append((0, "-", "U"))
                continue
            a, b = m.entrants
            w = m.result["winner"]
            ra, rb = ("=", "=") if w is None else (("1", "0") if w == a else ("0", "1"))
            if m.result.get("decided_by") == "walkover":      # not played: may still meet
                ra, rb = ("+", "-") if w == a else ("-", "+")
            elif m.result.get("decided_by") == "double_no_show":
                ra, rb = "-", "-"
            history[a - 1].append((b, "w", ra))
            history[b - 1].append((a, "b", rb))
        withdrawn = [d for d, e in self.d.by_draw.items() if e.status in ("withdrawn", "disqualified")]
        try:
            pairs = swiss_pairings(self.d.n, total, history, withdrawn)
        except Exception as e:           # py4swiss: PairingError, "Round can not be paired"
            if type(e).__name__ != "PairingError":
                raise
            pairs = []
        if not any(b is not None for _, b in pairs):
            # nobody left to play anybody new (rematches are not allowed): the stage ends
            # here with the standings as they are, as lichess ends such a tournament
            self.d.stage_note = (f"round {rnd - self.d.round0} could not be paired (the players left "
                               "have all met or withdrawn): the stage ended after round "
                               f"{rnd - self.d.round0 - 1}")
            return False
        for i, (a, b) in enumerate(pairs, 1):
            if b is None:
                self.d.add_match(rnd, i, "bye", [a], {"winner": a, "text": "bye"})
            else:
                self.d.add_match(rnd, i, "series", [a, b])
        return True

    def standings(self) -> list[dict[str, Any]]:
        from ..standings import two_sided_standings

        return two_sided_standings(self.d, swiss=True)
