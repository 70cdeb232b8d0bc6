"""Event standings in a real browser against a real server: a Swiss event run from the command
line shows every tie-break and the lot; a round robin shows the direct encounter where it was
asked (competition.md §2.8). Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

import httpx
import pytest

from .conftest import running_server
from .pages import pts, run_from_command_line, shots
from .test_e2e_a11y import check


def round_robin_with_ties(data) -> str:
    """A round robin of five played by hand on the database in ``data`` that breaks ties by the
    direct encounter (e and b tie, d and c tie); its id."""
    from concurrent.futures import ThreadPoolExecutor

    from qipai.competition import create_event, open_db
    from tests.test_competition_formats import play_by_hand

    def make() -> str:          # in a thread of its own: the director runs its own event loop
        db = open_db(f"sqlite:///{data}/qipai.db")
        overrides = {"standings": "match_points", "game_points": {"win": 1, "drawn": 0.5, "loss": 0}}
        eid = create_event(db, "s3_xiangqi", [{"id": n} for n in "abcde"], overrides=overrides)
        beats = {"a": "bcde", "b": "cd", "c": "e", "d": "c", "e": "bd"}      # e and b tie, d and c tie
        play_by_hand(db, eid, {frozenset((w, x)): w for w, xs in beats.items() for x in xs})
        return eid

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


@pytest.fixture(scope="module")
def events(tmp_path_factory):
    """``(base, swiss, round robin)``: one server on a database holding a Swiss event of ten
    bots run from the command line and :func:`round_robin_with_ties` (one server for the file's
    tests: a start costs a second of CPU, several on a loaded machine)."""
    data = tmp_path_factory.mktemp("qipai-standings")
    run_from_command_line(data, "s3_xiangqi", 10)
    robin = round_robin_with_ties(data)
    with running_server(data) as base:
        swiss = next(e["id"] for e in httpx.get(base + "/api/events").json() if e["id"] != robin)
        yield base, swiss, robin


def test_swiss_standings_show_every_tie_break_and_the_lot(browser, shot, events):
    base, swiss, _ = events
    full = httpx.get(f"{base}/api/events/{swiss}").json()
    assert full["stage"] == "swiss"
    page = browser.new_page()
    page.goto(f"{base}/events/{swiss}")
    page.wait_for_selector("#standings")
    heads = page.eval_on_selector_all("#standings th", "hs => hs.map((h) => h.textContent)")
    direct = ["DE"] if any(s["direct"] is not None for s in full["standings"]) else []
    assert heads == ["#", "Player", "Points", "Buchholz −1", "Buchholz", "SB", "Wins", *direct]
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 10
    by_lot = {s["id"] for s in full["standings"] if s.get("lot")}
    marked = set(page.eval_on_selector_all("#standings tr:has(.lot)",
                                           "rs => rs.map((r) => r.dataset.entrant)"))
    assert marked == by_lot
    assert page.locator("#lot-note").count() == (1 if by_lot else 0)
    first = full["standings"][0]
    cells = [first["id"], *(pts(first[k]) for k in ("points", "buchholz_cut1", "buchholz", "sb", "wins"))]
    assert rows.nth(0).inner_text().split()[1:] == cells
    page.close()
    shots(browser, base, f"/events/{swiss}", "event-swiss", shot, "#standings")


def test_round_robin_standings_show_the_direct_encounter_where_it_was_asked(browser, shot, events):
    """competition.md §2.8: a round robin breaks ties by the direct encounter first; the event
    page shows its column right after the points, with a value for the entrants it separated."""
    base, _, eid = events
    for lang, head in (("en-US", "DE"), ("zh-CN", "直胜")):
        ctx = browser.new_context(locale=lang)
        page = ctx.new_page()
        page.goto(f"{base}/events/{eid}")
        page.wait_for_selector("#standings")
        heads = page.eval_on_selector_all("#standings th", "hs => hs.map((h) => h.textContent)")
        assert heads[2:4] == (["Points", head] if lang == "en-US" else ["积分", head]), heads
        cells = dict(page.eval_on_selector_all(
            "#standings tbody tr", "rs => rs.map((r) => [r.dataset.entrant, r.children[3].textContent])"))
        assert cells == {"a": "", "e": "1", "b": "0", "d": "1", "c": "0"}
        check(page, f"round robin standings ({lang})")
        ctx.close()
    shots(browser, base, f"/events/{eid}", "event-direct-encounter", shot, "#standings")
