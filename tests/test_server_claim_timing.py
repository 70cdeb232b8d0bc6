"""Mahjong claim windows at a lobby table (mahjong-gb 2.6; :meth:`LiveTable.window_hold`).

* One person and three bots: no window waits for anything but the person. A discard that only
  bots (or nobody) could claim is answered in the same change as the discard, so the person
  never sees such a window open and learns nothing of the bots' hands from its time; a
  discard the person could claim waits for the person's answer alone, not the server's
  ``private_window_ms``.
* Two persons: every window stays open ``private_window_ms`` for each of them, whoever could
  claim, and shows the discard's position throughout, so neither learns from a window's time
  or its messages whether the other (or a bot) had a choice.
"""

from __future__ import annotations

import statistics
import threading

import qipai
from qipai.core import Record

from .server_helpers import client, next_state, post, signup, ws

HOLD = 3000          # one person and bots: only a broken server waits it, so it costs nothing
SLACK = 700          # a test machine's scheduling delay (typical: single windows may be later)
EARLY = 100          # a window's opening message may be stamped a moment after it opened
BOT_MS = 50


def _choices(record: Record) -> list[dict[int, bool]]:
    """Per claim window of the record, in order: seat -> whether it had a choice."""
    state = qipai.load(record.game, **record.options).new_state(seed=record.seed, num_seats=4)
    out = []
    for entry in record.actions:
        seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
        was_turn = state.phase == "turn"
        state.apply(text, seat=seat)
        if was_turn and state.result is None and state.phase != "turn":
            out.append({s: len(state.legal_actions(s)) > 1 for s in state.to_act})
    return out


def _window_key(view: dict) -> tuple[int, int, int]:
    """What tells one claim window from every other of the hand: the wall left, the discards and
    the melds. Discards alone do not: a window to rob an added kong follows the discard window
    before it with no discard between (the kong's draw changes the wall)."""
    seats = view["seats"]
    return (view["wall"], sum(len(s["discards"]) for s in seats), sum(len(s["melds"]) for s in seats))


def _play(sock, me: int, log: list, stop: threading.Event | None = None, resign_after: int = 0,
          chose: threading.Event | None = None) -> dict:
    """Answer every turn of seat ``me`` at once (a win, else pass, else the first discard) until
    the hand ends (resigning after ``resign_after`` claim windows were seen, when set, and once
    ``chose`` is set, when given); every state message is kept in ``log``. ``chose`` is set
    when seat ``me`` is shown a window in which it has a choice. Returns the last message."""
    msg = next_state(sock)
    answered = set()
    windows = 0
    while msg["result"] is None and not (stop and stop.is_set()):
        log.append(msg)
        windows += msg["view"]["phase"] != "turn" and (len(log) < 2 or log[-2]["view"]["phase"] == "turn")
        if chose is not None and msg["view"]["phase"] != "turn" and me in msg["to_act"] and \
                len(msg["view"]["legal"]) > 1:
            chose.set()
        if resign_after and windows >= resign_after and "resigned" not in answered and \
                (chose is None or chose.is_set()):
            answered.add("resigned")
            sock.send_json({"type": "resign"})
        turn = msg.get("turn")
        if me in msg["to_act"] and turn not in answered:
            answered.add(turn)
            legal = msg["view"]["legal"]
            action = next((a for a in ("win", "pass") if a in legal), None) or \
                next(a for a in legal if a.startswith("discard"))
            sock.send_json({"type": "move", "seq": msg["seq"], "turn": turn, "action": action})
        msg = next_state(sock)
        while msg["type"] == "error":
            msg = next_state(sock)
    while not msg.get("record") and not (stop and stop.is_set()):
        msg = next_state(sock)
    return msg


