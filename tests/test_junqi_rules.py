"""Junqi rules, one test (or more) per section of rules/junqi.md, edge cases of §10 included."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError
from qipai.core.rng import DealRng
from qipai.games.junqi import LUZHAN, SIGUO, combat, format_layout, parse_layout, random_layout
from qipai.games.junqi.layout import RANDOM_ORDER
from qipai.games.junqi.pieces import BOMB, COUNTS, FLAG, MINE
from tests.junqi_helpers import (
    SOUTH_LAYOUT,
    layout_text,
    mirror_north,
    position,
    reach,
    started,
)


def names(*text: str) -> set[str]:
    return set(" ".join(text).split())


# ----- §3 boards ----------------------------------------------------------------------------
def test_s3_board_totals():
    """§3.2/§3.3 totals: points, railway and road connections of both boards."""
    assert (LUZHAN.n, len(LUZHAN.rail_pairs), len(LUZHAN.road_pairs)) == (60, 35, 98)
    assert (SIGUO.n, len(SIGUO.rail_pairs), len(SIGUO.road_pairs)) == (129, 92, 196)


def test_s3_camps_headquarters_and_mountains():
    """§3.2: camps and headquarters by name; b6-b7 and d6-d7 are not connected (山界)."""
    camps = {LUZHAN.names[p] for p in range(60) if LUZHAN.camp[p]}
    hqs = {LUZHAN.names[p] for p in range(60) if LUZHAN.hq[p]}
    assert camps == names("b3 d3 c4 b5 d5 b8 d8 c9 b10 d10")
    assert hqs == names("b1 d1 b12 d12")
    for a, b in (("b6", "b7"), ("d6", "d7")):
        assert LUZHAN.point(b) not in LUZHAN.steps[LUZHAN.point(a)]
    for a, b in (("a6", "a7"), ("c6", "c7"), ("e6", "e7")):
        assert frozenset((LUZHAN.point(a), LUZHAN.point(b))) in LUZHAN.rail_pairs


def test_s3_camp_diagonals():
    """§3.2 examples: b3 - a2 c2 a4 c4; c4 - b3 d3 b5 d5; b5 - a4 c4 a6 c6."""
    for camp, diag in (("b3", "a2 c2 a4 c4"), ("c4", "b3 d3 b5 d5"), ("b5", "a4 c4 a6 c6")):
        steps = {LUZHAN.names[q] for q in LUZHAN.steps[LUZHAN.point(camp)]}
        assert names(diag) <= steps


def test_s3_siguo_centre_has_no_roads():
    """§3.3: the centre stations are connected by railway only."""
    for i in range(1, 4):
        for j in range(1, 4):
            p = SIGUO.point(f"C{i}{j}")
            assert set(SIGUO.steps[p]) == set(SIGUO.rail_adj[p])


# ----- §4 setup -----------------------------------------------------------------------------
def _swap(entries, a, b):
    out = dict(entries)
    out[a], out[b] = entries[b], entries[a]
    return out


@pytest.mark.parametrize("change, reason", [
    (lambda e: _swap(e, "b2", "a6"), "no bomb in the front row"),          # bomb on a6
    (lambda e: _swap(e, "c2", "c3"), "mines only in the last two rows"),   # mine on c3
    (lambda e: _swap(e, "d1", "c1"), "the flag must stand on a headquarters"),
    (lambda e: {("b5" if p == "a5" else p): c for p, c in e.items()}, "camp"),
    (lambda e: {p: c for p, c in e.items() if p != "a6"}, "needed"),     # 24 pieces
    (lambda e: {**{p: c for p, c in e.items() if p != "a6"}, "a7": "33"}, "not in S's area"),
])
def test_s10_1_layout_validation(change, reason):
    """§10.1 / §4: invalid layouts are refused with the reason, the state unchanged."""
    state = qipai.load("junqi").new_state(seed=3)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(layout_text(change(SOUTH_LAYOUT)), seat=0)
    assert state.to_json() == before and state.to_act == (0, 1)


def test_s10_1_valid_layout_accepted():
    """§10.1: flag on d1 with mines on a1, e1, c2 is accepted; the canonical text is in local
    order (front row first)."""
    placement = parse_layout(LUZHAN, 0, layout_text(SOUTH_LAYOUT))
    assert len(placement) == 25
    text = format_layout(LUZHAN, placement)
    assert text.split()[0] == "a6=33" and text.split()[-1] == "e1=M"
    state = qipai.load("junqi").new_state(seed=3)
    state.apply(layout_text(SOUTH_LAYOUT), seat=0)
    assert state.to_act == (1,)
    state.apply(layout_text(mirror_north(SOUTH_LAYOUT)), seat=1)
    assert state.phase == "play" and state.to_act == (0,)


def test_s4_random_layout_algorithm():
    """§4: the random layout places F, M, M, M, B, B, then officers by code, each on the
    uniform(n)-th still-empty allowed point in local order; the flag's draw is the first."""
    for seat, board in ((0, LUZHAN), (1, LUZHAN), (3, SIGUO)):
        placement = random_layout(board, seat, DealRng("abc"))
        parse_layout(board, seat, format_layout(board, placement))     # legal
        hqs = [p for p in board.area_points[seat] if board.hq[p]]
        assert placement[hqs[DealRng("abc").below(2)]] == FLAG
        assert sorted(placement.values()) == sorted(RANDOM_ORDER)
    assert [RANDOM_ORDER.count(x) for x in (FLAG, MINE, BOMB)] == [1, 3, 2]
    assert len(RANDOM_ORDER) == sum(COUNTS.values()) == 25


