"""The research encodings (qipai.env): doudizhu's fixed numbering of the 27,472 plays, the
board numberings, whole games played through the masks, paging of long legal lists, and
refused slots."""

from __future__ import annotations

import numpy as np
import pytest

import qipai
import qipai.env as E
from qipai.core.errors import IllegalAction
from qipai.env.cardtext import rank_vector
from qipai.env.climbing import play_ranks
from qipai.games.doudizhu.combos import TYPES
from tests.env_helpers import GAMES, play_masked


def test_doudizhu_numbers_27471_plays_then_pass_then_the_bids():
    enc = E.encoder("doudizhu")
    acts = enc.actions
    assert len(enc.plays) == 27471 and acts.size == 27476
    labels = [acts.label(i) for i in range(acts.size)]
    assert labels[27471:] == ["pass", "bid 1", "bid 2", "bid 3", "call"]
    assert len(set(labels)) == acts.size
    # rule-file order: §3.2 type order, then length, then key
    types = [p.type for p in enc.plays]
    assert [t for i, t in enumerate(types) if i == 0 or types[i - 1] != t] == list(TYPES)
    assert labels[:3] == ["3", "4", "5"] and labels[14] == "B" and labels[15] == "33"
    keyed = [(p.type, p.length, p.key) for p in enc.plays]
    assert keyed == sorted(keyed, key=lambda k: (TYPES.index(k[0]), k[1], k[2]))
    # every legal action of a real deal has its slot, and the slot gives the action back
    state = qipai.load("doudizhu").new_state(seed=5)
    while state.phase == "bidding":
        state.apply(state.legal_actions()[-1])
    for a in state.legal_actions():
        assert labels[acts.index(a)] == str(a)


def test_board_numberings_agree_with_the_planes():
    env = E.pettingzoo("xiangqi")
    env.reset(seed=1)
    obs = env.observe("player_0")
    frm, to = divmod(int(np.flatnonzero(obs["action_mask"])[0]), 90)
    planes = obs["observation"]
    assert planes[:7, frm // 9, frm % 9].sum() == 1          # an own piece stands on the from square
    env = E.pettingzoo("go", board_size=9)
    env.reset(seed=1)
    env.step(40)                                             # E5, the centre
    obs = env.observe("player_0")
    assert obs["observation"][0, 4, 4] == 1 and obs["observation"][3, 4, 4] == 1
    assert str(env.state.log[-1]) == "E5"


@pytest.mark.parametrize("game_id,options", GAMES, ids=lambda v: v if isinstance(v, str) else "")
def test_a_whole_game_through_the_masks_ends_with_the_returns(game_id, options):
    env = E.pettingzoo(game_id, **options)
    steps = play_masked(env, seed=3)
    assert env.state.is_terminal(), f"{game_id}: not over after {steps} steps"
    assert steps >= len(env.state.log)
    # every agent was told its return, and the record replays
    returns = env.state.returns()
    assert env.agents == []
    assert qipai.replay(env.state.to_record()).returns() == returns


def test_a_long_list_is_chosen_in_pages_and_nothing_changes_meanwhile():
    env = E.pettingzoo("shengji")
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    while env.state.view(env.state.to_act[0])["phase"] != "bury":
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    agent = env.agent_selection
    total = len(env.state.legal_actions(env.state.to_act[0]))
    assert total > 64 ** 3                                   # 8 of 33 cards: millions
    log = len(env.state.log)
    pages = 0
    seat = env.possible_agents.index(agent)
    want = E.encoder("shengji").encode(env.state.view(seat), seat)
    while len(env.state.log) == log:
        obs = env.observe(agent)
        # the tensor of a paging step is the seat's tensor of the unchanged state, a new array
        # each time (an earlier observation written over changes nothing later)
        assert np.array_equal(obs["observation"], want)
        obs["observation"][:] = 7.0
        assert env.agent_selection == agent
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        pages += 1
    assert pages == 4 and env.state.log[-1].startswith("bury")


def test_a_masked_slot_is_refused_and_changes_nothing():
    env = E.pettingzoo("gomoku")
    env.reset(seed=0)
    env.step(112)                                            # h8
    with pytest.raises(IllegalAction) as e:
        env.step(112)                                        # occupied now
    assert e.value.code == "env.masked_action" and len(env.state.log) == 1
    gym = E.gymnasium("gomoku", seat=1, opponents="random")
    obs, _ = gym.reset(seed=0)
    taken = int(np.flatnonzero(obs["observation"][1].ravel())[0])   # the bot's stone
    obs2, reward, term, trunc, info = gym.step(taken)
    assert info["illegal_action"] and reward == 0 and not term
    assert np.array_equal(obs2["observation"], obs["observation"])


def test_gymnasium_game_against_bots_to_the_end():
    gym = E.gymnasium("doudizhu", seat=1, opponents="rule")
    obs, info = gym.reset(seed=11)
    rng = np.random.default_rng(1)
    total, done = 0.0, False
    while not done:
        obs, r, term, trunc, info = gym.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        done = term or trunc
    assert term and total == gym.aec.state.returns()[1] != 0


def test_the_package_imports_without_the_research_libraries():
    import subprocess
    import sys

    code = ("import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None; "
            "import qipai, qipai.env; print(qipai.load('go').id)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "go", out.stderr


@pytest.mark.parametrize("game_id", ["doudizhu", "baohuang", "wakeng", "fouafour"])
def test_the_kept_history_gives_the_tensor_a_fresh_encoder_gives(game_id):
    # the climbing encoders extend their per-seat count of played cards while the view's play
    # list only grows; a new game (or any other list) starts it again
    env = E.pettingzoo(game_id)
    fresh = E.encoder(game_id, num_seats=env.num_seats)
    rng = np.random.default_rng(4)
    for seed in (4, 5):
        env.reset(seed=seed)
        steps = 0
        while not env.state.is_terminal() and steps < 120:
            for seat in range(env.num_seats):
                view = env.state.view(seat)
                for entry in view.get("plays") or ():             # a play's text names its cards
                    if len(entry) > 2 and entry[2]:
                        assert play_ranks(entry) == tuple(rank_vector(entry[2]).astype(int)), entry
                fresh._memo.clear()                                  # nothing kept: from scratch
                assert np.array_equal(env.encoder.encode(view, seat), fresh.encode(view, seat))
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1


@pytest.mark.parametrize("game_id,options", GAMES + [("doudizhu", {"bidding": "call_1_4"}),
                                                     ("chinese-checkers", {"num_seats": 3}),
                                                     ("chinese-checkers", {"num_seats": 6}),
                                                     ("baohuang", {"ruleset": "sdbh.provisional",
                                                                   "num_seats": 4})],
                         ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())))
