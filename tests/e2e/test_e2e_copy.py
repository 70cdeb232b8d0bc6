"""The copy buttons of a table's link and of a private table's code: the clipboard holds the
words after a click, through the Clipboard API where the page has it, and through the older copy
command where it has not (a server reached over plain http on a LAN has no Clipboard API). One
page per browser context, so the page that clicks is the focused one the clipboard writes for."""

from __future__ import annotations

from .test_e2e_play import create_table, sign_up

#: record what the page's copy commands put on the clipboard (``window.copied``)
RECORD_COPIES = """() => { window.copied = [];
    document.addEventListener('copy',
        (e) => window.copied.push(e.target.value ?? String(getSelection()))); }"""

#: the page as a plain-http page on a LAN sees it: no Clipboard API
NO_CLIPBOARD_API = "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"


def open_table(browser, server, name, *, api=True, private=False):
    ctx = browser.new_context(locale="en-US")
    if api:
        ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    else:
        ctx.add_init_script(NO_CLIPBOARD_API)
    page = ctx.new_page()
    sign_up(page, server, name)
    page.select_option("select[name=game]", "gomoku")
    if private:
        page.check("#private")
    return page, create_table(page)


def test_the_link_is_copied_by_the_clipboard_api(server, browser):
    page, table = open_table(browser, server, "copier1")
    page.bring_to_front()
    page.click("#invite-copy")
    page.wait_for_selector("#invite-said:has-text('Link copied')")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/tables/{table}"
    # the open table's page redraws its controls at each poll of the table: what the button
    # said stays through the next redraws
    page.evaluate("""() => { window.redraws = 0;
        new MutationObserver(() => { window.redraws += 1; })
            .observe(document.getElementById('controls'), { childList: true }); }""")
    page.wait_for_function("window.redraws >= 2", timeout=30_000)
    assert page.inner_text("#invite-said").startswith("Link copied")
    page.context.close()


def test_without_the_clipboard_api_the_link_and_the_code_are_copied_by_the_copy_command(server, browser):
    page, table = open_table(browser, server, "copier2", api=False, private=True)
    assert page.evaluate("navigator.clipboard") is None
    page.evaluate(RECORD_COPIES)
    page.click("#invite-copy")
    page.wait_for_selector("#invite-said:has-text('Link copied')")
    page.click("#code-copy")
    page.wait_for_selector("#code-said:has-text('copied')")
    code = page.inner_text("#table-code")
    assert page.evaluate("window.copied") == [f"{server}/tables/{table}", code]
    # the hidden field the command copied from is gone, and the page kept no selection
    assert page.locator("textarea[aria-hidden=true]").count() == 0
    page.context.close()