def test_s4_layout_timeout_places_seeded_layout_and_counts():
    """§4: a layout timeout places the seed's random layout and records one timeout."""
    state = qipai.load("junqi").new_state(seed=11)
    state.skip_turn(1)
    assert state.timeouts == [0, 1] and state.to_act == (0,)
    expected = format_layout(LUZHAN, random_layout(LUZHAN, 1, DealRng("11:layout:1")))
    got = {LUZHAN.point(e.split("=")[0]): e.split("=")[1] for e in expected.split()}
    for p, code in got.items():
        assert state.own[p] == 1 and str(state.kind[p]) == code or \
            {"F": FLAG, "M": MINE, "B": BOMB}.get(code) == state.kind[p]


def test_s4_layouts_are_secret():
    """§4 visibility: during the layout phase nobody sees another seat's submitted layout: its
    pieces are listed face down once it has laid out (they fill its half's posts, so their
    points tell nothing), and not at all before."""
    state = qipai.load("junqi").new_state(seed=2)
    assert state.view(1)["pieces"] == [] and state.view(None)["pieces"] == []
    state.apply(layout_text(SOUTH_LAYOUT), seat=0)
    for viewer in (1, None):
        south = state.view(viewer)["pieces"]
        assert len(south) == 25 and {p["seat"] for p in south} == {0}
        assert {p["piece"] for p in south} == {"?"}
    assert len(state.view(0)["pieces"]) == 25
    assert state.view(1)["layout_done"] == [True, False]


# ----- §5 movement --------------------------------------------------------------------------
def test_s10_2_non_engineer_railway_run():
    """§10.2: a 33 on a4 runs straight along the a-line; no turn onto rows 2 or 6."""
    s = position("S:a4=33 N:a9=38")
    assert reach(s, "a4") == names("a2 a3 a5 a6 a7 a8 a9 b3 b4 b5")


def test_s10_3_engineer_run():
    """§10.3: an engineer on a4 turns freely at railway junctions."""
    s = position("S:a4=32 N:a9=38")
    assert reach(s, "a4") == names(
        "a2 a3 a5 a6 a7 a8 a9 a10 a11 b2 b3 b4 b5 b6 b7 b11 c2 c6 c7 c11 d2 d6 d7 d11",
        "e2 e3 e4 e5 e6 e7 e8 e9 e10 e11")


def test_s10_4_boxed_engineer():
    """§10.4: boxed in on the railway, the engineer's only move is the camp diagonal."""
    s = position("S:a6=32 S:a5=33 S:a7=34 S:b6=35 N:e12=33")
    assert [str(m) for m in s.legal_actions(0) if m.frm == "a6"] == ["a6-b5"]


def test_s10_5_middle_crossing():
    """§10.5: from c6 the railway crosses to c7 only; b6/d6 do not reach b7/d7."""
    s = position("S:c6=33")
    assert reach(s, "c6") == names("a6 b5 b6 c5 c7 d5 d6 e6")
    assert LUZHAN.point("b7") not in LUZHAN.steps[LUZHAN.point("b6")]


def test_s10_6_no_right_angle_turn():
    """§10.6: a commander on e6 runs along row 6 and the e-line, never round a corner."""
    s = position("S:e6=40")
    assert reach(s, "e6") == names("a6 b6 c6 d5 d6 e2 e3 e4 e5 e7 e8 e9 e10 e11")


