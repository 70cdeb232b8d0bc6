"""The end of a hand of 升级: the sanctions of §5.3 (a refused action's fault, a failed throw, a
misdeal or a wrong kitty) and the score of §4 (trick points, the kitty multiplier, the outcome in
levels), with the external endings (a forfeit, a recorded result)."""

from __future__ import annotations

import re

from qipai.core.errors import IllegalAction
from qipai.core.game import Result

from .actions import Action, Fault
from .scoring import (
    advance,
    kitty_multiplier,
    level_up_at,
    outcome_text,
    table_outcome,
    take_over_at,
    target_met,
)
from .seats import SEATS, team_of
from .trump import face_points


class Ending:
    """Sanctions and scoring of :class:`~.state.ShengjiState` (which mixes this in)."""

    # ----- sanctions (§5.3) ------------------------------------------------------------------------
    def penalize_illegal(self, seat: int) -> bool:
        """The sanction for the submission of ``seat`` that :meth:`apply` just refused (§5.3),
        called by the match layer after a refusal. With ``strict`` off (or sanctions ``none``)
        nothing happens and ``False`` is returned. ``s000``: a refused play costs 10 × its cards
        (like §4.3), a play or bury with a wrong number of cards is a count error, a bury of
        the wrong size ends the hand as "take over". ``s002``: a refused follow is a follow
        error. Each sanction is logged as a ``fault`` entry so that a replay does the same."""
        o = self.opt
        refused, self._refused = self._refused, None
        if not o["strict"] or o["sanctions"] == "none" or self.result is not None or refused is None:
            return False
        rseat, action = refused
        if rseat != seat or seat not in self.to_act:
            return False
        if isinstance(action, str):
            try:
                action = self.game.parse_action(action, self)
            except IllegalAction:
                return False
        if not isinstance(action, Action):
            return False
        team = team_of(seat)
        faults: list[Fault] = []
        if o["sanctions"] == "s000":
            if self.phase == "bury" and action.kind == "bury" and len(action.faces) != self.kitty_size:
                faults = [Fault("count", team), Fault("bury", team)]
            elif self.phase == "play" and action.kind == "play":
                faults = [Fault("play", team, len(action.faces))]
                if self.trick and len(action.faces) != self.lead_n:
                    faults.append(Fault("count", team))
        elif self.phase == "play" and self.trick and action.kind == "play":
            faults = [Fault("follow", team)]
        for f in faults:
            if self.result is None:
                self.apply(f, seat)
        return bool(faults)

    def _check_fault(self, fault: Fault, seat: int) -> None:
        """Refuse a sanction entry that ``seat`` may not make (see :meth:`apply`)."""
        if fault.team != team_of(seat):
            raise IllegalAction(f"a fault entry is for the team of the seat that enters it: seat {seat} "
                                f"is in team {team_of(seat)}, not {fault.team}", fault,
                                code="shengji.fault_entry_team_seat",
                                params={"seat": seat, "seat2": team_of(seat), "team": fault.team})
        if fault.kind in ("play", "bury"):
            o = self.opt
            if not o["strict"] or o["sanctions"] != "s000":
                raise IllegalAction(f"'fault {fault.kind}' is an s000 sanction: it needs strict=true "
                                    "with sanctions s000", fault,
                                    code="shengji.fault_sanction_needs_strict", params={"kind": fault.kind})
            if seat not in self.to_act:
                raise IllegalAction(f"'fault {fault.kind}' comes from the seat on turn", fault,
                                    code="shengji.fault_comes_seat_turn", params={"kind": fault.kind})
            if fault.kind == "bury" and (self.phase != "bury" or seat != self.dealer):
                raise IllegalAction("'fault bury' is the dealer's wrong-size bury, in the bury phase", fault,
                                    code="shengji.fault_bury_dealer_wrong")
            if fault.kind == "play" and self.phase != "play":
                raise IllegalAction("'fault play' is an illegal play, in the play phase", fault,
                                    code="shengji.fault_play_illegal_play")

    def _apply_fault(self, fault: Fault) -> None:
        """A sanction entry (from :meth:`penalize_illegal` or entered by a referee)."""
        if self.phase in ("over",):
            raise IllegalAction("the hand is over", fault, code="shengji.hand_over")
        if fault.kind in ("play", "bury") and self.dealer is None:
            raise IllegalAction("this sanction needs a dealer (after the declarations)", fault,
                                code="shengji.sanction_needs_dealer_after")
        self.faults.append({"kind": fault.kind, "team": fault.team, "cards": fault.cards})
        if fault.kind == "follow":
            self.follow_errors[fault.team] += 1
        elif fault.kind == "count":
            self.count_errors[fault.team] += 1
        elif fault.kind == "play":
            pen = 10 * fault.cards
            self.penalty += -pen if fault.team != team_of(self.dealer) else pen
        else:                                          # bury of the wrong size: take over at once
            self._finish("take", 0, self.dealer, ended_by="bury_fault")

    # ----- scoring (§4) --------------------------------------------------------------------------
    def _score(self, last_winner: int, last_fmt: list[tuple[str, int]]) -> None:
        o = self.opt
        dealer_team = team_of(self.dealer)
        kitty_pts = sum(face_points(c.face) for c in self.buried)
        mult = 0
        if team_of(last_winner) != dealer_team:
            mult = kitty_multiplier(last_fmt, o["kitty_multiplier"], self.decks)
        bonus = kitty_pts * mult
        total = self.trick_points + bonus + self.penalty
        kind, k = table_outcome(total, o["score_table"])
        self._finish(kind, k, self.dealer, kitty=(kitty_pts, mult, bonus, total))

    def _finish(self, kind: str, k: int, dealer: int, kitty: tuple[int, int, int, int] | None = None,
                ended_by: str = "hand_over") -> None:
        o = self.opt
        dealer_team = team_of(dealer)
        kitty_pts, mult, bonus, total = kitty or (0, 0, 0, self.trick_points + self.penalty)
        before = list(self.levels)
        after = list(self.levels)
        must = o["must_play_levels"]
        if kind == "D":
            gain_team, next_dealer = dealer_team, (self.dealer + 2) % SEATS
            after[dealer_team] = advance(before[dealer_team], k, must, defended=True)
        else:
            gain_team, next_dealer = 1 - dealer_team, (self.dealer + 1) % SEATS
            after[gain_team] = advance(before[gain_team], k, must, defended=False)
        for t in (0, 1):                               # s002 follow errors: a level each (§5.3)
            if self.follow_errors[t]:
                after[t] = max(o["start_level"], after[t] - self.follow_errors[t])
                if t == dealer_team:
                    next_dealer = (self.dealer + 1) % SEATS
        gains = [after[t] - before[t] for t in (0, 1)]
        winner_team = None
        for t in (gain_team, 1 - gain_team):
            if target_met(after[t], o["target"]):
                winner_team = t
                break
        details = {
            "dealer": self.dealer, "dealer_team": dealer_team, "attackers": 1 - dealer_team,
            "level": self.level, "trump": self.trump.spec if self.trump else None,
            "trump_name": self.trump_name,
            "trick_points": self.trick_points, "kitty_points": kitty_pts, "kitty_multiplier": mult,
            "kitty_bonus": bonus, "penalty": self.penalty, "attack_total": total,
            "take_at": take_over_at(o["score_table"]), "up_at": level_up_at(o["score_table"]),
            "outcome": outcome_text((kind, k)), "levels_before": before, "levels": after,
            "gains": gains, "next_dealer": next_dealer, "on_stage": team_of(next_dealer),
            "match_winner": winner_team, "failed_throws": [dict(x) for x in self.failed_throws],
            "buried": [c.face for c in self.buried],
            "faults": [dict(x) for x in self.faults], "follow_errors": list(self.follow_errors),
            "count_errors": list(self.count_errors),
        }
        returns = tuple(float(gains[team_of(s)]) for s in range(SEATS))
        winners = tuple(s for s in range(SEATS) if team_of(s) == gain_team)
        self.phase = "over"
        self.turn = None
        self.result = Result(returns, ended_by, outcome_text((kind, k)), winners, details)

    def _loss_result(self, seat: int, reason: str) -> Result:
        """Decision: a forfeit (resign, timeout, illegal moves) ends the hand with no level
        change; the other team are the winners and ``details["forfeit_team"]`` names the
        losing team for the match layer."""
        t = team_of(seat)
        self.phase = "over"
        self.turn = None
        return Result((0.0,) * SEATS, reason, f"forfeit by {t}+{t + 2}",
                      tuple(s for s in range(SEATS) if team_of(s) != t),
                      {"forfeit_team": t, "levels": list(self.levels), "dealer": self.dealer})

    def _result_from_text(self, text: str, reason: str) -> Result:
        """Reads ``forfeit by 0+2`` / ``forfeit by 1+3`` (the text of a forfeit), or a hand played
        on paper: ``dealer D attack S`` — seat D (0-3) was the dealer and the attackers' total,
        kitty bonus and penalties included, was S points; the levels follow from the score table
        (§4.4-4.5) as if the hand had been played here. The dealer must be the one this hand
        has when it is known before the declarations."""
        for t in (0, 1):
            if text == f"forfeit by {t}+{t + 2}":
                return self._loss_result(t, reason)
        m = re.fullmatch(r"dealer ([0-3]) attack (-?\d+)", text.strip())
        if m is None:
            raise IllegalAction("a recorded shengji ending is 'forfeit by 0+2', 'forfeit by 1+3' or "
                                f"'dealer D attack S' (a hand played on paper), not {text!r}",
                                code="shengji.recorded_shengji_ending_forfeit", params={"text": text})
        dealer, total = int(m.group(1)), int(m.group(2))
        if not self.first_hand and dealer != self.dealer:
            raise IllegalAction(f"this hand's dealer is seat {self.dealer}, not {dealer}",
                                code="shengji.entered_dealer", params={"seat": self.dealer, "given": dealer})
        self.dealer = dealer
        self.level = self.levels[team_of(dealer)]
        kind, k = table_outcome(total, self.opt["score_table"])
        self._finish(kind, k, dealer, kitty=(0, 0, 0, total), ended_by=reason)
        result, self.result = self.result, None
        return result
