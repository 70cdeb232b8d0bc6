"""A Bot API client declares ahead during a shengji deal (docs/server.md, "Bot API"), against a
real ``qipai serve`` process: four bot accounts sit at one lobby table (a table of people: the
deal asks the seat dealt each card, each prompt held ``deal_window_ms``). A seat that holds a
level card answers its prompt ``pass`` and then posts the declaration ``?ahead=true``: it is
kept (the answer says so, and the seat's game stream tells ``ahead`` ``kept``), and the table
declares it for the seat at its next prompt (``sent``), a card later. What no prompt of the deal
can take is refused with a machine-readable error and not counted; a table whose deal holds no
prompts refuses ``ahead`` as such; a kept declaration survives kill -9 of the server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
from typing import Any

import httpx
import pytest

from .botapi_helpers import bearer, bot_token, lines, person
from .server_helpers import LiveServer

SEATS = 4
WAIT = 30.0          # seconds for the server's work
# each prompt of the deal held 1 s (280 ms by default): a seat's next prompt comes 3 s after
# its own closed, time enough for a loaded machine's requests to be judged before it (a deal
# of 100 prompts then lasts 100 s; the tests need its start)
SLOW_DEAL = {"QIPAI_DEAL_WINDOW_SECONDS": "1"}
# the whole game's deal: prompts held 0.1 s (100 of them: 28 s at the default 0.28 s); what the
# clients post is checked whenever it reaches the server (a late answer goes ahead all the same)
QUICK_DEAL = {"QIPAI_DEAL_WINDOW_SECONDS": "0.1"}
SEEKING = asyncio.Lock()


def bots(srv: LiveServer, prefix: str) -> list[str]:
    """Tokens of four bot accounts (two owners: a person's bot accounts are limited), the owners
    signed up from addresses of the prefix's own (the tables share a server: its sign-ups per
    address are limited)."""
    out = []
    for k in range(2):
        owner = person(srv.base, f"{prefix}owner{k}", address=f"10.0.{ord(prefix)}.{k + 1}")
        out += [bot_token(owner, f"{prefix}bot{k}{i}", ["bot:play", "challenge:write"])["token"]
                for i in range(2)]
        owner.close()
    return out


async def shengji_table(http: httpx.AsyncClient, tokens: list[str]) -> tuple[str, list[int]]:
    """The four accounts seek one shengji table and give their nonces: ``(table, seats)``, the
    seat of each token (one table's four seeks at a time: the tables share a server)."""
    table, seats = None, []
    async with SEEKING:
        for tok in tokens:
            r = await http.post("/api/bot/seek", headers=bearer(tok),
                                json={"game": "shengji", "settings": {"clock": "none"}})
            assert r.status_code == 200, r.text
            assert table in (None, r.json()["table"]), r.json()
            table = r.json()["table"]
            seats.append(r.json()["seat"])
    assert table is not None and sorted(seats) == list(range(SEATS))
    for i, tok in enumerate(tokens):
        r = await http.post(f"/api/bot/game/{table}/nonce/{i + 1:016x}", headers=bearer(tok))
        assert r.status_code == 200, r.text
    return table, seats


def legal(msg: dict[str, Any]) -> list[str]:
    got = msg["view"].get("legal")
    return list(got.get("actions") or []) if isinstance(got, dict) else []


async def ahead_move(http: httpx.AsyncClient, table: str, tok: str, action: str) -> httpx.Response:
    return await http.post(f"/api/bot/game/{table}/move/{action}", params={"ahead": "true"},
                           headers=bearer(tok))


async def pass_then_declare(http: httpx.AsyncClient, table: str, tok: str, msg: dict[str, Any],
                            action: str) -> dict[str, Any]:
    """Answer the prompt of state ``msg`` ``pass``, then post ``action`` ahead: its answer."""
    r = await http.post(f"/api/bot/game/{table}/move/pass", params={"turn": msg["turn"]},
                        headers=bearer(tok))
    # 409: the prompt's hold ended first and the table passed the seat itself
    assert r.status_code == 200 or r.json()["error"] in ("stale_move", "stale_turn"), r.text
    r = await ahead_move(http, table, tok, action)
    assert r.status_code == 200, r.text
    return r.json()


async def keep_one(http: httpx.AsyncClient, table: str, tokens: list[str], seats: list[int],
                   then: Any = None, declare: Any = pass_then_declare) -> dict[str, Any]:
    """Read the four seats' game streams until a seat is at a prompt of the deal where it can
    declare, nothing declared yet: ``declare(http, table, token, msg, action)`` posts its first
    declaration and returns the answer (by default it answers ``pass``, held to the prompt's
    end: its decision is over, and posts the declaration ahead, which is kept). ``then(found)`` is awaited
    with what was found (None: read on until the table declares it). Returns ``found``:
    ``seat``, ``token``, ``action``, ``hand`` (its cards when kept), ``answer`` (the POST's
    JSON), ``told`` (its stream's ``ahead`` events), ``declared`` (the state that shows it)."""
    found: dict[str, Any] = {}
    done = asyncio.Event()

    async def seat_task(tok: str, seat: int) -> None:
        async for text in lines(http, f"/api/bot/game/stream/{table}", tok):
            if done.is_set():
                return
            msg = json.loads(text)
            if found.get("seat") == seat and msg["type"] == "event" and msg["event"]["type"] == "ahead":
                found["told"].append(msg["event"])
            if msg["type"] != "state":
                continue
            view = msg["view"]
            assert view["phase"] == "deal", "the deal ended before the declaration was answered"
            if found.get("seat") == seat and any(d["seat"] == seat for d in view["declarations"]):
                found["declared"] = msg
                done.set()
                return
            declares = [a for a in legal(msg) if a.startswith("declare ")]
            if found or not msg.get("ahead") or seat not in msg["to_act"] or not declares \
                    or view["declarations"]:
                continue
            found.update(seat=seat, token=tok, action=declares[0], hand=list(view["hand"]), told=[])
            found["answer"] = await declare(http, table, tok, msg, found["action"])
            if then is not None:
                await then(found)
                done.set()
                return

    tasks = [asyncio.create_task(seat_task(t, s)) for t, s in zip(tokens, seats, strict=True)]
    try:
        waiter = asyncio.create_task(done.wait())
        await asyncio.wait_for(asyncio.wait({waiter, *tasks}, return_when=asyncio.FIRST_COMPLETED), 4 * WAIT)
        if not done.is_set():      # a seat's task failed (its assertion) or the stream ended
            for t in tasks:
                if t.done() and t.exception() is not None:
                    raise t.exception()
        assert done.is_set(), found
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return found


async def new_table(http: httpx.AsyncClient, tokens: list[str], declare: Any = pass_then_declare,
                    then: Any = None) -> tuple[str, list[int], dict[str, Any]]:
    """:func:`keep_one` at a new table of the accounts ``tokens``: ``(table, seats, found)``."""
    table, seats = await shengji_table(http, tokens)
    return table, seats, await keep_one(http, table, tokens, seats, then=then, declare=declare)


async def kept(srv: LiveServer, tokens: list[str]) -> dict[str, Any]:
    """A declaration kept ahead and declared at the seat's next prompt; then another seat's
    weaker one posted ahead: ``found`` with ``weaker`` (that answer)."""
    async with httpx.AsyncClient(base_url=srv.base, timeout=WAIT) as http:
        table, _, found = await new_table(http, tokens)
        # the standing declaration is stronger than any other seat's single level card
        other = tokens[(tokens.index(found["token"]) + 1) % SEATS]
        found["weaker"] = await ahead_move(http, table, other, "declare 2S")
        return found


async def refused(srv: LiveServer, tokens: list[str]) -> dict[str, Any]:
    """What no prompt of a shengji deal can take, posted ahead by one seat, the table's next
    state, and a declaration ahead at a xiangqi table (no deal prompts): their answers."""
    out: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=srv.base, timeout=WAIT) as http:
        table, seats = await shengji_table(http, tokens)
        tok = tokens[0]
        for action in ("pass", "declare 5H", "declare 2H 2H 2H", "AS", "hello"):
            out[action] = await ahead_move(http, table, tok, action)
        # what it counts: nothing was refused as an illegal move
        async for text in lines(http, f"/api/bot/game/stream/{table}", tok):
            msg = json.loads(text)
            if msg["type"] == "state":
                out["state"] = msg
                break
        # a game whose deal holds no prompts (xiangqi): refused as such
        r = await http.post("/api/bot/challenge/" + "rbot01", headers=bearer(tokens[0]),
                            json={"game": "xiangqi", "settings": {"clock": "none"}, "seat": 0})
        assert r.status_code == 201, r.text
        r = await http.post(f"/api/bot/challenge/{r.json()['id']}/accept", headers=bearer(tokens[1]))
        xq = r.json()["table"]
        for t in tokens[:2]:
            r = await http.post(f"/api/bot/game/{xq}/nonce/ab", headers=bearer(t))
            assert r.status_code == 200, r.text
        out["xiangqi"] = await ahead_move(http, xq, tokens[0], "h2e2")
        out["xiangqi_turn"] = await http.post(f"/api/bot/game/{xq}/move/h2e2",
                                              params={"ahead": "true", "turn": 1},
                                              headers=bearer(tokens[0]))
    return out


