"""Chat (competition.md §5.8) over real sockets against a real `qipai serve` process: lines
reach who may read them and are kept as plain text, refusals are machine-readable, spectators'
lines wait for the end of a lobby game before its players read them, an event table's players
and spectators cannot chat during play while its referees can, an event's players write to
its referees alone, and the lines survive a restart."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import websockets

from .server_helpers import LiveServer
from .server_process import answer_commitment

PASSWORD = "correct horse"
HOSTILE = '<img src=x onerror="alert(1)"> & <script>alert("x")</script> 你好'


def account(live: LiveServer, name: str) -> httpx.Client:
    """A signed-in client, signed up from its own address (the per-address limit)."""
    c = httpx.Client(base_url=live.base, timeout=10)
    r = c.post("/api/signup", json={"username": name, "password": PASSWORD},
               headers={"X-Forwarded-For": f"10.1.{len(name)}.{sum(map(ord, name)) % 250}"})
    assert r.status_code == 201, r.text
    return c


def cookie(c: httpx.Client | None) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in c.cookies.items())} if c else {}


class Sock:
    """A table socket that keeps what it received."""

    def __init__(self, sock: Any) -> None:
        self.sock = sock
        self.seen: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, live: LiveServer, table: str, who: httpx.Client | None) -> Sock:
        sock = await websockets.connect(f"{live.ws}/ws/tables/{table}", additional_headers=cookie(who),
                                        open_timeout=10)
        return cls(sock)

    async def until(self, pred, timeout: float = 30.0) -> dict[str, Any]:
        """The first message (already received or to come) matching ``pred``; commitments are
        answered with a nonce on the way."""
        for m in self.seen:
            if pred(m):
                self.seen.remove(m)
                return m
        end = time.monotonic() + timeout
        while True:
            m = json.loads(await asyncio.wait_for(self.sock.recv(), max(0.01, end - time.monotonic())))
            await answer_commitment(self.sock, m)
            if pred(m):
                return m
            self.seen.append(m)

    async def quiet(self, pred, wait: float = 1.0) -> None:
        """Nothing matching ``pred`` arrives within ``wait`` seconds (nor came before)."""
        try:
            m = await self.until(pred, wait)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected message {m}")

    async def say(self, text: Any) -> None:
        await self.sock.send(json.dumps({"type": "chat", "text": text}))

    async def close(self) -> None:
        await self.sock.close()


def chat_line(text: str):
    return lambda m: m["type"] == "chat" and m["line"]["text"] == text


def chat_error(m: dict[str, Any]) -> bool:
    return m["type"] == "error" and (m["error"].startswith("chat_") or m["error"] in
                                     ("rate_limited", "not_signed_in", "bad_message"))


def history(m: dict[str, Any]) -> bool:
    """The chat as a client has it: in ``hello``, or ``chat_history`` when it changed."""
    if m["type"] == "hello":
        m.update(m["chat"])
    return m["type"] in ("hello", "chat_history")


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("chat")
    with LiveServer(tmp, "--organizer", "boss") as s:
        yield s


def test_lobby_table_chat_limits_escaping_spectators_and_reload(live):
    alice, bob, carol = account(live, "chat_alice"), account(live, "chat_bob"), account(live, "chat_carol")
    dave = account(live, "chat_dave")
    tid = alice.post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]

    async def run() -> None:
        a = await Sock.open(live, tid, alice)
        c = await Sock.open(live, tid, carol)
        anon = await Sock.open(live, tid, None)
        h = await a.until(history)
        assert h["open"] is True and h["lines"] == [] and h["max"] == 300
        assert (await anon.until(history))["reason"] == "not_signed_in"

        # markup is a line of text like any other: kept and sent as written
        await a.say(HOSTILE)
        for s in (a, c, anon):
            line = (await s.until(chat_line(HOSTILE)))["line"]
            assert line["name"] == "chat_alice" and line["role"] == "player" and line["audience"] == "all"
        # whitespace runs (newlines, tabs) become one space
        await c.say("  good\n\n luck\t all  ")
        assert (await a.until(chat_line("good luck all")))["line"]["role"] == "spectator"

        # refusals: machine-readable, nothing sent to anyone
        for text, code in (("   \n ", "chat_empty"), ("x" * 301, "chat_too_long"),
                           ("bell\x07", "chat_bad_text"), ("abc\u202edcba", "chat_bad_text"),
                           (42, "bad_message"), (None, "bad_message")):
            await c.say(text)
            err = await c.until(chat_error)
            assert err["error"] == code, (text, err)
            if code == "chat_too_long":
                assert err["max"] == 300 and err["length"] == 301
        await anon.say("hello")
        assert (await anon.until(chat_error))["error"] == "not_signed_in"
        await a.quiet(lambda m: m["type"] == "chat", 0.5)
        assert len("界" * 300) == 300
        await c.say("界" * 300)                    # 300 characters (900 bytes): taken
        await a.until(chat_line("界" * 300))

        # the game starts: a spectator's line reaches the spectators, not the players
        bob.post(f"/api/tables/{tid}/sit", json={})
        b = await Sock.open(live, tid, bob)
        playing = lambda m: m["type"] == "state" and m["status"] == "playing"  # noqa: E731
        # read together: each answers its seat's commitment, so the deal waits for no nonce window
        await asyncio.gather(a.until(playing, 20), b.until(playing, 20))
        await c.say("red should play the cannon")
        await anon.until(chat_line("red should play the cannon"))
        tip = (await c.until(chat_line("red should play the cannon")))["line"]
        # a player cannot report it either: the answer would tell what the spectators wrote
        report = {"table": tid, "user": tip["user"], "at": tip["at"], "text": tip["text"]}
        r = alice.post("/api/chat/reports", json=report)
        assert (r.status_code, r.json()["error"]) == (404, "no_line"), r.text
        await b.say("thanks, you too")
        await c.until(chat_line("thanks, you too"))
        await a.until(chat_line("thanks, you too"))
        await a.quiet(chat_line("red should play the cannon"))
        await b.quiet(chat_line("red should play the cannon"), 0.2)
        # a reload during play: the history leaves the spectators' line out for a player
        await a.close()
        a = await Sock.open(live, tid, alice)
        texts = [x["text"] for x in (await a.until(history))["lines"]]
        assert texts == [HOSTILE, "good luck all", "界" * 300, "thanks, you too"]

        # the rate: 5 lines at once per account, then one per 2 s
        d = await Sock.open(live, tid, dave)
        for i in range(6):
            await d.say(f"line {i}")
        for i in range(5):
            await c.until(chat_line(f"line {i}"))
        err = await d.until(chat_error)
        assert err["error"] == "rate_limited" and 0 < err["retry_after"] <= 2
        await c.quiet(chat_line("line 5"), 0.3)

        # the game ends: the players read the spectators' lines too
        await a.sock.send(json.dumps({"type": "resign"}))
        h = await a.until(lambda m: history(m) and any(x["text"] == "red should play the cannon"
                                                       for x in m["lines"]))
        assert h["open"] is True
        assert alice.post("/api/chat/reports", json=report).status_code == 201     # read now
        for s in (a, b, c, d, anon):
            await s.close()

    asyncio.run(run())


def test_lines_of_an_open_table_survive_a_restart(tmp_path):
    with LiveServer(tmp_path) as first:
        alice = account(first, "keep_alice")
        tid = alice.post("/api/tables", json={"game": "go", "settings": {"clock": "none"}}).json()["id"]

        async def write() -> None:
            a = await Sock.open(first, tid, alice)
            await a.say("anyone for a game?")
            await a.until(chat_line("anyone for a game?"))
            await a.close()
        asyncio.run(write())
        cookies = dict(alice.cookies)
    with LiveServer(tmp_path) as second:
        alice = httpx.Client(base_url=second.base, cookies=cookies, timeout=10)

        async def read() -> None:
            a = await Sock.open(second, tid, alice)
            h = await a.until(history)
            assert [(x["name"], x["text"]) for x in h["lines"]] == [("keep_alice", "anyone for a game?")]
            await a.close()
        asyncio.run(read())


def test_a_partnership_games_players_cannot_chat_during_play(live):
    """§5.8, no signals between partners: at a casual 斗地主 table (the farmers are partners)
    the players' chat is off while the deal is played, the quick phrases with it (the page hides
    what a closed chat offers); it said "open" and took the players' lines."""
    pat, sam = account(live, "pp_pat"), account(live, "pp_sam")
    tid = pat.post("/api/tables", json={"game": "doudizhu", "bots": 2, "bot": "random",
                                        "settings": {"clock": "none", "bot_delay_ms": 60000}}).json()["id"]

    async def run() -> None:
        p = await Sock.open(live, tid, pat)
        await p.until(lambda m: m["type"] == "state" and m.get("status") == "playing", 30)
        # the chat as the table has it once the deal is on (a hello sent before may say "open")
        h = await p.until(lambda m: (m["type"] == "chat_history" and not m["open"])
                          or (m["type"] == "hello" and "chat" in m and not m["chat"]["open"]), 30)
        chat = h.get("chat", h)
        assert chat["open"] is False and chat["reason"] == "partners_play", chat
        await p.say("I hold both jokers")
        err = await p.until(chat_error)
        assert err["error"] == "chat_closed" and err["reason"] == "partners_play"
        # a spectator still writes, to the spectators alone until the end
        s = await Sock.open(live, tid, sam)
        await s.say("nice table")
        assert (await s.until(chat_line("nice table")))["line"]["audience"] == "spectators"
        await p.quiet(chat_line("nice table"), 0.5)
        for x in (p, s):
            await x.close()

    asyncio.run(run())


