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
from qipai.core.game import Result, State
from qipai.core.rng import DealRng
from qipai.tiles.meld import CHOW, KONG, PUNG, Meld
from qipai.tiles.notation import Hand
from qipai.tiles.tile import FLOWER_BASE, NUM_KINDS, WIND_LETTERS, format_tiles, is_flower, parse_tiles
from qipai.tiles.tile import name as tile_name
from qipai.tiles.wall import Wall, deal_hands, shuffled

from .actions import KINDS, Action
from .fans import FanResult, calculate, fan_table

# position -> player, per round (rule file section 5): players A B C D are seats 0 1 2 3
MCR_SEATING = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1))
PASS = Action("pass")
WIN = Action("win")
PENALTY = Action("penalty")
#: what the offender pays each other seat under ``illegal_action_policy="botzone"`` (2.10)
BOTZONE_PENALTY = 10


class MahjongState(State):
    """A match in progress. See the module doc; the public surface is the State contract plus
    :meth:`view`, ``hand_results`` (one dict per finished hand) and ``scores`` (match score
    per seat)."""

    def __init__(self, game, *, seed=None, deal=None, position=None, num_seats=None):
        super().__init__(game, seed=seed, deal=deal, position=position, num_seats=4)
        if position is not None:
            raise NotationError("mahjong-gb has no position notation; use seed or deal", "position")
        if num_seats not in (None, 4):
            raise IllegalAction("mahjong-gb is played by 4 seats",
                                code="mahjong-gb.mahjong_gb_played_seats")
        o = game.options
        self.opt = o
        self.hands_total = o["hands_per_match"]
        self._deals = None
        if deal is not None:
            self._deals = _check_deal(deal, self.hands_total)
        self.rng = DealRng(seed if seed is not None else 0)
        self.scores = [0, 0, 0, 0]
        self.hand_results: list[dict[str, Any]] = []
        self.hand_no = 0
        self._start_hand()

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
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.ponds: list[list[list[Any]]] = [[] for _ in range(4)]   # [tile, claimed?]
        self.phase = "turn"
        self.current = self.order[self.dealer_pos]
        self.after_claim = False
        self.drawn: int | None = None
        self.draw_kind = "wall"      # wall / kong (replacement after a kong)
        self.last_drawn = False
        self.pending: dict[str, Any] | None = None
        self.answers: dict[int, Action] = {}
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
                replacement = True
                kind = "wall"
                continue
            break
        self.hands[seat][t] += 1
        self.drawn = t
        self.draw_kind = kind
        self.last_drawn = self.wall.is_last(seat, next_seat=self._next(seat))
        self.current = seat
        self.phase = "turn"
        self.after_claim = False
        self.waiting = (seat,)

    # ----- contract ------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.result is not None:
            return ()
        return self.waiting

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "turn":
            return self._turn_actions(seat)
        if seat in self.answers:
            return []
        return self._claim_actions(seat)

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
        h = self.hands[seat]
        if h[t] >= 3:
            out.append(Action("kong"))
        if h[t] >= 2:
            out.append(Action("pung"))
        if seat == self._next(p["from"]) and t < 27:
            r = t % 9
            for low in (t - 2, t - 1, t):
                lr = low - (t - r)
                if 0 <= lr <= 6:
                    need = [x for x in (low, low + 1, low + 2) if x != t]
                    if all(h[x] for x in need):
                        out.append(Action("chow", low))
        return out

    def _action_text(self, action: Action) -> str:
        _check_action(action)
        return str(action)

    def _apply(self, action: Action, seat: int) -> None:
        _check_action(action)
        if action.kind == "penalty":
            if self.opt["illegal_action_policy"] != "botzone":
                raise IllegalAction("a penalty exists only under illegal_action_policy=botzone", action,
                                    code="mahjong-gb.penalty_exists_only_under")
            self._penalty(seat)
            return
        legal = self._legal_actions(seat)
        if action not in legal:
            raise IllegalAction(self._why(action, seat), action)
        if self.phase == "turn":
            self._apply_turn(action, seat)
            return
        self.answers[seat] = action
        self.waiting = tuple(s for s in self.waiting if s != seat)
        if not self.waiting:
            self._resolve()

    def _why(self, action: Action, seat: int) -> str:
        h = self.hands[seat]
        if action.kind == "discard" and action.tile is not None and not h[action.tile]:
            return Message("you do not hold that tile", code="mahjong-gb.do_not_hold_tile")
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
            h[a.tile] -= 4
            self.melds[seat].append(Meld(KONG, a.tile, concealed=True))
            if self.opt["rob_concealed_kong_for_13_orphans"]:
                # every other seat answers every concealed kong, so the window tells nobody its
                # kind; only a seat that can rob it with thirteen orphans is offered a win
                self._open_window("rob_concealed", a.tile, seat, self._others(seat), last=False)
                return
            self._draw(seat, "kong")
            return
        if a.kind == "add":
            h[a.tile] -= 1
            i = next(i for i, m in enumerate(self.melds[seat]) if m.kind == PUNG and m.tile == a.tile)
            old = self.melds[seat][i]
            self.melds[seat][i] = Meld(KONG, a.tile, claimed=old.claimed, source=old.source, added=True)
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

    def _others(self, seat: int) -> list[int]:
        return [self._next(seat, i) for i in (1, 2, 3)]

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
        for s in order:
            a = self.answers.get(s)
            if a is not None and a.kind in ("kong", "pung"):
                self._claim_set(s, a, t, frm)
                return
        for s in order:
            a = self.answers.get(s)
            if a is not None and a.kind == "chow":
                self._claim_set(s, a, t, frm)
                return
        self._next_draw(frm)

    def _claim_set(self, s: int, a: Action, t: int, frm: int) -> None:
        h = self.hands[s]
        self.ponds[frm][-1][1] = True
        if a.kind == "chow":
            for x in (a.tile, a.tile + 1, a.tile + 2):
                if x != t:
                    h[x] -= 1
            self.melds[s].append(Meld(CHOW, a.tile, claimed=t, source=frm))
        elif a.kind == "pung":
            h[t] -= 2
            self.melds[s].append(Meld(PUNG, t, claimed=t, source=frm))
        else:
            h[t] -= 3
            self.melds[s].append(Meld(KONG, t, claimed=t, source=frm))
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
        if not self_drawn and self.hands[seat][win] >= 4:
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
        info["hand"] = self.hand_no + 1
        info["prevalent"] = WIND_LETTERS[self.prevalent]
        info["dealer"] = self.order[self.dealer_pos]
        info["revealed"] = {str(s): self._seat_text(s) for s in range(4)}
        for s in range(4):
            self.scores[s] += info["payments"][s]
        self.hand_results.append(info)
        self.waiting = ()
        self.pending = None
        self.answers = {}
        self.hand_no += 1
        if self.hand_no >= self.hands_total:
            single = "win" if info["winners"] else ("penalty" if info["how"] == "penalty" else "drawn_hand")
            self._finish("hands_played" if self.hands_total > 1 else single)
        else:
            self._start_hand()

    def _seat_text(self, s: int) -> str:
        h = self.hands[s]
        parts = [format_tiles([t for t in range(NUM_KINDS) for _ in range(h[t])])]
        parts += [str(m) for m in self.melds[s]]
        if self.flowers[s]:
            parts.append(format_tiles(self.flowers[s]))
        return " ".join(p for p in parts if p)

    def _finish(self, reason: str) -> None:
        returns = tuple(float(x) for x in self.scores)
        best = max(self.scores)
        winners = tuple(s for s in range(4) if self.scores[s] == best) if any(self.scores) else ()
        text = _score_text(self.scores)
        if self.hands_total == 1 and self.hand_results[-1]["winners"]:
            last = self.hand_results[-1]
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
        try:
            scores = [int(x) for x in text.split()]
        except ValueError:
            raise IllegalAction(f"a result is four scores, got {text!r}",
                                code="mahjong-gb.result_four_scores_got", params={"text": text}) from None
        if len(scores) != 4:
            raise IllegalAction(f"a result is four scores, got {text!r}",
                                code="mahjong-gb.result_four_scores_got", params={"text": text})
        best = max(scores)
        return Result(tuple(float(x) for x in scores), reason, _score_text(scores),
                      tuple(s for s in range(4) if scores[s] == best))

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
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): its own concealed tiles and legal
        actions; for every seat its discards (claimed ones marked), exposed sets (which tile came
        from whom), flowers, the count of concealed kongs and of concealed tiles; the wall count,
        winds, scores and finished hands (whose hands are revealed)."""
        seats = []
        for s in range(4):
            info: dict[str, Any] = {
                "seat": s, "wind": WIND_LETTERS[self.seat_wind(s)], "score": self.scores[s],
                "discards": [{"tile": format_tiles([t]), "claimed": c} for t, c in self.ponds[s]],
                "melds": [m.to_json() if not m.concealed else {"kind": "kong", "concealed": True}
                          for m in self.melds[s]],
                "flowers": format_tiles(self.flowers[s], sort=False),
                "concealed_count": sum(self.hands[s]),
            }
            if s == seat:
                info["hand"] = format_tiles([t for t in range(NUM_KINDS) for _ in range(self.hands[s][t])])
                info["melds"] = [m.to_json() for m in self.melds[s]]
                info["drawn"] = format_tiles([self.drawn]) if self.drawn is not None and self.current == s \
                    and self.phase == "turn" else None
            seats.append(info)
        out: dict[str, Any] = {
            "game": "mahjong-gb", "hand": min(self.hand_no + 1, self.hands_total),
            "hands_per_match": self.hands_total, "prevalent": WIND_LETTERS[self.prevalent],
            "dealer": self.order[self.dealer_pos], "wall": self.wall.remaining(), "phase": self.phase,
            "to_act": list(self.to_act), "seats": seats, "you": seat,
            "results": copy.deepcopy(self.hand_results),   # a view never aliases live state
        }
        if self.pending is not None:
            hidden = self.pending["kind"] == "rob_concealed" and seat != self.pending["from"]
            out["claim"] = {"kind": self.pending["kind"],
                            "tile": None if hidden else format_tiles([self.pending["tile"]]),
                            "from": self.pending["from"]}
        if self.phase == "turn":
            out["current"] = self.current
        if seat is not None:
            out["legal"] = [str(a) for a in self.legal_actions(seat)]
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out


def _check_action(action: Any) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is an :class:`Action` of a known kind naming
    a playing tile (kinds 0..33; a chow by its lowest tile, ranks 1..7 of a suit) or no tile."""
    if not isinstance(action, Action):
        raise IllegalAction(f"not a mahjong-gb action: {action!r}", repr(action),
                            code="mahjong-gb.not_mahjong_gb_action", params={"action": action})
    t = action.tile
    if action.kind not in KINDS:
        raise IllegalAction(f"unknown action kind {action.kind!r}", repr(action),
                            code="mahjong-gb.unknown_action_kind", params={"kind": action.kind})
    if t is not None and (type(t) is not int or not 0 <= t < NUM_KINDS
                          or (action.kind == "chow" and (t >= 27 or t % 9 > 6))):
        raise IllegalAction(f"no such tile or chow: {t!r}", repr(action),
                            code="mahjong-gb.no_such_tile_chow", params={"text": t})


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


