"""Twin-deal tests through every live channel of a table that the engine twin tests
(tests/test_table_suits_hidden.py) do not reach: a spectator's socket and a seat's socket that
leaves in the middle of the deal and comes back (its full state again), for every climbing game
whose plays are rank text; and shengji's declarations sent ahead during the deal, which only the
seat that sent them may learn of (another seat and a spectator are sent exactly the same whether
a declaration was kept for a later prompt or not).

Two deals differ only in the suits of one seat's cards (tests/test_table_suits_hidden.py
``twin``); the same person's seat, whose cards are the same in both, plays the same way, the rule
bots the others; every state message of the live deal must be the same, less the timing (the
clocks, ``now``) and the person's own hand."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from .server_helpers import client, next_state, post, signup, ws
from .test_table_suits_hidden import CASES, live_twins, table_of, without_hand

#: the parts of a state message that depend on nothing but the table (not on time)
SHOWN = ("type", "seq", "seat", "to_act", "result", "status", "ply", "legal", "hint", "turn",
         "autos", "ahead")


def _shown(msg: dict[str, Any]) -> dict[str, Any]:
    out = {k: msg.get(k) for k in SHOWN}
    out["view"] = without_hand(msg["view"])
    return out


def _by_seq(messages: list[dict]) -> dict[int, dict[str, Any]]:
    """The table each position (``seq``) of the live deal showed, less who is to act: which
    positions a seat is sent, and whether it is sent a position again once its answer in a
    4A4 window is held, depends on when its answer came (the window's hold is 40 ms here)."""
    out = {}
    for m in messages:
        if m["result"] is None:
            out[m["seq"]] = {k: v for k, v in without_hand(m["view"]).items() if k != "to_act"}
    return out


def _answer(msg: dict[str, Any]) -> str:
    """The person's answer: the highest bid, accept, else pass when possible, else the first
    legal action (the same in both deals: the person's own cards are the same)."""
    legal = msg["legal"]
    if msg["view"].get("phase") == "bidding":
        return legal[-1]
    return "accept" if "accept" in legal else "pass" if "pass" in legal else legal[0]


def _took(sock, seen: list[dict]) -> dict[str, Any] | None:
    """The next state message (into ``seen``), None once it ends the live deal."""
    msg = next_state(sock)
    assert msg["type"] == "state", msg
    seen.append(msg)
    return None if msg["result"] is not None or msg["status"] != "playing" else msg


def _play_with_a_reconnect(c, token: str, tid: str, seen: list[dict], after: int) -> None:
    """Play the person's seat to the end of the deal; after ``after`` state messages the socket
    is closed and a new one opened (its first state is the full state again). Every state
    message goes into ``seen``."""
    sock_cm = ws(c, token, tid)
    sock = sock_cm.__enter__()
    try:
        while (msg := _took(sock, seen)) is not None:
            if len(seen) == after:              # gone in the middle of the deal, and back
                sock_cm.__exit__(None, None, None)
                sock_cm = ws(c, token, tid)
                sock = sock_cm.__enter__()
                continue
            if msg["seat"] in msg["to_act"] and msg.get("legal"):
                sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"],
                                "action": _answer(msg)})
    finally:
        sock_cm.__exit__(None, None, None)


def _in_thread(failed: list[BaseException], f: Any, *args: Any) -> threading.Thread:
    """Run ``f(*args)`` in a started daemon thread; what it raises goes into ``failed`` (told by
    the test, not lost in the thread)."""
    def body() -> None:
        try:
            f(*args)
        except BaseException as e:
            failed.append(e)
    th = threading.Thread(target=body, daemon=True)
    th.start()
    return th


def _watch(sock, seen: list[dict]) -> None:
    """A spectator's state messages until the deal's result."""
    while _took(sock, seen) is not None:
        pass


