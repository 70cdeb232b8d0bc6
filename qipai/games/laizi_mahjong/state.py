"""The referee of a laizi mahjong match (rules/laizi-mahjong.md sections 2, 4 and 5).

One :class:`LaiziState` is a whole match of ``hands_per_match`` hands with fixed seats (seat =
position, turn order 0 → 1 → 2 → 3) and the deal passing to the next seat after every hand.
Draws happen inside the referee; seats act where the rules give a choice: their own turn (win,
concealed kong, added kong, peel kong, laizi kong, discard), a claim window after a discard
(pass, win, kong, pung, chow: every other seat answers, so nobody learns who could claim) and
the window after a laizi kong (pass or win, seed note 2).
"""

from __future__ import annotations

import copy
from typing import Any

from qipai.core.errors import IllegalAction, Message
from qipai.tiles.action import Action
from qipai.tiles.match import TileMatch, read_wall_deal, table_points
from qipai.tiles.meld import PUNG
from qipai.tiles.notation import Hand
from qipai.tiles.table import MatchEndings, close_view, own_seat, public_seat, scores_result
from qipai.tiles.tile import NUM_KINDS, format_tiles
from qipai.tiles.tile import name as tile_name
from qipai.tiles.wall import Wall, shuffled

from .actions import KINDS
from .points import hand_text, payments, score, successor

PASS = Action("pass")
WIN = Action("win")