def test_s10_7_camp_protection():
    """§10.7 / §5.3: a piece in a camp cannot be attacked; the empty camp can be entered."""
    s = position("S:a4=38 S:e2=33 N:b5=33 N:e11=33")
    before = s.to_json()
    with pytest.raises(IllegalAction, match="camp"):
        s.apply("a4-b5")
    assert s.to_json() == before
    s.apply("e2-e3")
    s.apply("b5-c5")
    s.apply("a4-b5")
    assert s.own[LUZHAN.point("b5")] == 0


def test_s9_11_camp_protection_includes_bombs_and_engineers():
    """§9.11: no attack on a camp, even by a bomb or an engineer."""
    s = position("S:a4=B S:b4=32 N:b5=33 N:e11=33")
    assert "b5" not in reach(s, "a4") and "b5" not in reach(s, "b4")


def test_s5_2_mines_and_flag_never_move():
    """§5.2: mines and the flag never move; trying is refused with the reason."""
    s = position("S:a2=M S:b1=F S:e2=33 N:e11=33")
    assert reach(s, "a2") == set() and reach(s, "b1") == set()
    with pytest.raises(IllegalAction, match="never moves"):
        s.apply("a2-a3")


def test_s10_9_headquarters_freeze():
    """§10.9: a piece that enters any headquarters never moves again; so does one laid there."""
    s = position("S:d11=38 S:a4=33 N:a12=33 N:b12=F")
    s.apply("d11-d12")
    s.apply("a12-a11")
    assert not [m for m in s.legal_actions(0) if m.frm == "d12"]
    with pytest.raises(IllegalAction, match="headquarters"):
        s.apply("d12-d11")
    g = started(seed=5)
    own_hq = [LUZHAN.names[p] for p in range(60) if LUZHAN.hq[p] and g.own[p] == 0]
    assert own_hq and not [m for m in g.legal_actions(0) if m.frm in own_hq]


def test_s5_3_own_and_ally_not_attacked():
    """§5.3 / §10.17: no move onto an own or a team-mate's piece."""
    s = position("S:S31=36 N:W15=33", variant="siguo")
    r = reach(s, "S31")
    assert "W15" not in r and "W25" not in r and "S11" in r
    with pytest.raises(IllegalAction, match="team-mate"):
        s.apply("S31-W15")
    s2 = position("S:a4=33 S:a8=34 N:a9=38")
    with pytest.raises(IllegalAction, match="own piece"):
        s2.apply("a4-a8")


def test_s10_15_siguo_straight_run_and_arc():
    """§10.15: up V1 through the centre to North's side column, or round the arc to West."""
    s = position("S:S31=36", variant="siguo")
    assert reach(s, "S31") == names(
        "C11 C12 C13 N15 N25 N35 N45 N55 S11 S21 S22 S32 S41 S42 S51 W15 W25 W35 W45 W55")


def test_s10_16_siguo_middle_line():
    """§10.16: the middle railway S13 - C21 - C22 - C23 - N13."""
    s = position("S:S13=36", variant="siguo")
    assert reach(s, "S13") == names("C21 C22 C23 N13 S11 S12 S14 S15 S22 S23 S24")


# ----- §5.4 combat --------------------------------------------------------------------------
@pytest.mark.parametrize("a, d, out", [
    (38, 37, "win"), (37, 38, "lose"), (36, 36, "both"), (BOMB, 40, "both"), (40, BOMB, "both"),
    (32, MINE, "win"), (40, MINE, "lose"), (BOMB, MINE, "both"), (32, FLAG, "flag"),
    (BOMB, FLAG, "flag"),
])
def test_s10_8_combat_table(a, d, out):
    """§10.8 / §5.4: the combat table."""
    assert combat(a, d) == out


@pytest.mark.parametrize("a, d, out, left", [
    ("38", "37", "win", {"a9": 0}), ("37", "38", "lose", {"a9": 1}),
    ("36", "36", "both", {}), ("32", "M", "win", {"a9": 0}), ("40", "M", "lose", {"a9": 1}),
    ("B", "M", "both", {}),
])
def test_s5_4_combat_on_the_board(a, d, out, left):
    """§5.4: who stays on the target point, and the outcome class in the log."""
    s = position(f"S:a4={a} S:b1=F S:e2=33 N:a9={d} N:b12=F N:e11=33")
    s.apply("a4-a9")
    assert s.log[-1] == f"a4-a9:{out}"
    occupied = {LUZHAN.names[p]: s.own[p] for p in (LUZHAN.point("a4"), LUZHAN.point("a9"))
                if s.own[p] >= 0}
    assert occupied == left


