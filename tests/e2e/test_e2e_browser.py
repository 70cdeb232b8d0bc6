"""A browser file's Chromium (tests/e2e/conftest.py ``browser``): the file finds it running with
no context open, and a context the file leaves open is closed at its end."""

from __future__ import annotations


def test_a_file_starts_with_its_browser_and_no_contexts(_chromium, browser):
    assert browser is _chromium[1] and browser.is_connected()
    assert browser.contexts == []
    page = browser.new_context().new_page()      # left open: the file's end closes it
    page.goto("data:text/html,<p>hello")
    assert page.inner_text("p") == "hello"
