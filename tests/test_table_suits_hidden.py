"""The climbing games whose plays are rank text (doudizhu, wakeng, 4A4, baohuang and its 山东
ruleset): a seat plays ranks and the referee picks the physical cards, so what the table shows of a
play must not depend on which suits the seat held (qipai.cards.table_ids). Twin deals differ only
in the suits some seats hold (the same ranks in every hand); the same actions are played in both,
and every other seat and a spectator must see exactly the same, through the engine's view and
through the server's live messages, while the referee did take other physical cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

import qipai

#: case -> (game id, options, the seat whose suits change, ids that a rule names, the ranks
#: whose suits may change: baohuang's triples and named card are faces, its 2s are not)
CASES: dict[str, tuple[str, dict[str, Any], int, frozenset[str], str | None]] = {
    "doudizhu": ("doudizhu", {}, 0, frozenset(), None),
    # 4H leads, 5H..9H make the first bidder (rules/wakeng.md §2.3, §2.6)
    "wakeng": ("wakeng", {}, 1, frozenset({"4H0", "5H0", "6H0", "7H0", "8H0", "9H0"}), None),
    "fouafour": ("fouafour", {}, 2, frozenset({"3H0"}), None),        # the 3H leads (§2.3)
    "baohuang": ("baohuang", {}, 1, frozenset(), "2"),
    "baohuang-sdbh": ("baohuang", {"ruleset": "sdbh.provisional"}, 3, frozenset(), None),
}


def dealt(state: Any) -> dict[str, Any]:
    """The deal object that starts ``state`` again."""
    if state.game.id == "doudizhu":
        return dict(state.deal[-1])
    if state.game.id == "baohuang":
        d = state.dealt if isinstance(state.dealt, dict) else state.dealt[0]
        return {k: v for k, v in d.items()}
    return dict(state.deal)


def twin(deal: dict[str, Any], seat: int, fixed: frozenset[str], ranks: str | None,
         keep: int | None) -> tuple[dict[str, Any], set[int]]:
    """``deal`` with every card of ``seat`` (not in ``fixed``, of ``ranks``) exchanged for a card
    of the same rank and another suit in another hand (never ``keep``'s); returns the new deal
    and the seats whose suits changed."""
    hands = [list(h) for h in deal["hands"]]
    touched: set[int] = set()
    used: set[tuple[int, int]] = set()
    for i, c in enumerate(hands[seat]):
        if c in fixed or c[1] == "J" or (ranks is not None and c[0] not in ranks):
            continue
        for other, h in enumerate(hands):
            if other in (seat, keep):
                continue
            j = next((j for j, x in enumerate(h) if x[0] == c[0] and x[1] not in (c[1], "J")
                      and x not in fixed and (other, j) not in used), None)
            if j is not None:
                hands[seat][i], h[j] = h[j], c
                used.add((other, j))
                touched |= {seat, other}
                break
    return {**deal, "hands": hands}, touched


def choose(state: Any, seat: int, rng: random.Random) -> str:
    """The action both twins play: the highest bid (so that no deal is redealt, whose shuffle
    would follow the deal given), accept when possible, else a random legal action."""
    legal = [str(a) for a in state.legal_actions(seat)]
    if getattr(state, "phase", None) in ("bidding", "select"):
        return legal[-1] if state.phase == "bidding" else legal[0]
    return rng.choice(legal)


def cards_taken(state: Any) -> list:
    if state.game.id == "baohuang" and hasattr(state, "plays") and not hasattr(state, "play_cards"):
        return [ids for _, _, ids in state.plays]
    return [[c.id for c in cards] for cards in state.play_cards]


def without_hand(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "hand"}


@pytest.mark.parametrize("case", list(CASES))
def test_twin_deals_look_the_same_to_every_other_seat_and_a_spectator(case):
    game_id, options, seat, fixed, ranks = CASES[case]
    game = qipai.load(game_id, **options)
    differed = played = 0
    for seed in range(12):
        deal = dealt(game.new_state(seed=seed))
        other, touched = twin(deal, seat, fixed, ranks, None)
        if not touched:                        # the seat holds no card whose suit may change
            continue
        played += 1
        if played > 4:
            break
        a, b = game.new_state(deal=deal), game.new_state(deal=other)
        seats = range(a.num_seats)
        rng = random.Random(seed)
        while not a.is_terminal():
            for viewer in [None, *seats]:
                va, vb = a.view(viewer), b.view(viewer)
                if viewer in touched:          # its own hand holds other suits: the rest is alike
                    assert [c[0] for c in va["hand"]] == [c[0] for c in vb["hand"]]
                    va, vb = without_hand(va), without_hand(vb)
                assert va == vb, (seed, viewer)
            actor = a.to_act[0]
            text = choose(a, actor, rng)
            a.apply(text, actor)
            b.apply(text, actor)
        assert b.is_terminal() and a.returns() == b.returns()
        differed += cards_taken(a) != cards_taken(b)
    assert differed >= 3          # the referee did take other physical cards


def test_the_table_labels_count_the_copies_of_a_rank_laid_in_the_deal():
    from qipai.cards import parse_cards, table_ids

    seen: dict[str, int] = {}
    assert table_ids(parse_cards("2D 2C"), seen) == ["2S0", "2H0"]
    assert table_ids(parse_cards("2H LJ 3C"), seen) == ["2D0", "LJ0", "3S0"]
    assert table_ids(parse_cards("2S 2D2 LJ1"), seen) == ["2C0", "2S1", "LJ1"]


def test_search_bots_stand_in_for_the_laid_cards_by_cards_of_their_ranks():
    """A determinization reads the table's labels as ranks (qipai.cards.sample.place_played):
    a known card of the player's of that rank first (the landlord's kitty 2), then free cards,
    the seat's own the lowest in card-id order (the referee's pick), never a card in its hand."""
    from qipai.cards.sample import id_order, place_played
    from qipai.games.doudizhu.bidding import DECK
    from qipai.games.doudizhu.combos import ORDER

    pack = [c.id for c in DECK]
    held = {0: ["2S0", "3S0"]}                        # seat 0's hand
    shown = {1: ["2H0", "KD0", "LJ0"]}                # seat 1 took this kitty
    laid = {0: ["3S0", "3H0"], 1: ["2S0", "2H0", "KS0"], 2: ["2D0"]}
    played, still = place_played(pack, held, shown, laid, key=id_order(ORDER))
    assert played[1][0] == "2H0" and played[1][2] == "KD0"      # the kitty's 2 and K first
    assert played[0] == ["3D0", "3C0"]          # the lowest free 3s (3S0 is still held)
    assert still[1] == ["LJ0"]                  # the kitty card not laid is still in the hand
    everything = [c for cards in played.values() for c in cards] + held[0] + still[1]
    assert len(everything) == len(set(everything))             # each card in one place
    assert [c[0] for c in played[1]] == ["2", "2", "K"] and played[2][0][0] == "2"
    # a seat that still holds 3C0 laid no two 3s: the referee would have laid 3C0 (D < C < H < S),
    # so no cards stand for such labels (a sampler draws again)
    with pytest.raises(ValueError, match="lower card of its rank"):
        place_played(pack, {0: ["2S0", "3C0"]}, shown, laid, key=id_order(ORDER))


# ----- through the server --------------------------------------------------------------------

def live_twins(case: str) -> tuple[str, dict[str, Any], int, dict, dict, set[int]]:
    """``(game id, options, me, deal, twin deal, seats whose suits changed)`` for a live table
    of ``case``: ``me``, the seat after the one whose suits change, holds the same cards in
    both deals."""
    game_id, options, seat, fixed, ranks = CASES[case]
    game = qipai.load(game_id, **options)
    me = (seat + 1) % game.new_state(seed=0).num_seats
    deal, other, touched = next((d, *twin(d, seat, fixed, ranks, me)) for d in
                                (dealt(game.new_state(seed=s)) for s in range(5, 20))
                                if twin(d, seat, fixed, ranks, me)[1])
    assert touched and me not in touched
    return game_id, options, me, deal, other, touched


def table_of(c: Any, token: str, game_id: str, options: dict[str, Any], seat: int,
             deal: dict[str, Any]) -> str:
    """A new table of the app ``c`` (no clock, bots answering at once) dealing ``deal``, the
    user of ``token`` at ``seat``; returns its id."""
    from .server_helpers import post

    tid = post(c, token, "/api/tables", {"game": game_id, "seat": seat, "options": options,
                                         "settings": {"clock": "none", "bot_delay_ms": 0}}).json()["id"]
    # the deal an event would give its table (eventwork), here chosen by the test
    c.app.state.hub.get(tid).settings["origin"] = {"seed": None, "deal": deal}
    return tid


def _shown(messages: list[dict]) -> list[Any]:
    """What a seat's state messages show, less the timing (clocks, now) and its own hand."""
    return [(m["seq"], m["to_act"], without_hand(m["view"]), m.get("result")) for m in messages]


