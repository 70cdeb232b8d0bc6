"""A waiting table's buttons in a real browser are those the server would allow the reader: at a
rematch whose free seat is kept for the last game's other player, a stranger who opens its link
is offered neither Sit (409 seat_reserved) nor Add bot / Fill with bots (403 not_at_table), and
each refusal is checked against the server; the player it is kept for is offered Sit, the
seated asker the bot buttons. The waiting table names its game, clock and rated or casual."""

from __future__ import annotations

import httpx

from ..rating_helpers import play_xiangqi, real_server, signed_up
from .conftest import running_server
from .test_e2e_ratings import as_signed_in


def test_a_rematch_offers_each_reader_only_what_the_server_allows(browser, tmp_path):
    with running_server(tmp_path, "nonce_window_ms=0, spectator_delay_ms=0") as base:
        tokens = signed_up(base, ("tia", "uma", "vic"))
        rec = play_xiangqi(None, tokens["tia"], tokens["uma"], rated=False, moves=2,
                           transport=real_server(base))
        old = httpx.get(f"{base}/api/records/{rec}").json()["table"]
        tia = {"qipai_session": tokens["tia"]}
        new = httpx.post(f"{base}/api/tables/{old}/rematch", cookies=tia, json={})
        assert new.status_code == 200, new.text
        table = new.json()["id"]
        assert list(new.json()["settings"]["reserved"].values()) != []     # uma's seat is kept

        def page_of(name):
            page = browser.new_context(storage_state=as_signed_in(base, tokens[name])).new_page()
            page.goto(f"{base}/tables/{table}")
            page.wait_for_selector("#invite")                  # the open table's controls are drawn
            return page

        stranger = page_of("vic")
        assert stranger.inner_text("#table-kind") == "Xiangqi · no clock · casual"
        for button in ("#sit", "#addbot", "#fill"):
            assert stranger.locator(button).count() == 0, button
        # what the server says to each of them: the page was right to leave them out
        vic = {"qipai_session": tokens["vic"]}
        for act, error in (("sit", "seat_reserved"), ("bot", "not_at_table"), ("fill", "not_at_table")):
            said = httpx.post(f"{base}/api/tables/{table}/{act}", cookies=vic, json={}).json()
            assert said["error"] == error, (act, said)
        stranger.context.close()
        kept_for = page_of("uma")
        assert kept_for.locator("#sit").count() == 1
        kept_for.context.close()
        asker = page_of("tia")
        assert asker.locator("#addbot").count() == 1 and asker.locator("#sit").count() == 0
        asker.context.close()
