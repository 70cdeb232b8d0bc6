"""The end of a 军棋 game (rules/junqi.md): a side's defeat (its flag taken, no piece left to move,
the last pieces of the attack), the deadlock rule, and the results (a win, a loss by forfeit, a
draw, a recorded result)."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.game import Result


class Ending:
    """The end of a game of :class:`~.game.JunqiState` (which mixes this in)."""

    def _last_pieces(self, attacker: int) -> bool:
        """§6.2: a combat that removed both pieces and left neither side a legal move is won by
        the attacker's side (``last_pieces``). True when it ended the game."""
        mine = self.team[attacker]
        alive = [s for s in range(self.num_seats) if self.eliminated[s] is None]
        if any(self._has_move(s) for s in alive):
            return False
        self.result = self._win_result(mine, "last_pieces")
        return True

    def _defeat(self, seat: int, reason: str) -> None:
        """§6.1: ``luzhan`` — the other seat wins; ``siguo`` — ``seat`` is eliminated (its pieces
        removed) and the other team wins once both partners are out."""
        self.eliminated[seat] = reason
        self.out_order.append([seat, reason])
        if self.luzhan:
            self.result = self._win_result(1 - seat, reason)
            return
        for p in range(self.board.n):
            if self.own[p] == seat:
                self._clear(p)
        if self.eliminated[(seat + 2) % 4] is not None:
            self.result = self._win_result(1 - self.team[seat], reason)

    def _deadlock(self) -> None:
        """§6.3: the no-progress limit: a draw, or under ``more_attacks`` the side with more
        attacks wins (equal counts draw)."""
        side = self._attack_leader() if self.game.deadlock == "more_attacks" else None
        if side is None:
            self.result = self._draw_result("no_progress_draw")
        else:
            self.result = self._win_result(side, "more_attacks")

    def _attack_leader(self) -> int | None:
        totals = [sum(self.attacks[s] for s in side) for side in self.sides()]
        if totals[0] == totals[1]:
            return None
        return 0 if totals[0] > totals[1] else 1

    # ----- results ---------------------------------------------------------------------------
    def _details(self, **extra: Any) -> dict[str, Any]:
        pieces = [0] * self.num_seats
        for o in self.own:
            if o >= 0:
                pieces[o] += 1
        return {"moves": self.moves, "attacks": list(self.attacks),
                "timeouts": list(self.timeouts), "eliminated": [list(x) for x in self.out_order],
                "pieces_left": pieces, **extra}

    def _win_result(self, side: int, reason: str, **extra: Any) -> Result:
        winners = self.sides()[side]
        returns = tuple(1.0 if s in winners else 0.0 for s in range(self.num_seats))
        return Result(returns, reason, "1-0" if side == 0 else "0-1", winners,
                      self._details(**extra))

    def _loss_result(self, seat: int, reason: str) -> Result:
        return self._win_result(1 - self.team[seat], reason)

    def _draw_result(self, reason: str) -> Result:
        """A drawn ending. An agreed draw (``reason = "agreement"``) is scored by
        ``deadlock_rule`` (§6.3): under ``more_attacks`` the side with more attacks wins."""
        if reason == "agreement" and self.game.deadlock == "more_attacks":
            side = self._attack_leader()
            if side is not None:
                return self._win_result(side, reason, decided_by="more_attacks")
        return Result(tuple(0.5 for _ in range(self.num_seats)), reason, "1/2-1/2", (),
                      self._details())

    def _result_from_text(self, text: str, reason: str) -> Result:
        t = text.strip().lower()
        if reason == "agreement":
            # the recorded agreed draw, scored by deadlock_rule as when it was played (§6.3)
            agreed = self._draw_result(reason)
            if agreed.text == {"draw": "1/2-1/2", "=": "1/2-1/2", "½-½": "1/2-1/2"}.get(t, t):
                return agreed
        if t == "1-0":
            return self._win_result(0, reason)
        if t == "0-1":
            return self._win_result(1, reason)
        if t in ("1/2-1/2", "draw", "=", "½-½"):
            return Result(tuple(0.5 for _ in range(self.num_seats)), reason, "1/2-1/2", (),
                          self._details())
        raise IllegalAction(f"junqi result {text!r}: expected 1-0, 0-1 or 1/2-1/2",
                            code="junqi.junqi_result_expected", params={"text": text})
