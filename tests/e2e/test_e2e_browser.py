"""The browser files share their test process's Chromium (tests/e2e/conftest.py ``browser``):
each file finds it running and no context of an earlier file left open."""

from __future__ import annotations


def test_a_file_starts_with_the_process_browser_and_no_contexts(_chromium, browser):
    assert browser is _chromium[1] and browser.is_connected()
    assert browser.contexts == []
    page = browser.new_context().new_page()      # left open: the file's end closes it
    page.goto("data:text/html,<p>hello")
    assert page.inner_text("p") == "hello"