def _score_text(scores: list[int]) -> str:
    return " ".join(str(int(x)) for x in scores)


def table_points(scores: list[int]) -> list[float]:
    """Table points 4/2/1/0 by match score; tied seats share the places they occupy."""
    pts = [4, 2, 1, 0]
    order = sorted(range(4), key=lambda s: -scores[s])
    out = [0.0] * 4
    i = 0
    while i < 4:
        j = i
        while j + 1 < 4 and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(pts[i:j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


def _check_deal(deal: Any, hands_total: int) -> list[dict[str, Any]]:
    """Validate an explicit deal: a list (one per hand) of ``{"hands": [4 × 13 tiles by seat],
    "wall": "..." | "segments": [4 × "..."], "prevalent": 0..3, "dealer_position": 0..3}``."""
    items = deal if isinstance(deal, list) else [deal]
    if len(items) < hands_total:
        raise NotationError(f"the deal covers {len(items)} hands, the match has {hands_total}", "deal")
    out = []
    for i, d in enumerate(items):
        if not isinstance(d, dict) or "hands" not in d or ("wall" not in d and "segments" not in d):
            raise NotationError(f"hand {i + 1}: a deal needs 'hands' and 'wall' or 'segments'", "deal")
        hands = [parse_tiles(h) if isinstance(h, str) else list(h) for h in d["hands"]]
        if len(hands) != 4 or any(len(h) != 13 for h in hands):
            raise NotationError(f"hand {i + 1}: four hands of 13 tiles", "deal")
        item = {"hands": hands}
        if "wall" in d:
            item["wall"] = parse_tiles(d["wall"]) if isinstance(d["wall"], str) else list(d["wall"])
        else:
            item["segments"] = [parse_tiles(s) if isinstance(s, str) else list(s) for s in d["segments"]]
        for key in ("prevalent", "dealer_position"):
            if key in d:
                item[key] = int(d[key]) % 4
        _check_tile_counts(i + 1, item)
        out.append(item)
    return out


def _check_tile_counts(number: int, item: dict[str, Any]) -> None:
    """A hand's tiles, hands and wall together: at most four of each playing kind and one of
    each flower (so never more than a set). Raises NotationError naming the first kind over its
    count."""
    from collections import Counter

    tiles = [t for h in item["hands"] for t in h]
    tiles += item["wall"] if "wall" in item else [t for seg in item["segments"] for t in seg]
    for kind, n in sorted(Counter(tiles).items()):
        most = 1 if is_flower(kind) else 4
        if n > most:
            raise NotationError(f"hand {number}: {n} copies of {tile_name(kind)} (a set has {most})", "deal")


from .fantable import THIRTEEN_ORPHANS  # noqa: E402
from .fantable import VALUES as _VALUES  # noqa: E402
