"""Deadlines of a :class:`~.runner.GameRunner`: a seat's clock running out (a loss, the
game's default action, trusteeship, a skipped turn), the game's wall-clock limit, the release of
held window answers, and the actions the runner makes for a seat (competition.md §4.5, §4.6).
"""

from __future__ import annotations

from typing import Any

from qipai.core.errors import IllegalAction, QipaiError

from .clock import AUTO, LOSE, SKIP

#: the pseudo-seat of :meth:`GameRunner._earliest` whose deadline releases held window answers
RELEASE = -1
#: the pseudo-seat whose deadline is the game's wall-clock limit (``ClockSpec.game_limit``)
GAME_LIMIT = -2
#: the reasons of the server's moves that a history marks (:meth:`Timeouts.auto_marks`)
MARKED = ("timeout", "trusteeship")


class Timeouts:
    """What the :class:`~.runner.GameRunner` does when a deadline passes."""

    def _expire(self, seat: int, dl: int) -> None:
        if seat == RELEASE:
            self._release(dl)
            return
        if seat == GAME_LIMIT:
            self.note(None, {"type": "game_limit", "limit": self.game_limit})
            if self._counts():
                self._count_now(dl, "timeout")
            else:            # a game that cannot count itself: the seat on turn loses on time
                on_turn = [s for s, c in enumerate(self.clocks) if c.running]
                self._lose(on_turn[0] if on_turn else 0, "timeout", dl)
            return
        clock = self.clocks[seat]
        used = dl - clock.t0
        if clock.trusteeship and dl == self._trustee_at(seat) and (
                clock.deadline() is None or dl < clock.deadline()):
            clock.act(dl)
            self._held_offer.discard(seat)
            self._auto(seat, dl, "trusteeship", used)
            return
        entrusted = clock.trusteeship
        out = clock.expire()
        event = {"t": dl, "seat": seat, "type": "timeout", "kind": out.kind, "deadline": out.deadline}
        if out.count:
            event["count"] = out.count
        self.events.append(event)
        self._tell(seat, event)
        if not out.ends_turn:
            return
        self._turn[seat] = 0
        self._held_offer.discard(seat)      # an offer waiting for a move that never came
        if out.kind == LOSE and seat in self.abandon_unmoved and self._moves_by[seat] == 0:
            # a lobby game's first move never came: nothing happens to the game (no loss, no
            # forfeit in its history, no count); it stops here and the server aborts it
            self.abandoned = seat
        elif out.kind == LOSE and self.game.options.get("on_timeout") == "count" and self._counts():
            self._count_now(dl, "timeout")        # go §5.2: stopped and counted, not lost
        elif out.kind == LOSE:
            self._lose(seat, "timeout", dl)
        elif out.kind == AUTO:
            fresh = clock.trusteeship and not entrusted
            if fresh:
                self._tell(seat, {"t": dl, "seat": seat, "type": "trusteeship", "on": True,
                                  "why": "timeouts"}, record=True)
            # the timeout's own move is the rules' default action (不叫, 不出: §4.6); the seat's
            # later decisions are trusteeship's (at a lobby card table the game's bot)
            self._auto(seat, dl, "timeout", used, by_rule=fresh)
        elif out.kind == SKIP:
            skip = getattr(self.state, "skip_turn", None)
            if callable(skip):
                skip(seat)
                self._after_action(seat, dl, used)
            else:
                self._auto(seat, dl, "timeout", used)

    def _lose(self, seat: int, reason: str, t: int) -> None:
        try:
            self.state.forfeit(seat, reason)
        except IllegalAction:      # a game with no loss for one seat: play its default instead
            if self.clocks[seat].running:
                self.clocks[seat].cancel_turn(t)
            self._auto(seat, t, reason, 0, fallback=False)
            return
        self._sync_turns(t, acted=None)

    def _auto(self, seat: int, t: int, why: str, used: int, fallback: bool = True,
              by_rule: bool = False) -> None:
        """Play the game's default action for ``seat`` (competition.md §4.6); a seat in
        trusteeship by :attr:`trustee_policy` when one is set (a lobby card or tile table),
        unless ``by_rule`` (the timeout that put the seat in trusteeship)."""
        policy = self.trustee_policy if self.clocks[seat].trusteeship and not by_rule else None
        action = policy(self.state, seat) if policy is not None else self.state.default_action(seat)
        if action is None:
            if not fallback:
                raise QipaiError(f"{self.game.id} has neither a loss nor a default action for a {why}")
            self._lose(seat, why, t)
            return
        if self._must_hold(seat, t):
            self._hold(seat, action, used, why)
            return
        self._apply_auto(seat, action, t, why, used)

    def _apply_auto(self, seat: int, action: Any, t: int, why: str, used: int) -> None:
        self._apply_noted(action, seat)
        entry = self.state.log[-1]
        self.events.append({"t": t, "seat": seat, "type": "auto", "why": why,
                            "action": entry if isinstance(entry, str) else entry[1]})
        self._autos[len(self.times)] = (seat, why)    # its place among the actions (:attr:`times`)
        self._after_action(seat, t, used)

    def _apply_noted(self, action: Any, seat: int) -> None:
        """Apply ``seat``'s action to the state; a decline in a private window (4A4's 叉/勾, a
        mahjong claim: the seat's default action there) is noted as unlisted, since a history of
        the plays does not list it (see :meth:`auto_marks`)."""
        quiet = self.state.turns_private() and (
            str(action).strip().lower() == str(self.state.default_action(seat)).lower())
        self.state.apply(action, seat)
        if quiet:
            self._unlisted.add(len(self.times))     # its place among the actions (:attr:`times`)

    def auto_marks(self) -> list[list[Any]]:
        """The moves the server made for a seat that a history marks — its clock ran out
        (``"timeout"``) or it was in trusteeship (``"trusteeship"``) — as ``[seat, later, why]``:
        ``later`` counts that seat's own listed actions after it, so a history that lists every
        play of the seat since its last reset (a redeal) finds the entry by counting back from
        its end (an older entry, from before the reset, is never found). A decline in a private
        window is neither listed nor counted, and a window closing by itself for a seat that
        could not claim (``"window"``) is no move of the seat's: it carries no mark."""
        out: list[list[Any]] = []
        if not self._autos:
            return out
        later = [0] * len(self.clocks)
        for n in range(len(self.times) - 1, -1, -1):
            if n in self._unlisted:
                continue
            seat = self.times[n][0]
            auto = self._autos.get(n)
            if auto is not None and auto[0] == seat and auto[1] in MARKED:
                out.append([seat, later[seat], auto[1]])
            later[seat] += 1
        return out[:60]

    def _penalized(self, seat: int, t: int) -> None:
        """The game's own sanction for a refused action changed the state (a mahjong hand ended
        with a penalty, option ``illegal_action_policy="botzone"``): it is logged like an
        action of ``seat``, and every other pending turn restarts from the new position."""
        self.events.append({"t": t, "seat": seat, "type": "penalty"})
        used = self.clocks[seat].act(t)
        for s, c in enumerate(self.clocks):
            if s != seat:
                c.cancel_turn(t)
        self._after_action(seat, t, used)