def test_s10_10_flag_taken_luzhan():
    """§10.10 / §6.1: taking the flag wins at once (reason flag); an engineer may take it."""
    s = position("S:b11=32 N:b12=F N:a12=33")
    s.apply("b11-b12")
    assert s.result.reason == "flag" and s.result.winners == (0,) and s.result.text == "1-0"
    assert s.log[-1] == "b11-b12:flag" and s.returns() == [1.0, 0.0]


def test_s9_3_bomb_on_flag():
    """§9.3: a bomb on the flag removes both, and the flag counts as taken."""
    s = position("S:b11=B S:e2=33 N:b12=F N:a12=33")
    s.apply("b11-b12")
    assert s.result.reason == "flag" and s.result.winners == (0,)
    assert s.own[LUZHAN.point("b12")] == -1


def test_s10_11_commander_death_reveals_flag():
    """§10.11 / §5.4: when a commander dies (even with a bomb) its owner's flag is shown."""
    s = position("S:a4=40 S:b1=F S:e2=33 N:a9=B N:e11=33 N:d12=F")
    flag = {"point": "b1", "seat": 0, "piece": "?", "moved": False}
    assert flag in s.view(1)["pieces"]
    s.apply("a4-a9")
    assert {**flag, "piece": "F"} in s.view(1)["pieces"]
    assert {**flag, "piece": "F"} in s.view(None)["pieces"]
    assert s.view(1)["flag_revealed"] == [True, False]
    # North's commander dying as a defender reveals North's flag
    s2 = position("S:a4=B S:e2=33 N:a9=40 N:e11=33 N:d12=F")
    s2.apply("a4-a9")
    assert {"point": "d12", "seat": 1, "piece": "F", "moved": False} in s2.view(0)["pieces"]


def test_s10_12_last_pieces_die_together():
    """§10.12 / §6.2: the last movable pieces die together: the attacker wins."""
    s = position("S:a4=36 S:b1=F N:a9=36 N:b12=F")
    s.apply("a4-a9")
    assert s.result.reason == "last_pieces" and s.result.winners == (0,)


def test_s6_1_no_move_loses():
    """§6.1: a seat with no legal move at the start of its turn loses (无棋可走)."""
    s = position("S:a4=38 S:b1=F N:a9=37 N:b12=F")
    s.apply("a4-a9")           # wins; North is left with its flag only
    assert s.result.reason == "no_move" and s.result.winners == (0,)


def test_s9_12_only_immobile_pieces_loses():
    """§9.12: mines, the flag and pieces on headquarters do not count as movable."""
    s2 = position("S:e10=38 S:b1=F N:d12=40 N:a11=M N:b12=F N:e11=33")
    s2.apply("e10-e11")        # takes North's last mobile piece
    assert s2.result.reason == "no_move" and s2.result.winners == (0,)


# ----- §6.3 no progress ---------------------------------------------------------------------
def _shuffle_moves(state, n):
    """Play ``n`` quiet moves: each seat moves its officer back and forth."""
    for _ in range(n):
        seat = state.to_act[0]
        moves = [m for m in state.legal_actions(seat)
                 if state.own[state.board.point(m.to)] < 0]
        state.apply(moves[0], seat)


def test_s10_13_siguo_no_progress_draw():
    """§10.13: siguo, 70 moves of all seats without an attack: draw (no_progress_draw)."""
    s = position("S:S32=33 S:S62=F E:E32=33 E:E62=F N:N32=33 N:N62=F W:W32=33 W:W62=F",
                 variant="siguo")
    _shuffle_moves(s, 69)
    assert s.result is None and s.quiet == 69
    _shuffle_moves(s, 1)
    assert s.result.reason == "no_progress_draw" and s.result.returns == (0.5,) * 4


@pytest.mark.parametrize("attacks, reason, winners", [
    ("9,7", "more_attacks", (0,)), ("7,9", "more_attacks", (1,)), ("8,8", "no_progress_draw", ()),
])
def test_s10_13_luzhan_more_attacks(attacks, reason, winners):
    """§10.13 / §6.3: luzhan at the limit: more attacks wins, equal counts draw."""
    s = position(f"S:c3=33 S:b1=F N:c10=33 N:b12=F quiet=69 attacks={attacks}")
    _shuffle_moves(s, 1)
    assert s.result.reason == reason and s.result.winners == winners


def test_s6_3_attack_resets_counter():
    """§6.3: any attack resets the counter, whatever its result; quiet moves count one each."""
    s = position("S:a4=33 S:b1=F S:e2=34 N:a9=38 N:e11=33 N:b12=F quiet=50")
    s.apply("a4-a9")           # lost, still an attack
    assert s.quiet == 0 and s.attacks == [1, 0]
    s.apply("e11-e10")
    assert s.quiet == 1


