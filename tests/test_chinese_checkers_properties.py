"""Chinese checkers properties (Hypothesis): random playouts under every option and seat count
never crash and end, every legal action applies, illegal ones are refused with the state
unchanged, the JSON round trip replays to the same state, and results are well formed."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipai
from qipai.bots import make_bot
from qipai.core.errors import IllegalAction
from qipai.games.chinese_checkers.board import NHOLES, hole_name

OPTIONS = st.fixed_dictionaries({
    "jump_rule": st.sampled_from(["adjacent", "equidistant"]),
    "may_stop_in_foreign_camps": st.booleans(),
    "ranking": st.sampled_from(["first_only", "full"]),
    "anti_stalling": st.booleans(),
    "keep_out_after_30": st.booleans(),
    "max_moves": st.integers(1, 40),
})


def _snap(state) -> str:
    return json.dumps([state.to_json(), state.view(None), state.board], sort_keys=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, n=st.sampled_from([2, 3, 4, 6]), seed=st.integers(0, 2**32 - 1),
       greedy=st.booleans())
def test_random_playouts(options, n, seed, greedy):
    rng = random.Random(seed)
    game = qipai.load("chinese-checkers", **options)
    state = game.new_state(num_seats=n)
    bots = [make_bot(game.id, "greedy" if greedy and s % 2 == 0 else "random", seed + s)
            for s in range(n)]
    limit = n * options["max_moves"] + 1
    for _ in range(limit):
        if state.is_terminal():
            break
        seat = state.current_player
        actions = state.legal_actions()
        assert actions
        texts = {str(a) for a in actions}
        pairs = {(a.start, a.dest) for a in actions if a.kind == "move"}
        before = _snap(state)
        # illegal probes: a random hole pair that is not a legal (from, to), the other seats
        for _ in range(3):
            a, b = rng.randrange(NHOLES), rng.randrange(NHOLES)
            if (a, b) in pairs:
                continue
            try:
                state.apply(f"{hole_name(a)}>{hole_name(b)}")
            except IllegalAction:
                assert _snap(state) == before
            else:
                raise AssertionError(f"{hole_name(a)}>{hole_name(b)} applied but is not legal")
        other = (seat + 1) % n
        try:
            state.apply(actions[0], seat=other)
        except IllegalAction:
            assert _snap(state) == before
        else:
            raise AssertionError("a move out of turn was applied")
        if "pass" not in texts:
            try:
                state.apply("pass")
            except IllegalAction:
                assert _snap(state) == before
            else:
                raise AssertionError("pass applied while moves exist")
        # every legal action applies (a sample on clones)
        for a in rng.sample(actions, min(4, len(actions))):
            c = state.clone()
            c.apply(a)
            assert c.moves[seat] == state.moves[seat] + 1
        state.apply(bots[seat].choose(state, seat))
    assert state.is_terminal(), "the max_moves guard must end every game"
    r = state.result
    places = r.details["places"]
    assert sorted(places)[0] == 1 and all(1 <= p <= n for p in places)
    assert abs(sum(r.returns) - n * (n - 1) / 2) < 1e-9
    assert set(r.winners) == ({s for s in range(n) if places[s] == 1} if n > 2 or
                              places[0] != places[1] else set())
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert _snap(again) == _snap(state) and again.returns() == state.returns()


@settings(max_examples=20, deadline=None)
@given(n=st.sampled_from([2, 3, 4, 6]), seed=st.integers(0, 2**32 - 1),
       rule=st.sampled_from(["adjacent", "equidistant"]))
def test_round_trip_mid_game_with_eliminations(n, seed, rule):
    rng = random.Random(seed)
    state = qipai.load("tiaoqi", jump_rule=rule).new_state(num_seats=n)
    for _ in range(rng.randrange(1, 60)):
        if state.is_terminal():
            break
        if rng.random() < 0.03:
            seat = rng.choice([s for s in range(n) if state.status[s] == "playing"])
            state.apply(rng.choice(["resign", "forfeit:timeout"]), seat=seat)
            continue
        if n > 2 and rng.random() < 0.1:
            state.apply("timeout")
            continue
        state.apply(rng.choice(state.legal_actions()))
    again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert _snap(again) == _snap(state)
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
