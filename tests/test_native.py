"""The compiled builds of the hot modules (qipai.native): they give what the pure modules give
(Guobiao fans, doudizhu games, the climbing games' research tensors),
a build is used only while its sources are unchanged, and what they make copies and pickles."""

from __future__ import annotations

import copy
import hashlib
import importlib.machinery
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import qipai
from qipai import native
from qipai.games.doudizhu.combos import KickerRules, Play, PlayTable, table

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def sample() -> dict:
    """Fans of 2,000 seeded winning hands and 40 seeded random doudizhu games (every legal list
    and the result), as text; and which modules were compiled."""
    from qipai.games.mahjong_gb.fans import calculate
    from tests.mahjong_gen import winning_hands

    fans = [repr(calculate(h)) for h in winning_hands(99, 2000)]
    return {"fans": hashlib.sha256("\n".join(fans).encode()).hexdigest(), "doudizhu": doudizhu_sample(),
            "climbing": climbing_sample(),
            "compiled": sorted(m for ms in native.GROUPS.values() for m in ms if native.compiled(m))}


def climbing_sample() -> str:
    """Seeded random games of the climbing games' research envs (the kept tensors of
    qipai.env.climbkept): every seat's observation after every step, hashed; baohuang's
    Shandong ruleset keeps its tensor from followed views."""
    import numpy as np

    import qipai.env as E

    h = hashlib.sha256()
    for gid, options, games in (("doudizhu", {}, 6), ("doudizhu", {"bidding": "call_1_4"}, 3),
                                ("wakeng", {}, 4), ("fouafour", {}, 3), ("baohuang", {}, 2),
                                ("baohuang", {"ruleset": "sdbh.provisional", "num_seats": 4}, 2)):
        env = E.pettingzoo(gid, **options)
        for seed in range(games):
            env.reset(seed=seed)
            rng = random.Random(seed)
            while not env.state.is_terminal():
                for agent in env.possible_agents:
                    h.update(env.observe(agent)["observation"].tobytes())
                mask = env.observe(env.agent_selection)["action_mask"]
                env.step(int(rng.choice(np.flatnonzero(mask))))
            for agent in env.possible_agents:
                h.update(env.observe(agent)["observation"].tobytes())
    return h.hexdigest()


def doudizhu_sample() -> str:
    """40 seeded random games of the classic rules and 20 of each other bidding (叫地主 of
    seed002, OpenSpiel's auction, none): every legal list, every seat's view every fifth action,
    the refusals of a few wrong actions, the log and the result, hashed."""
    from qipai.core.errors import IllegalAction
    from qipai.games.doudizhu.bidding import Bid

    h = hashlib.sha256()
    for preset, games in (("classic", 40), ("seed002", 20), ("openspiel", 20), ("rlcard", 20)):
        game = qipai.load("doudizhu", preset=preset)
        for seed in range(games):
            rng = random.Random(seed)
            state = game.new_state(seed=seed)
            while state.result is None:
                legal = state.legal_actions()
                h.update(" ".join(map(str, legal)).encode())
                if len(state.log) % 5 == 0:
                    h.update(json.dumps([state.view(s) for s in (None, 0, 1, 2)]).encode())
                    for wrong in ("bid 3", "333", Bid("2"), "call", "LB", 7):   # some are legal
                        twin = state.clone()
                        try:
                            twin.apply(wrong)
                        except IllegalAction as e:
                            h.update(str(e).encode())
                        h.update(json.dumps(twin.view(twin.turn)).encode())
                state.apply(rng.choice(legal))
            h.update(repr((state.result, state.log, state.play_cards)).encode())
    return h.hexdigest()


