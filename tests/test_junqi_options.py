"""Every junqi option (rules/junqi.md) changes the legal set, the view or the outcome."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import OptionError
from tests.junqi_helpers import position, started

SIGUO_QUIET = "S:S32=33 S:S62=F E:E32=33 E:E62=F N:N32=33 N:N62=F W:W32=33 W:W62=F"


def _quiet_moves(state, n):
    for _ in range(n):
        seat = state.to_act[0]
        state.apply(next(m for m in state.legal_actions(seat)
                         if state.own[state.board.point(m.to)] < 0), seat)


def test_variant_changes_board_and_seats():
    """§1: luzhan is 2 seats on 60 points, siguo 4 seats on 129; the alias picks siguo."""
    lu = qipai.load("junqi").new_state(seed=1)
    sg = qipai.load("siguo-junqi").new_state(seed=1)
    assert (lu.num_seats, lu.board.n, lu.to_act) == (2, 60, (0, 1))
    assert (sg.num_seats, sg.board.n, sg.to_act) == (4, 129, (0, 1, 2, 3))
    assert sg.game.options["variant"] == "siguo" and sg.sides() == [(0, 2), (1, 3)]


def test_visibility_hidden_allies_open():
    """§4: hidden shows own identities only; allies_visible adds the team-mate's; open all."""
    def shown(vis, viewer):
        s = started(seed=3, variant="siguo", visibility=vis)
        return {x["seat"] for x in s.view(viewer)["pieces"] if x["piece"] != "?"}
    assert shown("hidden", 0) == {0}
    assert shown("allies_visible", 0) == {0, 2}
    assert shown("open", 0) == {0, 1, 2, 3}
    assert shown("hidden", None) == set() and shown("open", None) == {0, 1, 2, 3}
    with pytest.raises(OptionError, match="siguo"):
        qipai.load("junqi", visibility="allies_visible")


def test_no_capture_moves_limit():
    """§6.3 option no_capture_moves: the game ends after that many quiet moves."""
    short = position(SIGUO_QUIET, variant="siguo", no_capture_moves=10)
    default = position(SIGUO_QUIET, variant="siguo")
    _quiet_moves(short, 10)
    _quiet_moves(default, 10)
    assert short.result.reason == "no_progress_draw" and default.result is None


def test_deadlock_rule():
    """§6.3 option deadlock_rule: draw or more_attacks (defaults: luzhan more_attacks,
    siguo draw)."""
    text = "S:c3=33 S:b1=F N:c10=33 N:b12=F quiet=69 attacks=9,7"
    outcomes = {}
    for rule in (None, "draw", "more_attacks"):
        s = position(text, deadlock_rule=rule)
        _quiet_moves(s, 1)
        outcomes[rule] = (s.result.reason, s.result.winners)
    assert outcomes == {None: ("more_attacks", (0,)), "draw": ("no_progress_draw", ()),
                        "more_attacks": ("more_attacks", (0,))}
    sg = SIGUO_QUIET + " quiet=69 attacks=3,0,2,0"
    for rule, expect in ((None, ()), ("more_attacks", (0, 2))):
        s = position(sg, variant="siguo", deadlock_rule=rule)
        _quiet_moves(s, 1)
        assert s.result.winners == expect


def test_max_timeouts():
    """§6.1/§7.2 option max_timeouts: the n-th timeout defeats."""
    for limit, over in ((5, False), (2, True)):
        s = started(seed=2, max_timeouts=limit)
        s.skip_turn(0)
        s.apply(s.legal_actions(1)[0])
        s.skip_turn(0)
        assert (s.result is not None) == over
        if over:
            assert s.result.reason == "timeouts" and s.result.winners == (1,)


def test_first_seat():
    """§5.1 option first_seat: who moves first after the layouts."""
    assert started(seed=1).to_act == (0,)
    assert started(seed=1, first_seat=1).to_act == (1,)
    assert started(seed=1, variant="siguo", first_seat=1).to_act == (1,)
    with pytest.raises(OptionError):
        qipai.load("junqi", first_seat=2)


def test_presets_name_existing_options():
    """The event presets s0_junqi / s2_junqi load: game junqi with variant siguo / luzhan."""
    assert qipai.load("junqi", variant="siguo").new_state(seed=0).num_seats == 4
    assert qipai.load("junqi", variant="luzhan").new_state(seed=0).num_seats == 2
