"""The Botzone JSON door against a protocol-correct bot process written for the test
(tests/botzone_engine.py), in both ways of running (restart per turn, keep running), for
doudizhu and Guobiao mahjong: every request holds only what its seat may see; faulty bots
(crash, hang, garbage, illegal answers) are restarted, refused or forfeit as the rules say."""

from __future__ import annotations

import json
import sys

import pytest

import qipai
from qipai.bots import make_bot
from qipai.core import replay
from qipai.core.errors import OptionError
from qipai.engines import engine_player
from qipai.engines.botzone import KEEP_RUNNING, BotzonePlayer, parse_answer, request_for
from qipai.engines.process import EngineError
from qipai.match import BotPlayer
from tests.doudizhu_helpers import CARD, public_cards
from tests.engine_helpers import HERE, events, play

BOT = [sys.executable, str(HERE / "botzone_engine.py")]


def sent(door: BotzonePlayer) -> list[dict]:
    return [json.loads(s[2:]) for s in door.engine.transcript if s.startswith("> ")]


def received(door: BotzonePlayer) -> list[str]:
    return [s[2:] for s in door.engine.transcript if s.startswith("< ")]


def test_the_request_is_the_seats_view_and_its_own_legal_actions():
    game = qipai.load("doudizhu")
    st = game.new_state(seed=4)
    seat = st.to_act[0]
    req = request_for(st, seat, 1, [])
    assert req["view"] == st.view(seat) and req["seat"] == seat and req["seq"] == 0
    assert req["legal"] == [str(a) for a in st.legal_actions(seat)]
    mj = qipai.load("mahjong-gb", hands_per_match=1).new_state(seed=1)
    req = request_for(mj, mj.to_act[0], 1, ["x"])
    assert req["legal"] is None and req["hint"] and req["refused"] == ["x"]   # the view lists them
    assert parse_answer('{"response": "pass", "debug": 1}')[0] == "pass"
    for bad in ("pass", "{}", '{"response": 3}', "[1]"):
        with pytest.raises(EngineError):
            parse_answer(bad)


def test_every_game_has_the_botzone_door():
    for gid in ("doudizhu", "mahjong-gb", "shengji", "xiangqi", "junqi"):
        assert isinstance(engine_player(qipai.load(gid), BOT, "botzone"), BotzonePlayer)
    assert isinstance(engine_player(qipai.load("doudizhu"), BOT), BotzonePlayer)   # its only one
    with pytest.raises(OptionError):
        engine_player(qipai.load("doudizhu"), BOT, "uci")


def test_doudizhu_in_both_modes_and_nothing_hidden_is_sent():
    game = qipai.load("doudizhu")
    restart, keep = BotzonePlayer(BOT + ["--seed", "1"]), BotzonePlayer(BOT + ["--keep", "--seed", "2"])
    out = play(game, [restart, keep, BotPlayer(make_bot("doudizhu", "rule", seed=3))], seed=11)
    assert out.result is not None and replay(out.record).result.text == out.result.text
    assert not restart.errors and not keep.errors
    # restart per turn: a process per decision, each given the whole history and its data back
    full = sent(restart)
    assert restart.engine.starts == len(full) >= 2
    assert all(len(m["requests"]) == len(m["responses"]) + 1 == i + 1 for i, m in enumerate(full))
    assert [m["data"] for m in full] == [""] + [str(i) for i in range(1, len(full))]
    assert KEEP_RUNNING not in received(restart)
    # keep running: one process, the history once, then each request alone
    lines = sent(keep)
    assert keep.engine.starts == 1 and "requests" in lines[0]
    assert all("requests" not in m and m["seat"] == 1 for m in lines[1:]) and len(lines) >= 2
    assert received(keep).count(KEEP_RUNNING) == len(lines)
    # nothing another seat holds: each request's cards are the seat's own, the kitty, and what
    # the spectator's view shows (the plays as the table's labels of their ranks)
    record = out.record
    public = public_cards(record)
    requests = [m["requests"][-1] for m in full] + [lines[0]["requests"][-1]] + lines[1:]
    assert len(requests) >= 4
    for req in requests:
        deal = record.deal[req["view"].get("redeals", 0)]
        allowed = set(deal["hands"][req["seat"]]) | set(deal["kitty"]) | public[req["seq"]]
        assert not set(CARD.findall(json.dumps(req))) - allowed, req


def test_guobiao_mahjong_with_claims_kept_running():
    """A whole hand: two bots kept running answer discards, claims (several seats at once) and
    kongs; every request is the seat's view alone (the others' concealed tiles as counts)."""
    game = qipai.load("mahjong-gb", hands_per_match=1)
    doors = [BotzonePlayer(BOT + ["--keep", "--seed", "5"]), BotzonePlayer(BOT + ["--keep", "--seed", "6"])]
    bots = [BotPlayer(make_bot("mahjong-gb", "greedy", seed=s)) for s in (7, 8)]
    out = play(game, [doors[0], bots[0], doors[1], bots[1]], seed=3)
    assert out.result is not None and replay(out.record).result.text == out.result.text
    assert not doors[0].errors and not doors[1].errors
    record = out.record
    st = game.new_state(seed=record.seed, deal=record.deal)
    views = {}                     # (seat, seq) -> that seat's view then
    for k in range(len(record.actions) + 1):
        for s in (0, 2):
            views[(s, k)] = st.view(s)
            if st.to_act and st.turns_private():     # who else may claim is not shown
                views[(s, k)]["to_act"] = [s] if s in st.to_act else []
        if k < len(record.actions):
            entry = record.actions[k]
            seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
            st.apply(text, seat=seat)
    for seat, door in ((0, doors[0]), (2, doors[1])):
        msgs = sent(door)
        reqs = [msgs[0]["requests"][-1], *msgs[1:]]
        assert door.engine.starts == 1 and len(reqs) > 10
        for r in reqs:
            assert r["seat"] == seat and r["view"] == json.loads(json.dumps(views[(seat, r["seq"])]))
    assert any(m.get("legal") is None and "pass" in m["view"]["legal"] for m in sent(doors[0])[1:])


