"""Every option of shengji changes the legal set or the outcome (rules/shengji.md §1.3)."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction, OptionError
from qipai.games.shengji import PROFILES
from qipai.games.shengji.match import Match
from tests.shengji_helpers import deal_with, position


def _finish_trick(st, plays):
    for t in plays:
        st.apply(t)
    return st.result.details if st.result else None


def test_profiles_fill_options_and_overrides_win():
    """§1.3: a profile sets its options; an explicit option overrides it."""
    for name, values in PROFILES.items():
        opts = qipai.load("shengji", profile=name).options
        assert all(opts[k] == v for k, v in values.items()), name
    assert qipai.load("shengji", profile="seed003", start_level=2).options["start_level"] == 2
    assert qipai.load("tuolaji").options["profile"] == "seed000"
    assert qipai.load("titanic").options["decks"] == 3


def test_presets_name_existing_profiles_and_options():
    """The competition presets s0_shengji, s2_tuolaji, s3_tuolaji load with their profiles."""
    assert qipai.load("shengji", profile="seed000").options["must_play_levels"] == []
    assert qipai.load("shengji", profile="seed003").options["must_play_levels"] == [10, 13]
    assert qipai.load("shengji", profile="seed002", must_play_levels="").options["must_play_levels"] == []
    assert qipai.load("shengji", must_play_levels="13,10").options["must_play_levels"] == [10, 13]


@pytest.mark.parametrize("bad", [{"decks": 3}, {"profile": "nope"}, {"must_play_levels": [1]},
                                 {"dealer": 4}, {"declaration": "grab3"}, {"team0_level": 15},
                                 {"target": "pass_3"}, {"unknown": 1}, {"team0_level": 5}])
def test_bad_options_are_refused(bad):
    with pytest.raises(OptionError):
        qipai.load("shengji", **bad)


def test_option_decks_and_kitty_size():
    """§1.1: 3 decks deal 39 cards each and keep a 6-card kitty."""
    st = qipai.load("shengji", profile="titanic").new_state(seed=1)
    while st.phase in ("deal", "window"):
        st.apply("pass")
    assert st.phase == "bury" and sum(st.hands[st.dealer].values()) == 45
    st2 = qipai.load("shengji").new_state(seed=1)
    while st2.phase in ("deal", "window"):
        st2.apply("pass")
    assert sum(st2.hands[st2.dealer].values()) == 33


def test_option_declaration_ladder2_vs_bao():
    """§2.4 vs §2.5: bao prompts only after the whole deal; ladder2 during it."""
    d = deal_with([["2H"], [], [], []], ["3C"], p=0)
    st = qipai.load("shengji", declaration="ladder2").new_state(deal=d)
    assert st.phase == "deal"
    st = qipai.load("shengji", declaration="bao", no_declaration="kitty_random").new_state(deal=d)
    assert st.phase in ("bao", "bury") and st.dealt == 108


def test_option_no_declaration():
    d = deal_with([[], [], [], []], ["7D", "3C", "9H"], p=2)
    trumps = {}
    for mode in ("kitty_first", "kitty_third", "no_trump"):
        st = qipai.load("shengji", no_declaration=mode).new_state(deal=d)
        while st.phase in ("deal", "window"):
            st.apply("pass")
        trumps[mode] = st.trump.spec
    assert trumps == {"kitty_first": "D", "kitty_third": "H", "no_trump": "NT"}


def test_option_two_always_trump_changes_legal_set():
    hands = ["3S 5C", "2S 4S", "6C 7C", "8C 9C"]
    off = position(hands, 10, "H")
    off.apply("3S")
    on = position(hands, 10, "H", two_always_trump=True)
    on.apply("3S")
    assert sorted(map(str, off.legal_actions())) == ["2S", "4S"]
    assert sorted(map(str, on.legal_actions())) == ["4S"]


def test_option_throw_beat_rule_changes_winner():
    winners = {}
    for rule in ("key", "all"):
        st = position(["5S 4S 4S", "9H 7H 7H", "8H 8H 4H", "QH JH 6H"], 10, "H", throw_beat_rule=rule)
        _finish_trick(st, ["5S 4S 4S", "9H 7H 7H", "8H 8H 4H", "QH JH 6H"])
        winners[rule] = st.tricks[-1]["winner"]
    assert winners == {"key": 2, "all": 1}


def test_option_failed_throw_penalty():
    pens = {}
    for pen in ("per_card_10", "none"):
        st = position(["2D 3D", "AH KH", "AH 4D", "5D 6D"], 2, "S", dealer=0, leader=1,
                      failed_throw_penalty=pen)
        st.apply("AH KH")
        pens[pen] = st.penalty
    assert pens == {"per_card_10": -20, "none": 0}


def test_option_kitty_multiplier():
    """§4.2: a tractor(3) last trick: exponential ×16, linear ×12."""
    out = {}
    for mode in ("exponential", "linear"):
        hands = ["2C 3C 4C 6C 7C 8C", "QS QS JS JS TS TS", "2D 3D 4D 6D 7D 8D", "8C 9C 8D 9D TC TD"]
        st = position(hands, 7, "S", dealer=0, leader=1, buried="KD 2H 3H 4H 6H 8H 9H JH",
                      kitty_multiplier=mode)
        d = _finish_trick(st, ["QS QS JS JS TS TS", "2D 3D 4D 6D 7D 8D", "8C 9C 8D 9D TC TD",
                               "2C 3C 4C 6C 7C 8C"])
        out[mode] = d["kitty_bonus"]
    assert out == {"exponential": 160, "linear": 120}


def test_option_score_table():
    res = {}
    for table in ("t000", "t003", "t002"):
        st = position(["2C", "3C", "4C", "AS"], 2, "S", dealer=0, leader=3, trick_points=250,
                      buried="2H 3H 4H 6H 7H 8H 9H JH", score_table=table)
        res[table] = _finish_trick(st, ["AS", "2C", "3C", "4C"])["outcome"]
    assert res == {"t000": "A+3", "t003": "A+4", "t002": "A+5"}


def test_option_start_level_and_team_levels():
    st = qipai.load("shengji", start_level=5).new_state(seed=2)
    assert st.level == 5 and st.levels == [5, 5]
    st = qipai.load("shengji", team0_level=7, team1_level=4, dealer=1).new_state(seed=2)
    assert st.level == 4 and st.dealer == 1 and st.p == 1


def test_option_provisional_dealer():
    for p in (0, 3):
        st = qipai.load("shengji", provisional_dealer=p).new_state(seed=5)
        assert st.p == p
        while st.phase in ("deal", "window"):
            st.apply("pass")
        assert st.dealer == p


def test_option_target():
    out = {}
    for target in ("pass_10", "reach_10", "pass_A", "reach_13"):
        st = position(["2C", "3C", "4C", "AS"], 10, "S", dealer=0, leader=0, trick_points=40,
                      buried="2H 3H 4H 6H 7H 8H 9H JH", levels=[10, 2], target=target)
        out[target] = _finish_trick(st, ["2C", "3C", "4C", "AS"])["match_winner"]
    assert out == {"pass_10": 0, "reach_10": 0, "pass_A": None, "reach_13": None}


def test_option_must_play_levels():
    out = {}
    for must in ([], [10]):
        st = position(["AS", "2C", "3C", "4C"], 8, "S", dealer=0, buried="2H 3H 4H 6H 7H 8H 9H JH",
                      levels=[8, 2], must_play_levels=must)
        out[str(must)] = _finish_trick(st, ["AS", "2C", "3C", "4C"])["levels"][0]
    assert out == {"[]": 11, "[10]": 10}


def test_option_timeout_tiebreak_and_time_limit():
    """§5.1/§5.2: equal levels at time-out — dealer team, or more attacker points first."""
    results = {}
    for tb in ("dealer_team", "attack_points"):
        m = Match(3, timeout_tiebreak=tb, time_limit_min=1)
        m.levels, m.dealer, m.attack_sums = [6, 6], 1, [150, 90]
        m.hands.append(position(["AS", "2C", "3C", "4C"], 2, "S"))
        _finish_trick(m.hands[-1], ["AS", "2C", "3C", "4C"])
        m.elapsed(2)
        results[tb] = m.winner
    assert results == {"dealer_team": 1, "attack_points": 0}
    m = Match(3, time_limit_min=90)
    m.elapsed(30)
    assert m.winner is None and not m.clock_expired


def test_option_strict_and_sanctions():
    """§5.3: refused submissions cost nothing unless strict; s000 charges 10 per card."""
    for strict, want in ((False, 0), (True, -20)):
        st = position(["9H 9H 5C", "3H 4S 4S", "2C 3C 4C", "2D 3D 4D"], 2, "S", dealer=0,
                      strict=strict)
        st.apply("9H 9H")
        with pytest.raises(IllegalAction):
            st.apply("4S 4S")
        assert st.penalize_illegal(1) is strict
        assert st.penalty == want            # seat 1 attacks: its side's S goes down by 10 × 2
    assert st.log[-1] == "fault play 1 2"
    again = qipai.load("shengji", strict=True).state_from_json(st.to_json())
    assert again.penalty == -20


def test_sanction_s002_follow_error_costs_a_level_and_the_deal():
    st = position(["9H 9H AS", "3H 4S 4S", "2C 3C 4C", "2D 3D 4D"], 6, "S", dealer=0, leader=0,
                  levels=[6, 2], profile="seed002", strict=True, trick_points=0,
                  buried="2H 3H 4H 6H 7H 8H QH JH")
    st.apply("9H 9H")
    st.apply("3H 4S")
    with pytest.raises(IllegalAction):
        st.apply("4D 2D")
    st.apply("2C 3C")
    with pytest.raises(IllegalAction):
        st.apply("2D AS")                   # card not in hand: a refused follow
    assert st.penalize_illegal(3) is True
    st.apply("2D 3D")
    st.apply("AS")
    st.apply("4S")
    st.apply("4C")
    st.apply("4D")
    d = st.result.details
    # D+3 for team 0 (seat 3's team 1 made the follow error): team 1 at start level stays at 2
    assert d["outcome"] == "D+3" and d["follow_errors"] == [0, 1] and d["levels"] == [9, 2]


def test_sanction_s000_wrong_size_bury_ends_the_hand():
    st = qipai.load("shengji", strict=True).new_state(seed=4)
    while st.phase != "bury":
        st.apply("pass")
    dealer = st.dealer
    with pytest.raises(IllegalAction):
        st.apply("bury " + " ".join(st.hand_faces(dealer)[:3]))
    assert st.penalize_illegal(dealer) is True
    d = st.result.details
    assert st.result.reason == "bury_fault" and d["outcome"] == "take over"
    assert d["next_dealer"] == (dealer + 1) % 4 and d["count_errors"][dealer % 2] == 1


def test_option_deal_prompt_changes_the_action_sequence():
    """§2.7 and docs/games/shengji.md: ``when_able`` asks a seat only when its new card gives it a
    declaration; ``every_card`` asks the seat dealt each card (``pass`` its only action when it
    cannot declare), then every seat in the final window. Both records replay."""
    from qipai.core import Record, replay

    d = deal_with([["2H"], [], [], []], ["3C"], p=0)
    logs = {}
    for mode in ("when_able", "every_card"):
        st = qipai.load("shengji", deal_prompt=mode).new_state(deal=d)
        while st.phase in ("deal", "window"):
            st.apply("pass")
        logs[mode] = list(st.log)
        again = replay(Record.from_json(st.to_json()))
        assert again.log == st.log and again.phase == "bury"
    assert len(logs["every_card"]) == 104 and len(logs["when_able"]) < 104
    st = qipai.load("shengji", deal_prompt="every_card").new_state(deal=d)
    assert st.dealt == 1 and st.current_player == 0 and [str(a) for a in st.legal_actions()] == ["pass"]


def test_records_of_either_deal_prompt_replay_with_the_command(tmp_path):
    """A whole hand played by rule bots under each ``deal_prompt``: its record names the option
    and ``qipai replay`` re-checks it move by move."""
    import json

    from typer.testing import CliRunner

    from qipai.bots import make_bot
    from qipai.cli import app

    lengths = {}
    for mode in ("when_able", "every_card"):
        st = qipai.load("shengji", deal_prompt=mode).new_state(seed=11)
        bots = [make_bot("shengji", "rule", seed=s) for s in range(4)]
        while not st.is_terminal():
            s = st.current_player
            st.apply(bots[s].choose(st, s), s)
        record = st.to_json()
        assert record["options"]["deal_prompt"] == mode
        (tmp_path / f"{mode}.json").write_text(json.dumps(record))
        lengths[mode] = len(record["actions"])
    assert lengths["every_card"] > lengths["when_able"] + 80     # about a hundred more prompts
    r = CliRunner().invoke(app, ["replay", *(str(tmp_path / f"{m}.json") for m in lengths)])
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines()[-1] == "2 games: 2 OK, 0 failed"