def test_the_kept_tensor_is_the_tensor_of_the_whole_view_at_every_step(game_id, options):
    # the env keeps each seat's view and tensor from the view's changes (TensorFollower); every
    # seat's observation, read after every step, equals a fresh encoding of its whole view
    env = E.pettingzoo(game_id, **options)
    fresh = E.encoder(game_id, **{k: v for k, v in options.items()})
    rng = np.random.default_rng(7)
    for seed in (7, 8):
        env.reset(seed=seed)
        steps = 0
        while not env.state.is_terminal() and steps < 150:
            for agent in env.agents:
                seat = env.possible_agents.index(agent)
                if getattr(fresh, "_memo", None) is not None:
                    fresh._memo.clear()                              # nothing kept: from scratch
                want = fresh.encode(env.state.view(seat), seat)
                assert np.array_equal(env.observe(agent)["observation"], want), (agent, steps)
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1


@pytest.mark.parametrize("game_id", ["doudizhu", "wakeng", "fouafour", "baohuang"])
def test_a_seat_observing_only_at_its_turns_gets_the_tensor_of_its_whole_view(game_id):
    # as a researcher's loop does: only the acting agent observes, so each seat's kept tensor
    # catches up several actions at once (several plays appended, several small blocks changed)
    env = E.pettingzoo(game_id)
    fresh = E.encoder(game_id, num_seats=env.num_seats)
    rng = np.random.default_rng(11)
    for seed in (11, 12, 13):
        env.reset(seed=seed)
        while not env.state.is_terminal():
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            obs = env.observe(agent)
            fresh._memo.clear()                                      # nothing kept: from scratch
            assert np.array_equal(obs["observation"], fresh.encode(env.state.view(seat), seat))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_max_steps_truncates_every_agent_and_unknown_bots_fail_at_once():
    env = E.pettingzoo("go", board_size=9, max_steps=6)
    env.reset(seed=0)
    seen = 0
    for _agent in env.agent_iter(100):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        seen += 1
    assert seen == 6 and env.agents == [] and not env.state.is_terminal()
    gym = E.gymnasium("go", board_size=9)                      # "rule" is greedy for go
    assert gym.bot_names == [None, "greedy"]
    with pytest.raises(qipai.OptionError):
        E.gymnasium("go", opponents="nobody")


