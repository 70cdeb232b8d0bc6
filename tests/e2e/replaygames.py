"""Finished games of the card and tile games played by random legal moves, stored as lobby
records in a test server's SQLite file, for the replay page's tests (their replays step play by
play)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import qipai

#: the card and tile games, with the options of one short game (one hand)
GAMES = {
    "doudizhu": {}, "wakeng": {}, "fouafour": {}, "baohuang": {}, "shengji": {}, "sandayi": {},
    "mahjong-gb": {"hands_per_match": 1}, "laizi-mahjong": {"hands_per_match": 1},
    "baibian-bajue": {"hands_per_match": 1},
}


def random_record(game: str, seed: int) -> dict:
    """A whole game of ``game`` played by random legal moves: its qipai JSON record."""
    g = qipai.load(game, **GAMES[game])
    state = g.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = rng.choice(list(state.to_act))
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    return state.to_record(seats=[f"p{i}" for i in range(state.num_seats)]).to_json()


def store_record(db: Path, game: str, record: dict) -> int:
    """``record`` as a finished lobby game of bots in the SQLite file ``db``: its id."""
    names = [f"Bot{i}" for i in range(len(record.get("seats") or [])) ] or ["Bot0", "Bot1", "Bot2", "Bot3"]
    with sqlite3.connect(db) as c:
        cur = c.execute("INSERT INTO records (table_id, game, players, names, result, record, finished)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (None, game, json.dumps([None] * len(names)), json.dumps(names),
                         json.dumps(record.get("result")), json.dumps(record), "2026-12-07T07:00:00+00:00"))
        return cur.lastrowid