async def by_client(srv: LiveServer, tokens: list[str]) -> dict[str, Any]:
    """A declaration posted by ``qipai bot connect``'s client after its ``pass`` (see
    :func:`test_bot_connect_posts_a_declaration_ahead_and_a_pass_plainly`): ``found`` with
    ``said`` (the client's lines) and ``posts`` (its requests' parameters)."""
    from qipai.engines.connect import BotClient

    said: list[str] = []
    posts: list[dict[str, Any]] = []

    async def declare(http: httpx.AsyncClient, table: str, tok: str, msg: dict[str, Any],
                      action: str) -> dict[str, Any]:
        client = BotClient(str(http.base_url), tok, make=None, out=said.append)  # type: ignore[arg-type]

        async def note(req: httpx.Request) -> None:
            posts.append(dict(req.url.params))

        async with client._http() as own:
            own.event_hooks["request"] = [note]
            passed = await client._post_move(own, table, "pass", msg)
            assert passed.status_code == 200 or passed.json()["error"] in ("stale_move", "stale_turn")
            again = await client._post_move(own, table, "pass", msg)      # plainly at once
            assert again.status_code == 409, again.text        # its decision is over
            late = await client._post_move(own, table, action, msg)       # after its prompt
            assert late.status_code == 200, late.text
        return late.json()

    async with httpx.AsyncClient(base_url=srv.base, timeout=WAIT) as http:
        _, _, found = await new_table(http, tokens, declare)
    return {**found, "said": said, "posts": posts}


