"""The referee of a Guobiao mahjong match (rules/mahjong-gb.md sections 2, 4.4-4.5 and 5).

One :class:`MahjongState` is a whole match: ``hands_per_match`` hands (16 by default, 4 rounds
of prevalent wind) with the MCR seat changes between rounds. Seats (0..3) are the players;
*positions* are places at the table in turn order, remapped each round. Draws and flower
replacements happen inside the referee; the seats act only where the rules give a choice:
their own turn (win, kong, add to a pung, discard), a claim window after a discard (pass, win,
kong, pung, chow — every seat with a possible claim answers, all at once), and a robbing window
after an added kong.
"""

from __future__ import annotations

import copy
from typing import Any

from qipai.core.errors import IllegalAction, Message, NotationError
from qipai.core.game import Result
from qipai.tiles.match import TileMatch, read_hands, read_tiles, table_points
from qipai.tiles.meld import KONG, PUNG, Meld
from qipai.tiles.notation import Hand
from qipai.tiles.table import (
    close_view,
    own_seat,
    public_seat,
    read_scores,
    score_text,
    scores_result,
    seat_line,
)
from qipai.tiles.tile import FLOWER_BASE, NUM_KINDS, WIND_LETTERS, format_tiles
from qipai.tiles.tile import name as tile_name
from qipai.tiles.wall import Wall, check_tile_counts, deal_hands, shuffled

from .actions import KINDS, Action
from .fans import FanResult, calculate, fan_table, winning_shape

# position -> player, per round (rule file section 5): players A B C D are seats 0 1 2 3
MCR_SEATING = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1))
PASS = Action("pass")
WIN = Action("win")
PENALTY = Action("penalty")
#: what the offender pays each other seat under ``illegal_action_policy="botzone"`` (2.10)
BOTZONE_PENALTY = 10


