"""Go's dead-stone phase over the server's WebSockets: both seats act at once, a mark sent
against a state the other seat has just changed is ignored (stale seq) and goes through when
sent again, differing marks resume play, equal marks count the board and store the record."""

from __future__ import annotations

import pytest

import qipai
from qipai.core import Record, replay

from .server_helpers import client, next_state, post, receive, signup, ws

OPENING = [p for r in range(1, 10) for p in (f"E{r}", f"F{r}")] + ["H5", "B5", "pass", "pass"]


@pytest.fixture
def c(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        yield c


def send(sock, seq, action):
    sock.send_json({"type": "move", "seq": seq, "action": action})


def states(socks):
    return [next_state(s) for s in socks]


def test_marking_both_seats_at_once_disagree_then_agree(c):
    b_tok, w_tok = signup(c, "goblack"), signup(c, "gowhite")
    t = post(c, b_tok, "/api/tables", {"game": "go", "options": {"board_size": 9},
                                       "settings": {"clock": "none"}}).json()
    post(c, w_tok, f"/api/tables/{t['id']}/sit")
    ref = qipai.load("go", board_size=9, end_procedure="agreement").new_state()
    with ws(c, b_tok, t["id"]) as b, ws(c, w_tok, t["id"]) as w, ws(c, None, t["id"]) as spec:
        socks = (b, w, spec)
        states(socks)
        for seq, action in enumerate(OPENING):
            send(b if seq % 2 == 0 else w, seq, action)
            ref.apply(action)
            mb, mw, ms = states(socks)
        seq = len(OPENING)
        assert mb["view"] == ref.view(0) and mw["view"] == ref.view(1) and ms["view"] == ref.view(None)
        assert mb["to_act"] == [0, 1] and mb["view"]["phase"] == "marking"
        assert "dead H5" in mb["legal"] and "done" in mb["legal"] and "dead H5" in mw["legal"]
        assert "legal" not in ms and ms["view"]["marking"]["proposal"] == ["B5", "H5"]

        # both mark at the same seq: the first is applied, the other is stale and ignored
        send(b, seq, "dead H5")
        send(w, seq, "dead H5")
        states(socks)
        ignored = receive(w)
        assert ignored == {"type": "ignored", "seq": seq, "current": seq + 1,
                           "reason": "duplicate or stale move"}
        seq += 1
        send(w, seq, "dead H5")                 # sent again against the new state
        mb, mw, ms = states(socks)
        seq += 1
        assert mb["view"]["marking"]["marks"] == [["H5"], ["H5"]] == ms["view"]["marking"]["marks"]

        # Black also marks B5 and submits; White submits H5 only: the marks differ, play resumes
        for sock, action in ((b, "dead B5"), (b, "done"), (w, "done")):
            send(sock, seq, action)
            mb, mw, ms = states(socks)
            seq += 1
            if action == "done" and sock is b:
                assert mb["to_act"] == [1] and "legal" not in mb
        assert mb["view"]["phase"] == "play" and mb["to_act"] == [0] and mb["result"] is None
        assert mb["view"]["disagreements"] == 1 and "resume" not in mb["view"]["legal_moves"]

        # Black captures B5; both pass; both mark H5 and submit: counted
        for i, action in enumerate(["A5", "pass", "C5", "pass", "B4", "pass", "B6", "pass", "pass"]):
            send(w if i % 2 else b, seq, action)
            mb, mw, ms = states(socks)
            seq += 1
        assert mb["view"]["captures"] == {"black": 1, "white": 0}
        assert "resume" not in mb["legal"]      # a refusal is a disagreement: offered once
        for sock, action in ((w, "dead H5"), (b, "dead H5"), (w, "done"), (b, "done")):
            send(sock, seq, action)
            mb, mw, ms = states(socks)
            seq += 1
        assert mb["result"]["text"] == "B+1" and mb["result"]["reason"] == "counted"
        assert ms["view"]["dead"] == ["H5"] and ms["view"]["score"] == {"black": 45.0, "white": 36.0}
        while mb["record"] is None:
            mb = next_state(b)
    rec = Record.from_json(c.get(f"/api/records/{mb['record']}").json()["record"])
    final = replay(rec)                          # the stored record replays to the same count
    assert final.result.text == "B+1" and final.result.details["dead"] == ["H5"]
    sgf = c.get(f"/api/records/{mb['record']}/download?format=native")
    assert sgf.status_code == 200 and "RE[B+1]" in sgf.text
