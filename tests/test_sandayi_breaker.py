"""Adversarial checks of the 三打一 referee (rules/sandayi.md): action objects built directly
(not parsed from text) that break a rule, and every refused action leaving the state unchanged."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

import qipai
from qipai.cards.tokens import Bid
from qipai.core.errors import IllegalAction
from qipai.games.sandayi.actions import Bury, NameTrump
from qipai.games.sandayi.game import Sandayi
from qipai.games.sandayi.play import run

GAME = qipai.load("sandayi")


def snap(state) -> str:
    return json.dumps([state.to_json(), [state.view(s) for s in (0, 1, 2, 3, None)]], sort_keys=True)


def refused(state, action, seat) -> str:
    before = snap(state)
    with pytest.raises(IllegalAction) as e:
        state.apply(action, seat)
    assert snap(state) == before
    return str(e.value)


def at_bury(contract: int = 70):
    state = GAME.new_state(seed=1)
    first = state.turn
    state.apply(f"bid {contract}", first)
    for i in (1, 2, 3):
        state.apply("pass", (first + i) % 4)
    assert state.phase == "bury"
    return state, state.dealer


def test_s2_5_bury_object_repeating_a_card_is_refused():
    # §2.5 rule 2: exactly six cards of the hand; one card named six times is not six cards
    state, dealer = at_bury()
    card = state.hands[dealer][0]
    assert "6" in refused(state, Bury((card,) * 6), dealer)
    five = tuple(state.hands[dealer][:5])
    refused(state, Bury((*five, five[0])), dealer)
    assert len(state.hands[dealer]) == 18
    # six distinct cards are still taken
    state.apply(Bury(tuple(state.hands[dealer][:6])), dealer)
    assert len(state.hands[dealer]) == 12 and len(state.buried) == 6


def test_s2_6_trump_object_naming_no_suit_is_refused():
    # §2.6: the dealer names one of S, H, D, C; a NameTrump of anything else is no suit
    state, dealer = at_bury()
    state.apply(state.default_action(dealer), dealer)
    for bad in ("X", "NT", "T", "", "h"):
        refused(state, NameTrump(bad), dealer)
    assert state.phase == "trump" and state.trump is None
    state.apply(NameTrump("H"), dealer)
    assert state.trump == "H"


def test_s2_4_bid_object_with_a_non_integer_value_is_refused():
    # §2.4 rule 2: a bid is a value of `bids`; bid 60.0 would be logged as "bid 60.0", which no
    # replay can read back
    state = GAME.new_state(seed=1)
    first = state.turn
    for bad in (60.0, True, "60", None):
        refused(state, Bid(bad), first)
    state.apply(Bid(60), first)
    replayed = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert replayed.log == state.log == ["bid 60"]


def test_s2_5_terminal_does_not_show_a_bot_dealers_buried_cards_to_the_human_defender():
    # §2.5 rule 3: the buried cards stay hidden from the defenders until the end of the hand; the
    # terminal table must not print the dealer bot's bury action with its cards
    class Watched(Sandayi):
        """The game whose last new state the scripted human can ask for its timeout action."""

        last = None

        def new_state(self, **kw):
            Watched.last = super().new_state(**kw)
            return Watched.last

    out = io.StringIO()
    state = run(Watched(), seat=0, seed=3, console=Console(file=out, width=140),
                read_line=lambda prompt: str(Watched.last.default_action(0)))
    assert state.is_terminal() and state.dealer != 0
    text = out.getvalue().split("Hand over")[0]
    dealer = ("Right", "Across", "Left")[state.dealer - 1]       # the terminal names seats by place
    bury_lines = [ln for ln in text.splitlines() if re.match(rf"{dealer} \([^)]*\): bury", ln)]
    assert len(bury_lines) == 1, text
    assert not any(re.search(rf"\b{c.face}\b", bury_lines[0]) for c in state.buried), bury_lines[0]


def test_s2_3_hand_ended_before_a_contract_passes_its_first_bidder_on():
    # §2.3: later hands are opened by the previous dealer; a hand forfeited during the bidding
    # has none, so the next hand keeps this hand's first bidder (as a redeal does, §2.4 rule 4)
    # instead of falling back to hand 1's 3D rule
    for forfeit_seat in range(4):
        state = GAME.new_state(seed=11, deal={"first_bidder": 2})
        state.apply("pass", 2)
        state.forfeit(forfeit_seat, "timeout")
        assert state.result.details["next_first_bidder"] == 2
    state = GAME.new_state(seed=11)
    first = state.first_bidder
    state.end_by_result_text("-3 +1 +1 +1", "arbiter")
    assert state.result.details["next_first_bidder"] == first
