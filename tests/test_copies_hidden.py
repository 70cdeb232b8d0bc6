"""The copies of a face in a game of several packs are identical cards, so their pack indices
(7H0 .. 7H3) must tell no seat anything: two deals that agree on every face a seat may know, and
differ only in which copy lies where, give that seat the same views (baohuang: four packs;
shengji: two, titanic three). The referee keeps its own ids (the record), never shown."""

from __future__ import annotations

import json
import random

import pytest

import qipai
from qipai.cards import parse_card, shown_ids
from tests.baohuang_helpers import make_deal

SEATS = 5


def swapped(deal: dict, a: str, b: str) -> dict:
    """``deal`` with the two copies ``a`` and ``b`` (one face) changing places."""
    out = json.loads(json.dumps(deal))
    for h in out["hands"]:
        h[:] = [b if c == a else a if c == b else c for c in h]
    return out


def relabelled(ids: list[str], rng: random.Random, keep: str | None = None) -> list[str]:
    """``ids`` with the pack indices of each face permuted at random (``keep`` stays put)."""
    labels: dict[str, list[str]] = {}
    for c in ids:
        if c != keep:
            labels.setdefault(c[:2], []).append(c)
    perm = {f: dict(zip(cs, rng.sample(cs, len(cs)))) for f, cs in labels.items()}
    return [c if c == keep else perm[c[:2]][c] for c in ids]


def same_views(a, b, seats) -> None:
    for s in seats:
        va, vb = a.view(s), b.view(s)
        assert va == vb, (s, [k for k in va if va[k] != vb[k]])
        if s is not None:              # what the seat is offered, as a server lists it
            la, lb = a.legal_actions(s), b.legal_actions(s)
            assert len(la) == len(lb) and [str(x) for x in la[:300]] == [str(x) for x in lb[:300]]


def test_shown_ids_number_the_copies_of_each_face_within_a_list():
    cards = [parse_card(c) for c in ("7H3", "7H1", "9S2", "7H2", "BJ3")]
    assert shown_ids(cards) == ["7H0", "7H1", "9S0", "7H2", "BJ0"]


# ----- baohuang -----------------------------------------------------------------------------

def test_baohuang_tribute_shows_no_pack_index():
    """The givers hand over their largest cards, the lowest card id first (D10): a tribute
    shown as BJ2 told every seat that its giver held neither BJ0 nor BJ1."""
    prev = {"emperor": 0, "guard": 1, "mode": "normal", "side_score": 6, "order": [0, 1, 2, 3, 4]}
    game = qipai.load("baohuang")
    deal = make_deal({2: ["BJ3", "BJ2"], 3: ["BJ1"], 4: ["LJ0"]}, c0=0, previous=prev)
    a, b = game.new_state(deal=deal), game.new_state(deal=swapped(deal, "BJ1", "BJ2"))
    assert [c.id for *_, c in a.tribute] != [c.id for *_, c in b.tribute]     # other copies moved
    same_views(a, b, [None, *range(SEATS)])
    assert a.view(1)["tribute"] == [[2, 0, "BJ0"], [3, 1, "BJ1"], [4, 0, "LJ0"]]


def test_baohuang_plays_and_package_show_no_pack_index():
    """A play takes the lowest copy held: 9D3 on the table told that its player held no 9D0;
    a decliner's 2 (decline 2H3) followed the card into the emperor's plays."""
    game = qipai.load("baohuang")
    deal = make_deal({2: ["9H0", "9H1", "9H2", "9D3"], 1: ["2H3"], 4: ["9D0", "2H0"]}, c0=2,
                     avoid={1: "2", 2: "9"})
    other = swapped(swapped(deal, "9D0", "9D3"), "2H3", "2H0")     # seats 1, 2 and 4 differ
    states = [game.new_state(deal=d) for d in (deal, other)]
    for text in ("decline", "decline", "decline", "decline", "decline", "accept", "declare 9H", "9D3"):
        for st in states:
            st.apply(text)
        same_views(*states, [None, 0, 3])          # seats whose own cards are the same
    same_views(*states, [1, 2, 4])                 # and those holding other copies
    a, b = states
    assert a.plays[-1][2] != b.plays[-1][2]                  # the referee moved other copies
    # the table shows the first 9 laid this deal as 9S0, whichever suit and copy left the hand
    assert a.view(0)["plays"][-1] == [2, "9", ["9S0"]]


PREVIOUS = {"emperor": 1, "guard": 3, "mode": "normal", "side_score": -6, "order": [0, 2, 4, 1, 3]}