def test_event_table_chat_is_off_during_play_but_referees_write(live):
    boss, ann, ben, cat = (account(live, n) for n in ("boss", "ev_ann", "ev_ben", "ev_cat"))
    assert boss.get("/api/me").json()["user"]["role"] == "organizer"
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "chatcup",
                                       "players": ["ev_ann", "ev_ben", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text
    ev = boss.post("/api/events/chatcup/start").json()["event"]
    table = next(g["table"] for m in ev["rounds"][0]["matches"] for g in m["games"]
                 if "ev_ann" in g["seats"] and g["table"])

    async def run() -> None:
        a = await Sock.open(live, table, ann)
        ref = await Sock.open(live, table, boss)
        h = await a.until(history)
        assert h["open"] is False and h["reason"] == "event_play"
        assert (await ref.until(history))["open"] is True
        await a.say("psst, partner")
        err = await a.until(chat_error)
        assert err["error"] == "chat_closed" and err["reason"] == "event_play"
        await ref.quiet(chat_line("psst, partner"), 0.5)
        await ref.say("Table 1: the clock is right, play on")
        line = (await a.until(chat_line("Table 1: the clock is right, play on")))["line"]
        assert line["role"] == "referee" and line["name"] == "boss"
        # once the game is over (here adjudicated), its players chat again until the next game:
        # §5.8 governs event tables, shengji's §5.3 included (docs/competition.md, "Chat"); the
        # game is adjudicated once it runs (it starts when its players are ready: not_playing before)
        await a.until(lambda m: m["type"] == "state" and m.get("status") == "playing", 30)
        r = await asyncio.to_thread(boss.post, "/api/events/chatcup/acts",
                                    json={"act": "adjudicate", "table": table, "result": "1/2-1/2",
                                          "reason": "agreed at the table"})
        assert r.status_code == 200, r.text
        h = await a.until(lambda m: m["type"] == "chat_history" and m["open"])
        assert "reason" not in h
        await a.say("good game")
        assert (await ref.until(chat_line("good game")))["line"]["name"] == "ev_ann"
        await a.close()
        await ref.close()

    asyncio.run(run())

    # the event's channel: a player writes to the referees, a referee to everyone
    r = ann.post("/api/events/chatcup/chat", json={"text": "my opponent is not moving"})
    assert r.status_code == 201 and r.json()["audience"] == "referees"
    r = boss.post("/api/events/chatcup/chat", json={"text": "round 1 ends at 20:00"})
    assert r.status_code == 201 and r.json()["role"] == "referee"
    texts = lambda c: [x["text"] for x in c.get("/api/events/chatcup/chat").json()["lines"]]  # noqa: E731
    assert texts(boss) == ["my opponent is not moving", "round 1 ends at 20:00"]
    assert texts(ann) == ["my opponent is not moving", "round 1 ends at 20:00"]
    assert texts(ben) == texts(cat) == ["round 1 ends at 20:00"]
    assert texts(httpx.Client(base_url=live.base)) == ["round 1 ends at 20:00"]
    r = ben.post("/api/events/chatcup/chat", json={"text": "<b>" + "y" * 400})
    assert r.status_code == 400 and r.json()["error"] == "chat_too_long" and r.json()["max"] == 300
    r = httpx.post(live.base + "/api/events/chatcup/chat", json={"text": "hi"})
    assert r.status_code == 401 and r.json()["error"] == "not_signed_in"
    r = ben.post("/api/events/nothing/chat", json={"text": "hi"})
    assert r.status_code == 404 and r.json()["error"] == "no_event"


def signed_in(live: LiveServer, name: str) -> httpx.Client:
    """``name`` signed in (signed up first when the account is new)."""
    c = httpx.Client(base_url=live.base, timeout=10)
    r = c.post("/api/login", json={"username": name, "password": PASSWORD})
    return c if r.status_code == 200 else account(live, name)


def test_a_line_is_reported_to_the_admins_or_to_the_events_referees(live):
    """A chat line is reported by someone who read it (not its writer): a lobby table's to the
    organizers, an event's to its referees; once per line and reporter, at a limited rate, with
    machine-readable refusals."""
    boss = signed_in(live, "boss")
    writer, reader = account(live, "rep_writer"), account(live, "rep_reader")
    tid = writer.post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]

    async def run() -> dict[str, Any]:
        w, r = await Sock.open(live, tid, writer), await Sock.open(live, tid, reader)
        await w.until(history)
        await r.until(history)          # both at the table before the line: the reader is sent it
        await w.say("you are rubbish")
        line = (await r.until(chat_line("you are rubbish")))["line"]
        await w.close()
        await r.close()
        return line
    line = asyncio.run(run())
    body = {"table": tid, "user": line["user"], "at": line["at"], "text": line["text"]}
    r = reader.post("/api/chat/reports", json={**body, "reason": "  an  insult "})
    assert r.status_code == 201, r.text
    got = r.json()
    assert got["reason"] == "an insult" and got["line"]["text"] == "you are rubbish" and got["event"] is None
    for who, extra, status, code in [
            (reader, {}, 409, "already_reported"),
            (writer, {}, 400, "own_line"),
            (reader, {"text": "something else"}, 404, "no_line"),
            (reader, {"event": "x"}, 400, "bad_report"),
            (reader, {"reason": "z" * 301}, 400, "chat_too_long"),
            (reader, {"user": str(line["user"])}, 400, "bad_request"),
            (httpx.Client(base_url=live.base), {}, 401, "not_signed_in")]:
        r = who.post("/api/chat/reports", json={**body, **extra})
        assert (r.status_code, r.json()["error"]) == (status, code), (extra, r.text)
    # the lobby's reports: the organizers read them, nobody else
    assert [x["id"] for x in boss.get("/api/chat/reports").json()["reports"]
            if x["channel"] == f"table:{tid}"] == [got["id"]]
    r = reader.get("/api/chat/reports")
    assert (r.status_code, r.json()["error"]) == (403, "not_organizer")
    # an event's line goes to its referees, not to the lobby's list
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "reportcup",
                                       "players": ["rep_writer", "rep_reader", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text
    said = boss.post("/api/events/reportcup/chat", json={"text": "play on"}).json()
    r = writer.post("/api/chat/reports", json={"event": "reportcup", "user": said["user"], "at": said["at"],
                                               "text": "play on"})
    assert r.status_code == 201 and r.json()["event"] == "reportcup", r.text
    reports = boss.get("/api/chat/reports?event=reportcup").json()["reports"]
    assert [x["line"]["text"] for x in reports] == ["play on"]
    assert [x["id"] for x in boss.get("/api/chat/reports").json()["reports"]
            if x["channel"] == f"table:{tid}"] == [got["id"]]
    r = writer.get("/api/chat/reports?event=reportcup")
    assert (r.status_code, r.json()["error"]) == (403, "not_referee")
    # a player's line to the referees is read by them alone: nobody else can report it
    mine = writer.post("/api/events/reportcup/chat", json={"text": "help"}).json()
    r = reader.post("/api/chat/reports", json={"event": "reportcup", "user": mine["user"], "at": mine["at"],
                                               "text": "help"})
    assert (r.status_code, r.json()["error"]) == (404, "no_line")
    # at most 5 reports at once, then one a minute (the refusals above counted too)
    for _ in range(6):
        r = reader.post("/api/chat/reports", json={**body, "text": "again"})
        if r.status_code == 429:
            break
    assert r.json()["error"] == "rate_limited" and r.json()["params"]["retry_after"] > 0


def test_the_same_report_sent_several_times_at_once_is_kept_once(live):
    """Reports of one line by one reader sent together: one is kept (201), the others are told
    it is reported already (409), never a server error (the database's unique key decides)."""
    writer, reader = account(live, "twice_writer"), account(live, "twice_reader")
    tid = writer.post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]

    async def run() -> list[int]:
        w, r = await Sock.open(live, tid, writer), await Sock.open(live, tid, reader)
        await w.until(history)
        await r.until(history)          # both at the table before the line: the reader is sent it
        await w.say("same again")
        line = (await r.until(chat_line("same again")))["line"]
        await w.close()
        await r.close()
        body = {"table": tid, "user": line["user"], "at": line["at"], "text": line["text"]}
        async with httpx.AsyncClient(base_url=live.base, cookies=reader.cookies) as c:
            answers = await asyncio.gather(*[c.post("/api/chat/reports", json=body) for _ in range(4)])
        return sorted(a.status_code for a in answers)
    assert asyncio.run(run()) == [201, 409, 409, 409]


