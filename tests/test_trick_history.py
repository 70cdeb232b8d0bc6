"""Every trick of the deal in play, by seat, for the card table's history list (shengji and
sandayi): public — the same list for every seat and for spectators, only cards that were played
face up, never the kitty or a buried card — and, at a competition table whose conduct is
``trick_review = "last_trick_only"`` (competition.md §5.8, no 查牌), left out of the views while
the deal is on, with earlier positions refused."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import qipai

from .server_helpers import client, next_state, post, receive, signup, ws


def play_until(game_id, seed, tricks, **options):
    """A state of ``game_id`` played by random legal actions until ``tricks`` tricks are done."""
    st = qipai.load(game_id, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.tricks) < tricks:
        seat = st.to_act[0]
        st.apply(rng.choice(st.legal_actions(seat)), seat=seat)
    return st


def sandayi_played(st):
    """The cards played in tricks, from the game's log (one face per play; bids, the burial and
    the trump call are words)."""
    return Counter(e for e in map(str, st.log) if " " not in e and not e.startswith(("bid", "pass")))


@pytest.mark.parametrize("seed", [1, 2])
def test_shengji_views_list_every_trick_of_the_hand_and_nothing_hidden(seed):
    st = play_until("shengji", seed, 7)
    views = [st.view(s) for s in (0, 1, 2, 3, None)]
    tricks = views[0]["tricks"]
    assert len(tricks) == views[0]["tricks_played"] == 7
    assert all(v["tricks"] == tricks for v in views)                     # public: the same for all
    assert tricks[-1] == {k: views[0]["last_trick"][k] for k in ("leader", "plays", "winner", "points")}
    shown = Counter(f for t in tricks for _, fs in t["plays"] for f in fs)
    current = Counter(f for _, fs in st.trick for f in fs)
    played = sum((Counter(st.view(s)["played"]) for s in range(4)), Counter())
    assert shown + current == played                                    # what was played, no more
    for t in tricks:
        assert [s for s, _ in t["plays"]][0] == t["leader"] and len(t["plays"]) == 4


def test_sandayi_views_list_every_trick_and_keep_the_kitty_hidden():
    for seed in range(1, 40):                 # a deal that is bid (not thrown in) and played on
        st = play_until("sandayi", seed, 5)
        if len(st.tricks) == 5:
            break
    views = [st.view(s) for s in (0, 1, 2, 3, None)]
    tricks = views[0]["tricks"]
    assert len(tricks) == 5 and all(v["tricks"] == tricks for v in views)
    assert tricks[-1]["cards"] == views[0]["last_trick"]["cards"]
    faces = Counter(c for t in tricks for _, c in t["cards"])
    assert sum(faces.values()) == 20
    assert faces + Counter(c.face for _, c in st.trick) == sandayi_played(st)
    defender = next(s for s in range(4) if s != st.dealer)
    assert views[defender]["buried"] is None and views[4]["buried"] is None


def test_a_last_trick_only_event_table_leaves_the_tricks_out_and_refuses_earlier_positions(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        users = {n: signup(c, n) for n in ("ann", "bob", "cy", "dee")}
        body = {"preset": "s0_shengji", "event_id": "sj", "players": [
            {"id": "t1", "members": ["ann", "bob"]}, {"id": "t2", "members": ["cy", "dee"]}]}
        r = post(c, boss, "/api/events", body)
        assert r.status_code == 201, r.text
        (table,) = post(c, boss, "/api/events/sj/start").json()["tables"]
        with ws(c, users["ann"], table) as sock:
            msg = next_state(sock)
            assert msg["seat"] is not None and "tricks" not in msg["view"] and "last_trick" in msg["view"]
            sock.send_json({"type": "position", "ply": 1})
            got = receive(sock)
            while got.get("type") != "error":
                got = receive(sock)
            assert got["code"] == "last_trick_only"
        # the default conduct (trick_review = "all", the S2 preset) lists them (docs/games/shengji.md)
        r = post(c, boss, "/api/events", {**body, "preset": "s2_tuolaji", "event_id": "sj2"})
        assert r.status_code == 201, r.text
        (table,) = post(c, boss, "/api/events/sj2/start").json()["tables"]
        with ws(c, users["cy"], table) as sock:
            assert next_state(sock)["view"]["tricks"] == []
        # a lobby table lists them
        r = post(c, users["ann"], "/api/tables",
                 {"game": "shengji", "bots": 3, "settings": {"clock": "none"}})
        with ws(c, users["ann"], r.json()["id"]) as sock:
            assert next_state(sock)["view"]["tricks"] == []
