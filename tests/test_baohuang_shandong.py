"""山东保皇 as baohuang's experimental rule set ``sdbh.provisional`` (rules/baohuang.md Part B §B4):
the §B6 edge cases, the deal, following, scoring, playouts, and the marking that says
"experimental" in ``qipai games``, ``/api/games``, the lobby's table list and the table."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

import qipai
from qipai.bots import make_bot
from qipai.cli import app
from qipai.core.errors import IllegalAction, NotationError
from qipai.games.baohuang import shandong as sd

from .refusals import refused

RULESET = "sdbh.provisional"
GAME = qipai.load("baohuang", ruleset=RULESET)


def deal(hands: list[str], draw: str = "BJ0 3D0 4D0 5D0") -> dict:
    """A deal: seat s holds the card ids of ``hands[s]``; the draw makes seat 0 start."""
    return {"draw": draw.split(), "hands": [h.split() for h in hands]}


def full_deal(first: list[str]) -> dict:
    """Seat 0..3 start with the given cards; the rest of the pack fills 14/14/13/13."""
    used = {c for h in first for c in h.split()}
    rest = [c.id for c in sd.DECK if c.id not in used]
    hands = [h.split() for h in first]
    for s, size in enumerate((14, 14, 13, 13)):
        while len(hands[s]) < size:
            hands[s].append(rest.pop())
    return {"draw": ["BJ0", "3D0", "4D0", "5D0"], "hands": hands}


# ----- §B6 edge cases -------------------------------------------------------------------------
def test_b6_1_straights_with_the_ace_at_either_end_never_wrapping():
    assert str(GAME.parse_action("A23")) == "A23" and GAME.parse_action("A23").key == 2
    assert str(GAME.parse_action("AKQ")) == "QKA" and GAME.parse_action("QKA").key == 13
    for bad in ("KA2", "QKA2", "A2K"):
        with pytest.raises(IllegalAction) as e:
            GAME.parse_action(bad)
        assert e.value.code == "sdbh.not_a_play"
    assert GAME.parse_action("23456789TJQKA").key == 13         # thirteen ranks: ace high
    with pytest.raises(IllegalAction):
        GAME.parse_action("34L")                                # no jokers in straights
    with pytest.raises(IllegalAction):
        GAME.parse_action("LB")                                 # the jokers are two ranks


def test_b6_2_singles_order_and_b6_3_first_out_scores_zero():
    three, two, lj, ace = (GAME.parse_action(x) for x in ("3", "2", "L", "A"))
    assert three.beats(two) and lj.beats(ace) and GAME.parse_action("B").beats(lj)
    assert not two.beats(three)
    s = GAME.new_state(deal=full_deal(["3S0 4S0", "", "", ""]))
    while not s.is_terminal():
        seat = s.current_player
        s.apply(s.default_action(seat))
    d = s.result.details
    assert d["points"][d["out"]] == 0 and s.result.winners == (d["out"],)


# ----- deal and start player --------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_seeded_deal_start_player_and_hand_sizes(seed):
    s = GAME.new_state(seed=seed)
    draw = s.draw
    keys = [(sd.ORDER.index[c.rank], sd.SUIT_RANK.get(c.suit, 0)) for c in draw]
    assert s.start == keys.index(max(keys)) and s.turn == s.start
    sizes = [len(s.hands[(s.start + k) % 4]) for k in range(4)]
    assert sizes == [14, 14, 13, 13]
    assert sorted(c.id for h in s.hands for c in h.cards()) == sorted(c.id for c in sd.DECK)


def test_start_draw_tie_break_by_suit():
    assert sd.start_player([qipai.cards.parse_card(c) for c in ("AD0", "AS0", "AH0", "KS0")]) == 1
    assert sd.start_player([qipai.cards.parse_card(c) for c in ("AS0", "LJ0", "2S0", "BJ0")]) == 3


def test_bad_deals_are_refused():
    good = full_deal(["", "", "", ""])
    s = GAME.new_state(deal=good)
    assert s.start == 0
    short = json.loads(json.dumps(good))
    short["hands"][2].append(short["hands"][0].pop())
    with pytest.raises(NotationError):
        GAME.new_state(deal=short)
    with pytest.raises(NotationError):
        GAME.new_state(deal=good, seed=1)
    with pytest.raises(NotationError):
        GAME.new_state(seed=1, num_seats=5)


# ----- following --------------------------------------------------------------------------------
def test_following_same_kind_same_count_higher_key():
    s = GAME.new_state(deal=full_deal(["3S0 4S0 5S0 9S0", "4H0 5H0 6H0 9H0 9D0", "7C0 8C0 9C0 TC0",
                                       "QC0 KC0 AC0"]))
    s.apply("345")
    assert refused(s, "99").code == "sdbh.other_kind"
    assert refused(s, "9").code == "sdbh.other_kind"
    s.apply("456")
    assert refused(s, "789T").code == "sdbh.other_length"
    s.apply("789")
    s.apply("QKA")                               # the ace-high straight is the highest of three
    assert {str(a) for a in s.legal_actions()} == {"pass"}
    s.apply("pass")
    s.apply("pass")
    s.apply("pass")
    assert s.turn == 3 and s.top is None
    assert refused(s, "pass").code == "sdbh.leader_must_play"


def test_sets_compare_by_rank_and_count():
    s = GAME.new_state(deal=full_deal(["9S0 9H0", "TS0 TH0 TD0", "2S0 2H0", "JS0"]))
    s.apply("99")
    assert refused(s, "TTT").code == "sdbh.other_length"
    s.apply("TT")
    assert refused(s, "22").code == "sdbh.not_higher"
    assert refused(s, "99", seat=0).code == "seat_not_act_act"
    assert refused(s, "KK").code in ("sdbh.not_in_hand", "sdbh.cannot_read")


# ----- scoring ----------------------------------------------------------------------------------
def test_points_of_the_cards_held():
    s = GAME.new_state(deal=full_deal(["", "", "", ""]))
    hand = s.hands[1].cards()
    assert s.points(1) == sum({"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "L": 20, "B": 20}.get(c.rank)
                              or int(c.rank) for c in hand)
    total = sum(s.points(x) for x in range(4))
    assert total == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13) + 40


def test_forfeit_scores_every_card_held_and_replays():
    s = GAME.new_state(seed=3)
    for _ in range(5):
        s.apply(s.default_action(s.current_player))
    s.forfeit(2, "timeout")
    d = s.result.details
    assert d["forfeit"] == 2 and d["points"][2] == sum(s.points(x) for x in range(4))
    again = qipai.replay(s.to_record())
    assert again.result.text == s.result.text and again.result.reason == "timeout"


# ----- playouts ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_random_default_and_bot_playouts_finish_and_replay(seed):
    rng = random.Random(seed)
    bots = [make_bot("baohuang", "rule", s) for s in range(4)]
    for mode in ("random", "default", "bot"):
        s = GAME.new_state(seed=seed)
        for _ in range(400):
            if s.is_terminal():
                break
            p = s.current_player
            act = (rng.choice(s.legal_actions()) if mode == "random" else s.default_action(p)
                   if mode == "default" else bots[p].choose(s, p))
            assert str(act) in {str(a) for a in s.legal_actions()}
            s.apply(act)
        assert s.is_terminal() and s.result.reason == "out"
        assert qipai.replay(s.to_record()).result.text == s.result.text


def test_views_hide_the_other_hands_until_the_end():
    s = GAME.new_state(seed=1)
    v = s.view(0)
    assert v["hand"] and v["hands"] is None and v["ruleset"] == RULESET and v["marking"] == "experimental"
    assert s.view(None)["hand"] is None
    text = json.dumps(s.view(1))
    assert all(c.id not in text for c in s.hands[0].cards() if c.id not in v["draw"])


def test_match_of_ten_deals_lowest_total_wins():
    m = sd.ShandongMatch()
    for seed in range(10):
        s = GAME.new_state(seed=seed)
        while not s.is_terminal():
            s.apply(s.default_action(s.current_player))
        m.add(s.result)
    assert m.over and m.played == 10
    assert all(m.totals[w] == min(m.totals) for w in m.winners())


# ----- the marking ------------------------------------------------------------------------------
def test_the_rule_set_is_declared_experimental():
    assert GAME.marking == "experimental" and qipai.load("baohuang").marking is None
    assert GAME.seat_counts() == (4,) and qipai.load("baohuang").seat_counts() == (5,)
    info = next(i for i in qipai.games() if i.id == "baohuang")
    ruleset = next(o for o in info.to_json()["options"] if o["name"] == "ruleset")
    assert ruleset["marks"] == {RULESET: "experimental"} and ruleset["default"] == "seed000"


def test_qipai_games_shows_the_marking():
    out = CliRunner().invoke(app, ["games"]).output
    line = next(x for x in out.splitlines() if x.strip().startswith("ruleset = 'seed000'"))
    assert f"{RULESET} [EXPERIMENTAL]" in line


def test_the_lobby_api_and_the_table_show_the_marking(tmp_path):
    from tests.server_helpers import client, post, signup

    with client(tmp_path) as c:
        games = c.get("/api/games").json()
        bh = next(g for g in games if g["id"] == "baohuang")
        assert bh["seats_by_option"]["ruleset"] == {'"seed000"': [5], f'"{RULESET}"': [4]}
        alice = signup(c, "alice")
        r = post(c, alice, "/api/tables", {"game": "baohuang", "options": {"ruleset": RULESET},
                                           "num_seats": 5, "bots": 0})
        assert r.status_code == 400 and r.json()["error"] == "bad_seats"
        tb = post(c, alice, "/api/tables", {"game": "baohuang", "options": {"ruleset": RULESET},
                                            "bots": 3, "bot": "rule"}).json()
        assert tb["num_seats"] == 4 and tb["marking"] == "experimental"
        listed = next(t for t in c.get("/api/tables").json() if t["id"] == tb["id"])
        assert listed["marking"] == "experimental"
        plain = post(c, alice, "/api/tables", {"game": "baohuang", "bots": 0}).json()
        assert plain["marking"] is None
