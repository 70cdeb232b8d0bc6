"""The mahjong tensor's ``last_discard`` block in a claim window: the tile the seat is
answering (the discard, an added kong's tile, a laizi kong's laizi) and the seat it came
from, both in the kept tensor (``state.seen_table``) and in the one encoded from
``view(seat)``; zero during a turn; a robbed concealed kong's tile only for its owner."""

from __future__ import annotations

import numpy as np
import pytest

import qipai.env as E
from qipai.env.tiles import PHASES


def _walk(gid, seed, steps, take_kongs=False, **options):
    """Random play of ``gid`` (one hand unless ``options`` say more), kongs taken when
    offered with ``take_kongs``; yields the env before each step."""
    env = E.pettingzoo(gid, **{"hands_per_match": 1, **options})
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.state.is_terminal():
            return
        yield env
        obs = env.observe(env.agent_selection)
        legal = env.chooser._legal
        kongs = [i for i, a in enumerate(legal[:64]) if take_kongs and str(a).split()[0] in ("kong", "add")]
        env.step(kongs[0] if kongs else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _blocks(env, enc, seat, name):
    """Block ``name`` of seat's kept tensor and of the tensor encoded from its view."""
    lo, hi = enc.layout.offsets[name]
    kept = env.observe(env.possible_agents[seat])["observation"][lo:hi]
    return kept, enc.encode(env.state.view(seat), seat)[lo:hi]


@pytest.mark.parametrize("gid", ["mahjong-gb", "laizi-mahjong", "baibian-bajue"])
def test_in_a_claim_window_the_block_holds_the_discard_being_answered(gid):
    enc = E.encoder(gid, hands_per_match=1)
    windows = turns = 0
    for env in _walk(gid, 5, 400):
        state = env.state
        for seat in range(4):
            kept, rebuilt = _blocks(env, enc, seat, "last_discard")
            assert np.array_equal(kept, rebuilt)
            if state.phase == "claim":
                frm = state.pending["from"]
                tile = state.ponds[frm][-1][0]              # the discard just made, public
                want = np.zeros(38, np.float32)
                want[tile] = 1
                want[34 + (frm - seat) % 4] = 1
                assert np.array_equal(kept, want), (seat, tile, frm)
                windows += 1
            elif state.phase == "turn":
                assert not kept.any()
                turns += 1
    assert windows > 100 and turns > 100


def test_laizi_kong_window_shows_the_laizi_and_its_phase():
    gid = "laizi-mahjong"
    enc = E.encoder(gid, hands_per_match=1)
    windows = 0
    for seed in range(6):
        for env in _walk(gid, seed, 400, take_kongs=True):
            state = env.state
            if state.phase != "laizi":
                continue
            frm = state.pending["from"]
            for seat in range(4):
                kept, rebuilt = _blocks(env, enc, seat, "last_discard")
                assert np.array_equal(kept, rebuilt)
                assert kept[state.laizi] == 1 and kept[:34].sum() == 1
                assert kept[34 + (frm - seat) % 4] == 1
                phase, rebuilt_phase = _blocks(env, enc, seat, "phase")
                assert np.array_equal(phase, rebuilt_phase)
                assert list(phase) == [0, 0, 1], PHASES   # the third slot: a kong's window
            windows += 1
    assert windows


def test_a_robbed_concealed_kong_shows_its_tile_to_its_owner_only():
    gid = "mahjong-gb"
    opts = {"rob_concealed_kong_for_13_orphans": True, "hands_per_match": 4}
    enc = E.encoder(gid, **opts)
    hidden = added = 0
    for seed in (3,):                       # a match with both kinds of kong windows
        for env in _walk(gid, seed, 5000, take_kongs=True, **opts):
            state = env.state
            if state.phase != "rob":
                continue
            frm, tile = state.pending["from"], state.pending["tile"]
            for seat in range(4):
                kept, rebuilt = _blocks(env, enc, seat, "last_discard")
                assert np.array_equal(kept, rebuilt)
                assert kept[34 + (frm - seat) % 4] == 1
                shown = seat == frm or state.pending["kind"] == "rob"
                assert kept[:34].sum() == shown and (not shown or kept[tile] == 1)
            hidden += state.pending["kind"] == "rob_concealed"
            added += state.pending["kind"] == "rob"
    assert hidden and added
