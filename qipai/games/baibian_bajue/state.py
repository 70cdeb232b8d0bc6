"""The referee of a 百变八雀 match as rules/baibian-bajue.md §4 proposes it (a **proposal**).

One :class:`BajueState` is a match of ``hands_per_match`` hands (16), seats fixed, turn order
0 → 1 → 2 → 3, the deal passing every hand (seat 0 deals hand 1). One wall: draws from the head,
bomb replacements from the tail; 13 tiles each, the dealer starts by drawing. On its turn a seat
may ``win`` (four sets and a pair), make a ``bomb`` of four identical tiles in hand (laid face up;
each other seat pays the maker ``bomb_bonus`` at once; a replacement draw follows) or
``discard``. Every other seat answers a discard at once: ``win`` (anyone), ``bomb`` (holding
three), ``pung`` (holding two), ``chow`` (the next seat, number tiles) or ``pass``; priority win >
bomb = pung > chow, the nearest seat in turn order first. A win is worth V, the sum of the tile
values of the winner's hand (number tiles their rank, honours 10; a bomb counts its four tiles):
self-drawn each other seat pays V, on a discard the discarder pays 2V. An empty wall when a draw
is due ends the hand drawn. The highest total wins the match.
"""

from __future__ import annotations

import copy
from typing import Any

from qipai.core.errors import IllegalAction, Message
from qipai.tiles.action import Action
from qipai.tiles.match import TileMatch, read_wall_deal, table_points
from qipai.tiles.meld import KONG, Meld
from qipai.tiles.shapes import is_complete
from qipai.tiles.table import MatchEndings, close_view, own_seat, public_seat, scores_result, seat_line
from qipai.tiles.tile import NUM_KINDS, format_tiles
from qipai.tiles.tile import name as tile_name
from qipai.tiles.wall import Wall, tile_set

KINDS = ("discard", "win", "bomb", "pass", "pung", "chow")
PASS = Action("pass")
WIN = Action("win")
HONOURS = 27
#: what a seat that resigns or forfeits pays each other seat (a decision, not in the proposal)
FORFEIT = 100


def tile_value(t: int) -> int:
    """§4.3: a number tile is worth its rank, an honour 10."""
    return t % 9 + 1 if t < HONOURS else 10


def hand_value(counts: list[int], melds: list[Meld]) -> int:
    """V of §4.3: the tile values of the concealed tiles and of every set (a bomb: four tiles)."""
    return (sum(tile_value(t) * n for t, n in enumerate(counts))
            + sum(tile_value(t) for m in melds for t in m.tiles))