class MahjongState(TileMatch):
    """A match in progress. See the module doc; the public surface is the State contract plus
    :meth:`view`, ``hand_results`` (one dict per finished hand) and ``scores`` (match score
    per seat).

    An explicit deal is a list (one per hand, at least ``hands_per_match``) of ``{"hands": [4 ×
    13 tiles by seat], "wall": "..." | "segments": [4 × "..."], "prevalent": 0..3,
    "dealer_position": 0..3}``; flowers may be in it, every kind at most four times."""

    KINDS = KINDS

    def _four_seats(self) -> IllegalAction:
        return IllegalAction("mahjong-gb is played by 4 seats", code="mahjong-gb.mahjong_gb_played_seats")

    def _read_deal(self, number: int, d: Any) -> dict[str, Any]:
        hands = read_hands(number, d, wall_keys=("wall", "segments"))
        item: dict[str, Any] = {"hands": hands}
        if "wall" in d:
            item["wall"] = read_tiles(number, d["wall"])
        else:
            if not isinstance(d["segments"], list) or len(d["segments"]) != 4:
                raise NotationError(f"hand {number}: 'segments' is four lists of tiles", "deal",
                                    code="notation.deal_shape")
            item["segments"] = [read_tiles(number, seg) for seg in d["segments"]]
        if any(type(t) is not int for t in [*item.get("wall", ()), *(t for seg in item.get("segments", ())
                                                                    for t in seg)]):
            raise NotationError(f"hand {number}: hands and wall are tiles", "deal",
                                code="notation.deal_shape")
        for key in ("prevalent", "dealer_position"):
            if key in d:
                try:
                    item[key] = int(d[key]) % 4
                except (TypeError, ValueError):
                    raise NotationError(f"hand {number}: {key} is a whole number 0..3", "deal",
                                        code="notation.deal_shape") from None
        check_tile_counts(number, item["hands"], item["wall"] if "wall" in item else
                          [t for seg in item["segments"] for t in seg])
        return item

    # ----- hand set-up -----------------------------------------------------------------------
    def _start_hand(self) -> None:
        k = self.hand_no
        d = self._deals[k] if self._deals else {}
        rnd = k // 4
        self.prevalent = d.get("prevalent", rnd % 4)
        if self.opt["seat_rotation"] == "mcr":
            self.order = list(MCR_SEATING[rnd % 4])
        else:
            self.order = [0, 1, 2, 3]
        self.dealer_pos = d.get("dealer_position", k % 4)
        self._clear_table()
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.phase = "turn"
        self.current = self.order[self.dealer_pos]
        self.after_claim = False
        self.drawn: int | None = None
        self.draw_kind = "wall"      # wall / kong (replacement after a kong)
        self.last_drawn = False
        self.waiting: tuple[int, ...] = ()
        self._held_flowers: list[list[int]] = [[] for _ in range(4)]
        seats_by_pos = self.order
        if d:
            for pos in range(4):
                seat = seats_by_pos[pos]
                for t in d["hands"][seat]:
                    self._take(seat, t)
            self.wall = Wall(d["wall"]) if "wall" in d else Wall(segments=d["segments"])
        else:
            tiles = shuffled(self.rng, self.opt["use_flowers"])
            dealt, rest = deal_hands(tiles, 0)
            for pos in range(4):
                seat = seats_by_pos[(self.dealer_pos + pos) % 4]
                for t in dealt[pos]:
                    self._take(seat, t)
            if self.opt["wall_layout"] == "botzone4":
                size = len(rest) // 4
                segs = [rest[i * size:(i + 1) * size] for i in range(4)]
                self.wall = Wall(segments=[segs[self._pos(s)] for s in range(4)])
            else:
                self.wall = Wall(rest)
        # initial flower replacement: dealer first, in turn order, until nobody holds one
        changed = True
        while changed and self.result is None:
            changed = False
            for i in range(4):
                seat = self.order[(self.dealer_pos + i) % 4]
                while self._held_flowers[seat]:
                    f = self._held_flowers[seat].pop()
                    self.flowers[seat].append(f)
                    self.hand_log.add(seat, "flower", format_tiles([f], sort=False))
                    if self.wall.is_empty(seat):
                        self._end_drawn()
                        return
                    self._take(seat, self.wall.draw_tail(seat))
                    changed = True
        self._draw(self.current, "wall")

    def _take(self, seat: int, t: int) -> None:
        if t >= FLOWER_BASE:
            self._held_flowers[seat].append(t)
        else:
            self.hands[seat][t] += 1

    def _pos(self, seat: int) -> int:
        return self.order.index(seat)

    def _next(self, seat: int, step: int = 1) -> int:
        return self.order[(self._pos(seat) + step) % 4]

    def seat_wind(self, seat: int) -> int:
        """0..3 = East..North for ``seat`` in the current hand."""
        return (self._pos(seat) - self.dealer_pos) % 4

    def _draw(self, seat: int, kind: str) -> None:
        """Draw for ``seat`` (head, or tail for a replacement), exposing flowers; ends the hand
        as a draw when the wall is empty."""
        replacement = kind == "kong"
        while True:
            if self.wall.is_empty(seat):
                self._end_drawn()
                return
            t = self.wall.draw_tail(seat) if replacement else self.wall.draw(seat)
            if t >= FLOWER_BASE:
                # the next tile replaces a flower: a win on it is an ordinary self-drawn win,
                # even when the flower was itself a kong replacement (rule file 2.8)
                self.flowers[seat].append(t)
                self.hand_log.add(seat, "flower", format_tiles([t], sort=False))
                replacement = True
                kind = "wall"
                continue
            break
        self.hand_log.add(seat, "draw", format_tiles([t]))
        self.hands[seat][t] += 1
        self.drawn = t
        self.draw_kind = kind
        self.last_drawn = self.wall.is_last(seat, next_seat=self._next(seat))
        self.current = seat
        self.phase = "turn"
        self.after_claim = False
        self.waiting = (seat,)

    # ----- contract ------------------------------------------------------------------------
    def _turn_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        h = self.hands[seat]
        if not self.after_claim:
            if self._win_hand(seat, self.drawn, self_drawn=True) is not None:
                out.append(WIN)
            if not self.wall.is_empty(seat):
                out.extend(Action("kong", t) for t in range(NUM_KINDS) if h[t] == 4)
                out.extend(Action("add", m.tile) for m in self.melds[seat] if m.kind == PUNG and h[m.tile])
        out.extend(Action("discard", t) for t in range(NUM_KINDS) if h[t])
        return out

    def _claim_actions(self, seat: int) -> list[Action]:
        p = self.pending
        t = p["tile"]
        out = [PASS]
        if p["kind"] == "rob":
            if self._win_hand(seat, t, self_drawn=False, robbing=True) is not None:
                out.append(WIN)
            return out
        if p["kind"] == "rob_concealed":
            if self._win_hand(seat, t, self_drawn=False, robbing=True, orphans_only=True) is not None:
                out.append(WIN)
            return out
        if self._win_hand(seat, t, self_drawn=False) is not None:
            out.append(WIN)
        if p["last"] or self.wall.is_empty(seat):
            return out
        return out + self._set_claims(seat, t, p["from"])

    def _apply(self, action: Action, seat: int) -> None:
        if isinstance(action, Action) and action.kind == "penalty":
            if self.opt["illegal_action_policy"] != "botzone":
                raise IllegalAction("a penalty exists only under illegal_action_policy=botzone", action,
                                    code="mahjong-gb.penalty_exists_only_under")
            self._penalty(seat)
            return
        super()._apply(action, seat)

    def _why(self, action: Action, seat: int) -> str:
        h = self.hands[seat]
        if action.kind == "discard" and action.tile is not None and not h[action.tile]:
            return Message("you do not hold that tile", code="mahjong-gb.do_not_hold_tile",
                           params={"tile": tile_name(action.tile)})
        if action.kind == "win":
            if self.phase == "turn" and self.after_claim:
                return Message("no win right after a chow or pung claim",
                               code="mahjong-gb.no_win_right_after")
            if self.pending and self.pending["kind"] == "rob_concealed":
                return Message("a concealed kong can be robbed only to win with thirteen orphans",
                               code="mahjong-gb.concealed_kong_can_robbed")
            return Message(f"not a winning hand worth at least {self.opt['min_fan']} fans "
                           "(flowers not counted)",
                           code="mahjong-gb.not_winning_hand_worth", params={"opt": self.opt['min_fan']})
        if self.phase != "turn" and action.kind in ("discard", "add"):
            return Message("it is a claim window: answer pass, win, kong, pung or chow",
                           code="mahjong-gb.claim_window_answer_pass")
        if action.kind in ("kong", "add") and self.phase == "turn" and self.after_claim:
            return Message("no kong right after a chow or pung claim", code="mahjong-gb.no_kong_right_after")
        if action.kind in ("pung", "kong", "chow") and self.pending and self.pending.get("last"):
            return Message("the last discard can only be claimed for a win",
                           code="mahjong-gb.last_discard_can_only")
        return Message("not possible now", code="mahjong-gb.not_possible_now")

    # ----- sanctions ---------------------------------------------------------------------------
    def penalize_illegal(self, seat: int) -> bool:
        """The sanction for an action of ``seat`` that :meth:`apply` refused (rule file 2.10).

        Under ``illegal_action_policy="botzone"`` the offender pays ``BOTZONE_PENALTY`` (10) to
        each other seat, the hand ends (``how = "penalty"``) and the match goes on with the next
        hand; the entry ``penalty`` goes into the log so a replay does the same. Under
        ``"refuse"`` nothing happens and ``False`` is returned. The match layer calls this after
        a refusal; the refused action itself never changes the state. Raises
        :class:`IllegalAction` when the game is over or ``seat`` is not to act."""
        if self.opt["illegal_action_policy"] != "botzone":
            return False
        self.apply(PENALTY, seat)
        return True

    def _penalty(self, seat: int) -> None:
        pay = [BOTZONE_PENALTY] * 4
        pay[seat] = -3 * BOTZONE_PENALTY
        self.drawn = None
        self._end_hand({"winners": [], "how": "penalty", "offender": seat, "payments": pay})

    # ----- own turn ---------------------------------------------------------------------------
    def _apply_turn(self, a: Action, seat: int) -> None:
        h = self.hands[seat]
        if a.kind == "win":
            self._settle_win([seat], self.drawn, self_drawn=True, payer=None)
            return
        if a.kind == "kong":
            self._lay_kong(seat, a.tile, added=False)
            if self.opt["rob_concealed_kong_for_13_orphans"]:
                # every other seat answers every concealed kong, so the window tells nobody its
                # kind; only a seat that can rob it with thirteen orphans is offered a win
                self._open_window("rob_concealed", a.tile, seat, self._others(seat), last=False)
                return
            self._draw(seat, "kong")
            return
        if a.kind == "add":
            self._lay_kong(seat, a.tile, added=True)
            # every other seat answers (pass or win), so the window shows nobody who can rob
            self._open_window("rob", a.tile, seat, self._others(seat), last=False)
            return
        # discard
        h[a.tile] -= 1
        self.ponds[seat].append([a.tile, False])
        last = self.last_drawn
        self.drawn = None
        # every other seat answers every discard (rule file 2.6): asking only the seats that
        # could claim would tell the table who holds a pair, a chow or a winning hand
        self._open_window("discard", a.tile, seat, self._others(seat), last=last)

    def _open_window(self, kind: str, t: int, frm: int, seats: list[int], last: bool) -> None:
        """``kind``: ``discard``, ``rob`` (an added kong) or ``rob_concealed`` (a concealed kong,
        only with ``rob_concealed_kong_for_13_orphans``)."""
        self.phase = "claim" if kind == "discard" else "rob"
        self.pending = {"kind": kind, "tile": t, "from": frm, "last": last}
        self.answers = {}
        self.waiting = tuple(seats)

    def _next_draw(self, discarder: int) -> None:
        self.pending = None
        self.answers = {}
        self._draw(self._next(discarder), "wall")

    # ----- claims -----------------------------------------------------------------------------
    def _resolve(self) -> None:
        p = self.pending
        t, frm = p["tile"], p["from"]
        order = self._others(frm)
        winners = [s for s in order if self.answers.get(s) == WIN]
        if winners:
            if not self.opt["multiple_winners"]:
                winners = winners[:1]
            self._settle_win(winners, t, self_drawn=False, payer=frm, robbing=p["kind"] != "discard")
            return
        if p["kind"] != "discard":
            self.pending = None
            self.answers = {}
            self._draw(frm, "kong")
            return
        for kinds in (("kong", "pung"), ("chow",)):
            s = self._claim_first(kinds, order, self.answers)
            if s is not None:
                self._claim_set(s, self.answers[s], t, frm)
                return
        self._next_draw(frm)

    # ----- winning -----------------------------------------------------------------------------
    def _visible(self, t: int, exclude_discard: bool) -> int:
        n = 0
        for pond in self.ponds:
            n += sum(1 for x, claimed in pond if x == t and not claimed)
        if exclude_discard:
            n -= 1
        for ms in self.melds:
            for m in ms:
                if not m.concealed:
                    n += m.tiles.count(t)
        return n

    def _hand_for(self, seat: int, win: int, *, self_drawn: bool, robbing: bool = False) -> Hand:
        h = list(self.hands[seat])
        if self_drawn:
            h[win] -= 1
        concealed = tuple(t for t in range(NUM_KINDS) for _ in range(h[t]))
        fourth = self._visible(win, exclude_discard=not self_drawn and not robbing) == 3
        if self_drawn:
            kong = self.draw_kind == "kong"
            last = self.last_drawn
        else:
            kong = robbing
            last = bool(self.pending and self.pending.get("last"))
        return Hand(concealed, tuple(self.melds[seat]), win, self_drawn=self_drawn, kong=kong, last=last,
                    fourth=fourth, seat_wind=self.seat_wind(seat), round_wind=self.prevalent,
                    flowers=len(self.flowers[seat]))

    def _win_hand(self, seat: int, win: int | None, *, self_drawn: bool, robbing: bool = False,
                  orphans_only: bool = False):
        """The hand if ``seat`` may win on ``win`` now, else ``None``; ``orphans_only``: the
        win must be thirteen orphans (robbing a concealed kong)."""
        if win is None:
            return None
        h = self.hands[seat]
        if not self_drawn and h[win] >= 4:
            return None
        c14 = bytearray(h)
        if not self_drawn:
            c14[win] += 1
        if not winning_shape(bytes(c14), len(self.melds[seat])):
            return None
        hand = self._hand_for(seat, win, self_drawn=self_drawn, robbing=robbing)
        f = fan_table(hand, exclusions=self.opt["exclusions"], mixed_kongs=self.opt["mixed_kongs"])
        if f is None or (orphans_only and not f[THIRTEEN_ORPHANS]):
            return None
        base = sum(n * v for n, v in zip(f, _VALUES))
        if self.opt["flowers_count_toward_min"]:
            base += hand.flowers
        return hand if base >= self.opt["min_fan"] else None

    def _settle_win(self, winners: list[int], t: int, *, self_drawn: bool, payer: int | None,
                    robbing: bool = False) -> None:
        base = self.opt["base_points"]
        pay = [0, 0, 0, 0]
        fans = {}
        duplicate = self.opt["duplicate_scoring"]
        for w in winners:
            hand = self._hand_for(w, t, self_drawn=self_drawn, robbing=robbing)
            r: FanResult = calculate(hand, exclusions=self.opt["exclusions"],
                mixed_kongs=self.opt["mixed_kongs"])
            fans[w] = {"hand": str(hand), **r.to_json()}
            total = r.total
            if self_drawn:
                for s in range(4):
                    if s != w:
                        pay[s] -= base + total
                        pay[w] += base + total
            elif duplicate:
                pay[w] += 3 * base + total
                pay[payer] -= total
            else:
                for s in range(4):
                    if s != w:
                        amount = base + total if s == payer else base
                        pay[s] -= amount
                        pay[w] += amount
        if duplicate and not self_drawn:
            for s in range(4):
                if s not in winners:
                    pay[s] -= base
        if robbing:   # a robbed added kong goes back to a pung, a concealed one to the hand
            ms = self.melds[payer]
            i = next(i for i, m in enumerate(ms)
                     if m.kind == KONG and m.tile == t and (m.added or m.concealed))
            if ms[i].concealed:
                del ms[i]
                self.hands[payer][t] += 3
            else:
                ms[i] = Meld(PUNG, t, claimed=ms[i].claimed, source=ms[i].source)
        elif not self_drawn:
            self.ponds[payer][-1][1] = True
        how = "self_drawn" if self_drawn else ("robbing_kong" if robbing else "discard")
        self._end_hand({"winners": winners, "how": how, "tile": format_tiles([t]), "from": payer,
                        "fans": {str(k): v for k, v in fans.items()}, "payments": pay})

    def _end_drawn(self) -> None:
        self._end_hand({"winners": [], "how": "drawn", "payments": [0, 0, 0, 0]})

    def _end_hand(self, info: dict[str, Any]) -> None:
        info["prevalent"] = WIND_LETTERS[self.prevalent]
        info["dealer"] = self.order[self.dealer_pos]
        super()._end_hand(info)

    def _seat_text(self, s: int) -> str:
        return seat_line(self.hands[s], self.melds[s], self.flowers[s])

    def _finish(self) -> None:
        last = self.hand_results[-1]
        if self.hands_total > 1:
            reason = "hands_played"
        else:
            reason = "win" if last["winners"] else ("penalty" if last["how"] == "penalty" else "drawn_hand")
        returns = tuple(float(x) for x in self.scores)
        best = max(self.scores)
        winners = tuple(s for s in range(4) if self.scores[s] == best) if any(self.scores) else ()
        text = _score_text(self.scores)
        if self.hands_total == 1 and last["winners"]:
            text = result_text(self.scores, [
                (w, {f["no"]: f["count"] for f in last["fans"][str(w)]["fans"]},
                    last["fans"][str(w)]["total"])
                for w in last["winners"]])
        self.result = Result(returns, reason, text, winners,
                             details=self._details(self.scores))

    def _details(self, scores: list[int]) -> dict[str, Any]:
        """``Result.details``: a copy of every finished hand (never the live list) and the table
        points of ``scores``."""
        return {"hands": copy.deepcopy(self.hand_results), "table_points": table_points(scores)}

    # ----- external endings --------------------------------------------------------------------
    def _loss_result(self, seat: int, reason: str) -> Result:
        scores = list(self.scores)
        penalty = 3 * self.opt["base_points"]
        for s in range(4):
            scores[s] += -penalty if s == seat else penalty // 3
        best = max(scores)
        return Result(tuple(float(x) for x in scores), reason, _score_text(scores),
                      tuple(s for s in range(4) if scores[s] == best),
                      details=self._details(scores))

    def _draw_result(self, reason: str) -> Result:
        return Result(tuple(float(x) for x in self.scores), reason, _score_text(self.scores), (),
                      details=self._details(self.scores))

    def _result_from_text(self, text: str, reason: str) -> Result:
        scores = read_scores(text)
        if scores is None:
            raise IllegalAction(f"a result is four scores, got {text!r}",
                                code="mahjong-gb.result_four_scores_got", params={"text": text})
        return scores_result(scores, reason)

    def default_action(self, seat: int) -> Action | None:
        """Timeout answer (rule file 2.10): pass in a window; else discard the drawn tile, or the
        last tile in canonical order; never a win or a kong."""
        if self.result is not None or seat not in self.to_act:
            return None
        if self.phase != "turn":
            return PASS
        h = self.hands[seat]
        if self.drawn is not None and h[self.drawn]:
            return Action("discard", self.drawn)
        return Action("discard", max(t for t in range(NUM_KINDS) if h[t]))

    # ----- views ---------------------------------------------------------------------------------
    def _seen_marks(self, seat: int) -> tuple:
        return (self.seat_wind(seat), self.prevalent, self.order[self.dealer_pos], None, None,
                tuple(map(tuple, self.flowers)))

    def view(self, seat: int | None = None, *, log: bool = True) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): its own concealed tiles and legal
        actions; for every seat its discards (claimed ones marked), exposed sets (which tile came
        from whom), flowers, the count of concealed kongs and of concealed tiles; the wall count,
        winds, scores and finished hands (whose hands are revealed)."""
        seats = []
        for s in range(4):
            info: dict[str, Any] = {
                "seat": s, "wind": WIND_LETTERS[self.seat_wind(s)], "score": self.scores[s],
                **public_seat(self.hands[s], self.melds[s], self.ponds[s]),
                "flowers": format_tiles(self.flowers[s], sort=False),
            }
            if s == seat:
                mine = self.current == s and self.phase == "turn"
                info.update(own_seat(self.hands[s], self.melds[s], self.drawn if mine else None))
            seats.append(info)
        out: dict[str, Any] = {
            "game": "mahjong-gb", "hand": min(self.hand_no + 1, self.hands_total),
            "hands_per_match": self.hands_total, "prevalent": WIND_LETTERS[self.prevalent],
            "dealer": self.order[self.dealer_pos], "wall": self.wall.remaining(), "phase": self.phase,
            "to_act": self.seen_to_act(seat), "seats": seats, "you": seat,
            # a view never aliases live state (a copy; none to make before the first result)
            "results": copy.deepcopy(self.hand_results) if self.hand_results else [],
        }
        claim = self.seen_claim(seat)
        if claim is not None:
            t, frm = claim
            out["claim"] = {"kind": self.pending["kind"],
                            "tile": None if t is None else format_tiles([t]), "from": frm}
        return close_view(self, out, seat, log)

    def seen_claim(self, seat: int | None) -> tuple[int | None, int] | None:
        """As the default, but a robbed concealed kong's tile is shown only to its owner."""
        p = self.pending
        if p is None:
            return None
        hidden = p["kind"] == "rob_concealed" and seat != p["from"]
        return (None if hidden else p["tile"]), p["from"]


def result_text(scores: list[int], wins: list[tuple[int, dict[int, int], int]]) -> str:
    """Result notation of a one-hand game: the scores, then each winner's fans, e.g.
    ``-8 33 -17 -8 | 1: 混一色 6, 箭刻 2, 老少副 1 = 9`` (fans in standard order, ``×n`` for counts)."""
    from .fantable import FANS

    parts = []
    for seat, fans, total in sorted(wins):
        names = ", ".join(f"{FANS[n][0]} {FANS[n][2]}" + (f"×{c}" if c > 1 else "")
                          for n, c in sorted(fans.items(), key=lambda x: 53.5 if x[0] == 82 else x[0]))
        parts.append(f"{seat}: {names} = {total}")
    return _score_text(scores) + (" | " + "; ".join(parts) if parts else "")


_score_text = score_text


from .fantable import THIRTEEN_ORPHANS  # noqa: E402
from .fantable import VALUES as _VALUES  # noqa: E402
