"""The custom-table form offers every seat count a game has: junqi's card says "2/4 players", and
Seats offered only 2 until the rule options were opened and variant 四国军棋 chosen. Now 4 is in
Seats at once, and choosing it picks the variant that plays with four (and 2 picks 陆战棋 back)."""

from __future__ import annotations

from .test_e2e_card_games import PHONE, account  # noqa: F401


def test_choosing_four_seats_for_junqi_picks_the_four_player_variant(server, browser, account, shot):  # noqa: F811
    ctx = browser.new_context(viewport=PHONE, storage_state=account)
    ctx.add_init_script("localStorage.setItem('lang', 'en')")
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.select_option('select[name="game"]', "junqi")
    assert page.locator('select[name="num_seats"] option').all_inner_texts() == ["2", "4"]
    assert page.input_value('select[name="num_seats"]') == "2"
    assert page.input_value('select[data-opt="variant"]') == '"luzhan"'
    page.select_option('select[name="num_seats"]', "4")
    assert page.input_value('select[data-opt="variant"]') == '"siguo"'
    # three bots for the three other seats
    assert page.input_value('select[name="bots"]') == "3"
    shot(page, "lobby-seats-siguo-en-390")
    page.select_option('select[name="num_seats"]', "2")
    assert page.input_value('select[data-opt="variant"]') == '"luzhan"'
    # the variant chosen by hand moves the seats with it, as before
    page.click("details > summary")                 # the options are folded away
    page.select_option('select[data-opt="variant"]', '"siguo"')
    assert page.input_value('select[name="num_seats"]') == "4"
    ctx.close()