def test_a_claim_window_tells_the_bot_nothing_of_the_other_seats():
    """With claim windows private (a server's tables): the bot's decisions are numbered 1, 2,
    3 ... (not every seat's), its view names no other seat deciding, and inside a window the
    position number stays the window's opening one (the others' answers already applied do not
    show) — the numbers a table's seat is shown."""
    game = qipai.load("mahjong-gb", hands_per_match=1)
    door = BotzonePlayer(BOT + ["--keep", "--seed", "5"])
    bots = [BotPlayer(make_bot("mahjong-gb", "greedy", seed=s)) for s in (6, 7, 8)]
    out = play(game, [door, *bots], seed=4, private_hold=0)
    assert out.result is not None and not door.errors
    msgs = sent(door)
    reqs = [msgs[0]["requests"][-1], *msgs[1:]]
    assert [r["turn"] for r in reqs] == list(range(1, len(reqs) + 1))
    assert all(r["view"]["to_act"] == [0] for r in reqs)
    st = game.new_state(seed=out.record.seed, deal=out.record.deal)
    views = []                     # seat 0's view after each action, who is deciding left out
    for entry in [None, *out.record.actions]:
        if entry is not None:
            seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
            st.apply(text, seat=seat)
        views.append({k: v for k, v in json.loads(json.dumps(st.view(0))).items() if k != "to_act"})
    for r in reqs:                 # the position shown is one whose view the bot was given
        assert {k: v for k, v in r["view"].items() if k != "to_act"} == views[r["seq"]]


def test_guobiao_mahjong_restarted_per_turn_gets_the_history():
    """Restart per turn on mahjong requests: each decision a new process with every earlier
    request and answer (three decisions through the synchronous wrapper)."""
    from qipai.engines import EngineBot

    game = qipai.load("mahjong-gb", hands_per_match=1)
    st = game.new_state(seed=3)
    with EngineBot(game, BOT + ["--seed", "1"], "botzone", movetime=2000) as bot:
        for _ in range(3):
            seat = st.to_act[0]
            st.apply(bot.choose(st, seat), seat=seat)
            while not st.is_terminal() and st.to_act[0] != seat:
                other = st.to_act[0]
                st.apply(st.default_action(other), seat=other)
        full = sent(bot.door)
    assert [len(m["requests"]) for m in full] == [1, 2, 3] and bot.door.engine.starts == 3
    assert full[-1]["responses"] == bot.door.responses[:2] and full[-1]["data"] == "2"


@pytest.mark.parametrize("fault,keep", [("crash", False), ("crash", True), ("hang", True),
                                        ("garbage", True)])
def test_a_faulty_bot_is_restarted_with_the_whole_history(tmp_path, fault, keep):
    game = qipai.load("doudizhu")
    cmd = BOT + (["--keep"] if keep else []) + ["--fault", fault, "--at", "2", "--once", str(tmp_path / "f")]
    door = BotzonePlayer(cmd, movetime=500, hang_ms=1500)   # a hung bot is killed after 2 s
    others = [BotPlayer(make_bot("doudizhu", "rule", seed=s)) for s in (1, 2)]
    out = play(game, [door, *others], seed=11)
    assert out.result is not None and door.restarts == 1
    assert len(events(out, "engine_error")) == 1
    # each process started was given the whole history first (the restarted one included)
    full = [m for m in sent(door) if "requests" in m]
    assert len(full) == door.engine.starts >= 2 and len(full[-1]["requests"]) >= 2


def test_an_illegal_answer_is_refused_and_asked_again(tmp_path):
    game = qipai.load("doudizhu")
    cmd = BOT + ["--keep", "--fault", "illegal", "--at", "2", "--once", str(tmp_path / "f")]
    door = BotzonePlayer(cmd)
    out = play(game, [door, *(BotPlayer(make_bot("doudizhu", "rule", seed=s)) for s in (1, 2))], seed=11)
    assert out.result is not None and not door.errors
    assert [e["action"] for e in events(out, "refused")] == ["zz-not-an-action"]
    asked = [m for m in sent(door) if m.get("refused")]
    assert asked and asked[0]["refused"] == ["zz-not-an-action"]


def test_a_bot_that_always_fails_forfeits_into_trusteeship():
    game = qipai.load("doudizhu")
    door = BotzonePlayer(BOT + ["--fault", "crash", "--at", "1", "--from"], max_restarts=1)
    clock = {"move_cap": "5s", "on_cap": "auto", "trustee_delay": 10}
    out = play(game, [door, *(BotPlayer(make_bot("doudizhu", "rule", seed=s)) for s in (1, 2))],
               clock=clock, seed=11)
    assert out.result is not None            # the game ended: the seat was played for
    assert {e["why"] for e in events(out, "forfeit")} == {"engine_failed"}
    assert any(e["type"] == "auto" and e["why"] == "trusteeship" and e["seat"] == 0
               for e in out.record.meta["events"])
    assert door.failed and door.restarts == 1