class BajueState(MatchEndings, TileMatch):
    """A match in progress: the State contract plus :meth:`view`, ``hand_results`` (one dict per
    finished hand), ``scores`` (per seat) and ``bombs`` (``[seat, tile]`` of this hand).

    An explicit deal is a list (one item per hand, at least ``hands_per_match``) of ``{"hands":
    [4 × 13 tiles by seat], "wall": "..."}``, the wall holding every undealt tile in draw order:
    each kind four times, no honours with ``tiles=108`` (:func:`qipai.tiles.match.read_wall_deal`).
    """

    KINDS = KINDS

    def _four_seats(self) -> IllegalAction:
        return IllegalAction("baibian-bajue is played by 4 seats", code="baibian-bajue.four_seats")

    def _read_deal(self, number: int, item: Any) -> dict[str, Any]:
        tiles = self.opt["tiles"]
        return read_wall_deal(number, item, kinds=NUM_KINDS if tiles == 136 else HONOURS,
                              wall_size=tiles - 52)

    # ----- hand set-up -------------------------------------------------------------------------
    def _start_hand(self) -> None:
        self.dealer = self.hand_no % 4
        self._clear_table()
        self.bombs: list[list[int]] = []
        self.bonus = [0, 0, 0, 0]                      # bomb bonuses of this hand
        pool = [t for t in tile_set(flowers=False) if self.opt["tiles"] == 136 or t < HONOURS]
        self.wall = Wall(self._deal_fixed(self.dealer, lambda: self.rng.shuffle(pool)))
        self._draw(self.dealer, "wall")

    # ----- legal actions ------------------------------------------------------------------------
    def complete(self, seat: int, extra: int | None = None) -> bool:
        """Whether ``seat``'s concealed tiles (with the discard ``extra``) and its sets make four
        sets and a pair (§4.2)."""
        c = list(self.hands[seat])
        if extra is not None:
            c[extra] += 1
        return is_complete(c)

    def _turn_actions(self, seat: int) -> list[Action]:
        h = self.hands[seat]
        out: list[Action] = []
        if not self.after_claim:
            if self.complete(seat):
                out.append(WIN)
            if not self.wall.is_empty():
                out.extend(Action("bomb", t) for t in range(NUM_KINDS) if h[t] == 4)
        return out + [Action("discard", t) for t in range(NUM_KINDS) if h[t]]

    def _claim_actions(self, seat: int) -> list[Action]:
        t, frm = self.pending["tile"], self.pending["from"]
        out = [PASS]
        if self.complete(seat, t):
            out.append(WIN)
        claims = self._set_claims(seat, t, frm, kong="bomb")
        if self.wall.is_empty():                      # no replacement for a bomb
            claims = [a for a in claims if a.kind != "bomb"]
        return out + claims

    def _why(self, action: Action, seat: int) -> Message:
        k, t = action.kind, action.tile
        turn = self.phase == "turn"
        if turn and (k in ("pass", "pung", "chow") or (k == "bomb" and t is None)):
            return Message("it is your turn: win, bomb or discard", code="baibian-bajue.own_turn")
        if not turn and (k == "discard" or (k == "bomb" and t is not None)):
            return Message("it is a claim window: answer pass, win, bomb, pung or chow",
                           code="baibian-bajue.claim_window")
        if t is not None and k in ("discard", "bomb") and not self.hands[seat][t]:
            return Message("you do not hold that tile", code="baibian-bajue.not_held",
                           params={"tile": tile_name(t)})
        if k == "win":
            if turn and self.after_claim:
                return Message("no win right after a claim: discard", code="baibian-bajue.no_win_after_claim")
            return Message("not a winning hand: four sets and a pair", code="baibian-bajue.not_a_win")
        if k == "bomb":
            if turn and self.after_claim:
                return Message("no bomb right after a claim: discard",
                               code="baibian-bajue.no_bomb_after_claim")
            if self.wall.is_empty():
                return Message("no bomb when the wall is empty", code="baibian-bajue.no_bomb_empty_wall")
            return Message("a bomb is four identical tiles (three in hand and the discard)",
                           code="baibian-bajue.not_a_bomb")
        if k == "pung":
            return Message("a pung needs two tiles like the discard", code="baibian-bajue.not_a_pung")
        if k == "chow":
            return Message("only the next seat chows, with two tiles of the discard's suit next to it",
                           code="baibian-bajue.not_a_chow")
        return Message("not possible now", code="baibian-bajue.not_possible_now")

    # ----- own turn --------------------------------------------------------------------------------
    def _apply_turn(self, a: Action, seat: int) -> None:
        h = self.hands[seat]
        if a.kind == "win":
            self._settle(seat, self.drawn, payer=None)
            return
        if a.kind == "bomb":
            h[a.tile] -= 4
            self.melds[seat].append(Meld(KONG, a.tile))
            self._bomb(seat, a.tile)
            self._draw(seat, "bomb")
            return
        h[a.tile] -= 1
        self.ponds[seat].append([a.tile, False])
        self.drawn = None
        self.phase = "claim"
        self.pending = {"kind": "discard", "tile": a.tile, "from": seat}
        self.answers = {}
        self.waiting = tuple(self._others(seat))

    def _bomb(self, seat: int, t: int) -> None:
        """§4.3: each other seat pays the bomb's maker ``bomb_bonus`` at once."""
        b = self.opt["bomb_bonus"]
        for s in range(4):
            paid = 3 * b if s == seat else -b
            self.bonus[s] += paid
            self.scores[s] += paid      # paid now: a forfeit or a draw later keeps it (§4.4)
        self.bombs.append([seat, t])

    def _resolve(self) -> None:
        t, frm = self.pending["tile"], self.pending["from"]
        order = self._others(frm)
        for s in order:                               # one winner: the nearest
            if self.answers.get(s) == WIN:
                self._settle(s, t, payer=frm)
                return
        s = self._claim_first(("bomb", "pung"), order, self.answers)
        if s is not None and self.answers[s].kind == "bomb":
            self._bomb(s, t)
            self._claim_set(s, Action("kong"), t, frm, word="bomb")
            return
        if s is None:
            s = self._claim_first(("chow",), order, self.answers)
        if s is not None:
            self._claim_set(s, self.answers[s], t, frm)
            return
        self.pending = None
        self.answers = {}
        self._draw(self._next(frm), "wall")

    # ----- the end of a hand -----------------------------------------------------------------------
    def _settle(self, w: int, t: int, *, payer: int | None) -> None:
        if payer is not None:
            self.hands[w][t] += 1
            self.ponds[payer][-1][1] = True
        value = hand_value(self.hands[w], self.melds[w])
        pay = [0, 0, 0, 0]
        if payer is None:
            for s in range(4):
                pay[s] = 3 * value if s == w else -value
        else:
            pay[w], pay[payer] = 2 * value, -2 * value
        before = list(self.hands[w])
        before[t] -= 1
        text = f"{seat_line(before, self.melds[w])} + {format_tiles([t])}"
        line = {"no": 0, "name": "牌值", "en": "Tile values", "value": value, "count": 1}
        fans = {str(w): {"hand": text, "total": value, "unit": "points", "fans": [line]}}
        self._end_hand({"winners": [w], "how": "self_drawn" if payer is None else "discard",
                        "tile": format_tiles([t]), "from": payer, "value": value, "fans": fans,
                        "win_payments": pay, "payments": pay})

    def _end_hand(self, info: dict[str, Any]) -> None:
        info["payments"] = [p + b for p, b in zip(info["payments"], self.bonus)]
        info["bomb_payments"] = list(self.bonus)
        info["bombs"] = [[s, format_tiles([t])] for s, t in self.bombs]
        info["dealer"] = self.dealer
        super()._end_hand(info)

    def _paid_in_hand(self) -> list[int]:
        """The bombs' bonuses: in ``scores`` since each bomb was laid."""
        return self.bonus

    def _finish(self) -> None:
        self.result = scores_result(self.scores, "hands_played", self._details(self.scores), tie_is_draw=True)

    def _details(self, scores: list[int]) -> dict[str, Any]:
        return {"hands": copy.deepcopy(self.hand_results), "table_points": table_points(scores),
                "marking": "proposal"}

    # ----- external endings (MatchEndings) -------------------------------------------------------
    def _forfeit_pay(self) -> int:
        """Decision: a seat that resigns or forfeits pays each other seat ``FORFEIT`` (100)."""
        return FORFEIT

    def default_action(self, seat: int) -> Action | None:
        """Timeouts and trusteeship: pass in a claim window; in one's turn discard the drawn tile,
        else the last tile in canonical order. Never a win or a bomb."""
        if self.result is not None or seat not in self.to_act:
            return None
        if self.phase != "turn":
            return PASS
        discards = [a for a in self._legal_actions(seat) if a.kind == "discard"]
        mine = [a for a in discards if a.tile == self.drawn]
        return mine[0] if mine else discards[-1]

    # ----- views ---------------------------------------------------------------------------------
    def view(self, seat: int | None = None, *, log: bool = True) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): its own concealed tiles, drawn tile and
        legal actions; for every seat its discards, bombs and claimed sets, the count of its
        concealed tiles and its score; the wall count, the bombs of this hand and the finished
        hands (whose hands are revealed)."""
        seats = []
        for s in range(4):
            info: dict[str, Any] = {"seat": s, "score": self.scores[s],
                                    **public_seat(self.hands[s], self.melds[s], self.ponds[s])}
            if s == seat:
                mine = self.current == s and self.phase == "turn"
                info.update(own_seat(self.hands[s], self.melds[s], self.drawn if mine else None))
            seats.append(info)
        out: dict[str, Any] = {
            "game": "baibian-bajue", "marking": "proposal",
            "hand": self.hand_no + 1 if self.result is None else self.hand_no,
            "hands_per_match": self.hands_total,
            "tiles": self.opt["tiles"], "dealer": self.dealer, "wall": self.wall.remaining(),
            "phase": self.phase, "to_act": self.seen_to_act(seat), "seats": seats, "you": seat,
            "bombs": [[s, format_tiles([t])] for s, t in self.bombs],
            "results": copy.deepcopy(self.hand_results) if self.hand_results else [],
        }
        if self.pending is not None:
            out["claim"] = {"kind": "discard", "tile": format_tiles([self.pending["tile"]]),
                            "from": self.pending["from"]}
        return close_view(self, out, seat, log)