class LaiziState(MatchEndings, TileMatch):
    """A match in progress. The public surface is the State contract plus :meth:`view`,
    ``hand_results`` (one dict per finished hand) and ``scores`` (money per seat).

    An explicit deal is a list (one item per hand, at least ``hands_per_match``; tie-break
    hands need items of their own, and with none left the tie stands) of ``{"hands": [4 × 13
    tiles by seat], "wall": "..."}``, the wall every undealt tile in order, its first tile the
    indicator (:func:`qipai.tiles.match.read_wall_deal`)."""

    KINDS = KINDS

    def _four_seats(self) -> IllegalAction:
        return IllegalAction("laizi-mahjong is played by 4 seats", code="laizi-mahjong.four_seats")

    def _read_deal(self, number: int, item: Any) -> dict[str, Any]:
        return read_wall_deal(number, item, kinds=NUM_KINDS, wall_size=136 - 52)

    # ----- hand set-up -----------------------------------------------------------------------
    def _start_hand(self) -> None:
        self.dealer = self.hand_no % 4
        self._clear_table()
        self.peels: list[int] = [0, 0, 0, 0]           # peel kongs made this hand
        self.lzks: list[int] = [0, 0, 0, 0]            # laizi kongs made this hand
        rest = self._deal_fixed(self.dealer, lambda: shuffled(self.rng, flowers=False))
        self.indicator = rest[0]
        self.laizi = successor(self.indicator)
        self.wall = Wall(rest[1:])
        self._draw(self.dealer, "wall")

    # ----- contract ------------------------------------------------------------------------
    def _barred(self) -> frozenset[int]:
        """Kinds that are only played out as kongs while the wall has tiles (2.3)."""
        return frozenset((self.laizi, self.indicator))

    def _turn_actions(self, seat: int) -> list[Action]:
        h = self.hands[seat]
        empty = self.wall.is_empty()
        barred = () if empty else self._barred()
        discards = [Action("discard", t) for t in range(NUM_KINDS) if h[t] and t not in barred]
        out: list[Action] = []
        if not self.after_claim:
            if self._score(seat, self.drawn, self_drawn=True) is not None:
                out.append(WIN)
            if not empty:
                out.extend(Action("kong", t) for t in range(NUM_KINDS) if h[t] == 4 and t != self.laizi)
                out.extend(Action("add", m.tile) for m in self.melds[seat] if m.kind == PUNG and h[m.tile])
        if not empty and (not self.after_claim or not discards):
            # right after a claim a peel or laizi tile is played out only when nothing else can
            # be discarded (rule decision, docs/games/laizi-mahjong.md)
            if h[self.indicator]:
                out.append(Action("peel", self.indicator))
            if h[self.laizi]:
                out.append(Action("laizi", self.laizi))
        return out + discards

    def _claim_actions(self, seat: int) -> list[Action]:
        p = self.pending
        t = p["tile"]
        out = [PASS]
        if self._score(seat, t, self_drawn=False) is not None:
            out.append(WIN)
        if p["kind"] != "discard" or p["last"] or t == self.laizi:
            return out
        return out + self._set_claims(seat, t, p["from"], frozenset((self.laizi,)))

    def _why(self, action: Action, seat: int) -> Message:
        h = self.hands[seat]
        k, t = action.kind, action.tile
        turn = self.phase == "turn"
        if turn and k in ("pass", "pung", "chow") or (turn and k == "kong" and t is None):
            return Message("it is your turn: win, kong, add, peel, laizi or discard",
                           code="laizi-mahjong.own_turn")
        if not turn and (k in ("discard", "add", "peel", "laizi") or (k == "kong" and t is not None)):
            return Message("it is a claim window: answer pass, win, kong, pung or chow",
                           code="laizi-mahjong.claim_window")
        if t is not None and k in ("discard", "peel", "laizi", "add", "kong") and not h[t]:
            return Message("you do not hold that tile", code="laizi-mahjong.not_held",
                           params={"tile": tile_name(t)})
        if k == "win":
            if turn and self.after_claim:
                return Message("no win right after a chow or pung claim",
                               code="laizi-mahjong.no_win_after_claim")
            return Message("not a winning hand: no pattern of the point table",
                           code="laizi-mahjong.not_a_win")
        if k == "discard" and t in self._barred():
            return Message("a laizi or peel tile is played out as a kong (peel, laizi) while the wall "
                           "has tiles",
                           code="laizi-mahjong.barred_discard")
        if k == "peel" and t != self.indicator:
            return Message("a peel kong plays a tile of the indicator's kind", code="laizi-mahjong.not_peel")
        if k == "laizi" and t != self.laizi:
            return Message("a laizi kong plays a laizi", code="laizi-mahjong.not_laizi")
        if turn and self.after_claim and k in ("kong", "add", "peel", "laizi"):
            return Message("no kong right after a chow or pung claim",
                           code="laizi-mahjong.no_kong_after_claim")
        if k in ("kong", "add", "peel", "laizi") and turn and self.wall.is_empty():
            return Message("no kong when the wall is empty", code="laizi-mahjong.no_kong_empty_wall")
        if not turn and k in ("pung", "kong", "chow"):
            p = self.pending
            if p["kind"] == "laizi":
                return Message("a laizi kong can only be claimed for a win",
                               code="laizi-mahjong.laizi_kong_win_only")
            if p["last"]:
                return Message("the last discard can only be claimed for a win",
                               code="laizi-mahjong.last_discard")
            if p["tile"] == self.laizi or (k == "chow" and self.laizi in (t, t + 1, t + 2)):
                return Message("a laizi never goes into an exposed set",
                               code="laizi-mahjong.laizi_not_in_sets")
        return Message("not possible now", code="laizi-mahjong.not_possible_now")

    # ----- own turn ---------------------------------------------------------------------------
    def _apply_turn(self, a: Action, seat: int) -> None:
        h = self.hands[seat]
        if a.kind == "win":
            self._settle(seat, self.drawn, payer=None)
            return
        if a.kind == "kong":
            self._lay_kong(seat, a.tile, added=False)
            self._draw(seat, "kong")
            return
        if a.kind == "add":
            self._lay_kong(seat, a.tile, added=True)
            self._draw(seat, "kong")
            return
        if a.kind == "peel":
            h[a.tile] -= 1
            self.peels[seat] += 1
            self._draw(seat, "kong")
            return
        if a.kind == "laizi":
            h[a.tile] -= 1
            self.lzks[seat] += 1
            self._open_window("laizi", a.tile, seat, last=False)
            return
        h[a.tile] -= 1
        self.ponds[seat].append([a.tile, False])
        self._open_window("discard", a.tile, seat, last=self.wall.is_empty())

    def _open_window(self, kind: str, t: int, frm: int, last: bool) -> None:
        self.drawn = None
        self.phase = "claim" if kind == "discard" else "laizi"
        self.pending = {"kind": kind, "tile": t, "from": frm, "last": last}
        self.answers = {}
        self.waiting = tuple(self._others(frm))

    # ----- claims -----------------------------------------------------------------------------
    def _resolve(self) -> None:
        p = self.pending
        t, frm = p["tile"], p["from"]
        order = self._others(frm)
        for s in order:                               # one winner, the nearest (2.4)
            if self.answers.get(s) == WIN:
                self._settle(s, t, payer=frm)
                return
        if p["kind"] == "discard":
            for kinds in (("kong", "pung"), ("chow",)):
                s = self._claim_first(kinds, order, self.answers)
                if s is not None:
                    self._claim_set(s, self.answers[s], t, frm)
                    return
        self.pending = None
        self.answers = {}
        if p["kind"] == "laizi":
            self._draw(frm, "kong")          # nobody won on the laizi: the replacement
        else:
            self._draw(self._next(frm), "wall")

    # ----- winning -----------------------------------------------------------------------------
    def hand_of(self, seat: int, win: int, *, self_drawn: bool) -> Hand:
        """``seat``'s hand in the notation of the rule file, winning on ``win`` (drawn, or
        claimed from a discard or a laizi kong)."""
        h = list(self.hands[seat])
        if self_drawn:
            h[win] -= 1
        concealed = tuple(t for t in range(NUM_KINDS) for _ in range(h[t]))
        extra = {"ind": self.indicator, "peel": self.peels[seat], "lzk": self.lzks[seat]}
        if self.opt["allow_pihu"]:
            extra["pihu"] = True
        return Hand(concealed, tuple(self.melds[seat]), win, self_drawn=self_drawn,
                    kong=self_drawn and self.draw_kind == "kong", last=self_drawn and self.last_drawn,
                    extra=extra)

    def _score(self, seat: int, win: int | None, *, self_drawn: bool):
        if win is None or (self_drawn and self.after_claim):
            return None
        o = self.opt
        return score(self.hand_of(seat, win, self_drawn=self_drawn), allow_pihu=o["allow_pihu"],
                     concealed_bonus=o["concealed_bonus"], laizi_kong_factor=o["laizi_kong_factor"],
                     extrapolated_pairs_combos=o["extrapolated_pairs_combos"])

    def _settle(self, w: int, t: int, *, payer: int | None) -> None:
        self_drawn = payer is None
        hand = self.hand_of(w, t, self_drawn=self_drawn)
        s = self._score(w, t, self_drawn=self_drawn)
        o = self.opt
        pay = payments(s.points, w, payer, discard_payers=o["discard_payers"], floor=o["money_floor"],
                       cap=o["money_cap"])
        how = "self_drawn" if self_drawn else ("laizi_kong" if self.pending["kind"] == "laizi" else "discard")
        if how == "discard":
            self.ponds[payer][-1][1] = True
        elif how == "laizi_kong":
            self.lzks[payer] -= 1                     # the laizi went to the winner
        if not self_drawn:
            self.hands[w][t] += 1
        self._end_hand({"winners": [w], "how": how, "tile": format_tiles([t]), "from": payer,
                        "hand_text": hand_text(hand), "score": s.to_json(), "payments": pay})

    def _end_hand(self, info: dict[str, Any]) -> None:
        info["dealer"] = self.dealer
        info["indicator"] = format_tiles([self.indicator])
        info["laizi"] = format_tiles([self.laizi])
        super()._end_hand(info)

    def _finish(self) -> None:
        single = self.hands_total == 1 and self.hand_no == 1
        reason = ("win" if self.hand_results[-1]["winners"] else "drawn_hand") if single else "hands_played"
        self.result = scores_result(self.scores, reason, self._details(self.scores), tie_is_draw=True)

    def _details(self, scores: list[int]) -> dict[str, Any]:
        return {"hands": copy.deepcopy(self.hand_results), "table_points": table_points(scores)}

    # ----- external endings --------------------------------------------------------------------
    def _forfeit_pay(self) -> int:
        """A seat that resigns or forfeits pays the cap to each other seat once more
        (:class:`~qipai.tiles.table.MatchEndings`)."""
        return self.opt["money_cap"]

    def default_action(self, seat: int) -> Action | None:
        """Timeout answer (2.6): pass in a window; else discard the drawn tile if it may be,
        else the last discardable tile in canonical order; a laizi or peel tile is played out
        (as its kong) only when nothing else can be discarded. Never a win or another kong."""
        if self.result is not None or seat not in self.to_act:
            return None
        if self.phase != "turn":
            return PASS
        legal = self._legal_actions(seat)
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            mine = [a for a in discards if a.tile == self.drawn]
            return mine[0] if mine else discards[-1]
        return next(a for a in legal if a.kind in ("peel", "laizi"))

    # ----- views ---------------------------------------------------------------------------------
    def _seen_marks(self, seat: int) -> tuple:
        return None, None, self.dealer, self.laizi, self.indicator, None

    def view(self, seat: int | None = None, *, log: bool = True) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): its own concealed tiles and legal
        actions; for every seat its discards (claimed ones marked), exposed sets, peel and laizi
        kongs, the count of concealed kongs and concealed tiles; the indicator and laizi, the
        wall count, scores and finished hands (whose hands are revealed)."""
        seats = []
        for s in range(4):
            info: dict[str, Any] = {"seat": s, "score": self.scores[s],
                                     **public_seat(self.hands[s], self.melds[s], self.ponds[s]),
                                     "peel_kongs": self.peels[s], "laizi_kongs": self.lzks[s]}
            if s == seat:
                mine = self.current == s and self.phase == "turn"
                info.update(own_seat(self.hands[s], self.melds[s], self.drawn if mine else None))
            seats.append(info)
        out: dict[str, Any] = {
            "game": "laizi-mahjong", "hand": self.hand_no + 1 if self.result is None else self.hand_no,
            "hands_per_match": self.hands_total, "dealer": self.dealer,
            "indicator": format_tiles([self.indicator]), "laizi": format_tiles([self.laizi]),
            "wall": self.wall.remaining(), "phase": self.phase, "to_act": self.seen_to_act(seat),
            "seats": seats, "you": seat,
            "results": copy.deepcopy(self.hand_results) if self.hand_results else [],
        }
        if self.pending is not None:
            out["claim"] = {"kind": self.pending["kind"], "tile": format_tiles([self.pending["tile"]]),
                            "from": self.pending["from"]}
        return close_view(self, out, seat, log)
