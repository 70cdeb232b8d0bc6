"""One-deck 升级 (打百分 / 40分, issue 15): ``decks=1`` is the reconstructed profile ``one_deck``
(docs/games/shengji.md): 54 cards, 12 each, a 6-card kitty, 100 points, the one-deck score table,
pairs and tractors as with two decks (two identical cards, which one pack never holds)."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.bots import make_bot
from qipai.core.errors import IllegalAction, NotationError, OptionError
from qipai.games.shengji.scoring import table_outcome

from .shengji_helpers import deal_with, position


# ----- the score table at every threshold ------------------------------------------------------
@pytest.mark.parametrize("total, outcome", [
    (-10, ("D", 3)), (0, ("D", 3)),
    (5, ("D", 2)), (10, ("D", 2)), (15, ("D", 2)),
    (20, ("D", 1)), (35, ("D", 1)),
    (40, ("take", 0)), (55, ("take", 0)),
    (60, ("A", 1)), (75, ("A", 1)),
    (80, ("A", 2)), (95, ("A", 2)),
    (100, ("A", 3)), (120, ("A", 3)), (180, ("A", 3)),
])
def test_one_deck_score_table(total, outcome):
    assert table_outcome(total, "t_one_deck") == outcome


# ----- the profile ---------------------------------------------------------------------------
def test_decks_1_selects_the_one_deck_profile():
    game = qipai.load("shengji", decks=1)
    o = game.options
    assert (o["profile"], o["decks"], o["kitty_size"], o["score_table"]) == ("one_deck", 1, 6, "t_one_deck")
    assert (o["declaration"], o["no_declaration"], o["kitty_multiplier"], o["target"]) == \
        ("ladder2", "kitty_first", "exponential", "pass_10")
    assert qipai.load("dabaifen").options == o
    state = game.new_state(seed=3)
    while state.phase == "deal":
        state.apply(state.default_action(state.to_act[0]), seat=state.to_act[0])
    sizes = [len(state.hands[s]) if isinstance(state.hands[s], list) else sum(state.hands[s].values())
             for s in range(4)]
    assert sum(sizes) + len(state.kitty) == 54 and len(state.kitty) == 6


@pytest.mark.parametrize("bad", [{"decks": 1, "kitty_size": 8}, {"decks": 1, "score_table": "t000"},
                                 {"decks": 2, "score_table": "t_one_deck"},
                                 {"profile": "one_deck", "decks": 2}])
def test_one_deck_options_must_agree(bad):
    with pytest.raises(OptionError):
        qipai.load("shengji", **bad)


def test_a_second_copy_of_a_card_does_not_exist():
    game = qipai.load("shengji", decks=1)
    with pytest.raises(IllegalAction) as e:
        game.parse_action("AS1")
    assert e.value.code == "shengji.does_not_exist_game" and e.value.params["decks"] == 1
    s = one(["AH 3C 4C", "KH 5C 6C", "QH 7C 8C", "JH 9C TC"])
    with pytest.raises(NotationError):
        one(["AH AH 4C", "KH 5C 6C", "QH 7C 8C", "JH 9C TC"])      # two ♥A in one pack
    assert s.decks == 1


# ----- follow rules with one deck ---------------------------------------------------------------
def one(hands, **kw):
    return position(hands, 2, "S", decks=1, **kw)


def test_no_pairs_with_one_deck_two_cards_of_a_rank_are_two_singles():
    s = one(["AH AD 3C", "KH 4C 5C", "QH JH 6C", "TH 9H 7C"])
    lead = {str(a) for a in s.legal_actions()}
    assert "AH AD" not in lead                      # two suits: never one play
    s.apply("AH")
    assert {str(a) for a in s.legal_actions()} == {"KH"}      # must follow hearts
    with pytest.raises(IllegalAction):
        s.apply("4C")


def test_throw_of_singles_and_its_follow():
    # seat 0 throws ♥A ♥K (both unbeatable in hearts); seat 1 holds two hearts and must play both
    s = one(["AH KH 3C", "QH JH 4C", "TH 5C 6C", "9H 7C 8C"])
    s.apply("AH KH")
    assert s.trick[-1][0] == 0
    with pytest.raises(IllegalAction):
        s.apply("QH 4C")
    s.apply("QH JH")
    with pytest.raises(IllegalAction):
        s.apply("5C 6C")                               # must play its one heart
    s.apply("TH 5C")
    s.apply("9H 7C")
    assert s.trick == [] and s.turn == 0


def test_a_failed_throw_plays_the_lowest_single_and_costs_ten_a_card():
    s = one(["AH QH 3C", "KH JH 4C", "TH 5C 6C", "9H 7C 8C"])
    s.apply("AH QH")                                 # seat 1's ♥K beats ♥Q: the throw fails
    assert s.failed_throws == [{"seat": 0, "attempted": ["AH", "QH"], "forced": ["QH"], "penalty": 20,
                                "trick": 1}]
    assert s.trick == [(0, ("QH",))] and s.penalty == 20


def test_trumps_with_one_deck_level_cards_and_jokers():
    s = one(["AH 3C 4C", "2S 5C 6C", "BJ 7C 8C", "2H 9C TC"])
    s.apply("AH")
    assert {str(a) for a in s.legal_actions()} == {"2S", "5C", "6C"}
    s.apply("2S")                                    # trump level card
    s.apply("BJ")
    s.apply("2H")
    assert s.trick == [] and s.turn == 2               # the big joker wins


# ----- playouts ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_finish_with_100_points(seed):
    rng = random.Random(seed)
    state = qipai.load("shengji", decks=1).new_state(seed=seed)
    for _ in range(500):
        if state.is_terminal():
            break
        seat = rng.choice(state.to_act)
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    assert state.is_terminal()
    d = state.result.details
    assert 0 <= d["trick_points"] <= 100
    assert d["outcome"] == {("D", 3): "D+3", ("D", 2): "D+2", ("D", 1): "D+1", ("take", 0): "take over",
                            ("A", 1): "A+1", ("A", 2): "A+2", ("A", 3): "A+3"}[
        table_outcome(d["attack_total"], "t_one_deck")]
    again = qipai.replay(state.to_record())
    assert again.result.returns == state.result.returns


@pytest.mark.parametrize("seed", range(3))
def test_bot_and_default_playouts_finish(seed):
    from qipai.bots import make_bot

    game = qipai.load("shengji", decks=1)
    state = game.new_state(seed=seed)
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    for _ in range(500):
        if state.is_terminal():
            break
        seat = state.to_act[0]
        act = bots[seat].choose(state, seat) if seed % 2 else state.default_action(seat)
        state.apply(act, seat=seat)
    assert state.is_terminal()


def test_a_deal_with_chosen_hands():
    deal = deal_with([["2S"], ["2H"], [], []], [], decks=1)
    assert len(deal["order"]) == 54
    state = qipai.load("shengji", decks=1).new_state(deal=deal)
    assert state.phase == "deal"


def test_a_one_deck_table_of_bots_and_a_server_table(tmp_path):
    """The match runner plays a one-deck hand with four rule bots on the card clock, and the
    server opens a one-deck table (the options are kept, the seats are 4)."""
    import asyncio

    from qipai.match import GameRunner, VirtualTime
    from qipai.match.players import BotPlayer
    from tests.server_helpers import client, post, signup

    game = qipai.load("shengji", decks=1)
    players = [BotPlayer(make_bot("shengji", "rule", s)) for s in range(4)]
    out = asyncio.run(GameRunner(game, players, clock="card_default", time=VirtualTime(), seed=8).run())
    assert out.result is not None and out.result.reason == "hand_over"
    assert 0 <= out.result.details["trick_points"] <= 100
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        tb = post(c, alice, "/api/tables", {"game": "shengji", "options": {"decks": 1}, "bots": 3}).json()
        assert tb["num_seats"] == 4 and tb["options"]["profile"] == "one_deck"
        assert tb["options"]["kitty_size"] == 6 and tb["marking"] is None
