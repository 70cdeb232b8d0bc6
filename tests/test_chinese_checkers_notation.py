"""Chinese checkers: notation (rules §6), positions, views, records, and bad input refused with a
clear reason and the state unchanged."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, RecordError
from qipai.core.record import Record, replay
from qipai.games.chinese_checkers import parse_action
from qipai.games.chinese_checkers.board import hole_at, hole_name, parse_hole
from qipai.games.chinese_checkers.notation import FORFEIT, MOVE, Action

from .chinese_checkers_helpers import position, state_at


def new(n: int = 2, **options):
    return qipai.load("chinese-checkers", **options).new_state(num_seats=n)


def _snap(state) -> str:
    return json.dumps([state.to_json(), state.view(None)], sort_keys=True)


# ----- §6 notation --------------------------------------------------------------------------------
@pytest.mark.parametrize("text,path", [
    ("-1,5>-1,4", [(-1, 5), (-1, 4)]),
    ("-2,6>0,4>2,2", [(-2, 6), (0, 4), (2, 2)]),
    (" -2, 6 > 0,4 ", [(-2, 6), (0, 4)]),
    ("[[-2,6],[0,4],[2,2]]", [(-2, 6), (0, 4), (2, 2)]),
])
def test_s6_moves_parse_and_print(text, path):
    a = parse_action(text)
    assert a.kind == MOVE and a.path == tuple(hole_at(q, r) for q, r in path)
    canonical = ">".join(f"{q},{r}" for q, r in path)
    assert str(a) == canonical and parse_action(str(a)) == a


def test_s6_words():
    assert str(parse_action("PASS")) == "pass"
    assert str(parse_action("resign")) == "resign"
    assert str(parse_action("timeout")) == "timeout"
    f = parse_action("forfeit:illegal_moves")
    assert f == Action(FORFEIT, reason="illegal_moves") and str(f) == "forfeit:illegal_moves"


@pytest.mark.parametrize("text,why", [
    ("", "not a move"), ("hello", "not a move"), ("1,2", "not a move"),
    ("9,9>0,0", "not a hole"), ("1,x>2,3", "two integers"), ("1,2,3>0,0", "two integers"),
    ("0,0>", "two integers"), ("[[0,0]]", "at least one more"), ("[[0,0],[1]]", "integer pairs"),
    ("[[0,0],", "JSON"), ("forfeit:a b", "word"), ("[[0,0],[1.0,0]]", "integer pairs"),
])
def test_s6_garbage_is_refused_with_a_reason(text, why):
    with pytest.raises(IllegalAction, match=why):
        parse_action(text)


def test_s2_1_hole_names_round_trip():
    for i in range(121):
        assert parse_hole(hole_name(i)) == i
    assert parse_hole("(1, -5)") == hole_at(1, -5)


# ----- positions ------------------------------------------------------------------------------------
def test_position_text_round_trip():
    s = new(3)
    for _ in range(5):
        s.apply(s.legal_actions()[-1])
    t = qipai.load("chinese-checkers").new_state(position=s.position_text())
    assert t.board == s.board and t.moves == s.moves and t.current_player == s.current_player


@pytest.mark.parametrize("text,field", [
    ("S=0,0;N=0,0", "N"), ("S=0,0", "position"), ("S=0,0;N=1,1;X=2,2", "position"),
    ("S=0,0;N=1,1;to=NE", "to"), ("S=0,0;N=1,1;moves=1", "moves"), ("S=0,0;N=1,1;moves=a,b", "moves"),
    ("S=9,9;N=1,1", "S"), ("S=0,0;S=1,1;N=2,2", "S"), ("S=0,0;N", "position"),
])
def test_bad_positions_name_the_field(text, field):
    with pytest.raises(NotationError) as e:
        qipai.load("chinese-checkers").new_state(position=text)
    assert e.value.field == field


def test_position_layout_must_match_seat_count_and_not_be_finished():
    with pytest.raises(NotationError):
        qipai.load("chinese-checkers").new_state(position="S=0,0;N=1,1", num_seats=3)
    from .chinese_checkers_helpers import camp

    with pytest.raises(NotationError, match="already finished"):
        state_at(position(S=camp("N"), N=["0,0"]))
    with pytest.raises(NotationError, match="at most 10"):
        state_at(position(S=camp("S") + ["0,0"], N=["1,1"]))


# ----- bad input: refused, state unchanged --------------------------------------------------------
@pytest.mark.parametrize("text,seat,why", [
    ("-4,5>-4,4", 1, "not to act"),                  # out of turn
    ("-4,5>-4,4", 5, "no seat"),                     # wrong seat
    ("1,-5>1,-4", 0, "belongs to N"),                # the opponent's marble
    ("0,0>1,0", 0, "no marble"),                     # an empty start
    ("-4,6>-4,5", 0, "occupied"),                    # an occupied neighbour
    ("-4,6>-4,4>-4,2", 0, "not a jump"),             # a chain with a bad hop
    ("-4,5>0,0", 0, "no step or chain"),             # unreachable
    ("-4,5>-4,5", 0, "different hole"),
    ("pass", 0, "no move is possible"),
    ("@@", 0, "not a move"),
])
def test_bad_actions_refused_state_unchanged(text, seat, why):
    s = new(2)
    before = _snap(s)
    with pytest.raises(IllegalAction, match=why):
        s.apply(text, seat=seat)
    assert _snap(s) == before


def test_non_action_objects_and_game_over():
    s = new(2)
    with pytest.raises(IllegalAction, match="not a chinese-checkers action"):
        s.apply(42)
    with pytest.raises(IllegalAction, match="no seat"):
        s.apply("resign", seat="x")
    s.resign(1)
    before = _snap(s)
    for text in ("-4,5>-4,4", "resign", "pass"):
        with pytest.raises(IllegalAction, match="game is over"):
            s.apply(text)
    with pytest.raises(IllegalAction):
        s.forfeit(0, "timeout")
    assert _snap(s) == before


def test_options_are_validated():
    for bad in ({"jump_rule": "far"}, {"max_moves": 0}, {"ranking": "all"}, {"anti_stalling": "maybe"},
                {"nope": 1}):
        with pytest.raises(qipai.OptionError):
            qipai.load("chinese-checkers", **bad)
    assert qipai.load("tiaoqi", max_games=3).options["max_games"] == 3
    assert qipai.load("tiaoqi").options["max_games"] is None
    with pytest.raises(qipai.OptionError):
        qipai.load("chinese-checkers").new_state(deal=[1])


# ----- views --------------------------------------------------------------------------------------
def test_view_shows_everything_to_everyone():
    s = new(3)
    s.apply(s.legal_actions()[0])
    views = [s.view(seat) for seat in (0, 1, 2, None)]
    for v in views:
        json.dumps(v)
        assert v["marbles"] == views[0]["marbles"] and v["board"] == views[0]["board"]
    assert views[3]["seat"] is None and views[1]["to_move"] == "NE"
    assert len(views[0]["board"]) == 17 and sum(row.count("0") for row in views[0]["board"]) == 10
    assert views[0]["last_move"] == str(parse_action(s.log[0]))


# ----- records ------------------------------------------------------------------------------------
def test_record_round_trip_multi_player_with_eliminations():
    s = new(4, jump_rule="equidistant")
    for i in range(30):
        if i == 7:
            s.apply("resign", seat=3)
        if i == 11:
            s.forfeit(s.current_player, "timeout")
        s.apply(s.legal_actions()[i % len(s.legal_actions())])
    rec = s.to_record(seats=["a", "b", "c", "d"])
    data = json.loads(rec.dumps())
    again = replay(Record.from_json(data))
    assert again.to_json() == s.to_json() and again.status == s.status


def test_record_with_a_wrong_move_names_it():
    s = new(2)
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    data = s.to_json()
    data["actions"][2] = "0,0>1,0"
    with pytest.raises(RecordError) as e:
        replay(Record.from_json(data), source="game.json")
    assert e.value.move == 3 and e.value.source == "game.json" and "no marble" in str(e.value)


def test_record_with_a_wrong_result_is_refused():
    s = new(2, max_moves=1)
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    data = s.to_json()
    assert data["result"]["reason"] == "max_moves"
    data["result"]["text"] = "1-0"
    with pytest.raises(RecordError, match="rules give"):
        replay(Record.from_json(data))


# ----- cell names (a project addition for people: docs/games/chinese-checkers.md, Notation) -------
def test_cell_names_are_columns_and_rows_of_the_upright_star():
    from qipai.games.chinese_checkers.board import CAMPS, CELL_NAMES, COORDS, cell_name

    assert len(set(CELL_NAMES)) == 121
    name = {COORDS[i]: cell_name(i) for i in range(121)}
    assert name[(0, 0)] == "n9" and name[(-4, 8)] == "n1" and name[(4, -8)] == "n17"
    assert name[(-8, 4)] == "a5" and name[(8, -4)] == "z13" and "i" not in "".join(CELL_NAMES)
    camp = sorted(cell_name(i) for i in CAMPS["S"])
    assert camp == ["k4", "l3", "m2", "m4", "n1", "n3", "o2", "o4", "p3", "q4"]
    # a column is one upright line: every hole of it has the same x on the drawn board
    for (q, r), cell in name.items():
        assert cell[0] == "abcdefghjklmnopqrstuvwxyz"[2 * q + r + 12] and int(cell[1:]) == 9 - r


def test_a_move_may_be_typed_with_cell_names():
    assert parse_action("q4>r5") == parse_action("-1,5>0,4")
    assert parse_action(" N1 > N3 ") == parse_action("-4,8>-3,6")
    with pytest.raises(IllegalAction, match="two integers"):
        parse_action("n2>n3")                     # n2 is not a hole: row 2 has m2 and o2


def test_the_move_list_names_every_hole_of_a_chain():
    from qipai.server import movetext

    s = new(2)
    while not any(len(a.path) >= 3 for a in s.legal_actions()):     # the first chain of two jumps
        s.apply(s.legal_actions()[-1])
    chain = next(str(a) for a in s.legal_actions() if len(a.path) >= 3)
    entry = movetext.describe(s, s.current_player, chain)
    assert entry["text"] == chain and len(entry["cells"]) == chain.count(">") + 1
    assert entry["cells"] == [movetext_cell(h) for h in chain.split(">")]
    assert movetext.describe_text("chinese-checkers", 1, "pass") == {"seat": 1, "text": "pass"}


def movetext_cell(hole: str) -> str:
    q, r = map(int, hole.split(","))
    return f"{'abcdefghjklmnopqrstuvwxyz'[2 * q + r + 12]}{9 - r}"
