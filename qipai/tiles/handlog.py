"""The public story of a mahjong hand: what each seat did, step by step, as every seat may
read it (the tables' move list draws it).

An entry is a dict: ``s`` the seat, ``k`` the kind, ``t`` the tiles (hand notation), and for
some kinds more facts:

- ``draw`` — a tile from the wall (or a replacement); ``t`` only in the drawer's own view;
- ``flower`` — a flower laid out (``t`` the flower), before its replacement's ``draw``;
- ``discard`` / ``peel`` / ``laizi`` — a tile played out (laizi mahjong's peel and laizi kongs);
- ``bomb`` — baibian-bajue's bomb of four tiles in hand (``t`` one of them);
- ``chow`` / ``pung`` / ``kong`` / ``bomb`` — a claimed set (``t`` its tiles, ``from`` the
  discarder);
- ``ckong`` — a concealed kong; ``t`` only in its maker's own view;
- ``add`` — a tile added to an exposed pung;
- ``win`` — ``how`` (``self_drawn``, ``discard``, ``robbing_kong``, ``laizi_kong``), ``t`` the
  winning tile, ``from`` the payer of a win on a discard, ``fans`` (Guobiao) or ``points``
  (laizi, baibian-bajue) the hand's value;
- ``drawn`` (no seat) — the wall ran out; ``penalty`` — the hand ended on ``s``'s penalty.

Answers in a claim window (a pass, and a claim that lost to another) are never entries: who
could claim is nobody else's business (mahjong-gb 2.6). A view holds the log of the hand in
play (after the match, of its last hand)."""

from __future__ import annotations

from itertools import count
from typing import Any

#: the kinds whose tiles only the entry's seat sees
PRIVATE = frozenset(("draw", "ckong"))


class HandLog:
    """The entries of one hand, with the tiles each seat may read of them."""

    _serials = count()

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.serial = next(self._serials)     # tells one hand's log from another's (view changes)

    def add(self, seat: int | None, kind: str, tiles: str | None = None, **facts: Any) -> None:
        e: dict[str, Any] = {"k": kind}
        if seat is not None:
            e["s"] = seat
        if tiles:
            e["t"] = tiles
        e.update({k: v for k, v in facts.items() if v is not None})
        self.entries.append(e)

    def add_end(self, info: dict[str, Any]) -> None:
        """The entries of a hand's end from its ``hand_results`` item: each winner's win, the
        penalised seat, or the drawn hand."""
        if info.get("how") == "penalty":
            self.add(info.get("offender"), "penalty")
            return
        if not info.get("winners"):
            self.add(None, "drawn")
            return
        for w in info["winners"]:
            fans = info.get("fans", {}).get(str(w))
            points = info["score"]["points"] if "score" in info else None
            if fans and fans.get("unit") == "points":     # baibian-bajue: the hand's tile values
                fans, points = None, fans["total"]
            self.add(w, "win", info.get("tile"), how=info.get("how"), **{"from": info.get("from")},
                     fans=fans["total"] if fans else None, points=points)

    def seen(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The entries from ``start`` on as ``seat`` may read them (``None``: a spectator): the
        tiles of another seat's draw or concealed kong left out. Copies, never the live entries."""
        out = []
        for e in self.entries[start:]:
            if e["k"] in PRIVATE and e.get("s") != seat:
                e = {k: v for k, v in e.items() if k != "t"}
            else:
                e = dict(e)
            out.append(e)
        return out
