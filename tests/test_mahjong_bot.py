"""The mahjong-gb ``fast`` bot's claims and the shanten count it uses (qipai.tiles.shapes)."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.bots import make_bot
from qipai.tiles import format_tiles, parse_tiles
from qipai.tiles.shapes import shanten, waits
from tests.mahjong_gen import winning_hands


def _counts(text: str) -> list[int]:
    c = [0] * 34
    for t in parse_tiles(text):
        c[t] += 1
    return c


def test_shanten_values():
    assert shanten(_counts("123m456m789m123p55s")) == -1
    assert shanten(_counts("123m456m789m123p5s")) == 0
    assert shanten(_counts("123m456m789m12p5s9s")) == 1
    assert shanten(_counts("1m4m7m2p5p8p3s6s9sESWN")) == 8
    assert shanten(_counts("5s"), melds=4) == 0
    assert shanten(_counts("55s"), melds=4) == -1
    assert shanten(_counts("EEESSS5s"), melds=2) == 0


def test_shanten_zero_exactly_when_the_hand_waits():
    # random tiles (rarely ready) and the standing tiles of random winning hands (ready unless
    # the win was a special shape)
    rng = random.Random(3)
    wall = list(range(34)) * 4
    cases = []
    for _ in range(300):
        melds = rng.choice((0, 0, 1, 2))
        cases.append((rng.sample(wall, 13 - 3 * melds), melds))
    cases += [(list(h.concealed), len(h.melds)) for h in winning_hands(5, 300)]
    ready = 0
    for tiles, melds in cases:
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        s = shanten(c, melds)
        assert s >= 0 and (s == 0) == bool(waits(c)), format_tiles(sorted(tiles))
        ready += s == 0
    assert ready > 200


def _deal(hands, draws):
    used = [t for h in hands for t in parse_tiles(h)] + parse_tiles(draws)
    rest = list(range(34)) * 4
    for t in used:
        rest.remove(t)
    return [{"hands": hands, "wall": format_tiles(parse_tiles(draws) + sorted(rest), sort=False)}]


def _answers(hands, draws="N", discard="discard 5p"):
    st = qipai.load("mahjong-gb", hands_per_match=1, use_flowers=False).new_state(deal=_deal(hands, draws))
    st.apply(discard, seat=0)
    return {s: str(make_bot("mahjong-gb", "fast", s).choose(st, s)) for s in st.to_act}


def test_the_bot_claims_a_pung_or_chow_that_brings_it_closer():
    # seat 0 discards 5p. Seat 1 (may chow) is 2-shanten with 46p: the chow leaves it 1-shanten;
    # seat 2 is 1-shanten with 55p: the pung leaves it ready
    hands = ["5pEEESSSWWWNNP", "46p111m999m11s9sCF", "55p123m456m789m1sC", "123p789p234s567s9s"]
    got = _answers(hands)
    assert got == {1: "chow 456p", 2: "pung", 3: "pass"}


def test_the_bot_passes_a_pung_that_gains_nothing():
    # seat 2 is ready (55p is its pair, 23m waits on 1m/4m): a pung of 5p leaves it ready
    hands = ["5pEEESSSWWWNNP", "111m999m11s99sCFP", "55p123s456s789s2m3m", "123p789p234m567m9s"]
    got = _answers(hands)
    assert got == {1: "pass", 2: "pass", 3: "pass"}


def test_bot_games_still_end_and_sum_to_zero():
    g = qipai.load("mahjong-gb", hands_per_match=4)
    st = g.new_state(seed=21)
    bots = [make_bot("mahjong-gb", "fast", s) for s in range(4)]
    claims = 0
    while not st.is_terminal():
        seat = st.to_act[0]
        a = bots[seat].choose(st, seat)
        claims += a.kind in ("pung", "chow") or (a.kind == "kong" and a.tile is None)
        st.apply(a, seat=seat)
    assert claims > 0 and sum(st.result.returns) == 0


@pytest.mark.parametrize("game_id", ["mahjong-gb", "laizi-mahjong"])
def test_a_seat_in_trusteeship_at_a_lobby_table_plays_as_the_bot(game_id):
    """托管 at a lobby mahjong table (the player left, or asked for it): the seat is played by
    the game's built-in bot — it claims, and wins — not by the rules' timeout answer, which only
    discards the tile drawn (four such seats never claim a tile). The bot's choice depends on
    the position alone, so a table's journal replays it."""
    import asyncio

    from qipai.match import VirtualTime
    from qipai.match.players import Player
    from qipai.match.runner import GameRunner
    from qipai.server.trusteeship import bot_trustee

    game = qipai.load(game_id, hands_per_match=1)
    runs = []
    for policy in (None, bot_trustee(game_id, 7), bot_trustee(game_id, 7)):
        r = GameRunner(game, [Player() for _ in range(4)], clock="card_default", time=VirtualTime(),
                       seed=5, trustee=[0, 1, 2, 3])
        r.trustee_policy = policy
        out = asyncio.run(r.run())
        runs.append([a if isinstance(a, str) else a[1] for a in out.record.actions])
    kinds = [{a.split()[0] for a in actions} for actions in runs]
    assert kinds[0] <= {"discard", "pass"}
    assert {"win"} <= kinds[1] and kinds[1] & {"chow", "pung", "kong"}
    assert runs[1] == runs[2]


def test_choose_discard_skips_the_waits_of_a_far_hand_and_chooses_the_same():
    """``choose_discard`` looks for no waits in a hand of shanten 1 or more and chooses what
    looking for them chose (every discard's waits, as before), on random hands beside 0-3 sets
    and hands one tile from a win."""
    from qipai.bots.mahjong_gb import choose_discard
    from qipai.bots.tilerules import tile_value

    def reference(counts, options, rng):
        best = best_key = None
        for t in options:
            counts[t] -= 1
            w = waits(counts)
            live = sum(4 - counts[k] for k in w)
            key = (1 if w else 0, live, -tile_value(counts, t) if not w else 0, rng.random())
            counts[t] += 1
            if best_key is None or key > best_key:
                best, best_key = t, key
        return best

    rng = random.Random(5)
    hands = []
    for _ in range(300):
        k = rng.randrange(4)
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        counts = [0] * 34
        for t in wall[:14 - 3 * k]:
            counts[t] += 1
        hands.append(counts)
    for hand in winning_hands(3, 100):       # a complete hand with one tile swapped: near a win
        counts = [0] * 34
        for t in (*hand.concealed, hand.win):
            counts[t] += 1
        counts[hand.win] -= 1
        counts[rng.choice([t for t in range(34) if counts[t] < 4])] += 1
        hands.append(counts)
    near = 0
    for counts in hands:
        options = [t for t in range(34) if counts[t]]
        near += shanten(counts, (14 - sum(counts)) // 3) < 1
        assert choose_discard(list(counts), options, random.Random(1)) == \
            reference(list(counts), options, random.Random(1))
    assert near > 50
