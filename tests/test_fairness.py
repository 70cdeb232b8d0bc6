"""Commit–reveal of a lobby table's deal (competition.md §6.1, docs/fairness.md): the seats get
the commitment before the deal, send nonces, the deal's seed is derived from both, and the
finished record reveals everything. The derivation, the stream, the shuffle and the dealing maps
are checked with an implementation written here from docs/fairness.md alone (hashlib and hmac,
no qipai code), and ``qipai verify`` checks the record."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time

from qipai.core import load

from .server_helpers import client, next_state, post, receive, signup, ws
from .server_process import run_cli

# ----- an independent implementation of docs/fairness.md -----------------------------------


def doc_commitment(secret_hex):
    return hashlib.sha256(bytes.fromhex(secret_hex)).hexdigest()


def doc_seed(secret_hex, match, deal, attempt, nonces):
    message = "|".join(["qipai-rng-v1", "deal", match, str(deal), str(attempt), *nonces])
    return hmac.new(bytes.fromhex(secret_hex), message.encode("utf-8"), hashlib.sha256).hexdigest()


class DocStream:
    def __init__(self, seed):
        self.seed, self.k = seed, 0

    def block(self):
        x = int.from_bytes(hashlib.sha256(f"qipai-rng:{self.seed}:{self.k}".encode()).digest(), "big")
        self.k += 1
        return x

    def below(self, n):
        limit = 2**256 - (2**256 % n)
        while True:
            x = self.block()
            if x < limit:
                return x % n

    def shuffle(self, a):
        a = list(a)
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]
        return a


def doc_deck():
    cards = [r + s + "0" for r in "23456789TJQKA" for s in "SHDC"]
    return cards + ["LJ0", "BJ0"]


def doc_doudizhu(seed):
    rng = DocStream(seed)
    cards = rng.shuffle(doc_deck())
    hands = [[c for i, c in enumerate(cards[:51]) if i % 3 == s] for s in range(3)]
    return {"hands": hands, "kitty": cards[51:], "first_bidder": rng.below(3)}


def doc_fouafour(seed):
    rng = DocStream(seed)
    dealer = rng.below(4)
    cards = rng.shuffle(doc_deck())
    hands = [[] for _ in range(4)]
    for i, c in enumerate(cards):
        hands[(dealer + 1 + i) % 4].append(c)
    return {"dealer": dealer, "hands": hands}


# ----- the worked example of the document --------------------------------------------------

def test_the_documents_worked_example():
    secret = bytes(range(32)).hex()
    assert doc_commitment(secret) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    nonces = {"7": "aa11bb22cc33dd44ee55ff6600112233", "12": "0f1e2d3c4b5a69788796a5b4c3d2e1f0"}
    order = sorted(nonces, key=lambda a: a.encode())
    assert order == ["12", "7"]
    seed = doc_seed(secret, "5f3a9c21", 1, 0, [nonces[a] for a in order])
    assert seed == "54e7691bb42a84359f2d7b065ee015918ee5ccef3ed4fe2ad9db320b6c9de7fd"
    d = doc_doudizhu(seed)
    assert d["hands"][0][:4] == ["LJ0", "KC0", "AC0", "QD0"] and d["kitty"] == ["2C0", "KH0", "5C0"]
    assert d["first_bidder"] == 2
    assert load("doudizhu").new_state(seed=seed).deal[0] == d          # qipai deals the same
    f = doc_fouafour(seed)
    assert f["dealer"] == 1 and [h[0] for h in f["hands"]] == ["5S0", "JS0", "AC0", "4D0"]
    assert load("fouafour").new_state(seed=seed).deal == f


def test_many_seeds_deal_as_the_document_says():
    for k in range(20):
        seed = doc_seed(os.urandom(32).hex(), f"{k:08x}", 1, 0, [os.urandom(16).hex(), ""])
        assert load("doudizhu").new_state(seed=seed).deal[0] == doc_doudizhu(seed)
        assert load("fouafour").new_state(seed=seed).deal == doc_fouafour(seed)


def test_the_shuffle_uses_the_streams_blocks_as_the_document_says():
    # DealRng.shuffle draws its blocks in one loop: the same blocks, in the same order, as
    # below(i + 1) for i from the end down, for any length and seed (from 1,000 the counters
    # run past the shuffle's table of counter texts)
    from qipai.core.rng import DealRng

    for seed in (0, 7, "abc", "54e7691bb42a84359f2d7b065ee015918ee5ccef3ed4fe2ad9db320b6c9de7fd"):
        for length in (0, 1, 2, 3, 52, 54, 136, 215):
            for start in (5, 1000):
                rng = DealRng(seed, counter=start)
                doc = DocStream(seed)
                doc.k = start
                assert rng.shuffle(list(range(length))) == doc.shuffle(range(length))
                assert rng.counter == doc.k and rng.below(1000) == doc.below(1000)


# ----- a real table -----------------------------------------------------------------------

def finish(sock):
    sock.send_json({"type": "resign"})
    m = next_state(sock)
    while not m.get("record"):
        m = next_state(sock)
    return m["record"]


def test_commit_nonces_deal_and_reveal_at_a_real_table(tmp_path):
    with client(tmp_path, nonce_window_ms=30_000, bot_delay_ms=0) as c:
        tokens = [signup(c, n) for n in ("east", "south")]
        watcher = signup(c, "watcher")
        t = post(c, tokens[0], "/api/tables", {"game": "doudizhu", "settings": {"clock": "none"}}).json()
        post(c, tokens[1], f"/api/tables/{t['id']}/sit")
        post(c, tokens[0], f"/api/tables/{t['id']}/bot", {})
        lobby = c.get(f"/api/tables/{t['id']}").json()
        assert lobby["status"] == "playing" and lobby["secret"] is None and lobby["seed"] is None
        commitment = lobby["commitment"]
        assert len(commitment) == 64
        sent = {}
        with ws(c, tokens[0], t["id"]) as a, ws(c, tokens[1], t["id"]) as b, ws(c, watcher, t["id"]) as w:
            for sock in (a, b):
                assert receive(sock)["type"] == "hello"
                msg = receive(sock)          # before anything random: the commitment
                assert msg == {"type": "commitment", "commitment": commitment, "match": t["id"],
                               "nonce_ms": 30_000}
            assert receive(w)["type"] == "hello"
            w.send_json({"type": "nonce", "nonce": "ab"})
            assert next_state(w)["error"] == "not_seated"
            for bad in ("AB", "x" * 3, "a" * 65, 7):
                a.send_json({"type": "nonce", "nonce": bad})
                assert next_state(a)["error"] == "bad_nonce"
            sent[0] = os.urandom(16).hex()
            a.send_json({"type": "nonce", "nonce": sent[0]})
            assert next_state(a, skip_events=False) == {"type": "nonce", "nonce": sent[0], "accepted": True}
            a.send_json({"type": "nonce", "nonce": "00"})
            assert next_state(a)["error"] == "nonce_repeated"
            assert c.get(f"/api/tables/{t['id']}").json()["seed"] is None      # still waiting
            started = time.monotonic()
            sent[1] = ""                      # an empty nonce is a nonce
            b.send_json({"type": "nonce", "nonce": sent[1]})
            state = next_state(a)             # the last nonce deals at once
            assert time.monotonic() - started < 5 and state["type"] == "state"
            a.send_json({"type": "nonce", "nonce": "01"})
            m = next_state(a)
            while m["type"] != "error":        # the game's states go on meanwhile
                m = next_state(a)
            assert m["error"] == "nonce_closed"
            rid = finish(a)
        rec = c.get(f"/api/records/{rid}").json()["record"]
        summary = c.get(f"/api/tables/{t['id']}").json()
    rng = rec["meta"]["rng"]
    assert summary["secret"] == rng["secret"] and summary["commitment"] == commitment
    # checked from the document alone
    assert doc_commitment(rng["secret"]) == commitment == rng["commitment"]
    seats = [s for s in summary["seats"] if "user" in s]
    by_account = {str(s["user"]): sent[i] for i, s in enumerate(seats)}
    order = sorted(by_account, key=lambda x: x.encode())
    assert rng["nonces"] == [[a, by_account[a]] for a in order]
    seed = doc_seed(rng["secret"], t["id"], 1, 0, [by_account[a] for a in order])
    assert rec["seed"] == seed == rng["deals"][0]["seed"] == summary["seed"]
    assert rec["deal"][0] == doc_doudizhu(seed)
    # and by qipai verify, which fails once the record is altered
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    out = run_cli("verify", str(path))
    assert out.returncode == 0 and out.stdout.startswith("OK   deal 1 attempt 0"), out.stdout + out.stderr
    for change in ("nonce", "secret", "deal"):
        bad = json.loads(json.dumps(rec))
        if change == "nonce":
            bad["meta"]["rng"]["nonces"][0][1] = "ff"
        elif change == "secret":
            bad["meta"]["rng"]["secret"] = "00" * 32
        else:
            h = bad["deal"][0]["hands"]
            h[0][0], h[1][0] = h[1][0], h[0][0]
        path.write_text(json.dumps(bad))
        out = run_cli("verify", str(path))
        assert out.returncode == 1 and "FAIL" in out.stdout, (change, out.stdout, out.stderr)


def test_the_window_ends_without_nonces_and_bots_deal_at_once(tmp_path):
    with client(tmp_path, nonce_window_ms=300, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "fouafour", "bots": 3,
                                           "settings": {"clock": "none"}}).json()
        started = time.monotonic()
        with ws(c, alice, t["id"]) as sock:
            state = next_state(sock)          # nobody sent a nonce: the window ends, the deal comes
            assert state["type"] == "state" and time.monotonic() - started >= 0.25
            rid = finish(sock)
        rec = c.get(f"/api/records/{rid}").json()["record"]
        rng = rec["meta"]["rng"]
        assert [n for _, n in rng["nonces"]] == [""]
        assert rec["seed"] == doc_seed(rng["secret"], t["id"], 1, 0, [""])
        assert rec["deal"] == doc_fouafour(rec["seed"])
        bots = post(c, alice, "/api/tables", {"game": "doudizhu", "settings": {"clock": "none"}}).json()
        r = post(c, alice, f"/api/tables/{bots['id']}/fill")
        assert r.json()["status"] == "playing"


def test_an_events_secret_is_revealed_when_it_ends(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        players = [{"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"}]
        ev = post(c, boss, "/api/events", {"preset": "s3_gomoku", "name": "Two bots", "event_id": "two",
                                          "players": players}).json()
        assert ev["secret"] is None and len(ev["commitment"]) == 64
        post(c, boss, "/api/events/two/start")
        for _ in range(400):
            ev = c.get("/api/events/two").json()
            if ev["status"] == "finished":
                break
            if ev["started_round"] < ev["current_round"]:
                post(c, boss, "/api/events/two/start")
            time.sleep(0.05)
    assert ev["status"] == "finished", ev
    assert doc_commitment(ev["secret"]) == ev["commitment"]


def test_a_restart_in_the_nonce_window_keeps_the_commitment_and_the_nonces(tmp_path):
    with client(tmp_path, nonce_window_ms=60_000, bot_delay_ms=0) as c:
        tokens = [signup(c, n) for n in ("east", "south")]
        t = post(c, tokens[0], "/api/tables", {"game": "doudizhu", "settings": {"clock": "none"}}).json()
        post(c, tokens[1], f"/api/tables/{t['id']}/sit")
        post(c, tokens[0], f"/api/tables/{t['id']}/bot", {})
        commitment = c.get(f"/api/tables/{t['id']}").json()["commitment"]
        with ws(c, tokens[0], t["id"]) as a:
            assert [receive(a)["type"] for _ in range(3)] == ["hello", "commitment", "table"]
            a.send_json({"type": "nonce", "nonce": "abcd"})
            assert next_state(a, skip_events=False)["accepted"]
        time.sleep(0.3)                       # the nonce is written
    with client(tmp_path, nonce_window_ms=60_000, bot_delay_ms=0) as c:
        assert c.get(f"/api/tables/{t['id']}").json()["commitment"] == commitment
        with ws(c, tokens[0], t["id"]) as a, ws(c, tokens[1], t["id"]) as b:
            assert receive(b)["type"] == "hello" and receive(b)["type"] == "commitment"
            assert [receive(a)["type"] for _ in range(2)] == ["hello", "table"]   # its nonce is kept
            b.send_json({"type": "nonce", "nonce": "12"})
            assert next_state(a)["type"] == "state"
            rid = finish(a)
        rng = c.get(f"/api/records/{rid}").json()["record"]["meta"]["rng"]
    assert rng["commitment"] == commitment and sorted(n for _, n in rng["nonces"]) == ["12", "abcd"]


def test_verify_a_game_without_chance_and_a_file_that_is_not_a_qipai_record(tmp_path):
    """xiangqi makes no random choice: its record's deal check passes with a word saying so (it
    said FAIL 'dealt from None'); a PGN is refused in one line that says what verify reads."""
    with client(tmp_path, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                           "settings": {"clock": "none"}}).json()
        with ws(c, alice, t["id"]) as sock:
            rid = finish(sock)
        rec = c.get(f"/api/records/{rid}").json()["record"]
    path = tmp_path / "xiangqi.json"
    path.write_text(json.dumps(rec))
    out = run_cli("verify", str(path))
    assert out.returncode == 0 and "makes no random choice" in out.stdout, out.stdout + out.stderr
    out = run_cli("verify", str(path), "--lang", "zh")
    assert out.returncode == 0 and out.stdout.startswith("通过 第 1 副第 0 次发牌：种子 "), out.stdout
    assert "xiangqi 没有随机选择，没有要核对的发牌" in out.stdout, out.stdout
    pgn = tmp_path / "game.pgn"
    pgn.write_bytes('[Event "对局"]\n\n1. h2e2 h9g7 *\n'.encode("gbk"))
    out = run_cli("verify", str(pgn))
    assert out.returncode == 2 and "not a qipai JSON record" in out.stdout + out.stderr
    assert "Traceback" not in out.stderr and "codec" not in out.stdout + out.stderr


# ----- laizi mahjong: the wall, the hands and the indicator from a revealed seed -----------------
TILE_CODES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP")


def doc_laizi(seed):
    """docs/fairness.md for laizi-mahjong: the 136 tiles (each kind four times, in the order
    1m..9m 1p..9p 1s..9s E S W N C F P) shuffled; blocks of 4 to the dealer and on, three rounds,
    then one each; the next tile is the indicator, the rest the wall."""
    tiles = DocStream(seed).shuffle([c for c in TILE_CODES for _ in range(4)])
    hands, pos = [[] for _ in range(4)], 0
    for _ in range(3):
        for s in range(4):
            hands[s] += tiles[pos:pos + 4]
            pos += 4
    for s in range(4):
        hands[s].append(tiles[pos])
        pos += 1
    return hands, tiles[pos], tiles[pos + 1:]


def test_laizi_mahjong_deals_as_the_document_says_and_its_record_verifies(tmp_path):
    for k in range(5):
        seed = doc_seed(os.urandom(32).hex(), f"{k:08x}", 1, 0, [os.urandom(16).hex()])
        state = load("laizi-mahjong").new_state(seed=seed)
        hands, indicator, wall = doc_laizi(seed)
        assert TILE_CODES[state.indicator] == indicator
        assert [TILE_CODES[t] for t in state.wall.tiles] == wall
        dealt = [sorted(TILE_CODES.index(c) for c in h) for h in hands]
        drawn = list(state.hands[0])
        drawn[state.drawn] -= 1                          # the dealer's first draw, the wall's head
        held = [sorted(t for t in range(34) for _ in range(n[t])) for n in [drawn, *state.hands[1:]]]
        assert held == dealt
        assert TILE_CODES[state.drawn] == wall[0]
    with client(tmp_path, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "laizi-mahjong", "bots": 3,
                                           "settings": {"clock": "none"}}).json()
        with ws(c, alice, t["id"]) as sock:
            rid = finish(sock)
        rec = c.get(f"/api/records/{rid}").json()["record"]
    path = tmp_path / "laizi.json"
    path.write_text(json.dumps(rec))
    out = run_cli("verify", str(path))
    assert out.returncode == 0 and "matches" in out.stdout, out.stdout + out.stderr
