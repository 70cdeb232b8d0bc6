"""The event page's links to an organizer's files for a federation (checklist E8): "all games
(ZIP)" and "TRF report" beside the CSV links, for anyone who may see the event once its results
are public; a knockout has the zip and no TRF link (a TRF describes a Swiss or a round robin)."""

from __future__ import annotations

import io
import shutil
import zipfile
from concurrent.futures import ThreadPoolExecutor

from qipai.competition import create_event, open_db, run_event
from tests.conftest import migrated_sqlite

from .conftest import running_server
from .pages import shots

SWISS = {"stage.kind": "swiss", "stage.rounds": 3, "game_points.loss": 0, "game_points.drawn": 0.5,
         "standings": "match_points"}


def bots(n: int) -> list[dict[str, str]]:
    return [{"id": f"bot{i}", "bot": "random"} for i in range(1, n + 1)]


def played_events(path) -> list[str]:
    """A finished Swiss of xiangqi and a finished gomoku final, played by bots in the database
    the server will open (``qipai event run``'s way: no tables)."""
    db = open_db(f"sqlite:///{path}")
    create_event(db, "s3_xiangqi", bots(5), event_id="swiss5", name="Spring Swiss", fields=SWISS)
    create_event(db, "s3_gomoku", bots(2), event_id="ko2", name="Final")
    out = [run_event(db, eid, think_ms=0)["status"] for eid in ("swiss5", "ko2")]
    db.kw["bind"].dispose()
    return out


def test_a_visitor_downloads_all_games_and_the_trf_from_the_event_page(browser, shot, tmp_path):
    shutil.copyfile(migrated_sqlite(), tmp_path / "qipai.db")
    # in a thread of its own: the bots' games run an event loop, and Playwright's is running here
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(played_events, tmp_path / "qipai.db").result() == ["finished", "finished"]
    with running_server(tmp_path) as base:
        ctx = browser.new_context(accept_downloads=True)
        page = ctx.new_page()
        page.goto(base + "/api/me")
        for lang, words in (("en", "Games: all games (ZIP) · TRF report"),
                            ("zh", "对局：全部棋谱（ZIP） · TRF 成绩报告")):
            page.evaluate(f"localStorage.setItem('lang', '{lang}')")
            page.goto(base + "/events/swiss5")
            page.wait_for_selector(".game-links [data-export=trf]")
            assert page.inner_text(".game-links") == words
        with page.expect_download() as got:
            page.click("[data-export=games]")
        z = zipfile.ZipFile(io.BytesIO(open(got.value.path(), "rb").read()))
        assert got.value.suggested_filename == "swiss5-games.zip"
        pgns = [n for n in z.namelist() if n.endswith(".pgn")]
        assert len(pgns) == 6 and "index.csv" in z.namelist()      # 5 players, 3 rounds: 2 games a round
        assert all(z.read(n).decode().startswith("[") for n in pgns)
        with page.expect_download() as got:
            page.click("[data-export=trf]")
        assert got.value.suggested_filename == "swiss5.trf"
        lines = open(got.value.path(), encoding="utf-8").read().splitlines()
        assert lines[0] == "012 Spring Swiss" and sum(x.startswith("001") for x in lines) == 5
        # a knockout: the games, no TRF
        page.goto(base + "/events/ko2")
        page.wait_for_selector(".game-links [data-export=games]")
        assert page.locator("[data-export=trf]").count() == 0
        ctx.close()
        shots(browser, base, "/events/swiss5", "event-files", shot, ".game-links [data-export=trf]")
