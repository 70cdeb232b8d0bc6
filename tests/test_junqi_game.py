"""Junqi notation (§8), records and replay, bad input, views, results, bots and the match runner."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.bots import make_bot
from qipai.core import Record, replay
from qipai.core.errors import IllegalAction, NotationError, OptionError, RecordError
from qipai.games.junqi import LUZHAN, Move, parse_action
from qipai.match import BotPlayer, ScriptedPlayer, play_game_sync
from tests.junqi_helpers import SOUTH_LAYOUT, layout_text, position, started


def _snap(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _bot_game(variant="luzhan", seed=1, bots=("greedy", "greedy")):
    state = qipai.load("junqi", variant=variant).new_state(seed=seed)
    players = [make_bot("junqi", bots[s % len(bots)], seed=seed * 10 + s)
               for s in range(state.num_seats)]
    while not state.is_terminal():
        seat = state.to_act[0]
        state.apply(players[seat].choose(state, seat), seat)
    return state


# ----- §8 notation --------------------------------------------------------------------------
def test_s8_move_notation_round_trip():
    """§8: from-to moves, optional combat suffix, case-insensitive points."""
    assert parse_action(LUZHAN, "A4-a9") == Move("a4", "a9")
    assert str(parse_action(LUZHAN, "a4-a9:WIN")) == "a4-a9:win"
    assert str(qipai.load("siguo-junqi").parse_action("s31-w35")) == "S31-W35"
    assert str(parse_action(LUZHAN, "resign")) == "resign"
    assert str(parse_action(LUZHAN, "forfeit:illegal_moves")) == "forfeit:illegal_moves"


@pytest.mark.parametrize("text, reason", [
    ("", "not a junqi action"), ("@@", "not a junqi action"), ("a4-z9", "no point"),
    ("a4-a13", "no point"), ("a4-a9:kill", "unknown combat result"), ("forfeit:X!", "reason"),
])
def test_s8_bad_text_is_refused(text, reason):
    """Garbage text gives IllegalAction with the reason, the state unchanged."""
    s = position("S:a4=33 N:a9=38")
    before = _snap(s)
    with pytest.raises(IllegalAction, match=reason):
        s.apply(text)
    assert _snap(s) == before


def test_s8_log_carries_combat_results_and_checks_them():
    """§8: the log writes a4-a9:lose; a written result that differs is refused where the mover
    sees the defender (``open``; a hidden defender is covered in test_junqi_breaker)."""
    s = position("S:a4=33 S:e2=34 S:b1=F N:a9=38 N:e11=33 N:b12=F", visibility="open")
    with pytest.raises(IllegalAction, match="not the combat's"):
        s.apply("a4-a9:win")
    with pytest.raises(IllegalAction, match="no combat"):
        s.apply("a4-a5:win")
    s.apply("a4-a9:lose")
    assert s.log == ["a4-a9:lose"] and s.view(1)["history"] == [[0, "a4-a9:lose"]]


def test_bad_input_out_of_turn_wrong_seat_and_phase():
    """Out-of-turn moves, unknown seats, moves in the layout phase, layouts in play."""
    s = position("S:a4=33 S:b1=F N:a9=38 N:e11=33 N:b12=F")
    before = _snap(s)
    for action, seat, reason in (("e11-e10", 1, "not to act"), ("a4-a5", 7, "no seat"),
                                 ("a9-a8", None, "no piece of yours"),
                                 ("a4-e4", None, "cannot reach"),
                                 (layout_text(SOUTH_LAYOUT), None, "layout phase is over")):
        with pytest.raises(IllegalAction, match=reason):
            s.apply(action, seat=seat)
        assert _snap(s) == before
    g = qipai.load("junqi").new_state(seed=1)
    with pytest.raises(IllegalAction, match="layout phase"):
        g.apply("a4-a5", seat=0)
    with pytest.raises(IllegalAction, match="not in N's area"):
        g.apply(layout_text(SOUTH_LAYOUT), seat=1)


def test_bad_positions_and_options():
    """Malformed positions are NotationError; wrong seat counts and deals are refused."""
    for text in ("", "S:a4=99", "X:a4=33", "S:a4=33 S:a4=34", "S:a4=33 foo"):
        with pytest.raises(NotationError):
            position(text)
    with pytest.raises(OptionError):
        qipai.load("junqi").new_state(num_seats=4)
    with pytest.raises(OptionError):
        qipai.load("junqi").new_state(deal=[1])


def test_position_text_round_trip():
    s = started(seed=9)
    for _ in range(10):
        s.apply(s.legal_actions(s.to_act[0])[-1])
    again = position(s.position_text())
    assert again.position_text() == s.position_text()
    assert again.legal_actions(again.to_act[0]) == s.legal_actions(s.to_act[0])


# ----- records -------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["luzhan", "siguo"])
def test_record_replays_bot_game(variant):
    """A whole bot game writes a record that replays to the same state and result."""
    s = _bot_game(variant, seed=3)
    rec = Record.loads(s.to_record().dumps())
    again = replay(rec)
    assert _snap(again) == _snap(s) and again.result.text == s.result.text
    assert again.view(0) == s.view(0)


def test_record_with_a_wrong_result_suffix_names_the_move():
    s = position("S:a4=33 S:e2=34 S:b1=F N:a9=38 N:e11=33 N:b12=F", visibility="open")
    s.apply("a4-a9")
    data = s.to_json()
    data["actions"][0] = "a4-a9:win"
    with pytest.raises(RecordError, match="move 1"):
        qipai.load("junqi", visibility="open").state_from_json(data)


def test_forfeit_and_resign_are_logged_and_replay():
    """External defeats are log entries: a replay reaches the same ending."""
    s = started(seed=6)
    s.apply(s.legal_actions(0)[0])
    s.forfeit(0, "illegal_moves")
    assert s.result.reason == "illegal_moves" and s.result.winners == (1,)
    assert s.log[-1] == [0, "forfeit:illegal_moves"]
    assert replay(Record.from_json(s.to_json())).result.reason == "illegal_moves"
    r = started(seed=6)
    r.resign(1)                          # out of turn
    assert r.result.reason == "resign" and r.result.winners == (0,)
    t = started(seed=6, variant="siguo")
    t.resign(2)
    assert t.result is None and t.eliminated[2] == "resign"
    assert _snap(replay(Record.from_json(t.to_json()))) == _snap(t)


def test_forfeit_timeout_at_the_limit_is_the_last_timeout():
    """The match layer's fifth strike (forfeit 'timeout') ends the game with reason timeouts."""
    s = position("S:c3=33 S:b1=F N:c10=33 N:b12=F timeouts=4,0")
    s.forfeit(0, "timeout")
    assert s.result.reason == "timeouts" and s.log == ["timeout"]