def test_a_quick_phrase_is_marked_for_each_reader_to_read_in_their_language(live):
    """快捷语: a line that is a quick phrase of any language (祝你好运, "Good game, thanks")
    carries its number (``phrase``), live and in the history, so an English reader reads
    "Good luck, have fun" where a Chinese player clicked 祝你好运; any other text carries none."""
    alice = account(live, "phrase_alice")
    tid = alice.post("/api/tables", json={"game": "go", "settings": {"clock": "none"}}).json()["id"]

    async def run() -> None:
        a = await Sock.open(live, tid, alice)
        await a.until(history)
        got = []
        for text in ("祝你好运", "good luck"):
            await a.say(text)
            got.append((await a.until(chat_line(text)))["line"].get("phrase"))
        assert got == [2, None]
        await a.close()
        again = await Sock.open(live, tid, alice)
        h = await again.until(history)
        kept = [(x["text"], x.get("phrase")) for x in h["lines"]]
        assert kept[-2:] == [("祝你好运", 2), ("good luck", None)]
        await again.close()
    asyncio.run(run())
    from qipai.server.chat import quick_phrase
    assert quick_phrase("Good game, thanks") == quick_phrase("打得好，谢谢") == 4
    assert quick_phrase("good luck") is None and quick_phrase(None) is None


