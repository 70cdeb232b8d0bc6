"""Adversarial referee tests for Guobiao mahjong: hidden information in the claim windows, bad
action objects, the last-tile flag of the per-seat wall, flower replacements after a kong and
the flag syntax of the hand notation."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.bots import make_bot
from qipai.core.errors import IllegalAction, NotationError
from qipai.games.mahjong_gb.actions import Action
from qipai.tiles import format_tiles, parse_tiles
from qipai.tiles.notation import parse_hand


def _deal(hands: list[str], head: str = "", tail: str = "", flowers: bool = False) -> list[dict]:
    """A one-hand deal: the wall starts with ``head`` (normal draws, in order), ends with ``tail``
    (replacement draws, in order) and holds the unused tiles in between."""
    used = [t for h in hands for t in parse_tiles(h)] + parse_tiles(head) + parse_tiles(tail)
    rest = list(range(34)) * 4 + (list(range(34, 42)) if flowers else [])
    for t in used:
        rest.remove(t)
    rest.sort()
    wall = parse_tiles(head) + rest + list(reversed(parse_tiles(tail)))
    return [{"hands": hands, "wall": format_tiles(wall, sort=False)}]


def _snapshot(state) -> str:
    return json.dumps([state.to_json(), [state.view(s) for s in range(4)], state.scores], sort_keys=True)


def _game(**o):
    return qipai.load("mahjong-gb", hands_per_match=1, **o)


# ----- hidden information: who may claim is private (rule file 2.6, 2.7, 2.11) ---------------

def test_every_other_seat_answers_a_discard_nobody_can_claim():
    # seat 0 discards N: nobody holds N, nobody can chow or win with it
    hands = ["N123m456p789s119s", "3579m1357p246sEW", "2468m2468p135sES", "EWSCCCFFFPPP1m"]
    st = _game(use_flowers=False).new_state(deal=_deal(hands, "2m"))
    st.apply("discard N", seat=0)
    assert st.phase == "claim" and st.to_act == (1, 2, 3)
    for s in (1, 2, 3):
        assert [str(a) for a in st.legal_actions(s)] == ["pass"]
    # a view tells a seat only whether it has still to answer itself (turns_private): an answer
    # that came at once would show that its seat had nothing to claim
    assert st.turns_private()
    assert [st.view(s)["to_act"] for s in range(4)] == [[], [1], [2], [3]]
    st.apply("pass", seat=1)
    assert [st.view(s)["to_act"] for s in (None, 0, 1, 2, 3)] == [[], [], [], [2], [3]]


def test_claim_window_does_not_reveal_which_seat_holds_a_pair():
    # seat 0 discards 5p; only seat 2 holds 55p. The seats asked must not single out seat 2.
    hands = ["5pEEESSSWWWNNP", "3579m1379p2468sC", "55p222m888m22s88sF", "1m123m456m789m12sC"]
    st = _game(use_flowers=False, min_fan=0).new_state(deal=_deal(hands, "N"))
    st.apply("discard 5p", seat=0)
    assert st.to_act == (1, 2, 3)
    assert [str(a) for a in st.legal_actions(1)] == ["pass"]
    assert "pung" in [str(a) for a in st.legal_actions(2)]
    st.apply("pass", seat=1)
    st.apply("pass", seat=3)
    st.apply("pung", seat=2)
    assert st.to_act == (2,) and st.melds[2][-1].kind == "pung"


def test_robbing_window_asks_every_other_seat():
    # seat 0 adds 5p to its pung; only seat 2 can win on 5p, but all three others answer
    hands = ["55pEEESSSWWWNC", "5p111m222m333mCCF", "46p123s456s789s99m", "77p88p11s77s88sPPF"]
    st = _game(use_flowers=False, min_fan=0).new_state(deal=_deal(hands, "N E S W N 5p"))

    # "*": every seat asked answers pass; otherwise "SEAT ACTION"
    script = ("0 discard N", "*", "1 discard 5p", "2 pass", "3 pass", "0 pung", "0 discard W", "*",
              "1 discard S", "*", "2 discard W", "*", "3 discard N", "*")
    for step in script:
        if step == "*":
            for s in list(st.to_act):
                st.apply("pass", seat=s)
        else:
            seat, text = step.split(" ", 1)
            st.apply(text, seat=int(seat))
    st.apply("add 5p", seat=0)
    assert st.phase == "rob" and st.to_act == (1, 2, 3)
    assert [str(a) for a in st.legal_actions(1)] == ["pass"]
    assert [str(a) for a in st.legal_actions(2)] == ["pass", "win"]
    st.apply("pass", seat=1)
    st.apply("pass", seat=2)
    st.apply("pass", seat=3)
    # nobody robbed: the declarer takes its replacement and acts again
    assert st.to_act == (0,) and st.melds[0][0].kind == "kong" and st.drawn is not None


def test_after_every_discard_all_three_others_answer_in_playouts():
    g = _game()
    for seed in range(3):
        st = g.new_state(seed=seed)
        bots = {s: make_bot("mahjong-gb", "fast", seed * 4 + s) for s in range(4)}
        while not st.is_terminal():
            seat = st.to_act[0]
            a = bots[seat].choose(st, seat)
            st.apply(a, seat=seat)
            if st.is_terminal():
                break
            if a.kind in ("discard", "add"):
                others = tuple(st._next(seat, i) for i in (1, 2, 3))
                assert st.phase != "turn" and st.to_act == others


# ----- bad action objects: refused with a reason, nothing changes ------------------------------

@pytest.mark.parametrize("bad", [123, None, ("discard", 3), Action("discard", 99), Action("discard", -1),
                                 Action("chow", 40), Action("kong", 34), Action("bogus")])
def test_malformed_action_objects_are_refused_cleanly(bad):
    st = qipai.load("mahjong-gb").new_state(seed=1)
    before = _snapshot(st)
    with pytest.raises(IllegalAction):
        st.apply(bad, seat=0)
    assert _snapshot(st) == before


def test_malformed_actions_in_a_claim_window_are_refused_cleanly():
    st = qipai.load("mahjong-gb", hands_per_match=1).new_state(seed=1)
    seat = st.to_act[0]
    st.apply(st.legal_actions(seat)[-1], seat=seat)
    assert st.phase == "claim"
    other = st.to_act[0]
    before = _snapshot(st)
    for bad in (7, Action("chow", 99), Action("discard", 3), Action("kong", 3)):
        with pytest.raises(IllegalAction):
            st.apply(bad, seat=other)
        assert _snapshot(st) == before


# ----- botzone4 wall: the last tile is when the NEXT PLAYER's segment is empty -----------------

def test_botzone4_last_tile_follows_turn_order_after_seat_changes():
    g = qipai.load("mahjong-gb", wall_layout="botzone4", use_flowers=False, hands_per_match=16)
    st = g.new_state(seed=1)
    bots = {s: make_bot("mahjong-gb", "fast", s) for s in range(4)}
    checked = 0
    while not st.is_terminal() and st.hand_no < 6:
        s = st.to_act[0]
        if st.phase == "turn" and st.drawn is not None and not st.after_claim:
            next_player = st._next(s)
            assert st.last_drawn == (st.wall.remaining(next_player) == 0), (st.hand_no, st.order, s)
            checked += 1
        st.apply(bots[s].choose(st, s), seat=s)
    assert checked > 100 and st.hand_no >= 5   # the South round (new seating) was reached


# ----- flower replacement after a kong: an ordinary self-drawn win (rule file 2.8) -------------

def test_win_on_a_flower_replacement_after_a_kong_is_not_out_on_replacement():
    hands = ["1111m234p567p789s", "3579m1359p1359sN", "2468m2468p2468sS", "EESSWWWNNCCCF"]
    st = _game().new_state(deal=_deal(hands, "E", "f1 E", flowers=True))
    st.apply("kong 1m", seat=0)
    assert st.flowers[0] == [parse_tiles("f1")[0]] and st.drawn == parse_tiles("E")[0]
    st.apply("win", seat=0)
    fans = {f["no"] for f in st.hand_results[0]["fans"]["0"]["fans"]}
    assert 46 not in fans and 56 in fans      # no 杠上开花; 不求人 (self-drawn, concealed)
    # the plain kong replacement (no flower) still scores 杠上开花
    st2 = _game().new_state(deal=_deal(hands, "E", "E", flowers=True))
    st2.apply("kong 1m", seat=0)
    st2.apply("win", seat=0)
    assert 46 in {f["no"] for f in st2.hand_results[0]["fans"]["0"]["fans"]}


# ----- hand notation flags ---------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["flowers=\u0663", "flowers=\uff13", "flowers=+3", "flowers= 3"])
def test_flower_count_must_be_ascii_digits(flag):
    with pytest.raises(NotationError, match="position"):
        parse_hand(f"123m 456p 789s 1p [CCC] + 1p | {flag}")


def test_terminal_play_does_not_ask_the_human_when_pass_is_the_only_answer():
    from rich.console import Console

    from qipai.games.mahjong_gb.play import run

    prompts = []

    def read_line(prompt):
        prompts.append(prompt)
        return "1" if len(prompts) < 400 else "quit"

    console = Console(record=True, width=120)
    run(_game(), bot="fast", seat=0, seed=4, console=console, read_line=read_line)
    text = console.export_text()
    # each prompt lists the legal actions; a bare "1:pass" list is never shown
    assert prompts and "\n1:pass\n" not in "\n" + text + "\n"


def test_fan_command_refuses_impossible_flower_counts_and_flags_hands_below_the_minimum():
    from qipai.games.mahjong_gb.fancli import fan_report

    with pytest.raises(NotationError, match="0..8"):
        fan_report("123m 456p 789s 1p [CCC] + 1p", flowers=12)
    assert "not a legal win" in fan_report("234m 567m 345p 678s 9s + 9s | seat=S")       # rule file case 2
    assert "not a legal win" not in fan_report("45s 789s CC [234m] [678p] + 3s | seat=S")  # case 1: 8
