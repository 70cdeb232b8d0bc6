"""The mahjong hand log (qipai/tiles/handlog.py), the story the tables' move list draws: every
step of the hand by seat, and nothing a seat may not see — another seat's draws and concealed
kongs without their tiles, no claim-window answer (a pass, a claim that lost), so the list
tells nobody who could have claimed."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.tiles import format_tiles, parse_tiles

KINDS = {"draw", "flower", "discard", "chow", "pung", "kong", "ckong", "add", "peel", "laizi",
         "bomb", "win", "drawn", "penalty"}
GAMES = [("mahjong-gb", {"use_flowers": True}), ("laizi-mahjong", {}), ("baibian-bajue", {})]


def _own_tiles_removed(log: list[dict], seat: int) -> list[dict]:
    """``seat``'s log as a spectator reads it: its own draws and concealed kongs without tiles."""
    private = ("draw", "ckong")
    return [{k: v for k, v in e.items() if not (k == "t" and e["k"] in private and e.get("s") == seat)}
            for e in log]


def _choose(rng: random.Random, legal: list) -> object:
    """A random action, a claim or kong more often than at random (so the logs hold them)."""
    strong = [a for a in legal if a.kind in ("win", "kong", "pung", "chow", "bomb", "add")]
    return rng.choice(strong) if strong and rng.random() < 0.7 else rng.choice(legal)


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_view_of_the_log_shows_what_its_seat_may_not_see(game, options, seed):
    rng = random.Random(seed)
    state = qipai.load(game, hands_per_match=1, **options).new_state(seed=seed)
    seen_kinds: set[str] = set()
    while not state.is_terminal():
        logs = {s: state.view(s)["log"] for s in (None, 0, 1, 2, 3)}
        public = logs[None]
        for e in public:
            assert e["k"] in KINDS, e
            # a spectator sees no draw's tile and no concealed kong's
            assert not (e["k"] in ("draw", "ckong") and "t" in e), e
        for s in range(4):
            # a seat reads what a spectator reads, and the tiles of its own draws and kongs
            assert _own_tiles_removed(logs[s], s) == public
            assert all("t" in e for e in logs[s] if e["k"] in ("draw", "ckong") and e.get("s") == s)
        window = state.phase != "turn"
        seat = rng.choice(state.to_act)
        state.apply(_choose(rng, state.legal_actions(seat)), seat=seat)
        if window and state.to_act and state.phase != "turn" and not state.is_terminal():
            # an answer that leaves the window open is in nobody's log
            assert all(state.view(s)["log"] == logs[s] for s in logs)
        seen_kinds |= {e["k"] for e in public}
    end = state.view(None)["log"]
    assert end[-1]["k"] in ("win", "drawn")
    if end[-1]["k"] == "win":
        win = end[-1]
        assert win["how"] in ("self_drawn", "discard", "robbing_kong", "laizi_kong")
        assert ("fans" in win) == (game == "mahjong-gb") and ("points" in win) == (game != "mahjong-gb")
    assert {"draw", "discard"} <= seen_kinds


def test_the_log_tells_the_hand_in_order():
    """A Guobiao hand where every pung is claimed: the dealer's draw first, each discard, the
    pung right after the discard it takes (from its discarder, as its three tiles), then the
    claimer's own discard with no draw between; no pass anywhere."""
    state = qipai.load("mahjong-gb", hands_per_match=1, use_flowers=False).new_state(seed=11)
    pungs = 0
    while not state.is_terminal() and pungs < 2:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        choice = ([a for a in legal if a.kind == "pung"] or [a for a in legal if a.kind == "pass"]
                  or [a for a in legal if a.kind == "discard"])
        pungs += choice[0].kind == "pung"
        state.apply(choice[0], seat=seat)
    log = state.view(None)["log"]
    kinds = [e["k"] for e in log]
    assert "pass" not in kinds and kinds[0] == "draw" and log[0]["s"] == state.view(None)["dealer"]
    assert kinds.count("pung") >= 1
    for i, e in enumerate(log):
        if e["k"] != "pung":
            continue
        took = log[i - 1]
        assert took["k"] == "discard" and e["from"] == took["s"] != e["s"]
        tile = took["t"]
        assert e["t"] == (tile[0] * 3 + tile[1:] if len(tile) == 2 else tile * 3)
        if i + 1 < len(log):
            assert log[i + 1] == {"k": "discard", "s": e["s"], "t": log[i + 1]["t"]}



def test_a_concealed_kong_is_only_a_concealed_kong_to_the_others():
    """The dealer holds four 1m: its kong is ``ckong`` with the tile in its own log only, then
    its replacement draw; the others read "concealed kong" and "draw", no tile."""
    hands = ["1111m234567p789s", "2222m345678p89sE", "3333m456789p1sSW", "4444m555m66mNNCF"]
    dealt = [parse_tiles(h) for h in hands]
    wall = [t for t in range(34) for _ in range(4)]
    for h in dealt:
        for t in h:
            wall.remove(t)
    deal = [{"hands": hands, "wall": format_tiles(wall, sort=False)}]
    state = qipai.load("mahjong-gb", hands_per_match=1, use_flowers=False).new_state(deal=deal)
    state.apply("kong 1m", seat=0)
    mine = state.view(0)["log"]
    assert mine[-2:] == [{"k": "ckong", "s": 0, "t": "1m"}, {"k": "draw", "s": 0, "t": mine[-1]["t"]}]
    for s in (None, 1, 2, 3):
        assert state.view(s)["log"][-2:] == [{"k": "ckong", "s": 0}, {"k": "draw", "s": 0}]
