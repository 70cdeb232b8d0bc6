"""What the mahjong referees share: a seat's turn and the claim windows where every other
seat answers at once, then the window resolves by priority.

A subclass keeps ``hands`` (34 counts per seat), ``melds``, ``ponds`` (``[tile, claimed?]``
per discard), ``phase`` (``"turn"`` or a window), ``waiting`` (the seats still to act),
``answers`` (seat → action in a window), ``hand_log`` (:class:`.handlog.HandLog`) and
provides ``KINDS``, ``_next(seat, step)``, ``_turn_actions``, ``_claim_actions``,
``_apply_turn``, ``_resolve``, ``_why`` and ``_draw``.
"""

from __future__ import annotations

from qipai.core.errors import IllegalAction
from qipai.core.game import State

from .action import Action, check_action
from .meld import KONG, PUNG, Meld, chow_starts
from .table import take_claimed_set
from .tile import format_tiles


class TileReferee(State):
    KINDS: tuple[str, ...] = ()

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else self.waiting

    def turns_private(self) -> bool:
        """In a window every other seat answers, so that nobody learns who could claim
        (mahjong-gb 2.6); who has still to answer is private as well: an answer that came at
        once would tell that its seat had nothing to claim. A server then tells each seat only
        its own turn and, while another person could read the time a window takes, holds it
        open a minimum time (:attr:`fixed_window_time` is false)."""
        return self.result is None and self.phase != "turn"

    fixed_window_time = False

    def seen_to_act(self, seat: int | None) -> list[int]:
        """``to_act`` as ``seat`` may see it (``None``: a spectator): in a window, only whether
        ``seat`` itself has still to answer (:meth:`turns_private`)."""
        if self.turns_private():
            return [seat] if seat in self.to_act else []
        return list(self.to_act)

    def _legal_actions(self, seat: int) -> list[Action]:
        # every change of the state is an applied action, so the actions of a seat are known
        # until the log grows: asked for by a view, a bot and then apply, they are found once
        key = (len(self.log), seat)
        memo = self.__dict__.get("_legal_memo")
        if memo is not None and memo[0] == key:
            return list(memo[1])
        if self.phase == "turn":
            out = self._turn_actions(seat)
        elif seat in self.answers:
            out = []
        else:
            out = self._claim_actions(seat)
        self._legal_memo = (key, out)
        return list(out)

    def _action_text(self, action: Action) -> str:
        check_action(action, self.KINDS)
        return str(action)

    def _apply(self, action: Action, seat: int) -> None:
        check_action(action, self.KINDS)
        if action not in self._legal_actions(seat):
            raise IllegalAction(self._why(action, seat), action)
        if self.phase == "turn":
            self._log_turn(action, seat)
            self._apply_turn(action, seat)
            return
        self.answers[seat] = action
        self.waiting = tuple(s for s in self.waiting if s != seat)
        if not self.waiting:
            self._resolve()

    def _log_turn(self, action: Action, seat: int) -> None:
        """The hand log's entry of a turn's action (a win is written as the hand ends): a
        concealed kong as ``ckong``, its tile seen by its maker only (:mod:`.handlog`)."""
        if action.kind in ("discard", "add", "peel", "laizi", "kong", "bomb"):
            self.hand_log.add(seat, "ckong" if action.kind == "kong" else action.kind,
                              format_tiles([action.tile]))

    def _set_claims(self, seat: int, t: int, frm: int, barred: frozenset[int] = frozenset(),
                    kong: str = "kong") -> list[Action]:
        """The sets ``seat`` may claim on the discard ``t`` of ``frm``: a kong (named ``kong``)
        holding three, a pung holding two, the chows of the next seat (none with a ``barred``
        kind)."""
        h = self.hands[seat]
        out = [Action(kong)] if h[t] >= 3 else []
        if h[t] >= 2:
            out.append(Action("pung"))
        if seat == self._next(frm):
            out.extend(Action("chow", low) for low in chow_starts(h, t, barred))
        return out

    def _lay_kong(self, seat: int, t: int, *, added: bool) -> None:
        """``seat`` makes a kong of ``t`` on its turn: four concealed tiles laid as a concealed
        kong, or (``added``) the fourth tile added to its exposed pung of ``t``."""
        self.hands[seat][t] -= 1 if added else 4
        melds = self.melds[seat]
        if not added:
            melds.append(Meld(KONG, t, concealed=True))
            return
        i = next(i for i, m in enumerate(melds) if m.kind == PUNG and m.tile == t)
        melds[i] = Meld(KONG, t, claimed=melds[i].claimed, source=melds[i].source, added=True)

    def _others(self, seat: int) -> list[int]:
        """The other seats in turn order from ``seat``: the order claims are ranked in."""
        return [self._next(seat, i) for i in (1, 2, 3)]

    def _claim_first(self, kinds: tuple[str, ...], order: list[int],
                     answers: dict[int, Action]) -> int | None:
        """The nearest seat of ``order`` whose answer is one of ``kinds``."""
        return next((s for s in order if answers.get(s) is not None and answers[s].kind in kinds), None)

    def _claim_set(self, s: int, a: Action, t: int, frm: int, word: str | None = None) -> None:
        """Seat ``s`` takes the discard ``t`` of ``frm`` into the set ``a`` (chow, pung, kong):
        after a kong it draws a replacement, else it is to discard (no win, no kong). The hand log
        names the claim ``word`` (default: the action's kind)."""
        self.ponds[frm][-1][1] = True
        meld = take_claimed_set(self.hands[s], a.kind, a.tile, t, frm)
        self.melds[s].append(meld)
        self.hand_log.add(s, word or a.kind, format_tiles(meld.tiles), **{"from": frm})
        self.pending = None
        self.answers = {}
        if a.kind == "kong":
            self._draw(s, "kong")
            return
        self.current = s
        self.phase = "turn"
        self.after_claim = True
        self.drawn = None
        self.last_drawn = False
        self.waiting = (s,)
