"""Drawn-game offers (competition.md §5.4): made with a move or during the opponent's turn,
declined by a move, and a cooldown of :data:`DRAW_OFFER_COOLDOWN` own moves after a decline.
"""

from __future__ import annotations

DRAW_OFFER_COOLDOWN = 3


class DrawOffers:
    """The :class:`~.runner.GameRunner`'s drawn-game offers."""

    def _same_side(self, a: int, b: int) -> bool:
        return any(a in side and b in side for side in self.state.sides())

    def _decline(self, seat: int) -> None:
        self.note(seat, {"type": "draw_declined"})
        self._cooldown[self._offer] = DRAW_OFFER_COOLDOWN
        self._offer = None

    def _offer_draw(self, seat: int) -> None:
        """A drawn-game offer from ``seat`` (§5.4). Made on the seat's own turn, it is held and
        delivered together with the seat's move (the checks below then apply at delivery);
        made during the opponent's turn, it is delivered at once."""
        if not getattr(self.game, "draw_offers", False) or len(self.state.sides()) != 2:
            return self._reply_error(seat, "drawn-game offers exist only in two-sided board games",
                                     "draw_not_allowed")
        if self.draw_offers == "forbidden":
            return self._reply_error(seat, "draw offers are not allowed in this event", "draw_not_allowed")
        if seat in self.state.to_act and self.clocks[seat].running:
            self._held_offer.add(seat)       # told to the offerer alone: it goes out with its move
            self.players[seat].on_event(self, seat, {"type": "draw_offer_held"})
            return None
        if isinstance(self.draw_offers, int) and len(self.state.log) < self.draw_offers:
            return self._reply_error(seat, f"no draw offers before move {self.draw_offers}",
                                     "draw_too_early", {"move": self.draw_offers})
        if self._cooldown[seat]:
            return self._reply_error(seat, f"wait {self._cooldown[seat]} more moves before offering again",
                                     "draw_offer_cooldown", {"moves": self._cooldown[seat]})
        if self._offer is not None:
            return self._reply_error(seat, "a draw offer is already open", "draw_offer_open")
        self._offer = seat
        self.note(seat, {"type": "draw_offer"})
