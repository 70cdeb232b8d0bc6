"""Breaker pass on laizi mahjong from the rule file alone (rules/laizi-mahjong.md 3.1-3.3): an
independent reading of the patterns, written from the rule text with a plain recursive shape
search and every wildcard assignment tried, against the engine's scorer on random hands; and
the referee's accepted action texts against its legal list, a refusal leaving every view as it
was."""

from __future__ import annotations

import functools
import itertools
import json
import random

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.laizi_mahjong.points import parse_laizi_hand, score, successor
from qipai.tiles.tile import format_tiles

NAMES = [format_tiles([k]) for k in range(34)]


@functools.lru_cache(None)
def _split(c: tuple[int, ...], sets: int, need_pair: bool, pungs_only: bool) -> bool:
    """``c`` is ``sets`` sets and (when ``need_pair``) one pair."""
    i = next((i for i, x in enumerate(c) if x), None)
    if i is None:
        return sets == 0 and not need_pair
    lst = list(c)
    if lst[i] >= 3 and sets:
        lst[i] -= 3
        if _split(tuple(lst), sets - 1, need_pair, pungs_only):
            return True
        lst[i] += 3
    if lst[i] >= 2 and need_pair:
        lst[i] -= 2
        if _split(tuple(lst), sets, False, pungs_only):
            return True
        lst[i] += 2
    if not pungs_only and sets and i < 27 and i % 9 <= 6 and lst[i + 1] and lst[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        return _split(tuple(lst), sets - 1, need_pair, pungs_only)
    return False


def _base(h: tuple[int, ...], melds: list[tuple[int, str]]) -> int:
    """3.3: the best of colour c, shape s and c × s × 2 over the patterns that hold (0: none)."""
    std = _split(h, 4 - len(melds), True, False)
    pungs = all(k != "chow" for _, k in melds) and _split(h, 4 - len(melds), True, True)
    pairs = not melds and sum(h) == 14 and all(x % 2 == 0 for x in h)
    every = list(h)
    for t, k in melds:
        for j in ((0, 1, 2) if k == "chow" else (0, 0, 0) if k == "pung" else (0, 0, 0, 0)):
            every[t + j] += 1
    kinds = [k for k in range(34) if every[k]]
    suits = {k // 9 for k in kinds if k < 27}
    honours = any(k >= 27 for k in kinds)
    colours = []
    if len(suits) == 1 and (std or pairs):
        colours.append(1 if honours else 2)                      # 奏一色 / 清一色
    if not suits:
        colours.append(2)                                        # 风一色, no shape needed
    if suits and not honours and all(k % 9 in (1, 4, 7) for k in kinds):
        colours.append(2)                                        # 将一色, no shape needed
    shapes = [2] * (pungs + pairs)
    return max([0, *colours, *shapes, *(c * s * 2 for c in colours for s in shapes)])


def _reading(hand: list[int], melds: list[tuple[int, str]], laizi: int) -> tuple[int, bool] | None:
    """3.2: (base, hard) or None when no assignment of the laizi makes a pattern."""
    h = [0] * 34
    for t in hand:
        h[t] += 1
    hard = _base(tuple(h), melds)
    rest = list(h)
    rest[laizi] = 0
    soft = hard
    for kinds in itertools.combinations_with_replacement(range(34), h[laizi]):
        r = list(rest)
        for k in kinds:
            r[k] += 1
        soft = max(soft, _base(tuple(r), melds))
    if soft == 0:
        return None
    return (hard, True) if hard and 2 * hard >= soft else (soft, False)


def _meld_text(t: int, kind: str) -> str:
    if kind == "chow":
        return "[" + "".join(NAMES[t + j][0] for j in range(3)) + NAMES[t][1] + "]"
    n = 3 if kind == "pung" else 4
    return "[" + (NAMES[t][0] * n + NAMES[t][1] if t < 27 else NAMES[t] * n) + "]"


def _random_hand(rng: random.Random):
    suit = rng.randrange(3)
    pool = rng.choice([list(range(9 * suit, 9 * suit + 9)), list(range(27, 34)),
                       [k for k in range(27) if k % 9 in (1, 4, 7)],
                       list(range(9 * suit, 9 * suit + 9)) + list(range(27, 34)), list(range(34))])
    ind = rng.randrange(34)
    laizi = successor(ind)
    pool = pool + [laizi] * rng.choice((0, 2))
    count = [0] * 34
    count[ind] = 1
    melds = []
    for _ in range(rng.choice((0, 0, 1, 2, 3, 4))):
        t, kind = rng.choice(pool), rng.choice(("chow", "pung", "kong"))
        if t == laizi or (kind == "chow" and (t >= 27 or t % 9 > 6)):
            return None
        for j in ((0, 1, 2) if kind == "chow" else (0,) * (3 if kind == "pung" else 4)):
            count[t + j] += 1
        melds.append((t, kind))
    hand = [rng.choice(pool) for _ in range(14 - 3 * len(melds))]
    for t in hand:
        count[t] += 1
    if max(count) > 4 or hand.count(laizi) > 2:
        return None
    text = " ".join([format_tiles(sorted(hand[:-1])), *(_meld_text(*m) for m in melds)])
    return f"{text} + {NAMES[hand[-1]]} | ind={NAMES[ind]}", hand, melds, laizi


def test_the_scorer_agrees_with_a_reading_of_the_rule_text_on_random_hands():
    rng = random.Random(20261203)
    checked = wins = 0
    while checked < 600:
        made = _random_hand(rng)
        if made is None:
            continue
        text, hand, melds, laizi = made
        got = score(parse_laizi_hand(text))
        assert (None if got is None else (got.base, got.hard)) == _reading(hand, melds, laizi), text
        checked += 1
        wins += got is not None
    assert wins > 50                       # the sample holds wins of many patterns, not only refusals


def _snap(state) -> str:
    return json.dumps([state.view(v) for v in (0, 1, 2, 3, None)], sort_keys=True)


def test_accepted_texts_are_the_legal_list_and_a_refusal_changes_no_view():
    game = qipai.load("laizi-mahjong", hands_per_match=1)
    words = ["pass", "win", "pung", "kong", "chow"] + [
        f"{k} {t}" for k in ("discard", "kong", "add", "peel", "laizi", "chow") for t in NAMES]
    state = game.new_state(seed=4)
    rng = random.Random(4)
    step = 0
    while not state.is_terminal():
        step += 1
        if step % 24 == 1:
            for seat in range(4):
                legal = {str(a) for a in state.legal_actions(seat)}
                before = _snap(state)
                for text in words:
                    trial = state.clone()
                    try:
                        trial.apply(text, seat=seat)
                    except IllegalAction:
                        assert text not in legal, (seat, text)
                        continue
                    assert text in legal, (seat, text)
                    try:
                        state.apply(text + " x", seat=seat)          # refused on the real state
                    except IllegalAction:
                        pass
                assert _snap(state) == before
        seat = rng.choice(list(state.to_act))
        actions = state.legal_actions(seat)
        strong = [a for a in actions if a.kind != "discard" and a.kind != "pass"]
        state.apply(rng.choice(strong) if strong and rng.random() < 0.7 else rng.choice(actions), seat=seat)
    assert state.result is not None and sum(state.result.returns) == 0