async def at_once(srv: LiveServer, tokens: list[str]) -> dict[str, Any]:
    """A declaration posted ahead while the seat's prompt is open (no ``pass`` first)."""
    async def now(http: httpx.AsyncClient, table: str, tok: str, msg: dict[str, Any],
                  action: str) -> dict[str, Any]:
        r = await ahead_move(http, table, tok, action)
        assert r.status_code == 200, r.text
        return r.json()

    async with httpx.AsyncClient(base_url=srv.base, timeout=WAIT) as http:
        return (await new_table(http, tokens, now))[2]


async def killed(srv: LiveServer, tokens: list[str]) -> dict[str, Any]:
    """A declaration kept ahead, the server killed (-9) at once after the acknowledgement and
    started again on its data: ``found`` with ``after`` (the first state of the restarted
    server's table that shows the seat's declaration)."""
    async def kill(found: dict[str, Any]) -> None:
        srv.proc.send_signal(signal.SIGKILL)

    async with httpx.AsyncClient(base_url=srv.base, timeout=WAIT) as http:
        table, _, found = await new_table(http, tokens, then=kill)
    await asyncio.to_thread(srv.proc.wait, 10)
    again = LiveServer(srv.log.parent, env=SLOW_DEAL)       # the same data directory
    await asyncio.to_thread(again.__enter__)
    try:
        async with httpx.AsyncClient(base_url=again.base, timeout=WAIT) as http:
            async def declared() -> dict[str, Any]:
                async for text in lines(http, f"/api/bot/game/stream/{table}", found["token"]):
                    msg = json.loads(text)
                    if msg["type"] == "state" and any(d["seat"] == found["seat"]
                                                      for d in msg["view"]["declarations"]):
                        return msg
                raise AssertionError("the stream ended")
            found["after"] = await asyncio.wait_for(declared(), 2 * WAIT)
    finally:
        await asyncio.to_thread(again.__exit__)
    return found


