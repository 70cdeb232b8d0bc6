"""The match of hands the three mahjong games share (:class:`qipai.tiles.match.TileMatch`):
an explicit deal is checked whole when the match is created (every hand of the match is
there, every item is tiles), the seat count and position refusals, and laizi mahjong's
tie-break hands when an explicit deal has none left."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError
from qipai.tiles.match import TileMatch, table_points
from qipai.tiles.tile import format_tiles
from qipai.tiles.wall import deal_hands, tile_set

GAMES = ("mahjong-gb", "laizi-mahjong", "baibian-bajue")


def one_hand(flowers: bool = False) -> dict:
    """A legal deal of one hand: the canonical order of the set, dealt as the referee deals."""
    hands, rest = deal_hands(tile_set(flowers=flowers), 0)
    return {"hands": [format_tiles(h) for h in hands], "wall": format_tiles(rest, sort=False)}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_is_a_tile_match(game_id):
    s = qipai.load(game_id, hands_per_match=1).new_state(seed=1)
    assert isinstance(s, TileMatch) and s.hands_total == 1 and s.scores == [0, 0, 0, 0]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_deal_shorter_than_the_match_is_refused_when_the_match_is_made(game_id):
    # breaker: laizi mahjong and 百变八雀 took it and raised in the middle of play, at the end
    # of the last hand the deal covered (after that hand's scores had gone in)
    game = qipai.load(game_id, hands_per_match=4)
    d = one_hand(flowers=game_id == "mahjong-gb")
    with pytest.raises(NotationError, match="covers 3 hands, the match has 4"):
        game.new_state(deal=[d, d, d])
    with pytest.raises(NotationError, match="covers 1 hands"):
        game.new_state(deal=d)
    assert game.new_state(deal=[d] * 4).hand_no == 0


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("bad", [
    {"hands": 7, "wall": ""},
    {"hands": [1, 2, 3, 4], "wall": ""},
    {"hands": ["1m"] * 4},
    "1m2m3m",
    {"hands": [[0] * 13] * 4, "wall": None},
])
def test_a_deal_that_is_not_tiles_is_a_notation_error(game_id, bad):
    # breaker: Guobiao mahjong crashed with TypeError on hands that are not lists of tiles
    with pytest.raises(NotationError):
        qipai.load(game_id, hands_per_match=1).new_state(deal=bad)


@pytest.mark.parametrize("game_id", GAMES)
def test_positions_and_other_seat_counts_are_refused(game_id):
    game = qipai.load(game_id, hands_per_match=1)
    with pytest.raises(NotationError):
        game.new_state(position="x")
    with pytest.raises(IllegalAction) as e:
        game.new_state(seed=1, num_seats=3)
    assert e.value.code.startswith(game_id + ".")


def test_guobiao_reads_a_dealer_position_and_refuses_one_that_is_not_a_number():
    d = {**one_hand(flowers=True), "dealer_position": 2}
    assert qipai.load("mahjong-gb", hands_per_match=1).new_state(deal=d).dealer_pos == 2
    with pytest.raises(NotationError, match="dealer_position"):
        qipai.load("mahjong-gb", hands_per_match=1).new_state(deal={**d, "dealer_position": "east"})


def test_laizi_tiebreak_hands_stop_where_an_explicit_deal_stops():
    # default actions never win, so every hand is drawn and the tie for first never breaks:
    # from a seed the extra hands go on (to 16); an explicit deal of two hands plays both and
    # then the tie stands, where it raised before
    game = qipai.load("laizi-mahjong", hands_per_match=1, first_place_tiebreak=True)
    t = game.new_state(deal=[one_hand(), one_hand()])
    while not t.is_terminal():
        seat = t.to_act[0]
        t.apply(t.default_action(seat), seat=seat)
    assert len(t.hand_results) == 2 and t.result.winners == ()
    assert qipai.replay(t.to_record()).result.text == t.result.text


def test_table_points_share_tied_places():
    assert table_points([5, 5, 0, -10]) == [3.0, 3.0, 1.0, 0.0]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_a_view_does_not_change_with_the_other_seats_concealed_tiles(game_id, seed):
    # breaker: swap a concealed tile between two other seats (each keeps its count): nothing a
    # seat or a spectator is shown may change, in turns and in claim windows alike
    import json
    import random

    rng = random.Random(seed)
    s = qipai.load(game_id, hands_per_match=1).new_state(seed=seed)
    checked = 0
    for _ in range(120):
        if s.is_terminal():
            break
        for viewer in (0, 1, 2, 3, None):
            others = [x for x in range(4) if x != viewer and sum(s.hands[x])]
            if len(others) < 2:
                continue
            a, b = rng.sample(others, 2)
            x = rng.choice([t for t in range(34) if s.hands[a][t]])
            y = rng.choice([t for t in range(34) if s.hands[b][t]])
            if x == y:
                continue
            t = s.clone()
            t.__dict__.pop("_legal_memo", None)
            t.hands[a][x] -= 1
            t.hands[a][y] += 1
            t.hands[b][y] -= 1
            t.hands[b][x] += 1
            assert json.dumps(t.view(viewer), sort_keys=True) == json.dumps(s.view(viewer), sort_keys=True)
            checked += 1
        seat = rng.choice(s.to_act)
        s.apply(rng.choice(s.legal_actions(seat)), seat=seat)
    assert checked > 100