@pytest.mark.parametrize("case", list(CASES))
def test_a_spectator_and_a_seat_that_reconnects_are_sent_the_same_in_twin_deals(tmp_path, case):
    game_id, options, me, deal, other, touched = live_twins(case)
    persons, watchers = [], []
    # 4A4's private windows held 40 ms (not the default 2 s: its deal would take minutes)
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, private_window_ms=40) as c:
        ann = signup(c, "ann")
        for d in (deal, other):
            tid = table_of(c, ann, game_id, options, me, d)
            seen: list[dict] = []
            watched: list[dict] = []
            with ws(c, None, tid) as spectator:
                failed: list[BaseException] = []
                assert post(c, ann, f"/api/tables/{tid}/fill", {"bot": "rule"}).status_code == 200
                watcher = _in_thread(failed, _watch, spectator, watched)
                _play_with_a_reconnect(c, ann, tid, seen, after=7)
                watcher.join(30)
                assert not watcher.is_alive() and not failed, failed
            persons.append(seen)
            watchers.append(watched)
    for log in (persons, watchers):
        first, second = (_by_seq(got) for got in log)
        both = first.keys() & second.keys()
        assert len(both) > 10 and {q: first[q] for q in both} == {q: second[q] for q in both}
        assert log[0][-1]["result"] == log[1][-1]["result"] is not None
    # the seat whose suits changed did lay cards while the spectator watched
    assert any(len(p) > 2 and p[2] for m in watchers[0] for p in m["view"]["plays"]
               if p[0] in touched)


# ----- shengji: a declaration sent ahead ---------------------------------------------------------

def _timeless(msg: dict[str, Any]) -> dict[str, Any]:
    if msg["type"] == "state":
        return _shown(msg)
    if msg["type"] == "event":
        return {"event": {k: v for k, v in msg["event"].items() if k != "t"}}
    return {"type": msg["type"]}


def test_a_declaration_kept_ahead_is_told_to_no_other_seat_nor_a_spectator(tmp_path):
    """Seat 1 sends ``declare 2H`` ahead at its first message in a deal where it never gets a
    2H (kept for a later prompt; dropped at its first prompt past the deal, which this game,
    stopped at the declarations' end, does not reach); in the twin run it sends
    nothing. Seat 0 (a person) and a spectator are sent exactly the same messages (less their
    timing) through the deal and the declarations, while seat 1 itself is told of its kept
    declaration."""
    from .shengji_helpers import bidding_person, level_card_deals

    deal = level_card_deals()[0]             # the 2H is in the kitty: seat 1 never holds one
    runs: list[tuple[list, list, list]] = []
    with client(tmp_path, private_window_ms=40, deal_window_ms=10, spectator_delay_ms=0) as c:
        ann, bob = signup(c, "ann"), signup(c, "bob")
        for ahead in ("declare 2H", None):
            tid = post(c, ann, "/api/tables", {"game": "shengji", "seat": 0,
                                               "settings": {"clock": "none", "bot_delay_ms": 0}}).json()["id"]
            post(c, bob, f"/api/tables/{tid}/sit", {"seat": 1})
            table = c.app.state.hub.get(tid)
            table.settings["origin"] = {"seed": None, "deal": deal}
            mine: list[dict] = []
            bobs: list[dict] = []
            watched: list[dict] = []
            with ws(c, ann, tid) as a, ws(c, bob, tid) as b, ws(c, None, tid) as s:
                failed: list[BaseException] = []
                threads = [_in_thread(failed, bidding_person, b, ahead, bobs),
                           _in_thread(failed, bidding_person, s, None, watched)]
                for seat in (2, 3):
                    post(c, ann, f"/api/tables/{tid}/bot", {"seat": seat, "bot": "rule"})
                bidding_person(a, None, mine)
                for th in threads:
                    th.join(30)
                assert not any(th.is_alive() for th in threads) and not failed, failed
            runs.append((mine, watched, bobs))
    (mine1, watched1, bobs1), (mine2, watched2, bobs2) = runs
    assert [_timeless(m) for m in mine1] == [_timeless(m) for m in mine2]
    assert [_timeless(m) for m in watched1] == [_timeless(m) for m in watched2]
    assert len(mine1) > 20
    told = [m["event"] for m in bobs1 if m["type"] == "event" and m["event"]["type"] == "ahead"]
    assert told and told[0]["status"] == "kept" and told[0]["action"] == "declare 2H"
    assert not [m for m in bobs2 if m["type"] == "event" and m["event"]["type"] == "ahead"]
