"""Session measures of competition.md §2.3 as pure rules: level sessions (shengji/tuolaji:
targets "pass L" / "reach L", time limits, equal levels by the side on stage or by attacking
totals), placement sessions (multi-player tiaoqi: shared first place settled by more games
among the tied), the 4A4 extra-game variant of a series, and bad session settings refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.competition.config import parse_config, preset_data
from qipai.competition.rules import SeriesGame, SeriesRule, series_status
from qipai.competition.sessionrule import DealOutcome, SessionRule, session_status
from qipai.core.errors import OptionError


def level_rule(**session):
    base = {"seats": 4, "sides": [[0, 2], [1, 3]], "measure": "level", "start_level": 2,
            "end": {"target": {"level_beyond": 10}, "time_limit": {"duration": "90m"}}, "ties": "on_stage",
            "between_deals": "0s"}
    return SessionRule.from_dict({**base, **session})


def deal(a, b, on_stage, ms=60_000, attack=(0, 0)):
    """One deal of a level session: levels (a, b) after it, the side on stage, S per side."""
    return DealOutcome((a, b), ms, on_stage=on_stage, attack=attack)


def test_level_session_ends_when_a_side_passes_the_target():
    rule = level_rule()
    assert rule.units == 2 and rule.level_target == ("beyond", 10)
    st = session_status(rule, [deal(5, 2, 0), deal(8, 2, 0), deal(10, 2, 0)])
    assert not st.done and st.totals == (10, 2)            # reaching 10 is not passing it
    st = session_status(rule, [deal(5, 2, 0), deal(8, 2, 0), deal(10, 2, 0), deal(11, 2, 0)])
    assert st.done and st.ranking == (0, 1) and st.ended_by == "target" and st.decided_by == "target"
    # "reach 10" (S3 tuolaji): level 10 is enough; the attackers can win by reaching it too
    reach = level_rule(end={"target": {"level_at_least": 10}})
    st = session_status(reach, [deal(5, 7, 1), deal(5, 10, 1)])
    assert st.done and st.ranking == (1, 0) and st.totals == (5, 10)


def test_level_session_at_time_higher_level_then_the_side_on_stage():
    rule = level_rule()
    st = session_status(rule, [deal(4, 2, 0, 50 * 60_000), deal(4, 3, 1, 40 * 60_000)])
    assert not st.done                                     # exactly 90 min: the deadline is inclusive
    st = session_status(rule, [deal(4, 2, 0, 50 * 60_000), deal(4, 3, 1, 40 * 60_000 + 1)])
    assert st.done and st.ended_by == "time" and st.ranking == (0, 1) and st.decided_by == "measure"
    # equal levels when time runs out: the side that declares the next deal (台上) wins
    st = session_status(rule, [deal(4, 2, 0, 50 * 60_000), deal(4, 4, 1, 41 * 60_000)])
    assert st.done and st.ranking == (1, 0) and st.decided_by == "on_stage" and st.ranks == (2, 1)
    # the deal in progress at expiry is finished and can still reach the target (§2.4)
    st = session_status(rule, [deal(9, 2, 0, 89 * 60_000), deal(12, 2, 0, 20 * 60_000)])
    assert st.done and st.ended_by == "target" and st.ranking == (0, 1)


def test_captured_points_then_on_stage():
    rule = level_rule(ties="captured_points_then_on_stage", start_level=5, must_play_levels=[10, 13],
                      end={"target": {"level_at_least": 10}, "time_limit": {"duration": "90m"}})
    assert rule.start_level == 5 and rule.must_play_levels == (10, 13)
    # side 0 attacked with S = 80 and 30; side 1 with 120: equal levels, side 1 has more points
    deals = [deal(5, 6, 1, 30 * 60_000, (80, 0)), deal(6, 6, 0, 30 * 60_000, (0, 120)),
             deal(6, 6, 1, 31 * 60_000, (30, 0))]
    st = session_status(rule, deals)
    assert st.done and st.ranking == (1, 0) and st.decided_by == "captured_points" and st.attack == (110, 120)
    # equal attacking totals too: the side on stage
    deals[2] = deal(6, 6, 0, 31 * 60_000, (40, 0))
    st = session_status(rule, deals)
    assert st.done and st.ranking == (0, 1) and st.decided_by == "on_stage"


def test_level_session_needs_the_side_on_stage_to_break_equal_levels():
    with pytest.raises(ValueError, match="side on stage"):
        session_status(level_rule(), [DealOutcome((4, 4), 91 * 60_000)])


def test_placement_session_tied_first_place_plays_more_games_among_the_tied():
    rule = SessionRule.from_dict(preset_data("s3_tiaoqi")["match"]["session"])
    assert (rule.measure, rule.deals, rule.eligible) == ("placement", 1, "tied_only")
    st = session_status(rule, [DealOutcome((2, 1, 3))])
    assert st.done and st.ranking == (1, 0, 2) and st.ranks == (2, 1, 3)
    # seats 0 and 2 share first place: another game; seat 1 cannot win it even by finishing first
    st = session_status(rule, [DealOutcome((1, 3, 1))])
    assert not st.done and st.extra and st.eligible == (0, 2)
    st = session_status(rule, [DealOutcome((1, 3, 1)), DealOutcome((2, 1, 2))])
    assert not st.done and st.eligible == (0, 2)             # shared again among the tied
    st = session_status(rule, [DealOutcome((1, 3, 1)), DealOutcome((2, 1, 2)), DealOutcome((3, 1, 2))])
    assert st.done and st.ranking[0] == 2 and st.decided_by == "extra_deals"
    assert st.totals == (1, 3, 1) and st.ranks == (2, 3, 1)     # the others by their first game
    # every seat eligible: places add up, lower is better
    everyone = SessionRule.from_dict({"seats": 3, "measure": "placement", "end": {"deals": 2}})
    st = session_status(everyone, [DealOutcome((1, 2, 3)), DealOutcome((3, 1, 2))])
    assert st.done and st.totals == (4, 3, 5) and st.ranking == (1, 0, 2)


def test_placement_session_with_an_absent_seat():
    rule = SessionRule.from_dict(preset_data("s3_tiaoqi")["match"]["session"])
    st = session_status(rule, [DealOutcome((1, 2, 1))], absent=[0])
    assert st.done and st.ranking == (2, 1, 0)             # the absent seat is ranked last


def test_extra_variant_of_the_second_extra_game():
    rule = SeriesRule.from_dict(preset_data("s2_4a4")["match"]["series"])
    assert rule.extra_variant == ((2, "first_out_wins"),)
    drawn = SeriesGame(0, None)
    # win, loss, draw: 1.5-1.5 after three deals; the first extra deal is an ordinary one
    games = [SeriesGame(0, 0), SeriesGame(1, 1), drawn]
    st = series_status(rule, games, coin=lambda n: 0)
    assert (st.done, st.number, st.variant) == (False, 4, None)
    st = series_status(rule, games + [drawn], coin=lambda n: 0)
    assert (st.done, st.number, st.variant) == (False, 5, "first_out_wins")
    st = series_status(rule, games + [drawn, SeriesGame(0, 1)], coin=lambda n: 0)
    assert st.done and st.winner == 1 and st.decided_by == "extra game"
    assert st.describe(5) == "2-3 after 5 games"


@pytest.mark.parametrize("session, message", [
    ({"measure": "levels"}, "session.measure must be one of"),
    ({"measure": "level", "end": {"deals": 3}}, "needs sides"),
    ({"measure": "level", "sides": [[0, 2], [1, 3]], "end": {"target": {"score_at_least": 100}}},
     "score_at_least needs measure = \"score\""),
    ({"seats": 4, "measure": "level", "sides": [[0, 2], [1]], "end": {"deals": 3}}, "must list every seat"),
    ({"seats": 4, "measure": "level", "sides": [[0, 1, 2, 3]], "end": {"deals": 3}}, "must list every seat"),
    ({"seats": 4, "measure": "level", "sides": [[0, 2], [1, 3]], "end": {"target": {"level_beyond": 15}}},
     "a level 2..14"),
    ({"seats": 4, "measure": "level", "sides": [[0, 2], [1, 3]], "end": {"target": {"level_above": 9}}},
     "unknown session.end.target"),
    ({"seats": 4, "measure": "level", "sides": [[0, 2], [1, 3]], "end": {"deals": 3},
      "ties": {"extra_deals": {"eligible": "all"}}}, "not by extra deals"),
    ({"seats": 4, "measure": "level", "sides": [[0, 2], [1, 3]], "end": {"deals": 3}, "start_level": 1},
     "start_level must be"),
    ({"seats": 4, "measure": "level", "sides": [[0, 2], [1, 3]], "end": {"deals": 3},
      "must_play_levels": [10, "K"]}, "must_play_levels must be"),
    ({"end": {"deals": 3}, "ties": "on_stage"}, "needs measure = \"level\""),
    ({"end": {"deals": 3}, "ties": {"extra_deals": {"eligible": "some"}}}, "eligible must be"),
    ({"end": {"deals": 3}, "start_level": 5}, "belong to level sessions"),
    ({"measure": "placement", "end": {"time_limit": {"duration": "1h"}}}, "needs end.deals"),
    ({"measure": "placement", "seats": 4, "sides": [[0, 2], [1, 3]], "end": {"deals": 1}}, "takes no sides"),
    ({"end": {"deals": 0}}, "end.deals must be a whole number >= 1"),
    ({"end": {"time_limit": {"on_expiry": "finish_current_deal"}}}, "needs a duration"),
    ({"end": {"deals": 3}, "advance": 2}, "only one winner per table"),
])
def test_bad_session_settings_are_refused(session, message):
    with pytest.raises(OptionError, match=message):
        SessionRule.from_dict(session)


def test_pair_sessions_need_pairs_and_a_knockout():
    data = preset_data("s2_tuolaji")
    assert parse_config("t", data).seats == 2
    with pytest.raises(OptionError, match="played by two pair entrants"):
        parse_config("t", {**data, "entrants": "individual"})
    with pytest.raises(OptionError, match="the stage must be a knockout, not swiss"):
        parse_config("t", {**data, "stage": {"kind": "swiss"}})
    with pytest.raises(OptionError, match="a \\[match.series\\], or a \\[match.session\\] with sides"):
        parse_config("t", {**preset_data("s0_doudizhu"), "entrants": "pairs"})


@pytest.mark.parametrize("variant, message", [
    ({"x": "first_out_wins"}, "not an extra-game number"),
    ({"0": "first_out_wins"}, "not an extra-game number"),
    ({"3": "first_out_wins"}, "extra game 3 is never played"),
    ({"1": 5}, "must name a game variant"),
])
def test_bad_extra_variants_are_refused(variant, message):
    series = {**preset_data("s2_4a4")["match"]["series"], "extra_variant": variant}
    with pytest.raises(OptionError, match=message):
        SeriesRule.from_dict(series)
    with pytest.raises(OptionError, match="needs tiebreak"):
        SeriesRule.from_dict({"tiebreak": "none", "extra_variant": {"1": "first_out_wins"}})


def test_a_forfeited_level_deal_loses_the_session():
    rule = level_rule()
    st = session_status(rule, [deal(6, 2, 0), DealOutcome((6, 2), 60_000, forfeit=0)])
    assert st.done and st.ranking == (1, 0) and st.decided_by == "forfeit" and st.ended_by == "forfeit"


@st.composite
def level_sessions(draw):
    """A level rule (pass or reach a target, a time limit, either tie rule) and deals a shengji
    table could produce: each deal one side goes up 0-3 levels, the side on stage and an
    attacking total with it."""
    kind = draw(st.sampled_from(["level_beyond", "level_at_least"]))
    target = draw(st.integers(6, 14))
    ties = draw(st.sampled_from(["on_stage", "captured_points_then_on_stage"]))
    minutes = draw(st.integers(5, 120))
    rule = level_rule(end={"target": {kind: target}, "time_limit": {"duration": f"{minutes}m"}}, ties=ties)
    levels = [2, 2]
    deals = []
    for _ in range(draw(st.integers(1, 30))):
        side = draw(st.integers(0, 1))
        levels[side] = min(15, levels[side] + draw(st.integers(0, 3)))
        attack = [0, 0]
        attack[1 - side] = draw(st.integers(0, 200)) // 5 * 5
        ms = draw(st.integers(30_000, 900_000))
        deals.append(deal(*levels, draw(st.integers(0, 1)), ms, tuple(attack)))
    return rule, deals


@settings(max_examples=300, deadline=None)
@given(level_sessions())
def test_level_sessions_end_with_a_winner_the_rules_allow(case):
    rule, deals = case
    st_ = session_status(rule, deals)
    kind, goal = rule.level_target
    if not st_.done:                     # nothing has ended it: no target met, time not up
        assert not any(v > goal or (kind == "at_least" and v == goal) for d in deals for v in d.values)
        assert sum(d.ms for d in deals) <= rule.time_limit
        return
    w, other = st_.ranking
    assert sorted(st_.ranks) == [1, 2] and st_.ranks[w] == 1
    # the session stops at the deal that ended it; later deals are never counted
    assert st_.totals == deals[st_.deals - 1].values
    a, b = st_.totals[w], st_.totals[other]
    if st_.decided_by in ("target", "measure"):
        assert a > b or st_.decided_by == "target"
    elif st_.decided_by == "captured_points":
        assert a == b and st_.attack[w] > st_.attack[other]
    else:
        assert st_.decided_by == "on_stage" and a == b and deals[st_.deals - 1].on_stage == w


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(1, 3), min_size=3, max_size=3), min_size=1, max_size=8))
def test_placement_play_offs_only_ever_crown_a_tied_seat(games):
    rule = SessionRule.from_dict(preset_data("s3_tiaoqi")["match"]["session"])
    places = [tuple(p - min(g) + 1 for p in g) for g in games]        # someone is first in each game
    st_ = session_status(rule, [DealOutcome(p) for p in places])
    first = places[0]
    tied = [s for s in range(3) if first[s] == 1]
    if st_.done:
        assert st_.ranking[0] in tied and st_.totals == first
    else:
        assert len(tied) > 1 and set(st_.eligible) <= set(tied) and len(st_.eligible) > 1
