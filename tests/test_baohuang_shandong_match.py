"""The §B4 match of the experimental 山东保皇 (``deals_per_match``): ten deals in one state, the
lowest total winning with ties shared, records and JSON that replay, a forfeit, hidden hands,
explicit deal lists checked when the match is made, and a server table that plays the match
with its score in the view."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core.errors import NotationError
from qipai.games.baohuang import shandong as sd
from qipai.games.baohuang.shandong_match import ShandongMatchState

RULESET = sd.RULESET
MATCH = qipai.load("baohuang", ruleset=RULESET, deals_per_match=10)


def play_out(s, stop=None):
    while not s.is_terminal() and (stop is None or not stop(s)):
        s.apply(s.default_action(s.current_player))


def test_ten_deals_lowest_total_wins_and_each_deal_is_the_seeded_deal():
    s = MATCH.new_state(seed=5)
    assert isinstance(s, ShandongMatchState) and s.view(0)["match"]["deal"] == 1
    play_out(s)
    assert s.match.played == 10 and len(s.deal_points) == 10
    one = qipai.load("baohuang", ruleset=RULESET)
    for i, pts in enumerate(s.deal_points):           # deal i is the deal of seed "5/i"
        d = one.new_state(seed=f"5/{i}")
        play_out(d)
        assert d.result.details["points"] == pts
    totals = [sum(p[x] for p in s.deal_points) for x in range(4)]
    assert s.result.details["totals"] == totals and s.result.returns == tuple(-t for t in totals)
    assert set(s.result.winners) == {x for x in range(4) if totals[x] == min(totals)}
    assert s.result.reason == "deals_played" and s.view(1)["result"]["details"]["totals"] == totals
    assert qipai.replay(s.to_record()).result.text == s.result.text
    again = MATCH.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.result.text == s.result.text


def test_one_deal_without_the_option_and_ties_shared():
    assert isinstance(qipai.load("baohuang", ruleset=RULESET).new_state(seed=1), sd.ShandongState)
    m = qipai.load("baohuang", ruleset=RULESET, deals_per_match=1).new_state(seed=1)
    m.agree_draw()
    assert m.result.winners == (0, 1, 2, 3) and m.result.returns == (0, 0, 0, 0)   # nothing played


def test_a_forfeit_ends_the_match_with_the_deal_in_progress_counted():
    s = MATCH.new_state(seed=2)
    play_out(s, stop=lambda s: s.match.played == 3 and len(s.playing.plays) >= 5)
    before = list(s.match.totals)
    s.forfeit(2, "resign")
    last = s.result.details["deals"][-1]
    assert len(s.result.details["deals"]) == 4 and last[2] == sum(last) - sum(last[x] for x in (0, 1, 3))
    assert s.result.details["totals"] == [b + p for b, p in zip(before, last)]
    assert s.result.text.endswith("forfeit by 2")
    assert qipai.replay(s.to_record()).result.text == s.result.text


def test_views_show_the_match_and_hide_the_other_hands():
    s = MATCH.new_state(seed=3)
    play_out(s, stop=lambda s: s.match.played == 1)
    v = s.view(1)
    assert v["match"] == {"deal": 2, "deals": 10, "totals": s.match.totals, "deal_points": s.deal_points}
    assert v["marking"] == "experimental" and v["hands"] is None
    text = json.dumps(v)
    assert all(f'"{c.id}"' not in text for c in s.playing.hands[0].cards() if c.id not in v["draw"])
    assert s.view(None)["hand"] is None


def test_explicit_deal_lists_are_checked_when_the_match_is_made():
    deals = [sd.draw_deal(qipai.core.rng.DealRng(i)) for i in range(10)]
    s = MATCH.new_state(deal=deals)
    assert s.playing.dealt["draw"] == deals[0]["draw"]
    with pytest.raises(NotationError):
        MATCH.new_state(deal=deals[:9])
    with pytest.raises(NotationError):
        MATCH.new_state(deal=deals[0])
    bad = [dict(d) for d in deals]
    bad[7] = {**bad[7], "draw": bad[7]["draw"][:3]}
    with pytest.raises(NotationError):
        MATCH.new_state(deal=bad)


def test_a_server_table_plays_the_match_with_its_score(tmp_path):
    from tests.server_helpers import client, next_state, post, signup, ws

    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        token = signup(c, "alice")
        r = post(c, token, "/api/tables", {"game": "baohuang", "bots": 3, "bot": "rule",
                                           "options": {"ruleset": RULESET, "deals_per_match": 2},
                                           "settings": {"clock": "none"}})
        assert r.status_code == 201, r.text
        assert r.json()["options"]["deals_per_match"] == 2 and r.json()["marking"] == "experimental"
        seen = set()
        with ws(c, token, r.json()["id"]) as sock:
            msg = next_state(sock)
            while msg["result"] is None:
                seen.add(msg["view"]["match"]["deal"])
                if 0 in msg["to_act"]:
                    action = _first_legal(msg)
                    sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"], "action": action})
                msg = next_state(sock)
        assert seen == {1, 2}
        res = msg["result"]
        assert len(res["details"]["deals"]) == 2 and res["details"]["totals"] == [
            sum(d[x] for d in res["details"]["deals"]) for x in range(4)]


def _first_legal(msg) -> str:
    """A legal action of seat 0 from its view: pass when following, else its lowest single."""
    v = msg["view"]
    return "pass" if v["top"] is not None else v["hand_ranks"][0]


def test_an_event_table_plays_the_match_as_one_game(tmp_path):
    from qipai.competition import create_event, open_db, run_event
    from qipai.competition.db import EventRow
    from qipai.competition.event import Director

    db = open_db(f"sqlite:///{tmp_path / 'sdbh.db'}")
    table = {"game": {"id": "baohuang", "ruleset": RULESET, "deals_per_match": 10},
             "stage": {"kind": "table_knockout", "seats": 4}, "clock": "card_default",
             "match": {"session": {"seats": 4, "measure": "score", "end": {"deals": 1},
                                   "ties": {"extra_deals": {"eligible": "tied_only"}}, "advance": 1}}}
    eid = create_event(db, "s0_baohuang", [{"id": f"p{i}", "bot": "rule"} for i in range(1, 5)],
                       overrides=table)
    assert run_event(db, eid)["status"] == "finished"
    with db() as s:
        (m,) = Director(s, s.get(EventRow, eid)).matches(1)
        first = min(m.games, key=lambda g: g.number)
        rec = qipai.replay(qipai.Record.from_json(first.record))
        assert len(rec.result.details["deals"]) == 10
        assert rec.result.text == first.result["text"]
        assert m.result["winner"] is not None
