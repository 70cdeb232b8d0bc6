"""Changing one's password (the settings page, POST /api/me/password): the current password is
asked first, the new one must be a usable password, and every other session of the account ends
while the one that changed it stays signed in."""

from __future__ import annotations

from qipai.server.auth import COOKIE

from .server_helpers import as_user, client, signup


def _login(c, password: str) -> int:
    r = c.post("/api/login", json={"username": "alice", "password": password})
    c.cookies.clear()
    return r.status_code


def test_a_password_is_changed_with_the_current_one_and_other_sessions_end(tmp_path):
    with client(tmp_path) as c:
        mine = signup(c, "alice", "first-pass")
        r = c.post("/api/login", json={"username": "alice", "password": "first-pass"})
        other = r.cookies[COOKIE]
        c.cookies.clear()
        me = lambda token: c.get("/api/me", headers=as_user(token)).json()["user"]  # noqa: E731
        change = lambda body: c.post("/api/me/password", json=body, headers=as_user(mine))  # noqa: E731
        # the current password wrong, or the new one too short: refused, nothing changes
        r = change({"current": "wrong-pass", "new": "second-pass"})
        assert r.status_code == 401 and r.json()["error"] == "wrong_password"
        r = change({"current": "first-pass", "new": "short"})
        assert r.status_code == 400 and r.json()["error"] == "bad_password"
        assert me(other)["username"] == "alice"
        r = change({"current": "first-pass", "new": "second-pass"})
        assert r.status_code == 200, r.text
        assert me(mine)["username"] == "alice"         # still signed in here
        assert me(other) is None                       # signed out elsewhere
        assert _login(c, "first-pass") == 401 and _login(c, "second-pass") == 200
        # signed out: no password to change
        assert c.post("/api/me/password", json={"current": "x" * 8, "new": "y" * 8}).status_code == 401