def test_the_spam_filter_refuses_repeated_lines_and_links(live):
    """The same line a third time within a minute (case and spacing aside) is refused
    ``chat_repeated`` with the seconds to wait; a line with a link is refused ``chat_link``,
    for every account (docs/server.md, "Chat"); at a table and in an event's chat alike."""
    boss = signed_in(live, "boss")
    sam, lin = account(live, "spam_sam"), account(live, "spam_lin")
    tid = sam.post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]

    async def run() -> None:
        s, watcher = await Sock.open(live, tid, sam), await Sock.open(live, tid, lin)
        await s.until(history)
        await watcher.until(history)
        for _ in range(2):
            await s.say("buy my coins")
            await watcher.until(chat_line("buy my coins"))
        await s.say("BUY  my coins")
        err = await s.until(chat_error)
        assert err["error"] == "chat_repeated" and 0 < err["params"]["retry_after"] <= 60, err
        await s.say("e.g. 3.5 points, ok?")          # dots that are no link
        await watcher.until(chat_line("e.g. 3.5 points, ok?"))
        await s.say("see https://x.example for free beans")
        assert (await s.until(chat_error))["error"] == "chat_link"
        for text in ("www.beans.cn", "加我 beans.com 送豆", "go to qipai.top/x now"):
            await watcher.say(text)
            assert (await watcher.until(chat_error))["error"] == "chat_link", text
        await s.quiet(lambda m: m["type"] == "chat" and "beans" in m["line"]["text"], 0.3)
        await s.close()
        await watcher.close()
    asyncio.run(run())

    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "spamcup",
                                       "players": ["spam_sam", "spam_lin", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text
    r = lin.post("/api/events/spamcup/chat", json={"text": "http://beans.example"})
    assert (r.status_code, r.json()["error"]) == (400, "chat_link")
    for _ in range(2):
        assert lin.post("/api/events/spamcup/chat", json={"text": "when do we start?"}).status_code == 201
    r = lin.post("/api/events/spamcup/chat", json={"text": "When do we start?"})
    assert (r.status_code, r.json()["error"]) == (429, "chat_repeated")
    assert r.json()["params"]["retry_after"] > 0


def test_moderators_mute_an_accounts_chat_for_some_minutes(live):
    """An organizer mutes an account's chat everywhere, an event's referee at that event (its
    tables and chat; the event's log records it); the muted person's lines are refused
    ``chat_muted`` with ``until``; 0 minutes lifts the mute; others may not mute."""
    boss = signed_in(live, "boss")
    mo, pat = account(live, "mute_mo"), account(live, "mute_pat")
    mo_id = mo.get("/api/me").json()["user"]["id"]
    tid = pat.post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]
    before = time.time()
    r = boss.post("/api/chat/mutes", json={"user": mo_id, "minutes": 15, "reason": "insults"})
    assert r.status_code == 201, r.text
    mute = r.json()
    assert mute["name"] == "mute_mo" and mute["event"] is None and mute["by"] == "boss"
    from datetime import datetime
    left = datetime.fromisoformat(mute["until"]).timestamp() - before
    assert 14 * 60 < left <= 15 * 60 + 5, mute
    assert [m["name"] for m in boss.get("/api/chat/mutes").json()["mutes"]] == ["mute_mo"]

    async def say_at_table(text: str) -> dict[str, Any]:
        m, p = await Sock.open(live, tid, mo), await Sock.open(live, tid, pat)
        await m.until(history)
        await p.until(history)
        await m.say(text)
        got = await m.until(lambda x: chat_line(text)(x) or chat_error(x))
        await m.close()
        await p.close()
        return got
    err = asyncio.run(say_at_table("you all stink"))
    assert err["error"] == "chat_muted" and err["params"]["until"] == mute["until"], err

    for who, body, status, code in [
            (pat, {"user": mo_id, "minutes": 5, "reason": "x"}, 403, "not_organizer"),
            (boss, {"user": mo_id, "minutes": 5, "reason": "  "}, 400, "reason_required"),
            (boss, {"user": 999999, "minutes": 5, "reason": "x"}, 404, "no_user"),
            (boss, {"user": mo_id, "minutes": 5, "reason": "x", "event": "nocup"}, 404, "no_event"),
            (boss, {"user": mo_id, "minutes": 10081, "reason": "x"}, 400, "bad_request"),
            (httpx.Client(base_url=live.base), {"user": mo_id, "minutes": 5, "reason": "x"}, 401,
             "not_signed_in")]:
        r = who.post("/api/chat/mutes", json=body)
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
    assert pat.get("/api/chat/mutes").status_code == 403

    # lifted: the line goes through
    r = boss.post("/api/chat/mutes", json={"user": mo_id, "minutes": 0, "reason": "apologised"})
    assert r.status_code == 201
    assert boss.get("/api/chat/mutes").json()["mutes"] == []
    assert asyncio.run(say_at_table("sorry everyone"))["type"] == "chat"

    # an event's referee mutes for the event: its chat refuses, a lobby table does not
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "mutecup",
                                       "players": ["mute_mo", "mute_pat", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text
    r = pat.post("/api/chat/mutes", json={"user": mo_id, "minutes": 60, "reason": "x", "event": "mutecup"})
    assert (r.status_code, r.json()["error"]) == (403, "not_referee")
    r = boss.post("/api/chat/mutes", json={"user": mo_id, "minutes": 60, "reason": "spamming the referees",
                                            "event": "mutecup"})
    assert r.status_code == 201 and r.json()["event"] == "mutecup", r.text
    until = r.json()["until"]
    r = mo.post("/api/events/mutecup/chat", json={"text": "let me speak"})
    assert (r.status_code, r.json()["error"], r.json()["params"]["until"]) == (403, "chat_muted", until)
    assert asyncio.run(say_at_table("fine at the lobby"))["type"] == "chat"
    entry = [e for e in httpx.get(live.base + "/api/events/mutecup/log").json() if e["act"] == "chat_mute"]
    assert [(e["by"], e["entrant"], e["reason"], e["data"]["minutes"], e["data"]["until"])
            for e in entry] == [("boss", "mute_mo", "spamming the referees", 60, until)]
    assert [m["name"] for m in boss.get("/api/chat/mutes?event=mutecup").json()["mutes"]] == ["mute_mo"]


def test_a_muted_persons_chat_is_closed_from_the_start_with_the_mutes_end_and_reason(live):
    """The chat a muted person opens (a table's ``hello``, an event's chat) says at once that it
    is closed, ``reason`` ``muted`` with the mute's ``until`` and the moderator's reason (it
    said ``open`` until a line was sent and refused); another person's is open; the refusal of
    a line names the reason too; once lifted, a new socket's chat is open."""
    boss = signed_in(live, "boss")
    hush, talk = account(live, "hush_hal"), account(live, "hush_tia")
    hush_id = hush.get("/api/me").json()["user"]["id"]
    tid = talk.post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]

    async def hello(who: httpx.Client) -> dict[str, Any]:
        s = await Sock.open(live, tid, who)
        got = await s.until(history)
        await s.close()
        return got["chat"]
    assert asyncio.run(hello(hush))["open"] is True
    r = boss.post("/api/chat/mutes", json={"user": hush_id, "minutes": 30, "reason": "shouting"})
    assert r.status_code == 201, r.text
    until = r.json()["until"]
    chat = asyncio.run(hello(hush))
    assert (chat["open"], chat["reason"], chat["until"], chat["mute_reason"]) == \
        (False, "muted", until, "shouting"), chat
    assert asyncio.run(hello(talk))["open"] is True and "until" not in asyncio.run(hello(talk))

    # an event's chat: closed for the muted person, with the same words
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "hushcup",
                                       "players": ["hush_hal", "hush_tia", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text
    got = hush.get("/api/events/hushcup/chat").json()
    assert (got["open"], got["reason"], got["until"], got["mute_reason"]) == \
        (False, "muted", until, "shouting")
    got = talk.get("/api/events/hushcup/chat").json()
    assert got["open"] is True and "reason" not in got
    got = httpx.get(live.base + "/api/events/hushcup/chat").json()
    assert (got["open"], got["reason"]) == (False, "not_signed_in")

    # the refusal of a line names the reason too
    async def refused() -> dict[str, Any]:
        s = await Sock.open(live, tid, hush)
        await s.until(history)
        await s.say("let me talk")
        err = await s.until(chat_error)
        await s.close()
        return err
    err = asyncio.run(refused())
    assert (err["error"], err["params"]["until"], err["params"]["mute_reason"]) == \
        ("chat_muted", until, "shouting"), err

    # lifted: a new socket's chat is open
    r = boss.post("/api/chat/mutes", json={"user": hush_id, "minutes": 0, "reason": "calm"})
    assert r.status_code == 201
    chat = asyncio.run(hello(hush))
    assert chat["open"] is True and "reason" not in chat, chat


def test_a_mute_closes_the_open_chat_at_once_and_a_lift_opens_it_again(live):
    """A person's table sockets already open are told of a mute as it is made (a new
    ``chat_history``: closed, with the mute's end and reason), not at their next line, and told
    again when it is lifted; another person's socket is told nothing; a mute of an event does
    not reach a lobby table."""
    boss = signed_in(live, "boss")
    ora, tom = account(live, "open_ora"), account(live, "open_tom")
    ora_id = ora.get("/api/me").json()["user"]["id"]
    tid = tom.post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "opencup",
                                       "players": ["open_ora", "open_tom", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text

    async def run() -> None:
        o, t = await Sock.open(live, tid, ora), await Sock.open(live, tid, tom)
        assert (await o.until(history))["open"] is True
        await t.until(history)
        r = boss.post("/api/chat/mutes", json={"user": ora_id, "minutes": 30, "reason": "shouting"})
        assert r.status_code == 201, r.text
        got = await o.until(lambda m: m["type"] == "chat_history")
        assert (got["open"], got["reason"], got["until"], got["mute_reason"]) == \
            (False, "muted", r.json()["until"], "shouting"), got
        r = boss.post("/api/chat/mutes", json={"user": ora_id, "minutes": 0, "reason": "calm"})
        assert r.status_code == 201, r.text
        got = await o.until(lambda m: m["type"] == "chat_history")
        assert got["open"] is True and "reason" not in got, got
        r = boss.post("/api/chat/mutes", json={"user": ora_id, "minutes": 30, "reason": "x",
                                                "event": "opencup"})
        assert r.status_code == 201, r.text
        await o.quiet(lambda m: m["type"] == "chat_history", 1.0)
        await t.quiet(lambda m: m["type"] == "chat_history", 0.1)
        await o.say("still here")
        assert (await t.until(chat_line("still here")))["type"] == "chat"
        await o.close()
        await t.close()
    asyncio.run(run())


def test_the_spam_filter_is_not_passed_by_invisible_or_full_width_variations(live):
    """A link or a repeated line written with zero-width characters, full-width letters and dots,
    combining marks or the ideographic full stop is refused as the plain one is, while ordinary
    Chinese lines with their full stops and decimal points go through."""
    boss = signed_in(live, "boss")
    zed, yan = account(live, "fold_zed"), account(live, "fold_yan")
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "foldcup",
                                       "players": ["fold_zed", "fold_yan", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text
    for text in ("beans\u200b.com", "ｂｅａｎｓ．ｃｏｍ", "beans。com", "加我www.beans", "beans.c\u00adom",
                 "beans.c\u0301om", "ｈｔｔｐ：／／beans"):
        r = zed.post("/api/events/foldcup/chat", json={"text": text})
        assert (r.status_code, r.json()["error"]) == (400, "chat_link"), (text, r.text)
    for text in ("我赢了。下一局？", "黑胜3.5目。好棋！", "e.g. 你好", "哈哈www"):
        r = yan.post("/api/events/foldcup/chat", json={"text": text})
        assert r.status_code == 201, (text, r.text)
    for _ in range(2):
        assert zed.post("/api/events/foldcup/chat", json={"text": "buy beans"}).status_code == 201
    for text in ("buy\u200b beans", "ｂｕｙ ｂｅａｎｓ", "buy bea\u0301ns"):
        r = zed.post("/api/events/foldcup/chat", json={"text": text})
        assert (r.status_code, r.json()["error"]) == (429, "chat_repeated"), (text, r.text)


def test_invisible_lines_and_mute_reasons_are_empty(live):
    """A chat line or a mute's reason of zero-width characters alone shows nothing: refused
    ``chat_empty`` and ``reason_required`` as an empty one is."""
    boss = signed_in(live, "boss")
    ivy = account(live, "blank_ivy")
    ivy_id = ivy.get("/api/me").json()["user"]["id"]
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "blankcup",
                                       "players": ["blank_ivy", {"id": "b1", "bot": "random"},
                                                   {"id": "b2", "bot": "random"}]})
    assert r.status_code == 201, r.text
    r = ivy.post("/api/events/blankcup/chat", json={"text": "\u200b\u200c\u2060\ufeff"})
    assert (r.status_code, r.json()["error"]) == (400, "chat_empty"), r.text
    assert ivy.post("/api/events/blankcup/chat", json={"text": "👨\u200d👩\u200d👧"}).status_code == 201
    r = boss.post("/api/chat/mutes", json={"user": ivy_id, "minutes": 5, "reason": "\u200b\u00ad"})
    assert (r.status_code, r.json()["error"]) == (400, "reason_required"), r.text
    for user in (2 ** 70, -5, 0):                  # no such account, not a server fault
        r = boss.post("/api/chat/mutes", json={"user": user, "minutes": 5, "reason": "spam"})
        assert (r.status_code, r.json()["error"]) == (400, "bad_request"), (user, r.text)
        r = ivy.post("/api/chat/reports", json={"event": "blankcup", "user": user,
                                                "at": "2026-01-01T00:00:00", "text": "x"})
        assert (r.status_code, r.json()["error"]) == (400, "bad_request"), (user, r.text)
