"""Helpers for comparing qipai's fan calculator with PyMahjongGB (module ``MahjongGB``)."""

from __future__ import annotations

from qipai.games.mahjong_gb.fantable import BY_NAME, FLOWER_TILES
from qipai.tiles.meld import CHOW, PUNG
from qipai.tiles.notation import Hand

_SUIT = {0: "W", 1: "B", 2: "T"}


def peer_tile(t: int) -> str:
    """qipai kind -> PyMahjongGB code (m→W, p→B, s→T, winds F1-F4, dragons J1-J3)."""
    if t < 27:
        return f"{_SUIT[t // 9]}{t % 9 + 1}"
    if t < 31:
        return f"F{t - 26}"
    return f"J{t - 30}"


def peer_fans(hand: Hand) -> tuple[dict[int, int], int]:
    """PyMahjongGB's fans for ``hand`` as ``({fan number: count}, total)``; raises
    ``TypeError`` (the library's error) when it finds no win."""
    import MahjongGB

    packs = []
    for m in hand.melds:
        if m.kind == CHOW:
            packs.append(("CHI", peer_tile(m.tile + 1), 1))
        elif m.kind == PUNG:
            packs.append(("PENG", peer_tile(m.tile), 1))
        else:
            packs.append(("GANG", peer_tile(m.tile), 0 if m.concealed else 1))
    res = MahjongGB.MahjongFanCalculator(
        tuple(packs), tuple(peer_tile(t) for t in hand.concealed), peer_tile(hand.win), hand.flowers,
        hand.self_drawn, hand.fourth, hand.kong, hand.last, hand.seat_wind, hand.round_wind, verbose=True)
    out: dict[int, int] = {}
    total = 0
    for value, count, name, _en in res:
        no = BY_NAME[name]
        out[no] = out.get(no, 0) + count
        total += value * count
    return out, total


def ours(hand: Hand) -> tuple[dict[int, int], int]:
    from qipai.games.mahjong_gb.fans import calculate

    r = calculate(hand)
    return dict(r.fans), r.total


__all__ = ["FLOWER_TILES", "ours", "peer_fans", "peer_tile"]
