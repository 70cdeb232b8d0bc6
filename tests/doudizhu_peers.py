"""Situations (hand + play to beat) and legal-play sets from two independent doudizhu
implementations, RLCard and OpenSpiel, for the differential tests and the benchmark.

Each generator plays uniformly random games in the peer and yields, at every play decision,
``(hand ranks, top, peer legal set)`` where ``top`` is ``None`` on a lead or
``(ranks, type hint, key hint)``; legal sets hold rank strings in qipai's order plus ``"pass"``.
"""

from __future__ import annotations

import random

from qipai.games.doudizhu.combos import ORDER, PACKER

_RL = str.maketrans({"B": "L", "R": "B"})
_OS = {"(BWJ)": "L", "(CJ)": "B"}


def norm(ranks: str) -> str:
    """A rank string in qipai's canonical order (multiset identity)."""
    return ORDER.format_counts(ORDER.parse_counts(ranks))


def rlcard_situations(n: int, seed: int = 0):
    """``n`` situations from random RLCard games (RLCard: seat 0 is landlord, no bidding)."""
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame

    rng = random.Random(seed)
    made = 0
    game_no = 0
    while made < n:
        g = DoudizhuGame()
        g.np_random = np.random.RandomState(seed * 100003 + game_no)
        game_no += 1
        state, pid = g.init_game()
        while not g.is_over() and made < n:
            hand = norm(state["current_hand"].translate(_RL))
            last = next(((p, a) for p, a in reversed(state["trace"]) if a != "pass"), None)
            top = None if last is None or last[0] == pid else (norm(last[1].translate(_RL)), None, None)
            peer = {a if a == "pass" else norm(a.translate(_RL)) for a in state["actions"]}
            yield hand, top, peer
            made += 1
            state, pid = g.step(rng.choice(list(state["actions"])))


def _os_ranks(text: str) -> str:
    for k, v in _OS.items():
        text = text.replace(k, v)
    return text


def openspiel_situations(n: int, seed: int = 0):
    """``n`` situations from random OpenSpiel ``dou_dizhu`` games (play phase only). The top's
    type and key follow OpenSpiel's own reading (``body-wings`` names the airplane body)."""
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)
    made = 0
    while made < n:
        state = game.new_initial_state()
        top = None
        passes = 0
        while not state.is_terminal() and made < n:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choice(outcomes))
                continue
            p = state.current_player()
            actions = state.legal_actions()
            texts = [state.action_to_string(p, a) for a in actions]
            if any(t.startswith("Bid") for t in texts):
                state.apply_action(rng.choice(actions))
                continue
            obs = state.observation_string(p)
            hand = norm(_os_ranks(obs.split("\n")[0][len("My hand "):]))
            peer = {"pass" if t == "Pass" else norm(_os_ranks(t).replace("-", "")) for t in texts}
            yield hand, top, peer
            made += 1
            i = rng.randrange(len(actions))
            text = texts[i]
            state.apply_action(actions[i])
            if text == "Pass":
                passes += 1
                if passes == 2:
                    top, passes = None, 0
            else:
                passes = 0
                ranks = _os_ranks(text)
                if "-" in ranks:
                    body = ORDER.parse_counts(ranks.split("-")[0])
                    key = max(i for i, c in enumerate(body) if c)
                    top = (norm(ranks.replace("-", "")), "kicker", key)
                else:
                    top = (norm(ranks), "plain", None)


_SHAPES: dict[int, tuple[object, dict]] = {}


def _by_shape(table) -> dict:
    """The plays of ``table`` by ``(type, length, key)`` (any one of each; the plays that beat a
    play depend on these alone)."""
    got = _SHAPES.get(id(table))
    if got is None or got[0] is not table:
        got = _SHAPES[id(table)] = (table, {(p.type, p.length, p.key): p for p in table.plays})
    return got[1]


def our_legal(table, hand: str, top) -> set[str]:
    """qipai's legal plays (rank strings) for ``hand`` facing ``top`` (see the generators)."""
    code = PACKER.pack(ORDER.parse_counts(hand))
    if top is None:
        return {p.ranks for p in table.leads(code)}
    ranks, hint, key = top
    readings = table.readings(ORDER.parse_counts(ranks))
    if hint is not None and len(readings) > 1:
        readings = [p for p in readings if bool(p.kickers) == (hint == "kicker")]
    if not readings:
        raise AssertionError(f"qipai has no reading of the peer's play {ranks}")
    play = readings[0]
    if key is not None:     # the peer's reading of the play: a play of the table with that key
        play = _by_shape(table)[play.type, play.length, key]
    return {p.ranks for p in table.answers(code, play)} | {"pass"}
