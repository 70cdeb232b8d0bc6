"""Usernames: matched in full by their pattern, unique case-insensitively after Unicode NFKC,
lookalikes of other scripts and widths refused; the migration that adds the key column."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect, text

from qipai.competition.db import open_db
from qipai.server.auth import COOKIE

from .server_helpers import client

PASSWORD = "correct horse"


@pytest.fixture
def c(tmp_path):
    with client(tmp_path) as c:
        yield c


def signup(c, name: str, password: str = PASSWORD):
    r = c.post("/api/signup", json={"username": name, "password": password})
    c.cookies.clear()
    return r


def login(c, name: str, password: str = PASSWORD):
    r = c.post("/api/login", json={"username": name, "password": password})
    c.cookies.clear()
    return r


@pytest.mark.parametrize("name", ["orgadmin\n", "orgadmin\r\n", "orgadmin\r", " orgadmin", "orgadmin ",
                                  "org\nadmin", "orgadmin\t", "orgadmin\x00", "a", "x" * 33])
def test_a_name_must_match_its_pattern_in_full(c, name):
    r = signup(c, name)
    # a name past 32 characters is told so in its own words; any other is a bad name
    want = "username_too_long" if len(name) > 32 else "bad_username"
    assert r.status_code == 400 and r.json()["error"] == want, (name, r.text)


@pytest.mark.parametrize("name", [
    "ａｌｉｃｅ",            # fullwidth Latin (NFKC: alice)
    "аlice",             # Cyrillic а
    "αlice",             # Greek α
    "alicе",             # Cyrillic е at the end
    "ａlice",             # one fullwidth letter
    "ali\u0301ce",       # a combining accent
    "alice\u200b",       # a zero-width space
    "⼀二",               # a Kangxi radical (NFKC: 一)
    "\uf900abc",         # a CJK compatibility ideograph (NFKC: 豈)
    "ｏrgadmin",
])
def test_lookalikes_stay_refused(c, name):
    assert signup(c, "alice").status_code == 201
    r = signup(c, name)
    assert r.status_code == 400 and r.json()["error"] == "bad_username", (name, r.text)


def test_names_are_unique_whatever_their_case_and_sign_in_by_the_key(c):
    r = signup(c, "alice")
    assert r.status_code == 201
    for other in ("ALICE", "Alice", "aLiCe"):
        r = signup(c, other)
        assert r.status_code == 409 and r.json()["error"] == "username_taken", other
    # names mixing the scripts the pattern allows are names like any other
    assert signup(c, "alice张").status_code == 201
    assert signup(c, "ALICE张").json()["error"] == "username_taken"
    assert signup(c, "张三_li-4").status_code == 201
    # sign-in finds the account by its key: any case, any width
    for typed in ("alice", "ALICE", "ａｌｉｃｅ"):
        r = login(c, typed)
        assert r.status_code == 200 and r.json()["username"] == "alice", typed
        assert COOKIE in r.cookies
    assert login(c, "ALICE", "wrong password").json()["error"] == "bad_credentials"
    assert c.get("/api/records", params={"user": "ALICE"}).status_code == 200


def test_the_migration_keys_existing_accounts_and_keeps_colliding_ones(tmp_path):
    from alembic import command
    from alembic.config import Config

    from qipai.competition import db as dbmod
    from qipai.server.auth import hash_password

    url = f"sqlite:///{tmp_path / 'qipai.db'}"
    cfg = Config()
    cfg.set_main_option("script_location", str(dbmod.Path(dbmod.__file__).with_name("migrations")))
    hashed = hash_password(PASSWORD)
    old = ["alice", "ALICE", "orgadmin\n", "orgadmin", "bob", "Alice"]
    with create_engine(url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
        for name in old:
            conn.execute(text("INSERT INTO users (username, password_hash, role, created) "
                              "VALUES (:n, :h, 'player', 't')"), {"n": name, "h": hashed})
    open_db(url)                                   # upgrades to the newest revision
    engine = create_engine(url)
    with engine.connect() as conn:
        keys = dict(conn.execute(text("SELECT username, username_key FROM users")).all())
    assert keys == {"alice": "alice", "ALICE": "alice#2", "orgadmin\n": "orgadmin",
                    "orgadmin": "orgadmin#4", "bob": "bob", "Alice": "alice#6"}
    assert any(ix["unique"] and ix["column_names"] == ["username_key"]
               for ix in inspect(engine).get_indexes("users"))
    with client(tmp_path) as c:                    # the same database file
        for name in old:                           # every account still signs in as itself
            r = login(c, name)
            assert r.status_code == 200 and r.json()["username"] == name, name
        assert signup(c, "BOB").json()["error"] == "username_taken"
        assert signup(c, "carol").status_code == 201


def test_guessing_from_elsewhere_does_not_lock_the_owner_out(tmp_path):
    """A real server; addresses are given by X-Forwarded-For, which it trusts from 127.0.0.1."""
    import httpx

    from .server_helpers import LiveServer

    def attempt(base: str, address: str, name: str, password: str) -> int:
        return httpx.post(base + "/api/login", json={"username": name, "password": password},
                          headers={"X-Forwarded-For": address}, timeout=10).status_code

    with LiveServer(tmp_path) as s:
        r = httpx.post(s.base + "/api/signup", json={"username": "owner", "password": PASSWORD},
                       headers={"X-Forwarded-For": "198.51.100.1"})
        assert r.status_code == 201
        assert attempt(s.base, "198.51.100.2", "owner", PASSWORD) == 200        # a second place
        # guesses from many addresses exhaust the account's limit (5 tries at once, the sign-in
        # above included, then 1 per 10 s)
        codes = [attempt(s.base, f"203.0.113.{i}", "OWNER", "wrong password") for i in range(8)]
        assert codes[:4] == [401] * 4 and set(codes[4:]) == {429}
        # the owner, from either known place, still signs in; a new place waits like a guesser
        assert attempt(s.base, "198.51.100.1", "owner", PASSWORD) == 200
        assert attempt(s.base, "198.51.100.2", "owner", PASSWORD) == 200
        assert attempt(s.base, "198.51.100.3", "owner", PASSWORD) == 429
        # a wrong password from a known place is refused as such (its address's own limit holds)
        assert attempt(s.base, "198.51.100.1", "owner", "wrong password") == 401
    with LiveServer(tmp_path) as s:                 # the known places survive a restart
        codes = [attempt(s.base, f"203.0.113.{i}", "owner", "wrong password") for i in range(6)]
        assert codes[-1] == 429
        assert attempt(s.base, "198.51.100.2", "owner", PASSWORD) == 200


def test_passwords_are_hashed_with_rfc_9106_parameters_unless_the_test_hook_says_so():
    """The suite hashes with argon2's cheapest parameters (tests/conftest.py sets
    ``QIPAI_PASSWORD_HASH=cheapest``); a server without the variable hashes with argon2id over
    3 passes of 64 MiB in 4 lanes, and either kind of hash is checked whatever the setting."""
    import os
    import subprocess
    import sys

    from qipai.server.auth import check_password, hash_password

    cheap = hash_password(PASSWORD)
    assert cheap.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    code = ("import sys; from qipai.server.auth import check_password, hash_password; "
            "h = hash_password('correct horse'); "
            "print(h, check_password(h, 'correct horse'), check_password(h, 'wrong horse'), "
            "check_password(sys.argv[1], 'correct horse'))")
    env = {k: v for k, v in os.environ.items() if k != "QIPAI_PASSWORD_HASH"}
    out = subprocess.run([sys.executable, "-c", code, cheap], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[0].startswith("$argon2id$v=19$m=65536,t=3,p=4$") and PASSWORD not in out[0]
    assert out[1:] == ["True", "False", "True"]
    assert check_password(out[0], PASSWORD) and not check_password(out[0], "wrong horse")