def test_one_person_waits_only_for_its_own_claims(tmp_path):
    with client(tmp_path, private_window_ms=HOLD, spectator_delay_ms=0) as c:
        token = signup(c, "east")
        t = post(c, token, "/api/tables", {"game": "mahjong-gb", "bots": 3, "bot": "greedy",
                                           "options": {"hands_per_match": 1},
                                           "settings": {"bot_delay_ms": BOT_MS, "clock": "none"}}).json()
        log: list = []
        with ws(c, token, t["id"]) as sock:
            final = _play(sock, 0, log)
        record = Record.from_json(c.get(f"/api/records/{final['record']}").json()["record"])
    windows = _choices(record)
    bots_only = [w for w in windows if not w.get(0) and any(w.values())]
    mine = [w for w in windows if w.get(0)]
    assert bots_only, "no discard that only a bot could claim: the test shows nothing"
    # a window is seen open only when the person itself is asked
    shown = [m for m in log if m["view"]["phase"] != "turn"]
    assert all(m["to_act"] == [0] and len(m["view"]["legal"]) > 1 for m in shown)
    assert len({m["turn"] for m in shown}) == len(mine)
    # no gap between two messages is a window's minimum time: the bots' discards follow each
    # other at their thinking pace, and an answer of the person ends its window at once (the
    # hold is long enough that a loaded machine's delay of one message is not taken for it)
    gaps = [b["now"] - a["now"] for a, b in zip(log, log[1:])]
    assert statistics.median(gaps) < BOT_MS + SLACK and max(gaps) < HOLD - EARLY, sorted(gaps)[-5:]


def test_two_persons_see_every_window_on_one_schedule(tmp_path):
    hold = 300
    with client(tmp_path, private_window_ms=hold, spectator_delay_ms=0) as c:
        east, west = signup(c, "east"), signup(c, "west")
        t = post(c, east, "/api/tables", {"game": "mahjong-gb", "bots": 2, "bot": "greedy",
                                          "options": {"hands_per_match": 1},
                                          "settings": {"bot_delay_ms": 0, "clock": "none"}}).json()
        post(c, west, f"/api/tables/{t['id']}/sit")
        seat_of = {s["name"]: i for i, s in enumerate(c.get(f"/api/tables/{t['id']}").json()["seats"])}
        logs: dict[str, list] = {"east": [], "west": []}
        stop = threading.Event()
        # the hand goes on past 14 windows until a person was shown a choice (the deal is
        # random: the first windows may all be pass-only ones, which would show only half)
        chose = threading.Event()
        with ws(c, east, t["id"]) as a, ws(c, west, t["id"]) as b:
            other = threading.Thread(target=_play, args=(b, seat_of["west"], logs["west"], stop),
                                     kwargs={"chose": chose}, daemon=True)
            other.start()
            try:
                final = _play(a, seat_of["east"], logs["east"], resign_after=14, chose=chose)
            finally:
                stop.set()
        record = Record.from_json(c.get(f"/api/records/{final['record']}").json()["record"])
    windows = _choices(record)
    assert any(not any(w.values()) for w in windows) and any(any(w.values()) for w in windows)
    for name in ("east", "west"):
        log = logs[name]
        opened: dict = {}
        durations = []
        for m in log:                 # a window is known by the discards made before it
            key = sum(len(s["discards"]) for s in m["view"]["seats"])
            if m["view"]["phase"] != "turn":
                opened.setdefault(key, m["now"])
            elif key in opened and key not in dict(durations):
                durations.append((key, m["now"] - opened[key]))
        assert len(durations) >= 10, name
        # nor from the position shown: while a window is open it stays the discard's, however
        # many seats were answered for at once because they could only pass
        # (every message of a window shows one seq; a bot's turn and its discard can reach a
        # busy client as one message, so a window's seq is not always the last turn seen + 1;
        # a window to rob a kong can follow a discard's window with that turn unseen: _window_key)
        turn_seq, shown = None, None
        for m in log:
            if m["view"]["phase"] == "turn":
                turn_seq, shown = m["seq"], None
                continue
            key = _window_key(m["view"])
            if shown is not None and shown[0] == key:
                assert m["seq"] == shown[1], (name, m["seq"], shown)
            elif turn_seq is not None:
                assert m["seq"] > turn_seq, (name, m["seq"], turn_seq)
            shown = (key, m["seq"])
        # whoever could claim — this person, the other, a bot or nobody — every window this
        # person saw stayed open the same minimum time (a window that ended in a claim or the
        # person's own slow answer aside, nothing closes it sooner), and typically no longer:
        # a loaded machine delays some closing messages, never most of them
        assert all(hold - EARLY <= d for _, d in durations), (name, durations)
        late = [d for _, d in durations if d > hold + SLACK]
        assert len(late) <= len(durations) // 5, (name, durations)