def test_docs_research_md_shows_every_games_encoding_as_the_code_has_it():
    from pathlib import Path

    from qipai.core.registry import _MODULES
    from qipai.env.docs import DOCUMENTED, markdown

    text = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text(encoding="utf-8")
    assert markdown() in text, "regenerate with: python -m qipai.env.docs"
    # the games qipai ships (other test modules register small games of their own)
    assert {g for g, _ in DOCUMENTED} == {g for g, m in _MODULES.items() if m.startswith("qipai.")}


def test_action_texts_read_as_kind_ranks_and_number():
    from qipai.env.cardtext import RANKS, action_faces, action_ranks

    def ranks(counts):
        return "".join(r * c for r, c in zip(RANKS, counts))

    assert [(k, ranks(c), x) for k, c, x in map(action_ranks, [
        "888", "56789", "bid 2", "cha 88", "KKKAAA+8B", "plane_solo:333444+56", "pass",
        "declare 6H1 6H2 6H3", "3333LB"])] == [
        ("play", "888", 0), ("play", "56789", 0), ("bid", "", 2), ("cha", "88", 0),
        ("play", "8KKKAAAB", 0), ("play", "33344456", 0), ("pass", "", 0), ("declare", "666", 0),
        ("play", "3333LB", 0)]
    kind, faces, number = action_faces("bury 6D 7H TS")
    assert kind == "bury" and sum(faces) == 3 and number == 0
    assert action_faces("bid 75")[0::2] == ("bid", 75)


@pytest.mark.parametrize("game_id", ["shengji", "sandayi", "wakeng", "mahjong-gb"])
def test_a_page_featurized_at_once_equals_each_candidate_featurized_alone(game_id):
    # the chooser featurizes a page with featurize_many (new actions together); every row
    # must be the candidate's own featurize, for actions met before and for new ones
    import random

    env = E.pettingzoo(game_id, **dict(GAMES)[game_id])
    alone = E.encoder(game_id, **dict(GAMES)[game_id]).actions     # its own, empty cache
    acts = env.encoder.actions
    rng = random.Random(3)
    for seed in (3, 4):
        state = env.game.new_state(seed=seed)
        while not state.is_terminal():
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            page = [legal[rng.randrange(len(legal))] for _ in range(rng.randint(1, acts.size))]
            out = np.zeros((acts.size, acts.features), np.float32)
            acts.featurize_many(page, out)
            want = np.zeros_like(out)
            want[:len(page)] = [alone.featurize(a) for a in page]
            assert np.array_equal(out, want), (seed, len(state.log))
            state.apply(rng.choice(legal), seat=seat)


@pytest.mark.parametrize("game_id", ["shengji", "sandayi", "wakeng", "fouafour", "baohuang"])
def test_features_written_item_by_item_equal_the_batch_rows(game_id, monkeypatch):
    # a few new texts of a page are written item by item (cardtext.FEW_NEW), more by numpy in
    # one batch: the same rows, for every page of random games (bids' numbers included)
    import random

    from qipai.env import cardtext

    opts = dict(GAMES).get(game_id, {})
    by_items = E.encoder(game_id, **opts).actions
    in_batch = E.encoder(game_id, **opts).actions
    game = qipai.load(game_id, **opts)
    rng = random.Random(5)
    for seed in (5, 6):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            page = [legal[rng.randrange(len(legal))] for _ in range(rng.randint(1, by_items.size))]
            a = np.zeros((by_items.size, by_items.features), np.float32)
            b = np.zeros_like(a)
            monkeypatch.setattr(cardtext, "FEW_NEW", by_items.size)
            by_items.featurize_many(page, a)
            monkeypatch.setattr(cardtext, "FEW_NEW", 0)
            in_batch.featurize_many(page, b)
            assert np.array_equal(a, b), (seed, len(state.log))
            assert a[:len(page)].any(axis=1).all()
            state.apply(rng.choice(legal), seat=seat)
