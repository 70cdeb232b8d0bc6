"""Helpers for the rating tests: a short two-person xiangqi game played over the table sockets,
in-process (Starlette's TestClient) or against a real server (``websockets``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from .server_helpers import next_state, post, ws


class RealSocket:
    """A ``websockets`` sync connection with TestClient's ``send_json`` / ``receive_text``; it
    answers a deal's commitment with a nonce by itself."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def send_json(self, msg: dict[str, Any]) -> None:
        self.conn.send(json.dumps(msg))

    def receive_text(self) -> str:
        while True:
            text = self.conn.recv(timeout=60)
            if json.loads(text).get("type") == "commitment":
                self.send_json({"type": "nonce", "nonce": "00"})
                continue
            return text


def signed_up(base: str, names: tuple[str, ...]) -> dict[str, str]:
    """Each of ``names`` signed up at the server at ``base``: name -> its session token."""
    import httpx

    tokens = {}
    for name in names:
        r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        tokens[name] = r.cookies["qipai_session"]
    return tokens


def real_server(base: str) -> tuple[Callable[..., Any], Callable[[str, str], AbstractContextManager[Any]]]:
    """``(post, connect)`` for :func:`play_xiangqi` against the server at ``base``."""
    import contextlib

    import httpx
    from websockets.sync.client import connect as ws_connect

    def post_real(_c: Any, token: str, path: str, body: Any = None) -> httpx.Response:
        return httpx.post(base + path, json=body or {}, cookies={"qipai_session": token}, timeout=30)

    @contextlib.contextmanager
    def connect(token: str, table: str):
        url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
        with ws_connect(url, additional_headers={"Cookie": f"qipai_session={token}"}) as conn:
            yield RealSocket(conn)
    return post_real, connect


def play_xiangqi(c: Any, first: str, second: str, rated: bool = True, moves: int = 4,
                 resigner: int = 0, transport: tuple[Callable[..., Any], Any] | None = None,
                 private: bool = False) -> int:
    """``first`` makes a xiangqi table (no clock), ``second`` sits; they play ``moves`` plies
    (the first legal move each time), then the person in seat ``resigner`` resigns. Returns
    the stored record's id. ``c``: a TestClient, or anything when ``transport`` (from
    :func:`real_server`) is given; ``private``: at a private (unlisted) table."""
    do_post, connect = transport or (post, lambda token, table: ws(c, token, table))
    settings = {"clock": "none", "rated": rated, **({"private": True} if private else {})}
    r = do_post(c, first, "/api/tables", {"game": "xiangqi", "settings": settings})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert do_post(c, second, f"/api/tables/{tid}/sit").status_code == 200
    return play_table(tid, first, second, moves, resigner, connect)


def play_table(tid: str, first: str, second: str, moves: int, resigner: int,
               connect: Callable[[str, str], AbstractContextManager[Any]]) -> int:
    """Play the two-person xiangqi game at table ``tid`` (``first`` and ``second``: the two
    accounts' tokens, in any seats) as :func:`play_xiangqi` does; returns the record's id."""
    with connect(first, tid) as a, connect(second, tid) as b:
        last = [next_state(a), next_state(b)]
        socks = [a, b]
        played = 0
        while True:
            seq = max(m["seq"] for m in last)
            for i in (0, 1):
                while last[i]["seq"] < seq:
                    last[i] = next_state(socks[i])
            if played >= moves:
                socks[0 if last[0]["seat"] == resigner else 1].send_json({"type": "resign"})
                break
            mover = next(i for i in (0, 1) if last[i]["seat"] in last[i]["to_act"])
            m = last[mover]
            socks[mover].send_json({"type": "move", "seq": m["seq"], "turn": m["turn"],
                                    "action": m["view"]["legal_moves"][0]})
            played += 1
            last[mover] = next_state(socks[mover])
            while last[mover]["seq"] <= seq:
                last[mover] = next_state(socks[mover])
        msg = last[0]
        while msg["record"] is None:
            msg = next_state(a)
        return msg["record"]
