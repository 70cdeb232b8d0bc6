"""Builders for shengji rule tests: play-phase positions and deals with chosen hands."""

from __future__ import annotations

import json

import qipai
from qipai.cards import make_deck


def position(hands: list[str], level: int, trump: str, dealer: int = 0, leader: int | None = None,
             buried: str = "", trick_points: int = 0, levels: list[int] | None = None, **options):
    """A play-phase state: ``hands`` are four space-separated face lists of equal size."""
    data = {"hands": [h.split() for h in hands], "level": level, "trump": trump, "dealer": dealer,
            "leader": dealer if leader is None else leader, "buried": buried.split(),
            "trick_points": trick_points}
    if levels is not None:
        data["levels"] = levels
    return qipai.load("shengji", **options).new_state(position=json.dumps(data))


def deal_with(hands: list[list[str]], kitty: list[str], p: int = 0, decks: int = 2,
              flip: list[int] | None = None) -> dict:
    """A deal object giving seat s the faces ``hands[s]`` in that order (dealt one at a time from
    seat ``p``) and the kitty ``kitty``; every other card of the pack fills the hands in pack order
    (faces already used are skipped; 2s and jokers come last, so a test that places all of them
    gets plain fillers)."""
    per = {1: 12, 2: 25, 3: 39}[decks]
    # level-2 cards and jokers last, so that fillers are plain cards when the test places them all
    pool = sorted((c.face for c in make_deck(decks)), key=lambda f: f[0] in "2LB")
    for f in [x for h in hands for x in h] + list(kitty):
        pool.remove(f)
    full = [list(h) for h in hands]
    for h in full:
        while len(h) < per:
            h.insert(0, pool.pop(0))
    kit = list(kitty)
    while len(kit) < (8 if decks == 2 else 6):
        kit.append(pool.pop(0))
    order = [full[(p + i) % 4][i // 4] for i in range(4 * per)] + kit
    seen: dict[str, int] = {}
    ids = []
    for f in order:
        ids.append(f"{f}{seen.get(f, 0)}")
        seen[f] = seen.get(f, 0) + 1
    return {"order": ids, "provisional_dealer": p, "kitty_flip": flip or list(range(len(kit)))}


def level_card_deals(p: int = 2, seat: int = 1, card: int = 2) -> tuple[dict, dict]:
    """Two deals of hand 1 (level 2) that differ in one card of ``seat``: in the second its
    card number ``card`` (from 0) is a 2H, which the first has in the kitty. Seat 0 holds
    2S 2D LJ BJ (its last cards) and the kitty the other level cards and jokers in both, so
    the other two seats never hold one; ``p`` is the deal-start seat."""
    without = deal_with([["2S", "2D", "LJ", "BJ"], [], [], []],
                        ["2H", "2S", "2D", "2C", "2C", "LJ", "BJ"], p=p)
    order = list(without["order"])
    i = (seat - p) % 4 + 4 * card             # that seat's card in the dealing order
    k = len(order) - 1                         # the kitty's last card: the second 2H
    assert order[k].startswith("2H") and order[i][0] not in "2LB"
    order[i], order[k] = order[k], order[i]
    return without, {**without, "order": order}


def play_out(state, texts: list[str]) -> None:
    for t in texts:
        state.apply(t)


#: the phases of a hand before its play: the deal and the declarations after it
BIDDING = ("deal", "window", "bao", "fan")


def bidding_person(sock, ahead: str | None, seen: list[dict] | None = None) -> None:
    """A person's seat on a table socket through the deal and the declarations: ``ahead`` (a
    declaration) is sent ahead at the first state message; every prompt outside the deal is
    answered ``pass`` (the table passes the deal's prompts at their hold). Returns at the first
    state past the declarations; every message received goes into ``seen``."""
    sent = False
    answered = set()
    while True:
        msg = json.loads(sock.receive_text())
        if seen is not None:
            seen.append(msg)
        if msg["type"] != "state":
            continue
        phase = msg["view"]["phase"]
        if phase not in BIDDING or msg["result"] is not None:
            return
        if ahead and not sent:
            sock.send_json({"type": "move", "seq": msg["seq"], "action": ahead, "ahead": True})
            sent = True
        turn = msg.get("turn")
        if phase != "deal" and msg["seat"] in msg["to_act"] and turn not in answered:
            answered.add(turn)
            sock.send_json({"type": "move", "seq": msg["seq"], "turn": turn, "action": "pass"})


class _Passer:
    """A bot that passes every prompt of the declarations (the runs below stop at their end)."""

    def choose(self, state, seat):
        return "pass"


class _Stop(Exception):
    """The declarations are over: the run has what it measures."""


def deal_pace(deal, think_ms: int, deal_hold: int, window_hold: int) -> dict:
    """Run the declarations of ``deal`` (``deal_prompt="every_card"``, four passing bots thinking
    ``think_ms``) in virtual time with ``deal_hold`` and ``private_hold=window_hold``, and stop
    at their end. Returns the virtual time the last card is dealt (``dealt``) and the
    declarations end (``declared``), the sorted distinct times of the state's changes during the
    deal (``changes``) and how many prompts were answered (``prompts``)."""
    import asyncio

    from qipai.games.shengji.seats import SEATS
    from qipai.match import BotPlayer
    from qipai.match.runner import GameRunner
    from qipai.match.timesource import VirtualTime

    bidding = ("deal", "window", "bao", "fan")
    marks: dict[str, int] = {}
    changes: list[int] = []

    class Watched(GameRunner):
        def _sync_turns(self, t, acted):
            st = self.state
            if st.phase == "deal":
                changes.append(t)
            else:
                marks.setdefault("dealt", t)
            if st.phase not in bidding:
                marks["declared"] = t
                raise _Stop
            super()._sync_turns(t, acted)

    game = qipai.load("shengji", deal_prompt="every_card")
    players = [BotPlayer(_Passer(), think_ms=think_ms) for _ in range(SEATS)]
    runner = Watched(game, players, clock="card_default", time=VirtualTime(),
                     state=game.new_state(deal=deal), private_hold=window_hold,
                     deal_hold=deal_hold)
    try:
        asyncio.run(runner.run())
    except _Stop:
        pass
    return {"dealt": marks["dealt"], "declared": marks["declared"],
            "changes": sorted(set(changes)),
            "prompts": sum(1 for a in runner.state.log if str(a) == "pass")}
