"""Two tiny games for the match and competition tests, independent of any real game.

* ``test-nim``: two seats take 1-3 stones from a pile in turn; whoever takes the last stone
  wins (1-0 / 0-1). Resignation, timeouts and agreed draws (1/2-1/2) are supported, and the
  result reports the moves completed.
* ``test-high``: a three-seat "deal": one card 1..9 to each seat from a seeded shuffle; each
  seat in turn says ``raise`` or ``pass`` (default action: pass). The highest card among the
  raisers (among everyone if nobody raised) takes +(n-1), the others -1 each (zero-sum).
  With ``void_if_all_pass=true`` a deal where everyone passed scores 0 and reports void.
  Three to five seats (``num_seats``).
* ``test-pairs``: nim for two partnerships: four seats act in turn 0, 1, 2, 3, each taking 1-3
  stones; the side (seats 0 and 2 against 1 and 3, ``sides()``) that takes the last stone
  wins. Resignation by either partner loses for the side; agreed draws give 1/2 each.
"""

from __future__ import annotations

from qipai.core import DealRng, Game, IllegalAction, Option, Result, State
from qipai.core.registry import _MODULES, register


class NimState(State):
    def __init__(self, game, **kw):
        super().__init__(game, **kw)
        self.pile = int(self.position) if self.position else game.options["pile"]

    @property
    def to_act(self):
        return () if self.result is not None else (len(self.log) % 2,)

    def _legal_actions(self, seat):
        return [str(n) for n in (1, 2, 3) if n <= self.pile]

    def _apply(self, action, seat):
        if action not in self._legal_actions(seat):
            raise IllegalAction(f"cannot take {action} from a pile of {self.pile}", action)
        self.pile -= int(action)
        if self.pile == 0:
            self.result = self._win(seat, "last_stone", moves=len(self.log) + 1)

    def _win(self, seat, reason, moves=None):
        rets = (1.0, 0.0) if seat == 0 else (0.0, 1.0)
        return Result(rets, reason, "1-0" if seat == 0 else "0-1", (seat,),
                      {"moves": len(self.log) if moves is None else moves})

    def _loss_result(self, seat, reason):
        return self._win(1 - seat, reason)

    def _draw_result(self, reason):
        return Result((0.5, 0.5), reason, "1/2-1/2", (), {"moves": len(self.log)})

    def _result_from_text(self, text, reason):
        if text == "1-0":
            return self._win(0, reason)
        if text == "0-1":
            return self._win(1, reason)
        if text == "1/2-1/2":
            return self._draw_result(reason)
        raise IllegalAction(f"cannot read result {text!r}")

    def view(self, seat):
        return {"pile": self.pile}


@register
class NimGame(Game):
    id = "test-nim"
    name_zh = "取石子"
    name_en = "Test nim"
    seats = (2,)
    draw_offers = True              # stands for a two-sided board game
    option_spec = (Option("pile", 10, kind=int, minimum=1, doc="stones at the start"),)

    def new_state(self, *, seed=None, deal=None, position=None, num_seats=None):
        return NimState(self, seed=seed, deal=deal, position=position, num_seats=num_seats)

    def parse_action(self, text, state=None):
        if text not in ("1", "2", "3"):
            raise IllegalAction("write 1, 2 or 3", text)
        return text


class HighState(State):
    def __init__(self, game, **kw):
        super().__init__(game, **kw)
        if self.deal is None:
            cards = DealRng(self.seed if self.seed is not None else 0).shuffle(list(range(1, 10)))
            self.deal = cards[: self.num_seats]
        self.cards = list(self.deal)
        self.first = int(self.position) if self.position else 0

    @property
    def to_act(self):
        if self.result is not None:
            return ()
        return ((self.first + len(self.log)) % self.num_seats,)

    def _legal_actions(self, seat):
        return ["pass", "raise"]

    def default_action(self, seat):
        return "pass"

    def clock_phase(self, seat):
        return "bid"

    def _apply(self, action, seat):
        if action not in ("pass", "raise"):
            raise IllegalAction("say pass or raise", action)
        if len(self.log) + 1 == self.num_seats:
            said = self.log + [action]
            raisers = [(self.first + i) % self.num_seats for i, a in enumerate(said) if a == "raise"]
            n = self.num_seats
            if not raisers and self.game.options["void_if_all_pass"]:
                self.result = Result((0.0,) * n, "void", "void", (), {"void": True})
                return
            pool = raisers or list(range(n))
            top = max(pool, key=lambda s: self.cards[s])
            rets = tuple(float(n - 1) if s == top else -1.0 for s in range(n))
            self.result = Result(rets, "showdown", f"seat {top}", (top,))

    def _loss_result(self, seat, reason):
        raise IllegalAction("a deal has no loss for one seat")

    def view(self, seat):
        return {"card": self.cards[seat] if seat is not None else None, "said": list(self.log)}


@register
class HighGame(Game):
    id = "test-high"
    name_zh = "比大小"
    name_en = "Test high card"
    seats = (3, 4, 5)
    option_spec = (Option("void_if_all_pass", False, kind=bool, doc="all pass -> void deal"),)

    def new_state(self, *, seed=None, deal=None, position=None, num_seats=None):
        return HighState(self, seed=seed, deal=deal, position=position, num_seats=num_seats)

    def parse_action(self, text, state=None):
        if text not in ("pass", "raise"):
            raise IllegalAction("say pass or raise", text)
        return text


class PairsState(NimState):
    """Nim with seats 0, 1, 2, 3 in turn; a seat's side is its parity."""

    def sides(self):
        return [(0, 2), (1, 3)]

    @property
    def to_act(self):
        return () if self.result is not None else (len(self.log) % 4,)

    def _win(self, seat, reason, moves=None):
        side = seat % 2
        rets = tuple(1.0 if s % 2 == side else 0.0 for s in range(4))
        return Result(rets, reason, "1-0" if side == 0 else "0-1", self.sides()[side],
                      {"moves": len(self.log) if moves is None else moves})

    def _draw_result(self, reason):
        return Result((0.5,) * 4, reason, "1/2-1/2", (), {"moves": len(self.log)})


@register
class PairsGame(NimGame):
    id = "test-pairs"
    name_zh = "对家取石子"
    name_en = "Test partnership nim"
    seats = (4,)
    option_spec = (Option("pile", 15, kind=int, minimum=1, doc="stones at the start"),)

    def new_state(self, *, seed=None, deal=None, position=None, num_seats=None):
        return PairsState(self, seed=seed, deal=deal, position=position, num_seats=num_seats)


_MODULES["test-nim"] = __name__
_MODULES["test-pairs"] = __name__
_MODULES["test-high"] = __name__