def _child_sample(pure: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("QIPAI_PURE", None)
    if pure:
        env["QIPAI_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", "import json; from tests.test_native import sample; "
                          "print(json.dumps(sample()))"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    return json.loads(out.stdout)


def test_pure_and_compiled_give_the_same_fans_and_games():
    """A sample scored and played with ``QIPAI_PURE=1`` and without it: the same answers. Where
    a fresh build exists (CI builds one), the second process used it for every module."""
    pure = _child_sample(pure=True)
    assert pure["compiled"] == []
    built = _child_sample(pure=False)
    finder = native.NativeFinder()
    fresh = [m for g, ms in native.GROUPS.items() if finder.files(g) is not None for m in ms]
    assert built["compiled"] == sorted(fresh)
    assert built["fans"] == pure["fans"]
    assert built["doudizhu"] == pure["doudizhu"]
    assert built["climbing"] == pure["climbing"]


def _fake_build(tmp_path: Path, group: str) -> tuple[Path, Path]:
    """A copy of ``group``'s sources under ``tmp_path/src`` and a build of it (empty files with
    the compiled files' names and a manifest) under ``tmp_path/native``."""
    src, built = tmp_path / "src", tmp_path / "native" / group
    names = [*native.GROUPS[group], native.lib_name(group)]
    files = {n: str(Path(*n.split("."))) + SUFFIX for n in names}
    for m in native.hashed(group):
        dest = native.source(m, src)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(native.source(m).read_bytes())
    for rel in files.values():
        (built / rel).parent.mkdir(parents=True, exist_ok=True)
        (built / rel).write_bytes(b"")
    sources = {m: native.digest(native.source(m, src)) for m in native.hashed(group)}
    (built / native.MANIFEST).write_text(json.dumps({"suffix": SUFFIX, "sources": sources, "files": files}))
    return src, built


def test_a_build_is_used_only_while_every_source_of_its_group_is_unchanged(tmp_path):
    src, built = _fake_build(tmp_path, "fans")
    finder = native.NativeFinder(tmp_path / "native", src)
    spec = finder.find_spec("qipai.games.mahjong_gb.fans")
    assert spec is not None and spec.origin == str(built / "qipai/games/mahjong_gb/fans") + SUFFIX
    assert finder.find_spec(native.lib_name("fans")) is not None
    assert finder.find_spec("qipai.games.doudizhu.combos") is None     # not built here
    assert finder.find_spec("qipai.games.mahjong_gb.state") is None    # never compiled

    with native.source("qipai.tiles.shapes", src).open("a") as f:        # one module of the group
        f.write("\n# changed\n")
    stale = native.NativeFinder(tmp_path / "native", src)
    for name in [*native.GROUPS["fans"], native.lib_name("fans")]:
        assert stale.find_spec(name) is None, name


def test_a_build_for_another_interpreter_or_missing_a_file_is_not_used(tmp_path):
    src, built = _fake_build(tmp_path, "doudizhu")
    manifest = json.loads((built / native.MANIFEST).read_text())
    name = "qipai.games.doudizhu.combos"
    assert native.NativeFinder(tmp_path / "native", src).find_spec(name) is not None
    (built / native.MANIFEST).write_text(json.dumps({**manifest, "suffix": ".cpython-399-x.so"}))
    assert native.NativeFinder(tmp_path / "native", src).find_spec(name) is None
    (built / native.MANIFEST).write_text(json.dumps(manifest))
    (built / manifest["files"][native.lib_name("doudizhu")]).unlink()
    assert native.NativeFinder(tmp_path / "native", src).find_spec(name) is None


def test_qipai_pure_installs_no_finder():
    code = ("import sys, qipai, qipai.native as n; "
            "print(any(isinstance(f, n.NativeFinder) for f in sys.meta_path))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QIPAI_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False"


def test_plays_tables_and_rules_copy_and_pickle():
    """Compiled classes take their constructor's arguments in ``__new__``: each of these copies
    and pickles through its ``__reduce__``, pure or compiled alike."""
    rules = KickerRules(four_with_two=False, bomb_answers_rocket=True)
    t = table(rules)
    plays = t.plays
    assert pickle.loads(pickle.dumps(plays)) == plays          # each the same interned play
    assert copy.deepcopy(plays) == plays and [copy.copy(p) for p in plays] == plays
    assert copy.deepcopy(t) is t and pickle.loads(pickle.dumps(t)) is t
    assert isinstance(t, PlayTable) and all(type(p) is Play for p in plays)
    assert copy.deepcopy(rules) == rules == pickle.loads(pickle.dumps(rules))

    game = qipai.load("doudizhu")
    state = game.new_state(seed=3)
    r = random.Random(3)
    for _ in range(10):
        state.apply(r.choice(state.legal_actions()))
    twin = copy.deepcopy(state)
    back = pickle.loads(pickle.dumps(state))
    assert twin.top is state.top and back.table is twin.table is state.table
    r1, r2 = random.Random(4), random.Random(4)
    while state.result is None:
        a = r1.choice(state.legal_actions())
        b = r2.choice(twin.legal_actions())
        assert str(a) == str(b)
        state.apply(a)
        twin.apply(b)
        back.apply(str(b))
    assert twin.result == state.result == back.result


def test_a_fans_build_is_stale_when_the_fan_numbers_it_inlined_change(tmp_path):
    """mypyc writes fantable's ``Final`` fan numbers into the fans group's C: a changed fantable
    makes the build stale though no compiled module's own source changed."""
    src, _ = _fake_build(tmp_path, "fans")
    assert native.NativeFinder(tmp_path / "native", src).find_spec("qipai.games.mahjong_gb.fans") is not None
    with native.source("qipai.games.mahjong_gb.fantable", src).open("a") as f:
        f.write("\n# changed\n")
    assert native.NativeFinder(tmp_path / "native", src).find_spec("qipai.games.mahjong_gb.fans") is None


def test_doudizhu_states_copy_clone_and_pickle_at_every_phase():
    """Compiled, a doudizhu state is an instance of a mypyc class (its attributes in C fields
    and a ``__dict__`` for the rest): a clone, a deep copy and a pickle taken during
    the bidding, the play and after the end each play on as the original, leave it alone, and
    keep the attributes another module set on it."""
    for preset in ("classic", "seed002"):
        game = qipai.load("doudizhu", preset=preset)
        for stop in (1, 12, 10**6):                       # bidding, play, over
            state = game.new_state(seed=5)
            r = random.Random(5)
            while state.result is None and len(state.log) < stop:
                state.apply(r.choice(state.legal_actions()))
            state.note = "kept"                            # a module's own mark on a state
            before = json.dumps(state.view(None))
            copies = [state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))]
            for twin in copies:
                assert type(twin) is type(state) and twin.note == "kept"
                assert twin.view(None) == state.view(None) and twin.log == state.log
                r2 = random.Random(6)
                while twin.result is None:
                    twin.apply(r2.choice(twin.legal_actions()))
                assert json.dumps(state.view(None)) == before      # the original is untouched
            assert len({json.dumps(c.view(None)) for c in copies}) == 1


def test_climbing_kept_tensors_copy_and_pickle_and_go_on_alike():
    """A climbing env's kept tensors (qipai.env.climbkept.ClimbKept, a mypyc class when built)
    copy and pickle through their ``__reduce__``: a copy taken mid-game gives the observations
    of a fresh encoding as it plays on, and the original is left alone."""
    import numpy as np

    import qipai.env as E
    from qipai.env.climbkept import ClimbKept

    for gid in ("doudizhu", "baohuang"):
        env, fresh = E.pettingzoo(gid), E.encoder(gid)
        env.reset(seed=4)
        rng = random.Random(4)
        for _ in range(25):
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        kept = env._tensors[0]._kept
        assert isinstance(kept, ClimbKept)
        before = env.observe(env.possible_agents[0])["observation"]
        for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
            assert twin._tensors[0]._kept is not kept
            r = random.Random(5)
            while not twin.state.is_terminal():
                for seat, agent in enumerate(twin.possible_agents):
                    want = fresh.encode(twin.state.view(seat), seat)
                    assert np.array_equal(twin.observe(agent)["observation"], want)
                twin.step(int(r.choice(np.flatnonzero(twin.observe(twin.agent_selection)["action_mask"]))))
        assert np.array_equal(env.observe(env.possible_agents[0])["observation"], before)