async def connect_game(srv: LiveServer) -> dict[str, Any]:
    """Two ``qipai bot connect`` clients play a shengji hand at ``srv`` (``QUICK_DEAL``) with two
    of the server's rule bots (:func:`test_bot_connect_plays_a_shengji_game_declaring_ahead_during_the_deal`):
    ``said`` (their lines), ``posted`` (each request of an answer: the state's ``ahead``, the
    answer, its parameters, its status, the client's token) and ``ended`` (their games played)."""
    from qipai.engines.connect import BotClient, choosers

    posted: list[tuple[bool, str, Any, int, str]] = []  # (state's ahead, answer, params, status, client)
    said: list[str] = []

    class Recorded(BotClient):
        async def _post_move(self, http, table, answer, msg):
            sent: list[tuple[Any, int]] = []    # each request's parameters and its own answer

            async def note(res: httpx.Response) -> None:
                sent.append((dict(res.request.url.params), res.status_code))
            http.event_hooks["response"] = [note]
            r = await super()._post_move(http, table, answer, msg)
            http.event_hooks["response"] = []
            posted.extend((bool(msg.get("ahead")), answer, p, status, self.token) for p, status in sent)
            return r

    owner = await asyncio.to_thread(person, srv.base, "sowner")
    host = (await asyncio.to_thread(bot_token, owner, "sbot00", ["bot:play"]))["token"]
    guest = (await asyncio.to_thread(bot_token, owner, "sbot01", ["bot:play", "challenge:write"]))["token"]
    owner.close()
    make = choosers("bot", "rule")
    clients = [Recorded(srv.base, host, make, max_games=1, out=said.append),
               Recorded(srv.base, guest, make, max_games=1, challenge="sbot00", challenge_game="shengji",
                        settings={"clock": "none", "bot_delay_ms": 0}, out=said.append)]
    ended = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 6 * WAIT)
    return {"said": said, "posted": posted, "ended": list(ended)}


#: the tables of the file's tests but the whole game's (each its own bot accounts, named by the
#: prefix), dealt at once: a seat's first level card comes some ten prompts into a deal, at
#: random, and each prompt is held 1 s, so one after another they took a minute or more
TABLES = {"n": kept, "r": refused, "c": by_client, "a": at_once, "k": killed}


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> dict[str, Any]:
    """What :data:`TABLES` found (an exception its test raises where one failed): ``k``'s table
    on a server of its own (it is killed), the others on one server (``SLOW_DEAL``); and, at the
    same time, ``g``: the whole game of :func:`connect_game` on a third server (``QUICK_DEAL``).
    The three servers start together, and the game is played while the tables wait for their
    prompts (one after the other, the game added 25 s to the file's 50)."""
    async def run(servers: dict[str, LiveServer], tokens: dict[str, list[str]],
                  game: LiveServer) -> list[Any]:
        return await asyncio.gather(*(TABLES[p](servers[p], tokens[p]) for p in TABLES),
                                    connect_game(game), return_exceptions=True)

    with contextlib.ExitStack() as stack:
        started = [LiveServer(tmp_path_factory.mktemp(name), env=env)
                   for name, env in (("ahead", SLOW_DEAL), ("killed", SLOW_DEAL), ("game", QUICK_DEAL))]
        for srv in started:        # each stopped at the end, started or not
            stack.push(srv.__exit__)
        shared, own, game = [srv.__enter__() for srv in started]
        servers = {p: own if p == "k" else shared for p in TABLES}
        tokens = {p: bots(servers[p], p) for p in TABLES}
        return dict(zip([*TABLES, "g"], asyncio.run(run(servers, tokens, game)), strict=True))


def found_at(tables: dict[str, Any], prefix: str) -> dict[str, Any]:
    got = tables[prefix]
    if isinstance(got, BaseException):
        raise got
    return got


def test_a_declaration_sent_ahead_is_kept_and_declared_at_the_seats_next_prompt(tables):
    found = found_at(tables, "n")
    weaker = found["weaker"]
    assert found["answer"]["ok"] is True and found["answer"]["ahead"] == "kept", found["answer"]
    assert [e["status"] for e in found["told"]] == ["kept", "sent"], found["told"]
    assert {e["action"] for e in found["told"]} == {found["action"]}
    declared = found["declared"]
    mine = [d for d in declared["view"]["declarations"] if d["seat"] == found["seat"]]
    assert mine and "declare " + " ".join(mine[0]["cards"]) == found["action"]
    # at the seat's next prompt: the next card dealt to it is the only one it got meanwhile
    assert len(declared["view"]["hand"]) == len(found["hand"]) + 1
    assert not declared.get("illegal")
    assert weaker.status_code == 400, weaker.text
    body = weaker.json()
    assert body["error"] == "ahead_refused"
    assert body["refusal"] == "shengji.not_stronger_standing_declaration", body


