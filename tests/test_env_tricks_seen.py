"""Shengji's observations read from ``state.seen_tricks`` (qipai/env/tricks.py,
``TrickTensor.follow``): what the state gives equals what ``view(seat)`` shows, the kept
tensor equals the one encoded from ``view(seat)`` over random playouts of every profile (one,
two and three decks, the declaration systems, the prompts of every card), whether each seat
observes after every step or only at its own turns, and an env step reads no view. The
candidate features read a page at once as each candidate alone, and a full table of texts
starts again."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import qipai
import qipai.env as E
from qipai.env import cardtext
from tests.env_helpers import copies_keep_tensors, kept_playouts, step_at_random, views_read

PROFILES = [{}, {"deal_prompt": "every_card"}, {"profile": "titanic"}, {"profile": "one_deck"},
            {"profile": "seed002"}, {"profile": "seed003"}]
PUBLIC = ("kitty_shown", "buried", "captured", "played")


def _ids(v):
    return "-".join(map(str, v.values())) or "default"


@pytest.mark.parametrize("options", PROFILES, ids=_ids)
def test_what_the_state_gives_is_what_the_view_shows(options):
    game = qipai.load("shengji", **options)
    rng = np.random.default_rng(5)
    for seed in (5, 6):
        state = game.new_state(seed=seed)
        marks = [None] * 4
        public = [[[] for _ in PUBLIC] for _ in range(4)]
        last: list = [None] * 4
        hands: list = [None] * 4
        while True:
            for seat in range(4):
                view = state.view(seat)
                seen = state.seen_tricks(seat, marks[seat])
                for key, value in seen.keys.items():
                    assert value == view[key], (seed, seat, key)
                if seen.hand is not None:
                    hands[seat] = Counter(seen.hand)
                else:                        # changed by the seat's own plays only
                    assert seen.public[-1] or hands[seat] == Counter(view["hand"])
                    hands[seat] = hands[seat] - Counter(seen.public[-1])
                assert hands[seat] == Counter(view["hand"]), (seed, seat)
                assert [[s, list(fs)] for s, fs in seen.trick] == view["trick"]
                if seen.last_trick is not None:
                    last[seat] = seen.last_trick
                plays = [[s, list(fs)] for s, fs in last[seat]]
                assert plays == (view["last_trick"]["plays"] if view["last_trick"] else [])
                for i, key in enumerate(PUBLIC):
                    public[seat][i] = (list(seen.public[i]) if seen.whole
                                       else public[seat][i] + list(seen.public[i]))
                    assert public[seat][i] == (view[key] or []), (seed, seat, key)
                marks[seat] = seen.mark
            if not step_at_random(state, rng):
                break


@pytest.mark.parametrize("options", PROFILES, ids=_ids)
def test_the_kept_tensor_is_the_tensor_of_the_whole_view_at_the_seats_turns(options):
    # as a researcher's loop does: only the acting agent observes, so each seat's kept tensor
    # catches up several actions at once (a trick ended, cards captured, the kitty buried)
    env = E.pettingzoo("shengji", **options)
    assert kept_playouts(env, E.encoder("shengji", **options), (1, 2), every_seat=False) > 100


@pytest.mark.parametrize("options", [{}, {"profile": "titanic"}], ids=_ids)
def test_the_kept_tensor_is_the_tensor_of_the_whole_view_after_every_step(options):
    env = E.pettingzoo("shengji", **options)
    assert kept_playouts(env, E.encoder("shengji", **options), (3,), every_seat=True) > 400


def test_a_copied_env_keeps_its_tensors_right():
    copies_keep_tensors(E.pettingzoo("shengji"), E.encoder("shengji"), 9, 60, 40)


def test_a_shengji_env_step_reads_no_view():
    env = E.pettingzoo("shengji")
    assert views_read(env, 3, 150) == []


def test_features_read_from_face_slots_equal_those_read_from_face_counts(monkeypatch):
    # the trick games' candidates are read by face_slots (faster for a new text); the rows
    # equal those read from action_faces' counts, and a full table starts again
    with_slots = E.encoder("shengji").actions
    with_counts = cardtext.list_actions(64, ("play", "pass", "declare", "bury"), cardtext.action_faces,
                                        2.0, 100.0, "face counts")
    monkeypatch.setattr(cardtext, "FEATURES_KEPT", 300)
    kept = with_slots.featurize.__self__
    starts = []
    real_empty = kept._empty
    monkeypatch.setattr(kept, "_empty", lambda: starts.append(1) or real_empty())
    game = qipai.load("shengji")
    rng = np.random.default_rng(2)
    state = game.new_state(seed=2)
    texts = ["pass", "bid 60", "trump C", "bury 6D0 7H1 TS", "AS AS KS", "declare BJ BJ"]
    while not state.is_terminal():
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        page = [legal[int(rng.integers(len(legal)))] for _ in range(int(rng.integers(1, 65)))]
        for acts in (page, texts):
            a = np.zeros((64, with_slots.features), np.float32)
            b = np.zeros_like(a)
            with_slots.featurize_many(acts, a)
            with_counts.featurize_many(acts, b)
            assert np.array_equal(a, b)
            assert np.array_equal(a[0], with_counts.featurize(acts[0]))
        state.apply(legal[int(rng.integers(len(legal)))], seat=seat)
    assert a[1, 4 + 1 + 54] == np.float32(0.6) and a[0, 1] == 1      # bid 60: number / 100; pass
    assert starts and len(kept.cache) <= 300                            # started again
