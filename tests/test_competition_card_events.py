"""Events of the partnership and multi-player games with their real modules: shengji/tuolaji level
sessions between pairs (levels carried from deal to deal, the S0 final to pass A, resume), the
4A4 series (rotating dealer, the second extra deal played with ``first_out_wins``), multi-player
tiaoqi placement tables (a shared first place played off among the tied), and refused entries."""

from __future__ import annotations

import pytest

from qipai import i18n
from qipai.competition import EventError, create_event, enter_result, open_db, run_event
from qipai.competition.db import EventRow, GameRow
from qipai.competition.event import Director
from tests.competition_helpers import snapshot


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'cards.db'}")


def pairs(n, bot="random"):
    return [{"id": f"t{i}", "bot": bot, "members": [f"t{i}a", f"t{i}b"]} for i in range(1, n + 1)]


def games(db, eid):
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        return [(m.round, g.number, g.seats, g.spec, g.result) for m in d.matches() for g in m.games]


def test_shengji_levels_carry_from_deal_to_deal_and_the_final_passes_a(db):
    eid = create_event(db, "s0_shengji", pairs(3), secret="11" * 32)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        (bye, semi), (final,) = d.matches(1), d.matches(2)
        assert bye.kind == "bye" and semi.kind == "session" and final.kind == "session"
        assert d.rule(semi).level_target == ("beyond", 10) and d.rule(final).level_target == ("beyond", 14)
        assert d.rule(final).time_limit == 180 * 60_000
        for m in (semi, final):
            deals = sorted(m.games, key=lambda g: g.number)
            # hand 1's provisional dealer is drawn by the match (purpose first-actor, §5.1)
            first = deals[0].spec["start"]
            assert set(first) == {"provisional_dealer"}
            assert deals[0].record["options"]["provisional_dealer"] == first["provisional_dealer"]
            for before, after in zip(deals, deals[1:], strict=False):
                f = before.result["facts"]
                # the next deal starts from the levels and the dealer the previous one left
                assert after.spec["start"] == {"team0_level": min(f["levels"][0], 14),
                                               "team1_level": min(f["levels"][1], 14),
                                               "dealer": f["on_stage"]}
                assert after.seats == before.seats and after.spec["members"] == before.spec["members"]
            levels = deals[-1].result["facts"]["levels"]         # per seat; seat 0 is side 0
            winner_side = deals[-1].seats[:2].index(m.result["winner"])
            mine, theirs = levels[winner_side], levels[1 - winner_side]
            if m.result["ended_by"] == "target":
                assert mine > (10 if m is semi else 14) and m.result["decided_by"] == "target"
            else:                                                 # time: higher level, or on stage
                assert mine > theirs or (mine == theirs and m.result["decided_by"] == "on_stage")
            assert m.result["totals"][m.entrants.index(m.result["winner"])] == mine
        assert out["outcome"]["champion"] == d.name(final.result["winner"])


def test_a_level_session_resumes_exactly(db, tmp_path):
    whole = create_event(db, "s2_tuolaji", pairs(2), event_id="tl", secret="22" * 32)
    run_event(db, whole)
    # the same event in another database, run a few deals at a time with a new director each time
    other = open_db(f"sqlite:///{tmp_path / 'again.db'}")
    create_event(other, "s2_tuolaji", pairs(2), event_id="tl", secret="22" * 32)
    while run_event(other, "tl", max_games=3)["status"] == "running":
        pass

    def deals(base):
        return [(r, n, seats, spec["start"], res["facts"], res["text"])
                for r, n, seats, spec, res in games(base, "tl")]

    assert deals(db) == deals(other) and len(deals(db)) >= 2


def test_level_deals_are_entered_by_dealer_and_attacking_total(db):
    """A hand played on paper is entered as ``dealer D attack S``; its levels, the next dealer and
    the attacking total follow as if it had been played here."""
    eid = create_event(db, "s3_tuolaji", pairs(2), secret="44" * 32)
    (pending,) = _pending(db, eid)
    before = snapshot(db)
    for bad in ("0-1", "dealer 5 attack 10", "attack 40"):
        with pytest.raises(EventError, match="dealer D attack S"):
            enter_result(db, eid, pending, bad)
    assert snapshot(db) == before
    g = enter_result(db, eid, pending, "dealer 0 attack 35")       # defended
    facts = g.result["facts"]
    assert facts["levels"][0] == facts["levels"][2] and facts["on_stage"] == 2
    assert g.result["text"] == "D+2"           # 35 points: the dealer team goes up two (§4.4)
    (nxt,) = _pending(db, eid)
    with pytest.raises(EventError, match="dealer is seat 2, not 1") as refused:
        enter_result(db, eid, nxt, "dealer 1 attack 0")
    said = refused.value.args[0]           # in a reader's words the seats are their players
    for lang in ("en", "zh"):
        words = i18n.t(f"refusal.{said.code}", said.params, lang=lang)
        dealer, given = said.params["names"][2], said.params["names"][1]
        said_so = f"dealer is {dealer}, not {given}" if lang == "en" else f"庄家是 {dealer}，不是 {given}"
        assert said_so in words
        assert "seat" not in words and "座位" not in words, words
    g2 = enter_result(db, eid, nxt, "dealer 2 attack 125")          # the attackers take over
    assert g2.result["facts"]["on_stage"] in (1, 3)


def _pending(db, eid):
    with db() as s:
        return [g.id for g in Director(s, s.get(EventRow, eid)).pending_games()]