def test_what_no_prompt_of_the_deal_can_take_is_refused_and_not_counted(tables):
    out = found_at(tables, "r")
    for action, refusal in (("pass", "shengji.ahead_declare_only"), ("declare 5H", "because"),
                            ("declare 2H 2H 2H", "because"), ("AS", "shengji.ahead_declare_only")):
        r = out[action]
        assert r.status_code == 400, (action, r.text)
        body = r.json()
        assert body["error"] == "ahead_refused" and body["refusal"] == refusal, (action, body)
        assert body["message"], body
    assert "shengji.declare_level_only" in out["declare 5H"].text
    assert "shengji.declare_one_two" in out["declare 2H 2H 2H"].text
    hello = out["hello"].json()       # shengji reads any word as a card: not one
    assert out["hello"].status_code == 400 and hello["error"] == "ahead_refused", hello
    assert hello["refusal"] == "shengji.cannot_read" and hello["tok"] == "hello", hello
    state = out["state"]
    assert state["view"]["phase"] == "deal" and not state.get("illegal"), state.get("illegal")
    for key in ("xiangqi", "xiangqi_turn"):
        r = out[key]
        assert r.status_code == 409 and r.json()["error"] == "no_deal_prompts", r.text


def test_a_kept_declaration_survives_kill_9_and_is_declared_after_the_restart(tables):
    found = found_at(tables, "k")
    assert found["answer"]["ahead"] == "kept", found["answer"]
    mine = [d for d in found["after"]["view"]["declarations"] if d["seat"] == found["seat"]]
    assert "declare " + " ".join(mine[0]["cards"]) == found["action"]


def test_bot_connect_posts_a_declaration_ahead_and_a_pass_plainly(tables):
    """``qipai bot connect``'s client (:class:`qipai.engines.connect.BotClient`) posts its
    answers at a table whose deal holds prompts with ``ahead``: a declaration that comes after
    its prompt closed is kept and declared at the seat's next prompt; a ``pass``, which the
    server takes no ahead, is posted plainly, and every later ``pass`` straight away."""
    found = found_at(tables, "c")
    posts, said = found["posts"], found["said"]
    assert found["answer"]["ahead"] == "kept", found["answer"]
    assert [p.get("ahead") for p in posts] == ["true", None, None, "true"], posts
    assert [e["status"] for e in found["told"]] == ["kept", "sent"], found["told"]
    assert any("kept for the seat's next prompt" in line for line in said), said


def test_a_declaration_sent_ahead_while_the_seats_prompt_is_open_answers_it(tables):
    """Posted ahead while the seat's own prompt is open (and legal there), the declaration is
    that prompt's answer at once: ``"ahead": "answered"``, no ``ahead`` event, declared with
    the cards the seat held then. (A request that came after the prompt's hold, on a slow
    machine, is kept for the next prompt instead, and said so.)"""
    found = found_at(tables, "a")
    late = found["answer"]["ahead"] == "kept"
    assert found["answer"]["ahead"] in ("answered", "kept"), found["answer"]
    assert [e["status"] for e in found["told"]] == (["kept", "sent"] if late else [])
    assert len(found["declared"]["view"]["hand"]) == len(found["hand"]) + late
    assert not found["declared"].get("illegal")


def test_bot_connect_plays_a_shengji_game_declaring_ahead_during_the_deal(tables):
    """Two ``qipai bot connect`` clients (:class:`~qipai.engines.connect.BotClient`, the rule
    bot) play a shengji hand with two of the server's rule bots: it ends with a result, no
    client resigns for an error (the seat's legal list is the view's summary's actions), and
    every answer a client posts while the state says ``ahead`` goes ahead first (a ``pass``
    once, then plainly)."""
    got = found_at(tables, "g")
    said, posted, ended = got["said"], got["posted"], got["ended"]
    assert ended == [1, 1]
    assert not [line for line in said if "stopped by an error" in line], said
    over = [line for line in said if " over: " in line]
    assert len(over) == 2 and "None" not in over[0], said
    during = [p for p in posted if p[0]]
    for answer, client in {(a, c) for _, a, _, _, c in during}:
        tries = [(p.get("ahead"), status) for _, a, p, status, c in during if (a, c) == (answer, client)]
        # the first post of each answer goes ahead; a pass is refused so, then posted plainly
        # (one that reached the server after the deal's last prompt is judged as a plain move:
        # the flag does nothing then, and no later state of the deal asks for another)
        assert tries[0][0] == "true", (answer, tries)
        if answer == "pass" and tries[0][1] == 400:
            assert tries[1][0] is None, tries
            assert all(x is None for x, _ in tries[2:]), tries
        elif answer == "pass":
            assert len(tries) == 1, tries
    assert not [p for p in posted if not p[0] and p[2].get("ahead")], posted
