"""Go's score estimate on request during play (checklist B17, as OGS gives one): GET
/api/tables/{id}/estimate reads the board as it stands; the estimate of a settled position is
the count the game then makes; at an event's table only a spectator may ask (an analysis aid
in a tournament game), never a player of it."""

from __future__ import annotations

import time

import qipai
from qipai.games.go.coords import to_gtp
from qipai.games.go.life import ESTIMATE_PLAYOUTS, estimate, propose_dead

from .server_helpers import as_user, client, next_state, post, signup, ws
from .test_server_go import send

# Black walls column E, White column F; Black's H5 stands dead in White's area, White's B5 in
# Black's: settled, no dame
OPENING = [p for r in range(1, 10) for p in (f"E{r}", f"F{r}")] + ["H5", "B5"]


def test_the_estimate_of_a_settled_position_is_its_count(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        b_tok, w_tok, x_tok = signup(c, "estblack"), signup(c, "estwhite"), signup(c, "estwatch")
        t = post(c, b_tok, "/api/tables", {"game": "go", "options": {"board_size": 9},
                                           "settings": {"clock": "none"}}).json()
        post(c, w_tok, f"/api/tables/{t['id']}/sit")
        url = f"/api/tables/{t['id']}/estimate"
        with ws(c, b_tok, t["id"]) as b, ws(c, w_tok, t["id"]) as w:
            socks = (b, w)
            for s in socks:
                next_state(s)
            # an empty board: about even, every point of one side or shared, the komi given
            r = c.get(url)
            assert r.status_code == 200, r.text
            first = r.json()
            assert first["moves"] == 0 and first["dead"] == [] and len(first["ownership"]) == 9
            assert first["black"] + first["white"] == 81 and first["komi"] == 8.0
            for seq, action in enumerate(OPENING):
                send(b if seq % 2 == 0 else w, seq, action)
                ms = [next_state(s) for s in socks]
            assert ms[0]["view"]["phase"] == "play"
            # a player asks (a lobby table), a spectator asks, and a signed-out reader: one answer
            got = [c.get(url, headers=as_user(tok)).json() for tok in (b_tok, x_tok)] + [c.get(url).json()]
            assert got[0] == got[1] == got[2]
            est = got[0]
            assert est["moves"] == len(OPENING) and est["dead"] == ["B5", "H5"]
            assert est["ownership"] == ["XXXXXOOOO"] * 9
            assert (est["black"], est["white"], est["komi"], est["margin"]) == (45.0, 36.0, 8.0, 1.0)
            # both pass and mark what the estimate took as dead: the count is the estimate's
            seq = len(OPENING)
            for action, sock in (("pass", b), ("pass", w), ("dead B5", b), ("dead H5", b),
                                 ("dead B5", w), ("dead H5", w), ("done", b), ("done", w)):
                send(sock, seq, action)
                ms = [next_state(s) for s in socks]
                seq += 1
                if action == "pass" and sock is w:
                    # no estimate once play has ended (the marking shows the count itself)
                    assert c.get(url).json()["error"] == "not_playing"
            result = ms[0]["result"]
            assert result["reason"] == "counted" and result["text"] == "B+1"
            assert ms[0]["view"]["score"] == {"black": est["black"], "white": est["white"]}
            assert ms[0]["view"]["ownership"] == est["ownership"]
            assert ms[0]["view"]["dead"] == est["dead"]


def test_the_estimate_agrees_with_the_dead_stone_proposal_and_the_area_count():
    """The engine's estimate of a settled position: the proposer's dead stones and the area
    count's owners; walls with gaps: each side its own, the open column between them nobody's
    (Bouzy's map: the gaps facing that column stay open), and an empty board even."""
    game = qipai.load("go", board_size=9, end_procedure="agreement")
    s = game.new_state()
    for a in OPENING:
        s.apply(a)
    dead, owners = estimate(s.board)
    assert dead == propose_dead(s.board, ESTIMATE_PLAYOUTS) == propose_dead(s.board)
    assert owners == s.board.owners(dead)
    out = s.estimate()
    assert (out["black"], out["white"]) == s.count(frozenset(dead))
    s = game.new_state()
    for b, w in zip(["D1", "D3", "D5", "D7", "D9"], ["F1", "F3", "F5", "F7", "F9"]):
        s.apply(b)
        s.apply(w)
    assert sum(1 for o in s.board.owners() if o == 0) == 71
    out = s.estimate()
    assert out["ownership"] == ["XXXX.OOOO", "XXX...OOO"] * 4 + ["XXXX.OOOO"] and out["dead"] == []
    assert (out["black"], out["white"], out["margin"]) == (40.5, 40.5, -8.0)
    empty = game.new_state().estimate()
    assert (empty["black"], empty["white"]) == (40.5, 40.5)


def _estimate(size: int, moves: list[str]) -> dict:
    s = qipai.load("go", board_size=size, end_procedure="agreement").new_state()
    for a in moves:
        s.apply(a)
    return s.estimate()


def test_an_opening_estimates_within_a_few_points_of_komi():
    """An open point far from any wall or framework counts for nobody (Bouzy's 5/21 map: a
    lone stone's influence erodes away), so an opening is about even before komi, as OGS's and
    KGS's estimates give it (the area count alone gave one stone on 19x19 the whole board, and
    the playouts' majority gave five moves Black +23)."""
    for size, moves in ((19, ["Q16"]), (19, ["Q16", "D4", "Q4", "D16", "C3"]),
                        (19, ["Q16", "D4", "Q4", "D16", "R10", "C10", "K16", "K4"]),
                        (19, ["R16", "D17", "Q3", "C4", "E3", "O17"]),
                        (9, ["E5", "C5", "G5"]), (9, ["C3", "G7", "G3", "C7"])):
        out = _estimate(size, moves)
        assert out["dead"] == [], moves
        assert abs(out["black"] - out["white"]) <= 4, (moves, out["black"], out["white"])
        assert abs(out["margin"] + out["komi"]) <= 4


def test_a_framework_counts_for_its_owner():
    """Black's framework of spaced stones on the left and centre of 9x9 is Black's, inside
    included; White's line on the right edge gets less; the open middle is nobody's. A closed
    corner is its owner's."""
    out = _estimate(9, ["C3", "H8", "C5", "H6", "C7", "H4", "E7", "H2", "E3", "J5"])
    rows = out["ownership"]
    at = {(r, c): rows[r][c] for r in range(9) for c in range(9)}
    assert all(at[r, c] == "X" for r in range(2, 7) for c in range(4))      # inside the frame
    assert at[4, 5] == "."                                                  # F5: open
    assert out["black"] - out["white"] >= 15 and out["margin"] > 5
    # a closed corner on 19x19 (Black's wall on J1-J10 and A10-H10, White's outside it) is all
    # Black's, however far its inner points are from the wall; the open board outside is mostly
    # nobody's
    s = qipai.load("go", board_size=19, end_procedure="agreement").new_state()
    for b, w in zip([f"J{r}" for r in range(1, 11)] + [f"{c}10" for c in "ABCDEFGH"],
                    [f"K{r}" for r in range(1, 12)] + [f"{c}11" for c in "ABCDEFGHJ"]):
        s.apply(b)
        s.apply(w)
    rows = s.estimate()["ownership"]
    assert rows[9:] == ["XXXXXXXXXO" + rows[r][10:] for r in range(9, 19)]
    assert sum(row.count(".") for row in rows) > 150


def test_a_dead_group_inside_the_others_area_is_counted_dead():
    """White's C4-C3 (and B7) inside Black's walled side: taken off, the side wholly Black's,
    the estimate the count the game makes with them marked dead; the estimate takes well
    under 100 ms of CPU on 19x19 (mid-game, playouts needed)."""
    wall = [p for r in range(1, 10) for p in (f"E{r}", f"F{r}")]
    out = _estimate(9, wall + ["C5", "C4", "D4", "C3", "D3", "B7"])
    assert out["dead"] == ["B7", "C3", "C4"]
    assert out["ownership"] == ["XXXXXOOOO"] * 9
    assert (out["black"], out["white"], out["margin"]) == (45.0, 36.0, 1.0)
    # the same on 19x19, timed: Black's wall on column F, White's on G, White's D4-D5 dead on
    # Black's side; White's open side is White's near its wall, nobody's further off
    wall = [p for r in range(1, 20) for p in (f"F{r}", f"G{r}")]
    s = qipai.load("go", board_size=19, end_procedure="agreement").new_state()
    for a in wall + ["C4", "D4", "E5", "D5", "C15", "Q10", "pass", "Q16"]:
        s.apply(a)
    t = time.process_time()
    dead, owners = estimate(s.board)
    took = time.process_time() - t
    assert sorted(to_gtp(p, 19) for p in dead) == ["D4", "D5"]
    assert all(owners[r * 19 + c] == 1 for r in range(19) for c in range(6))
    assert all(owners[r * 19 + 7] == 2 for r in range(19)) and owners[9 * 19 + 12] == 0
    assert took < 0.5, took                  # ~65 ms on a free core; generous for CI


def test_at_an_event_table_only_a_spectator_gets_the_estimate(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "estboss")
        alice = signup(c, "alice")
        viewer = signup(c, "estviewer")
        players = ["alice", {"id": "b1", "bot": "random"}]
        r = post(c, boss, "/api/events", {"preset": "s2_go", "event_id": "estcup", "players": players,
                                          "fields": {"game.board_size": 9}})
        assert r.status_code in (200, 201), r.text
        table = post(c, boss, "/api/events/estcup/start").json()["tables"][0]
        url = f"/api/tables/{table}/estimate"
        with ws(c, alice, table) as a:
            end = time.monotonic() + 30
            while True:
                m = next_state(a)
                if m.get("view", {}).get("phase") == "play" or time.monotonic() > end:
                    break
            assert m["view"]["phase"] == "play", m
            r = c.get(url, headers=as_user(alice))
            assert r.status_code == 403 and r.json()["error"] == "estimate_event_player", r.text
            for who in (viewer, None):
                r = c.get(url, headers=as_user(who) if who else {})
                assert r.status_code == 200, r.text
                assert len(r.json()["ownership"]) == m["view"]["size"]


def test_new_estimates_are_limited_per_address_and_a_position_estimated_is_free(tmp_path):
    """Each position estimated costs CPU: an address gets ``Limits.estimate_ip`` of them (here 3
    at once, then one per 100 s) and is refused 429 ``rate_limited`` past it, while a position
    already estimated is answered to anyone, however often."""
    from qipai.server import Limits
    with client(tmp_path, spectator_delay_ms=0, limits=Limits(estimate_ip=(0.01, 3))) as c:
        b_tok, w_tok = signup(c, "limblack"), signup(c, "limwhite")
        t = post(c, b_tok, "/api/tables", {"game": "go", "options": {"board_size": 9},
                                           "settings": {"clock": "none"}}).json()
        post(c, w_tok, f"/api/tables/{t['id']}/sit")
        url = f"/api/tables/{t['id']}/estimate"
        with ws(c, b_tok, t["id"]) as b, ws(c, w_tok, t["id"]) as w:
            for s in (b, w):
                next_state(s)
            for seq, action in enumerate(["E5", "F5", "E4"]):
                assert c.get(url).json()["moves"] == seq
                for _ in range(3):                       # the same position again: no cost
                    assert c.get(url, headers=as_user(w_tok)).json()["moves"] == seq
                send(b if seq % 2 == 0 else w, seq, action)
                for s in (b, w):
                    next_state(s)
            r = c.get(url, headers=as_user(b_tok))
            assert (r.status_code, r.json()["error"]) == (429, "rate_limited"), r.text
            assert r.json()["params"]["retry_after"] > 0