def _person(sock: Any, seen: list[dict], rng: random.Random) -> None:
    """Play the person's seat (the highest bid, accept, else pass when possible, else the first
    legal action) until the deal is over; every state message goes into ``seen``."""
    from .server_helpers import next_state

    while True:
        msg = next_state(sock)
        assert msg["type"] == "state", msg
        seen.append(msg)
        if msg["result"] is not None or msg["status"] != "playing":
            return
        legal = msg.get("legal")
        if msg["seat"] in msg["to_act"] and legal:
            phase = msg["view"].get("phase")
            action = (legal[-1] if phase == "bidding" else "accept" if "accept" in legal
                      else "pass" if "pass" in legal else legal[0])
            sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"], "action": action})


@pytest.mark.parametrize("case", list(CASES))
def test_a_live_seat_is_sent_the_same_in_twin_deals(tmp_path, case):
    """A person at a seat whose own cards are the same in both deals, the rule bots elsewhere:
    every state message the person is sent while the deal is live shows the same table."""
    from .server_helpers import client, post, signup, ws

    game_id, options, me, deal, other, touched = live_twins(case)
    logs = []
    # 4A4's 叉/勾 windows held 50 ms (the private windows' minimum time is not what is tested)
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, private_window_ms=50) as c:
        ann = signup(c, "ann")
        for d in (deal, other):
            tid = table_of(c, ann, game_id, options, me, d)
            seen: list[dict] = []
            with ws(c, ann, tid) as sock:
                r = post(c, ann, f"/api/tables/{tid}/fill", {"bot": "rule"})
                assert r.status_code == 200, r.text
                _person(sock, seen, random.Random(5))
            logs.append(seen)
    # while the deal is live (once it is over every hand is shown, as at a card table); a
    # state the bots moved past before it was sent is not sent, so the positions sent in both
    # (by their seq) are compared
    first, second = ({m[0]: m for m in _shown([m for m in log if m["result"] is None])} for log in logs)
    both = sorted(set(first) & set(second))
    assert len(both) > 10 and [first[q] for q in both] == [second[q] for q in both]
    assert logs[0][-1]["result"] == logs[1][-1]["result"] is not None
    assert any(len(p) > 2 and p[2] for m in logs[0] for p in m["view"]["plays"] if p[0] in touched)
