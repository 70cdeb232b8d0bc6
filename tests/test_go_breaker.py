"""Adversarial tests of the go referee: bad input that crashed or was misread, record round
trips that failed, and rule-procedure holes (the dead-stone phase, handicap layouts)."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, OptionError, RecordError
from qipai.core.record import Record, replay
from qipai.games.go import read_sgf, write_sgf
from qipai.games.go.coords import from_gtp, from_sgf, parse_point


# ----- notation: only ASCII letters and digits are coordinates -------------------------------
@pytest.mark.parametrize("text", ["àà", "ßß", "éa", "aé"])
def test_non_ascii_sgf_letters_are_refused_not_crashing(text):
    with pytest.raises(NotationError):
        from_sgf(text, 19)
    with pytest.raises(NotationError):
        parse_point(text, 19)
    g = qipai.load("go", end_procedure="agreement")
    s = g.new_state()
    for action in (text, f"dead {text}"):
        with pytest.raises(IllegalAction):
            s.apply(action)
    assert s.log == [] and s.moves == []


@pytest.mark.parametrize("text", ["D٤", "D４", "Ｄ4"])
def test_gtp_needs_ascii_digits_and_letters(text):
    with pytest.raises(NotationError):
        from_gtp(text, 19)


def test_bad_point_objects_are_refused_with_a_readable_reason():
    from qipai.games.go.rules import Move

    s = qipai.load("go", board_size=9, end_procedure="agreement").new_state()
    for bad in (Move(-5, 9), Move(81, 9), Move(True, 9), Move(2.0, 9)):
        with pytest.raises(IllegalAction, match="off the 9x9 board|not a point"):
            s.apply(bad)
    assert s.moves == [] and s.log == []


# ----- SGF: malformed values name the property and its place --------------------------------
@pytest.mark.parametrize("sgf, prop", [
    ("(;GM[1]SZ[9]\n;W[àà]\n;B[ee])", "W[àà]"),
    ("(;GM[1]SZ[9]\nAB[éé]\n;W[aa])", "AB[éé]"),
    ("(;GM[1]RU[Chinese]RE[B+1]\n;B[aa];W[];B[]TB[àà])", "TB[àà]"),
    ("(;GM[1]SZ[9]\nKM[inf]\n;B[ee])", "KM[inf]"),
    ("(;GM[1]SZ[9]\nKM[1e308]\n;B[ee])", "KM[1e308]"),
    ("(;GM[1]SZ[9]\nRE[B+nan]\n;B[ee])", "RE[B+nan]"),
    ("(;GM[1]SZ[9]\nRE[W+inf]\n;B[ee])", "RE[W+inf]"),
    ("(;GM[1]SZ[9]\nRE[B+-3]\n;B[ee])", "RE[B+-3]"),
    ("(;GM[1]SZ[9]\nAB[ee][zz]\n;W[aa])", "AB[ee]"),
    ("(;GM[1]SZ[9]\nAB[ee]AW[ee]\n;W[aa])", "AW[ee]"),
    ("(;GM[1]SZ[9]\nAB[ee]PL[X]\n;W[aa])", "PL[X]"),
    ("(;GM[1]SZ[9]\n;B[ee][ff])", "B[ee]"),
])
def test_malformed_sgf_names_property_and_line(sgf, prop):
    with pytest.raises(RecordError) as info:
        for rec in read_sgf(sgf, "bad.sgf"):
            replay(rec, source="bad.sgf")
    msg = str(info.value)
    assert "bad.sgf" in msg and "line 2" in msg and prop in msg, msg


@pytest.mark.parametrize("text", ["B+nan", "W+inf", "B+-3", "W+-0.5"])
def test_result_text_must_be_a_finite_margin(text):
    s = qipai.load("go", board_size=9, end_procedure="agreement").new_state()
    with pytest.raises(IllegalAction):
        s.end_by_result_text(text, "agreement")
    assert s.result is None


def test_handicap_sgf_without_moves_has_white_to_move():
    g = qipai.load("go", board_size=9, handicap=3, end_procedure="agreement")
    s = g.new_state()
    rec = read_sgf(write_sgf(s))[0]
    assert replay(rec).to_move == s.to_move == 2
    other = read_sgf("(;GM[1]SZ[9]HA[2]AB[cg][gc])")[0]
    assert replay(other).to_move == 2


# ----- SGF round trips of our own games -----------------------------------------------------
def test_nigiri_game_writes_sgf():
    g = qipai.load("go", board_size=9, colours="nigiri", end_procedure="all_alive")
    for seed in range(6):
        s = g.new_state(seed=seed)
        s.apply("E5")
        s.resign(s.seat_of(2))
        text = write_sgf(s, ["Ann", "Bo"])
        rec = read_sgf(text)[0]
        assert rec.seats[0] == ["Ann", "Bo"][s.black_seat]
        assert replay(rec).result.text == "B+R"


def _resumed_game():
    s = qipai.load("go", board_size=9, scoring="seed001_no_komi", end_procedure="agreement").new_state()
    for m in ("E5", "D5", "pass", "pass"):
        s.apply(m)
    s.apply("dead D5", seat=0)
    s.apply("done", seat=0)
    s.apply("done", seat=1)            # marks differ: play resumes, Black first
    return s


def test_sgf_of_a_game_resumed_with_a_pass_replays():
    s = _resumed_game()
    for m in ("pass", "C5", "pass", "pass"):
        s.apply(m)
    s.apply("done", seat=0)
    s.apply("done", seat=1)
    assert s.is_terminal()
    rec = read_sgf(write_sgf(s))[0]
    again = replay(rec)
    assert again.rows() == s.rows() and again.result.text == s.result.text


def test_sgf_keeps_dead_stones_outside_one_colour_territory():
    # a black stone marked dead on a board where its point is not surrounded by White
    s = qipai.load("go", board_size=9, scoring="seed001_no_komi", end_procedure="agreement").new_state()
    for m in ("E5", "D4", "A1", "pass", "pass"):
        s.apply(m)
    s.arbiter_decide(["A1"])
    assert s.result.details["dead"] == ["A1"]
    rec = read_sgf(write_sgf(s))[0]
    again = replay(rec)
    assert again.result.text == s.result.text
    assert again.result.details["dead"] == ["A1"]


def test_random_games_round_trip_through_sgf():
    rng = random.Random(7)
    for seed in range(40):
        g = qipai.load("go", board_size=rng.choice([5, 7]), max_moves=rng.choice([30, 120]),
                       colours=rng.choice(["seat0_black", "nigiri"]),
                       ko_rule=rng.choice(["positional_superko", "situational_superko", "simple_ko"]))
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            if s.phase == "marking":
                seat = rng.choice(s.to_act)
                acts = [str(a) for a in s.legal_actions(seat)]
                r = rng.random()
                if r < 0.05:
                    s.arbiter_decide([a.split()[1] for a in acts if a.startswith("dead")][:2])
                elif r < 0.5 and "done" in acts:
                    s.apply("done", seat=seat)
                else:
                    s.apply(rng.choice(acts), seat=seat)
            elif rng.random() < 0.15:
                s.apply("pass")
            else:
                pts = s.legal_points()
                s.apply(str(s.game.parse_action("pass")._replace(point=rng.choice(pts)))
                        if pts else "pass")
        again = replay(read_sgf(write_sgf(s), "own.sgf")[0], source="own.sgf")
        assert again.result.text == s.result.text, (seed, s.log)


# ----- the dead-stone phase: a refusal is a disagreement ------------------------------------
def test_resume_counts_as_a_disagreement_and_cannot_stall():
    s = qipai.load("go", board_size=9, end_procedure="agreement").new_state()
    for m in ("E5", "D4", "pass", "pass"):
        s.apply(m)
    s.apply("resume", seat=1)
    assert s.phase == "play" and s.disagreements == 1
    s.apply("pass")
    s.apply("pass")
    assert "resume" not in [str(a) for a in s.legal_actions(0)]
    before = s.to_json()
    with pytest.raises(IllegalAction, match="resume"):
        s.apply("resume", seat=0)
    assert s.to_json() == before
    s.apply("dead D4", seat=0)
    s.apply("done", seat=0)
    s.apply("done", seat=1)
    assert s.is_terminal() and s.result.details.get("marks_disagreed")


def test_arbiter_may_decide_after_a_resume():
    s = qipai.load("go", board_size=9, scoring="seed001_no_komi", end_procedure="agreement").new_state()
    for m in ("E5", "D4", "pass", "pass"):
        s.apply(m)
    s.apply("resume", seat=0)
    s.arbiter_decide(["D4"])
    assert s.result.reason == "arbiter" and s.result.text == "B+81"
    again = replay(Record.from_json(s.to_json()))
    assert again.result == s.result


# ----- handicap: only the GTP fixed layouts --------------------------------------------------
@pytest.mark.parametrize("size, handicap", [(5, 2), (5, 9), (7, 5), (7, 9)])
def test_handicap_beyond_the_fixed_layouts_is_refused(size, handicap):
    with pytest.raises(OptionError, match="handicap"):
        qipai.load("go", board_size=size, handicap=handicap, end_procedure="agreement")


def test_handicap_within_the_fixed_layouts():
    s = qipai.load("go", board_size=7, handicap=4, end_procedure="agreement").new_state()
    assert s.rows() == [".......", ".......", "..X.X..", ".......", "..X.X..", ".......",
                        "......."]
    assert s.to_move == 2