def test_s6_3_agreed_draw_scored_by_deadlock_rule():
    """§6.3 / competition.md §5.4: an agreed draw in luzhan goes to the side with more attacks."""
    s = position("S:c3=33 S:b1=F N:c10=33 N:b12=F attacks=3,1")
    s.agree_draw()
    assert s.result.winners == (0,) and s.result.reason == "agreement"
    s = position("S:c3=33 S:b1=F N:c10=33 N:b12=F attacks=3,3")
    s.agree_draw()
    assert s.result.winners == () and s.result.returns == (0.5, 0.5)
    s = position("S:S32=33 S:S62=F E:E32=33 E:E62=F attacks=5,0,0,0", variant="siguo")
    s.agree_draw()
    assert s.result.winners == ()


# ----- §6.1 / §7.2 timeouts, eliminations ---------------------------------------------------
def test_s10_14_five_timeouts_luzhan():
    """§10.14: the fifth timeout of a game defeats the player (reason timeouts)."""
    s = started(seed=4)
    for _ in range(4):
        s.skip_turn(0)
        assert s.to_act == (1,)
        s.apply(s.legal_actions(1)[0])
    assert s.timeouts == [4, 0] and s.result is None
    s.skip_turn(0)
    assert s.result.reason == "timeouts" and s.result.winners == (1,)


def test_s7_2_timeout_skips_turn_without_counting_a_move():
    """§7.2 / §9.7: a skipped turn does not advance the no-progress counter."""
    s = position("S:c3=33 S:b1=F N:c10=33 N:b12=F quiet=5")
    s.skip_turn(0)
    assert s.quiet == 5 and s.to_act == (1,) and s.log == ["timeout"]


def test_s10_14_siguo_fifth_timeout_eliminates():
    """§10.14 / §6.1: siguo, the fifth timeout eliminates the seat, its pieces removed; its
    partner plays on and its turns are skipped."""
    s = position("S:S32=33 S:S62=F E:E32=33 E:E62=F N:N32=33 N:N62=F W:W32=33 W:W62=F "
                 "turn=W timeouts=0,0,0,4", variant="siguo")
    s.skip_turn(3)
    assert s.eliminated[3] == "timeouts" and s.result is None
    assert all(s.own[p] != 3 for p in range(SIGUO.n))
    order = []
    for _ in range(6):
        order.append(s.to_act[0])
        _shuffle_moves(s, 1)
    assert order == [0, 1, 2, 0, 1, 2]


def test_s6_1_siguo_team_loses_when_both_out():
    """§6.1: a team loses when both partners are eliminated; the flag's owner is eliminated."""
    s = position("S:S11=33 S:S62=F E:E32=33 E:E62=F N:N15=32 N:N62=F W:W32=33 W:W62=F",
                 variant="siguo")
    s.apply("resign", seat=3)                       # West resigns out of turn
    assert s.eliminated[3] == "resign" and s.result is None and s.log == [[3, "resign"]]
    s.apply("S11-S12")
    s.apply("E32-E33")
    assert s.to_act == (2,)
    with pytest.raises(IllegalAction):
        s.apply("S12-S11", seat=0)                  # not South's turn
    # North's engineer runs to East's flag area: E62 is not on a railway; take it in steps
    s2 = position("S:S32=33 S:S62=F E:E52=33 E:E62=F N:E61=34 N:N62=F out=W turn=N",
                  variant="siguo")
    with pytest.raises(NotationError, match="eliminated"):
        position("S:S32=33 W:W62=F out=W", variant="siguo")
    s2.apply("E61-E62")
    assert s2.result.reason == "flag" and s2.result.winners == (0, 2)
    assert s2.result.returns == (1.0, 0.0, 1.0, 0.0) and s2.result.text == "1-0"


def test_s5_1_siguo_turn_order():
    """§5.1 / §9.10: S, E, N, W counter-clockwise, starting with first_seat."""
    s = position("S:S32=33 S:S62=F E:E32=33 E:E62=F N:N32=33 N:N62=F W:W32=33 W:W62=F",
                 variant="siguo")
    order = []
    for _ in range(5):
        order.append(s.to_act[0])
        _shuffle_moves(s, 1)
    assert order == [0, 1, 2, 3, 0]


def test_s6_2_siguo_last_pieces_between_teams():
    """§6.2 in siguo: a combat leaving neither team a legal move goes to the attacker's team."""
    s = position("S:S11=36 S:S62=F E:E62=F N:N62=F W:W15=36 W:W62=F", variant="siguo")
    s.apply("S11-W15")
    assert s.result.reason == "last_pieces" and s.result.winners == (0, 2)
