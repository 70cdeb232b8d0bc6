"""Private windows (fouafour §3.4; the mahjong games' claims): a :class:`~.runner.GameRunner`
built with ``private_hold=ms`` answers at once for every seat whose only legal answer is forced
(it could not claim) while ``state.turns_private()``, and holds the answer that would end the
window — the last one, or any answer of a seat that had a choice — until ``private_hold`` ms
have passed since the window opened (``deal_hold`` ms for a prompt of the deal itself,
:meth:`~qipai.core.game.State.deal_prompt_open`). See the runner's module docstring.

A prompt of the deal never waits past its hold: a seat that has not answered when it ends is
answered ``pass`` (its default action) by the table, as a lone pass is, with no clock charged
and no timeout, so every prompt of the deal lasts the same whoever had a choice. A declaration
sent ahead (``Move(ahead=True)``) while the deal goes on is the seat's answer at once when its
prompt is open and it is legal there, else kept and answered for its seat at the seat's next
prompt where it is legal (it is dropped after the first prompt past the deal), never counted
as refused.
"""

from __future__ import annotations

from typing import Any

from qipai.core.errors import IllegalAction

from .players import Move


class PrivateWindows:
    """The :class:`~.runner.GameRunner`'s private windows (its state, clocks and turns are there)."""

    def _private_window(self, t: int, to_act: set[int]) -> bool:
        """True while a private window is open (``private_hold`` set); notes when it opened: a
        window whose seats are not among the previous one's pending seats is a new window."""
        if self.private_hold is None or not to_act or not self.state.turns_private():
            self._private_since, self._private_seats = None, set()
            self.deal_window = False
            return False
        if self._private_since is None or not to_act <= self._private_seats:
            self._private_since = t
            self.window_seq = len(self.state.log)
            # a prompt of the deal itself (shengji's every_card) is held the shorter deal_hold
            deal = self.deal_hold is not None and self.state.deal_prompt_open()
            self.window_hold = self.deal_hold if deal else self.private_hold
            #: the open window is a prompt of the deal that ends at its hold (a seat that has
            #: not answered then is passed)
            self.deal_window = deal and bool(self.deal_hold)
        self._private_seats = set(to_act)
        return True

    def window_ms_left(self, t: int) -> int | None:
        """The time (ms) from ``t`` to the end of the open private window's minimum time, or
        ``None`` when no window held to a minimum time is open. A bot answering in such a window
        must answer by then: a window that stays open longer when a bot could claim would tell
        the table that it could (fouafour §3.4)."""
        if self._private_since is None or not self.window_hold:
            return None
        return self._private_since + self.window_hold - t

    def _must_hold(self, seat: int, t: int) -> bool:
        """An answer of ``seat`` at ``t`` waits for the window's minimum time when it would end
        the window (the last seat to answer) or when ``seat`` had a choice."""
        if self._private_since is None or t >= self._private_since + self.window_hold:
            return False
        return len(self.state.to_act) == 1 or len(self.state.legal_actions(seat)) > 1

    def _answer_forced(self, t: int) -> bool:
        """Answer for one seat of the open window whose only legal answer is forced (applied
        now, or held when it is the window's last answer). True when an answer was applied (its
        own sync has then done the rest)."""
        held = {h[0] for h in self._held}
        for s in sorted(self.state.to_act):
            if s in held:
                continue
            legal = self.state.legal_actions(s)
            if len(legal) != 1:
                continue
            self.clocks[s].cancel_turn(t)
            self._turn[s] = 0
            if self._must_hold(s, t):
                self._held.append((s, legal[0], 0, "window"))
                continue
            self._apply_auto(s, legal[0], t, "window", 0)
            return True
        return False

    def _answer_at_once(self, t: int) -> None:
        """In a window with no minimum time (``private_hold == 0``): a seat whose player answers
        at once (:meth:`~qipai.match.players.BotPlayer.answer_now`, a built-in bot) answers now,
        as a move of its own, in the same change as the window's opening; so the time a window
        takes and the messages it sends do not depend on which bot could claim. One answer per
        call: its own sync asks the next seat."""
        for s in sorted(self.state.to_act):
            answer_now = getattr(self.players[s], "answer_now", None)
            if not self._turn[s] or answer_now is None:
                continue
            kept = self._ask_now.pop(s, None) == self._turn[s]
            action = answer_now(self, s)
            if action is not None:
                self._handle(s, Move(action, turn=self._turn[s]), t)
                return
            if kept:                   # it thinks on its own time: its turn starts now
                self.players[s].on_turn(self, s, self._turn[s])

    def _hold(self, seat: int, action: Any, used: int, why: str | None) -> None:
        """Keep ``seat``'s answer until the window's minimum time; its turn is over now."""
        self._turn[seat] = 0
        self._held.append((seat, action, used, why))
        self._answered(seat)

    def _answered(self, seat: int) -> None:
        """Hook: ``seat``'s answer is held (a server tells that seat alone that it has answered)."""

    def _release(self, t: int) -> None:
        """The window's minimum time is over: apply the held answers in the order received (an
        answer the state no longer takes, e.g. a decline after another seat's claim, is dropped).

        The window stays the same window while a seat that had a choice has still to answer: its
        opening time and number (``window_seq``) are kept until it closes (:meth:`_private_window`
        forgets them then), so the forced answers applied here change nothing a seat is shown —
        neither the position's number (it would count the seats that could not claim) nor whom
        an event is told to (:meth:`_tell`)."""
        held, self._held = self._held, []
        deal, size = self.deal_window, len(self.state.log)
        for seat, action, used, why in held:
            if seat not in self.state.to_act or self.state.is_terminal():
                continue
            try:
                if why is None:
                    self._apply_noted(action, seat)
                    self._after_action(seat, t, used)
                else:
                    self._apply_auto(seat, action, t, why, used)
            except IllegalAction:
                continue
        if deal and len(self.state.log) == size:
            self._pass_unanswered(t)

    def _pass_unanswered(self, t: int) -> None:
        """A prompt of the deal reached its hold without an answer from a seat that had a
        choice: the table answers ``pass`` for it, as for a seat that could only pass — no
        clock charged, no timeout, no trusteeship, nothing told to anyone but the new position
        — so the prompt lasts exactly its hold. One seat a call: its own sync does the rest."""
        st = self.state
        if not st.to_act or st.is_terminal() or not st.deal_prompt_open():
            return
        s = min(st.to_act)
        self.clocks[s].drop_turn()
        self._turn[s] = 0
        self._apply_auto(s, st.default_action(s), t, "window", 0)

    def _keep_ahead(self, seat: int, action: Any) -> bool:
        """A declaration sent ahead while the deal goes on and the seat's prompt is not open:
        kept for the seat's next prompt (True), the last one sent replacing an earlier one."""
        if self.state.is_terminal() or not self.state.deal_prompt_open():
            return False
        self._ahead[seat] = action
        self._tell_ahead(seat, action, "kept")
        return True

    def _legal_now(self, seat: int, action: Any) -> bool:
        """Whether ``seat`` may answer ``action`` now (tried on a copy of the state)."""
        try:
            self.state.clone().apply(action, seat)
        except IllegalAction:
            return False
        return True

    def _tell_ahead(self, seat: int, action: Any, status: str) -> None:
        """Tell ``seat`` alone what became of its declaration sent ahead: an event
        ``{"type": "ahead", "seat", "action", "status"}``, ``status`` ``kept`` (for its next
        prompt; it replaces one kept before), ``sent`` (its answer at the prompt open now) or
        ``dropped`` (the deal is over and it was never legal at a prompt of the seat's)."""
        self.players[seat].on_event(self, seat, {"type": "ahead", "seat": seat,
                                                 "action": str(action), "status": status})

    def _send_ahead(self, t: int) -> bool:
        """At a seat's prompt, the declaration it sent ahead, when legal now, is its answer
        (held to the prompt's hold like any answer). Kept while the deal goes on and it is not
        legal yet; dropped after the first prompt past the deal. True when one was sent."""
        for s in sorted(self._ahead):
            if s not in self.state.to_act or not self._turn[s]:
                continue
            action = self._ahead[s]
            try:
                self.state.clone().apply(action, s)
            except IllegalAction:
                if not self.state.deal_prompt_open():
                    del self._ahead[s]
                    self._tell_ahead(s, action, "dropped")
                continue
            del self._ahead[s]
            self._tell_ahead(s, action, "sent")
            self._move(s, Move(action, turn=self._turn[s]), t)
            return True
        return False
