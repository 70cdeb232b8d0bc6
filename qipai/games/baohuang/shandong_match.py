"""The §B4 match of the experimental 山东保皇 as one state: ``deals_per_match`` deals (§B4: 10)
between the same four seats, the lowest total of card points winning, ties shared.

``qipai.load("baohuang", ruleset="sdbh.provisional", deals_per_match=10)`` gives a
:class:`ShandongMatchState`, so that a server table, an event game, a record and ``qipai replay``
hold the whole match, as a mahjong state holds its hands. Deal ``i`` (from 0) is dealt from the
seed ``f"{seed}/{i}"`` (as :class:`~qipai.games.baohuang.match.Match` seeds its deals), or is item
``i`` of an explicit deal list (each item as :func:`.shandong.check_deal` reads it, all checked
when the match is made). The totals are kept by :class:`.shandong.ShandongMatch`.

Results: ``returns`` are the totals negated (higher is better, as a deal's are); the winners are
every seat on the lowest total. A forfeit scores the forfeiting seat every card still held in the
deal in progress (the deal's own rule) and ends the match; an agreed draw ends it with the totals
as they stand.
"""

from __future__ import annotations

import re
from typing import Any

from qipai.core.errors import IllegalAction, NotationError
from qipai.core.game import Result, State

from .shandong import RULESET, SEATS, ShandongMatch, ShandongState, check_deal


class ShandongMatchState(State):
    """A 山东保皇 match in progress. Read-only: ``playing`` (the :class:`ShandongState` of
    the deal in progress, or the last one), ``match`` (the :class:`ShandongMatch` of the
    finished deals) and ``deal_points`` (each finished deal's card points by seat)."""

    def __init__(self, game: Any, *, seed: Any = None, deal: Any = None) -> None:
        super().__init__(game, seed=seed, deal=deal, num_seats=SEATS)
        n = game.options["deals_per_match"]
        if deal is not None and seed is not None:
            raise NotationError("give a seed or a deal, not both", "deal",
                                code="notation.seed_and_deal")
        if deal is not None:
            if not isinstance(deal, list) or len(deal) < n:
                raise NotationError(f"a match deal is a list of at least {n} deals", "deal",
                                    code="notation.deal_count", params={"want": n})
            for item in deal:
                check_deal(item)
        self.match = ShandongMatch(n)
        self.deal_points: list[list[int]] = []
        self.playing = self._deal(0)

    def _deal(self, i: int) -> ShandongState:
        if self.deal is not None:
            return ShandongState(self.game, deal=self.deal[i])
        return ShandongState(self.game, seed=f"{self.seed}/{i}")

    # ----- turn and actions -------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else self.playing.to_act

    def _legal_actions(self, seat: int) -> list[Any]:
        return self.playing._legal_actions(seat)

    def default_action(self, seat: int) -> Any:
        return None if self.result is not None else self.playing.default_action(seat)

    def _apply(self, action: Any, seat: int) -> None:
        self.playing._apply(action, seat)
        if self.playing.result is None:
            return
        self.match.add(self.playing.result)
        self.deal_points.append(list(self.playing.result.details["points"]))
        if self.match.over:
            self.result = self._match_result("deals_played")
        else:
            self.playing = self._deal(self.match.played)

    # ----- end ----------------------------------------------------------------------------------
    def _match_result(self, reason: str, totals: list[int] | None = None,
                      extra: dict[str, Any] | None = None) -> Result:
        totals = list(self.match.totals) if totals is None else totals
        best = min(totals)
        return Result(tuple(-t for t in totals), reason, " ".join(str(-t) for t in totals),
                      tuple(s for s in range(SEATS) if totals[s] == best),
                      {"ruleset": RULESET, "marking": "experimental", "totals": totals,
                       "deals": [list(p) for p in self.deal_points], **(extra or {})})

    def _loss_result(self, seat: int, reason: str) -> Result:
        """``seat`` forfeits: the deal in progress scores it every card still held; the match
        ends with that deal counted."""
        pts = self.playing._loss_result(seat, reason).details["points"]
        self.deal_points.append(list(pts))
        totals = [t + p for t, p in zip(self.match.totals, pts)]
        res = self._match_result(reason, totals, {"forfeit": seat})
        return Result(res.returns, reason, f"{res.text} forfeit by {seat}", res.winners, res.details)

    def _draw_result(self, reason: str) -> Result:
        return self._match_result(reason)

    def _result_from_text(self, text: str, reason: str) -> Result:
        """A recorded forfeit (``"… forfeit by N"``), re-made from the position; or the totals
        as they stand (an agreed draw)."""
        m = re.fullmatch(r".* forfeit by ([0-3])", text.strip()) if isinstance(text, str) else None
        res = self._loss_result(int(m.group(1)), reason) if m else self._match_result(reason)
        if not isinstance(text, str) or res.text != text.strip():
            if m:
                self.deal_points.pop()
            raise IllegalAction(f"the recorded scores {text!r} are not those of this position",
                                code="sdbh.result_mismatch", params={"text": text})
        return res

    # ----- views --------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """The deal's view (:meth:`ShandongState.view`) with ``match``: the deal's number, the
        match length, the totals so far and each finished deal's points. Once the match is
        over, ``result`` is the match's and ``deal_result`` the last deal's."""
        out = self.playing.view(seat)
        out["match"] = {"deal": self.match.played + (0 if self.playing.result is not None else 1),
                        "deals": self.match.deals, "totals": list(self.match.totals),
                        "deal_points": [list(p) for p in self.deal_points]}
        if self.result is not None:
            out["deal_result"], out["result"] = out["result"], self.result.to_json()
        return out