def test_fouafour_rotates_the_dealer_and_plays_the_second_extra_deal_first_out_wins(db):
    eid = create_event(db, "s2_4a4", pairs(2), secret="33" * 32)
    # regulation: a win each and a drawn deal (1.5-1.5), then a drawn first extra deal
    for winner in (1, 2, None, None):
        (g,) = _pending(db, eid)
        with db() as s:
            side0 = s.get(GameRow, g).seats[0]          # the pair on seats 0 and 2 ("1-0")
        enter_result(db, eid, g, "1/2-1/2" if winner is None else "1-0" if side0 == winner else "0-1")
    (fifth,) = _pending(db, eid)
    with db() as s:
        g = s.get(GameRow, fifth)
        assert g.number == 5 and g.spec["variant"] == "first_out_wins" and g.spec["extra"]
    out = run_event(db, eid)
    assert out["status"] == "finished"
    rows = games(db, eid)
    dealers = [spec["deal"]["dealer"] for *_, spec, _ in rows]
    assert all((b - a) % 4 == 1 for a, b in zip(dealers, dealers[1:], strict=False))
    assert [spec.get("variant") for *_, spec, _ in rows] == [None, None, None, None, "first_out_wins"]
    *_, last = rows[-1]
    assert last["reason"] == "first_out" and last["text"] in ("1-0", "0-1")
    with db() as s:
        (m,) = Director(s, s.get(EventRow, eid)).matches(1)
        assert m.result["decided_by"] == "extra game" and m.result["points"] in ([2.5, 2.5], [2.0, 3.0],
                                                                                  [3.0, 2.0])
        assert m.result["text"] in ("3-2 after 5 games", "2-3 after 5 games")
        game5 = max(m.games, key=lambda g: g.number)
        assert game5.record["options"]["first_out_wins"] is True


def test_tiaoqi_tables_play_off_a_shared_first_place(db):
    players = [{"id": x} for x in ("ann", "bob", "cat")]
    eid = create_event(db, "s3_tiaoqi", players)
    (g1,) = _pending(db, eid)
    before = snapshot(db)
    for bad in ("1,2", "0,1,2", "2,2,3", "1,x,2", "1-0"):
        with pytest.raises(EventError, match="placement game: give the place of each of the 3 seats"):
            enter_result(db, eid, g1, bad)
    assert snapshot(db) == before
    enter_result(db, eid, g1, "1,1,3")             # seats 0 and 1 share first place
    (g2,) = _pending(db, eid)
    with db() as s:
        g = s.get(GameRow, g2)
        tied = g.match.entrants[:2]
        assert g.number == 2 and g.spec["extra"] and g.spec["eligible"] == tied
    enter_result(db, eid, g2, "2,3,1")             # seat 2 finishes first but cannot win; seat 0 beats 1
    with db() as s:
        ev = s.get(EventRow, eid)
        (m,) = Director(s, ev).matches(1)
        assert ev.status == "finished" and m.result["winner"] == tied[0]
        assert m.result["totals"] == [1, 1, 3] and m.result["ranks"] == [1, 2, 3]
        assert m.result["decided_by"] == "extra_deals"
        assert ev.outcome["champion"] == Director(s, ev).name(tied[0])


def test_baohuang_deals_inherit_the_tribute_and_every_record_replays(db):
    import qipai

    eid = create_event(db, "s0_baohuang", [{"id": f"p{i}", "bot": "random"} for i in range(1, 6)],
                       overrides={"match": {"session": {"seats": 5, "end": {"deals": 4}}}})
    assert run_event(db, eid)["status"] == "finished"
    with db() as s:
        (m,) = Director(s, s.get(EventRow, eid)).matches(1)
        deals = sorted(m.games, key=lambda g: g.number)
        assert len(deals) >= 4 and "deal" not in deals[0].spec
        for before, after in zip(deals, deals[1:], strict=False):
            # the tribute the replayed deal owes is what the next deal was started with
            basis = qipai.replay(qipai.Record.from_json(before.record)).result.details["tribute_basis"]
            assert after.spec.get("deal") == ({"previous": basis} if basis is not None else None)
        for g in deals:
            assert qipai.replay(qipai.Record.from_json(g.record)).result.text == g.result["text"]


@pytest.mark.parametrize("preset", ["s2_tuolaji", "s2_4a4", "s0_junqi"])
def test_records_of_partnership_events_replay(db, preset):
    import qipai

    eid = create_event(db, preset, pairs(2))
    assert run_event(db, eid)["status"] == "finished"
    with db() as s:
        for m in Director(s, s.get(EventRow, eid)).matches():
            for g in m.games:
                assert qipai.replay(qipai.Record.from_json(g.record)).result.text == g.result["text"]


def test_sandayi_hands_pass_the_first_bid_on(db):
    import qipai

    table = {"game": {"id": "sandayi"}, "stage": {"kind": "table_knockout", "seats": 4},
             "clock": "card_default",
             "match": {"session": {"seats": 4, "measure": "score", "end": {"deals": 3},
                                   "ties": {"extra_deals": {"eligible": "all"}}, "advance": 1}}}
    eid = create_event(db, "s4_wakeng", [{"id": f"p{i}", "bot": "rule"} for i in range(1, 5)],
                       overrides=table)
    assert run_event(db, eid)["status"] == "finished"
    with db() as s:
        (m,) = Director(s, s.get(EventRow, eid)).matches(1)
        deals = sorted(m.games, key=lambda g: g.number)
        assert len(deals) >= 3 and "deal" not in deals[0].spec
        for before, after in zip(deals, deals[1:], strict=False):
            nxt = qipai.replay(qipai.Record.from_json(before.record)).result.details["next_first_bidder"]
            assert after.spec.get("deal") == {"first_bidder": nxt}
            assert qipai.Record.from_json(after.record).deal == {"first_bidder": nxt}