@pytest.mark.parametrize("seed, previous", [(3, None), (8, None), (5, PREVIOUS)])
def test_baohuang_whole_deal_looks_the_same_whichever_copies_lie_where(seed, previous):
    """The selection, the declaration and the plays (and the tribute, after a decisive deal)."""
    game = qipai.load("baohuang")
    a = game.new_state(seed=seed, deal=None if previous is None else {"previous": previous})
    deal = a.dealt[0]
    rng = random.Random(seed)
    flat = relabelled([c for h in deal["hands"] for c in h], rng)
    other = {"hands": [flat[i * 43:(i + 1) * 43] for i in range(SEATS)], "c0": deal["c0"]}
    b = game.new_state(deal=other if previous is None else {**other, "previous": previous})
    assert (a.tribute != []) is (previous is not None)
    assert b.dealt[0]["hands"] != deal["hands"]
    for _ in range(160):
        if a.is_terminal() or a.voids:
            break
        same_views(a, b, [None, *range(SEATS)])
        seat = a.to_act[0]
        act = str(rng.choice(a.legal_actions(seat)))
        a.apply(act, seat)
        b.apply(act, seat)
    assert a.plays and a.view(None) == b.view(None)


def test_baohuang_old_records_with_any_copy_written_still_replay():
    """Records name physical copies (the log keeps the referee's ids); a card id in an action
    is read as its face, so a record that wrote other copies of the same faces replays."""
    game = qipai.load("baohuang")
    deal = make_deal({2: ["9H0", "9H1", "9H2", "9H3", "9D3"]}, c0=2, avoid={2: "9"})
    a = game.new_state(deal=deal)
    a.apply("accept")
    a.apply("declare 9H3 9H1 9H0")
    a.apply("9D3")
    assert a.log[-2:] == ["declare 9H0 9H1 9H2", "9D3"]
    again = game.new_state(deal=deal)
    for text in ("accept", "declare 9H1 9H2 9H3", "9D0"):
        again.apply(text)
    assert again.view(None) == a.view(None) and again.mode == a.mode == "hidden_du"


# ----- shengji and titanic ------------------------------------------------------------------

@pytest.mark.parametrize("profile", ["seed000", "titanic"])
def test_shengji_whole_hand_looks_the_same_whichever_copies_lie_where(profile):
    """Shengji shows faces only (actions name faces, the referee picks the copies): a guard
    that it stays so, through the declarations, the kitty and every trick."""
    game = qipai.load("shengji", profile=profile)
    a = game.new_state(seed=5)
    rng = random.Random(1)
    deal = dict(a.deal, order=relabelled(a.deal["order"], rng))
    assert deal["order"] != a.deal["order"]
    b = game.new_state(deal=deal)
    while not a.is_terminal():
        same_views(a, b, [None, 0, 1, 2, 3])
        seat = a.to_act[0]
        acts = a.legal_actions(seat)
        act = str(acts[rng.randrange(len(acts))])
        a.apply(act, seat)
        b.apply(act, seat)
    same_views(a, b, [None, 0, 1, 2, 3])


# ----- what a server sends a seat -----------------------------------------------------------

def _shown_form(ids: list[str]) -> bool:
    return ids == shown_ids(parse_card(c) for c in ids)


def test_baohuang_table_messages_name_no_pack_index(tmp_path):
    """Every state message a seated player gets at a live table (the same message feeds the Bot
    API's stream): each list of cards in its view, and its legal actions and hint, in labels."""
    from .server_helpers import client, next_state, post, signup, ws

    with client(tmp_path, bot_delay_ms=0) as c:
        me = signup(c, "emperorwatch")
        t = post(c, me, "/api/tables", {"game": "baohuang", "bots": 4, "bot": "random",
                                        "settings": {"clock": "none"}}).json()
        checked = plays = 0
        with ws(c, me, t["id"]) as sock:
            msg = next_state(sock)
            while not msg["result"] and plays < 40:
                v = msg["view"]
                assert _shown_form(v["hand"]) and _shown_form(v["package"] or [])
                assert _shown_form(v["revealed"]) and _shown_form([c for *_, c in v["tribute"]])
                assert all(_shown_form(e[2]) for e in v["plays"] if len(e) > 2)
                offered = [*(msg.get("legal") or []), *([msg["hint"]] if msg.get("hint") else [])]
                for text in offered:
                    words = text.split()
                    if words[0] in ("decline", "declare"):
                        assert _shown_form(words[1:]), text
                checked += 1
                if "turn" in msg:
                    plays += 1
                    choice = (msg.get("legal") or [msg.get("hint")])[0]
                    sock.send_json({"type": "move", "seq": msg["seq"], "action": choice})
                msg = next_state(sock)
        assert checked > plays > 3
