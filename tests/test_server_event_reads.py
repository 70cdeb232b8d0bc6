"""What GET /api/events/{id} shows of results over time (competition.md §5.7, §6.5): a result once
shown is not hidden by a later answer. The rounds held from the public and the event are one read
(EventWork.describe); a round that was over and is open again because a referee's correction made
its match need another game is not held again (Director.held_rounds)."""

from __future__ import annotations

from .server_helpers import client, post, signup
from .test_server_event_start import _get


def test_a_correction_that_opens_a_finished_round_again_keeps_its_results_shown(tmp_path):
    with client(tmp_path) as c:
        boss = signup(c, "boss")            # the first account: an organizer
        bots = [{"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"}]
        r = post(c, boss, "/api/events", {"preset": "s2_go", "event_id": "final", "players": bots})
        assert r.status_code == 201, r.text
        (match,) = _get(c, "/api/events/final")["rounds"][0]["matches"]
        (game,) = match["games"]

        def act(body: dict) -> dict:
            r = post(c, boss, "/api/events/final/acts", {"reason": "the scoresheet", **body})
            assert r.status_code == 200, r.text
            return r.json()

        act({"act": "enter_result", "game": game["id"], "result": "B+R"})    # played on paper
        before = _get(c, "/api/events/final")                               # signed out: the public
        assert before["status"] == "finished"
        (m,) = before["rounds"][0]["matches"]
        assert m["games"][0]["result"] == "B+R" and m["winner"] is not None

        # a referee corrects it to a jigo: the final needs another game, the event runs again
        act({"act": "correct", "game": game["id"], "result": "0"})
        after = _get(c, "/api/events/final")
        assert after["status"] == "running"
        (m,) = after["rounds"][0]["matches"]
        assert m["status"] != "finished" and len(m["games"]) == 2, m
        first = m["games"][0]
        assert first["result"] == "0" and first["status"] == "finished", first      # not held again
        assert [x["to"] for x in first["corrections"]] == ["0"]
        log = [x for x in c.get("/api/events/final/log").json() if x["act"] == "correct"]
        assert log[-1]["data"]["reopened"] == 1


def test_the_rounds_held_are_read_with_the_event(tmp_path):
    """A result recorded as the page is asked for is in the answer with the rounds of the same
    moment: the event is read once, with the rounds it holds, never after a look at the rounds
    that a change made in between would make stale."""
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        bots = [{"id": f"b{i}", "bot": "random"} for i in range(4)]
        r = post(c, boss, "/api/events", {"preset": "s2_go", "event_id": "ko", "players": bots})
        assert r.status_code == 201, r.text
        service = c.app.state.events
        reads: list[str] = []
        read, read_json = service.read, service.read_json

        async def counted(method, *args):
            reads.append(method)
            return await read(method, *args)

        async def counted_json(method, *args):
            reads.append(method)
            return await read_json(method, *args)
        service.read, service.read_json = counted, counted_json
        ev = _get(c, "/api/events/ko")
        assert reads == ["describe"], reads
        a, b = ev["rounds"][0]["matches"]
        r = post(c, boss, "/api/events/ko/acts", {"act": "enter_result", "game": a["games"][0]["id"],
                                                  "result": "B+R", "reason": "on paper"})
        assert r.status_code == 200, r.text
        # round 1 is on (match b): the public does not see a's result yet, the organizer does
        public = _get(c, "/api/events/ko")["rounds"][0]["matches"][0]
        assert public["status"] == "finished" and public["games"][0]["result"] is None
        assert public["winner"] is None
        c.cookies.set("qipai_session", boss)
        seen = _get(c, "/api/events/ko")["rounds"][0]["matches"][0]
        c.cookies.clear()
        assert seen["games"][0]["result"] == "B+R" and seen["winner"] is not None
