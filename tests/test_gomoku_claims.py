"""Claim mode (rules/gomoku.md §3.4, ``forbidden_handling = claim``): a claim against a stone that
was not forbidden is refused *as a logged action* (the rule file's "may not claim that stone
again"), and that stone can never be claimed again; a claim refused for any other reason is an
IllegalAction that leaves the state exactly as it was."""

from __future__ import annotations

import pytest

import qipai

from .refusals import refused as refused_action
from .test_gomoku_rules import CASE2, renju


def claim_mode(**options):
    return renju(forbidden_handling="claim", **options).new_state(position=CASE2)


def refused(state, action="claim_forbidden", seat=None):
    return refused_action(state, action, seat)


def test_a_refused_claim_is_logged_and_shown():
    s = claim_mode()
    s.apply("a15")                                       # not forbidden
    s.apply("claim_forbidden")
    assert s.log[-1] == "claim_forbidden" and s.result is None and s.current_player == 1
    assert s.claims == [("a15", None)]
    assert s.view(None)["claims"] == [{"point": "a15", "upheld": False}]
    again = qipai.replay(s.to_record())
    assert again.claims == s.claims and again.view(0) == s.view(0)


def test_the_same_stone_can_never_be_claimed_again():
    s = claim_mode()
    s.apply("a15")
    s.apply("claim_forbidden")
    e = refused(s)
    assert e.code == "gomoku.claim_already_refused" and e.params == {"point": "a15"}
    assert not s.view(1)["choices"]["claim"]
    assert "claim_forbidden" not in {str(a) for a in s.legal_actions()}
    s.apply("b15")                                      # White plays on
    s.apply("o1")                                       # a new black stone may be claimed
    s.apply("claim_forbidden")
    assert s.claims == [("a15", None), ("o1", None)]
    s.apply("c15")
    assert refused(s, seat=0).code == "gomoku.no_black_stone_claim"   # Black never claims
    assert refused(s, seat=1).code == "seat_not_act_act"


def test_an_upheld_claim_ends_the_game_and_is_shown():
    s = claim_mode()
    s.apply("i9")                                       # double three
    s.apply("claim_forbidden")
    assert s.result.reason == "double_three" and s.claims == [("i9", "double_three")]
    assert s.view(None)["claims"] == [{"point": "i9", "upheld": True}]
    e = refused(s)
    assert e.code == "game_over"


@pytest.mark.parametrize("handling", ["loss", "reject"])
def test_no_claim_outside_claim_mode(handling):
    s = renju(forbidden_handling=handling).new_state(position=CASE2)
    s.apply("a15")
    e = refused(s)
    assert e.code == "gomoku.no_black_stone_claim"


def test_claims_refused_for_other_reasons_change_nothing():
    s = claim_mode()
    e = refused(s)                                      # Black to move: nothing to claim
    assert e.code in ("gomoku.no_black_stone_claim", "seat_not_act_act")
    s.apply("i9")
    s.apply("a15")                                      # White plays on: the right lapses
    s.apply("o15")
    s.apply("a14")                                      # Black to move: no claim is open
    e = refused(s)
    assert e.code == "gomoku.no_black_stone_claim"
    assert s.claims == []
    free = qipai.load("gomoku", ruleset="freestyle").new_state()
    free.apply("h8")
    assert refused(free).code == "gomoku.no_black_stone_claim"


def test_claims_in_an_opening_phase_change_nothing():
    s = renju(forbidden_handling="claim", opening="designated_two5", opening_name="I2").new_state()
    s.apply("h10")
    assert s.phase() == "offer"
    refused(s)
    s.apply("offer:j8,k11")
    assert refused(s).code == "gomoku.white_must_choose_black"