def test_external_result_text_is_read():
    s = started(seed=1)
    s.end_by_result_text("0-1", "adjourned")
    assert s.result.winners == (1,) and s.result.reason == "adjourned"
    with pytest.raises(IllegalAction):
        started(seed=1).end_by_result_text("2-0", "unknown")


# ----- results -------------------------------------------------------------------------------
def test_s6_4_result_details_for_organisers():
    """§6.4: win 1, draw 0.5, loss 0; details carry moves, attacks, timeouts, eliminations."""
    s = _bot_game("siguo", seed=2)
    d = s.result.details
    assert set(d) >= {"moves", "attacks", "timeouts", "eliminated", "pieces_left"}
    assert d["moves"] == sum(1 for e in s.log if isinstance(e, str) and "-" in e)
    assert sorted(s.result.returns) in ([0.0, 0.0, 1.0, 1.0], [0.5] * 4)
    assert set(s.result.winners) in ({0, 2}, {1, 3}, set())


# ----- views ---------------------------------------------------------------------------------
def test_views_never_show_hidden_identities():
    """§4 hidden: another seat's pieces show as '?' (revealed flags aside), during the game."""
    s = _bot_game("siguo", seed=4, bots=("random",))
    replayed = qipai.load("siguo-junqi").new_state(seed=4)
    for entry in s.log:
        seat, text = (entry if isinstance(entry, list) else (None, entry))
        replayed.apply(text, seat=seat)
        if replayed.is_terminal():
            break
        for viewer in (0, 1, 2, 3, None):
            for x in replayed.view(viewer)["pieces"]:
                if x["seat"] != viewer and x["piece"] != "?":
                    assert x["piece"] == "F" and replayed.flag_revealed[x["seat"]]


# ----- bots and the match runner -------------------------------------------------------------
def test_bots_finish_games_fast():
    """Greedy and random bots play whole games to a result."""
    import time
    t = time.perf_counter()
    for seed in range(4):
        for variant in ("luzhan", "siguo"):
            assert _bot_game(variant, seed, ("greedy", "random")).result is not None
    assert time.perf_counter() - t < 8


def test_greedy_beats_random_more_often_than_not():
    """The greedy bot wins at least 2 games in 3 against the random bot, on either seat."""
    wins = sum(0 in _bot_game("luzhan", seed, ("greedy", "random")).result.winners
               for seed in range(9))
    wins += sum(1 in _bot_game("luzhan", seed, ("random", "greedy")).result.winners
                for seed in range(9))
    assert wins >= 12


def test_match_runner_with_junqi_clock():
    """The junqi_default clock: layout under its phase allowance, timeouts skip the turn."""
    out = play_game_sync(qipai.load("junqi"), [BotPlayer(make_bot("junqi", "greedy", 1)),
                                               BotPlayer(make_bot("junqi", "random", 2))],
                         clock="junqi_default")
    assert out.result is not None
    assert replay(out.record).result.text == out.result.text
    # a player who never answers: random layout on the layout timeout, then skipped turns,
    # the fifth timeout loses
    out = play_game_sync(qipai.load("junqi"), [BotPlayer(make_bot("junqi", "greedy", 1)),
                                               ScriptedPlayer([])], clock="junqi_default")
    assert out.result.reason == "timeouts" and out.result.winners == (0,)
    assert replay(out.record).result.reason == "timeouts"
