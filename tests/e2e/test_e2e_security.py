"""Script injection and cross-site actions, in Debian's Chromium against a real server process.

* The sign-in and sign-up pages go to ``?next=`` only when it is a path of the site: hostile
  values (``javascript:``, other sites, ``//host``, backslash and tab tricks) run no script and
  never leave the site.
* A page served on another port of the same host (the same *site*, so ``SameSite=Lax`` cookies
  go along) can neither read a signed-in player's hand over the WebSocket nor seat that player
  at a table; the same actions from the site's own pages work.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
import urllib.parse

import httpx
import pytest

from .conftest import _free_port, rendered, running_server
from .test_e2e_play import SECRET

HOSTILE_NEXT = [
    "javascript:alert(document.domain)",
    "JaVaScRiPt:alert(document.domain)",
    " javascript:alert(document.domain)",
    "javascript://%0aalert(document.domain)",
    "data:text/html,<script>alert(document.domain)</script>",
    "http://elsewhere.example/",
    "https:elsewhere.example",
    "//elsewhere.example/",
    "/\\elsewhere.example/",
    "\\/elsewhere.example/",
    "/\t/elsewhere.example/",
    "/%09/elsewhere.example/",
    # dot segments: these parse to the path "//elsewhere.example/", which a browser reads as
    # another host when it is given back as a relative address
    "/.//elsewhere.example/",
    "/..//elsewhere.example/",
    "/a/..//elsewhere.example/",
    "/%2e//elsewhere.example/",
    "/./\\elsewhere.example/",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    settings = ("limits=Limits(login_ip=(50, 200), login_account=(50, 200), signup_ip=(50, 200)), "
              "nonce_window_ms=0")                  # deal at once: the hand is there to steal
    with running_server(tmp_path_factory.mktemp("qipai-e2e-sec"), settings) as base:
        yield base


def watch(ctx, base: str) -> dict[str, list]:
    """Record every dialog (alert, confirm, ...) and every request to another host (aborted).
    The browser matches the addresses (a pattern of every http(s) address whose host is not the
    site's): the site's own requests go on without a round trip to the test for each."""
    seen: dict[str, list] = {"dialogs": [], "elsewhere": []}
    host = urllib.parse.urlsplit(base).netloc

    def route(r):
        url = r.request.url
        assert urllib.parse.urlsplit(url).netloc != host, url
        seen["elsewhere"].append(url)
        return r.abort()
    ctx.route(re.compile(rf"^https?://(?!{re.escape(host)}/)", re.IGNORECASE), route)

    def dialog(d):
        seen["dialogs"].append(d.message)
        d.dismiss()
    ctx.on("dialog", dialog)
    return seen


def sign_in_with_next(page, seen: dict[str, list], base: str, kind: str, name: str, next_value: str):
    """Sign in (``kind``: login or signup) on ``page``, signed out first, with ``next_value`` as
    ``?next=``; ``(address reached, /api/me's user, what the watch saw meanwhile)``. The pages of
    one context and its watch (:func:`watch`) serve every case (a context and its renderer
    process apiece cost a second of a loaded machine each): its cookies are cleared, and what
    the watch saw emptied, before each."""
    page.context.clear_cookies()
    for got in seen.values():
        got.clear()
    page.goto(f"{base}/{kind}?next={urllib.parse.quote(next_value, safe='')}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", SECRET)
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: f"/{kind}?" not in u, timeout=30_000)   # signed in, gone on
    page.wait_for_load_state()
    page.wait_for_selector("#theme")                   # the page's scripts ran: its header is drawn
    rendered(page)                                     # and a frame after it (a late navigation)
    url = page.url
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")["user"]
    return url, me, {k: list(v) for k, v in seen.items()}


def test_the_watch_sees_requests_to_other_hosts_only(site, browser):
    """What :func:`watch` records: requests to another host or another port of this one, not
    the site's own."""
    ctx = browser.new_context()
    seen = watch(ctx, site)
    page = ctx.new_page()
    page.goto(site + "/login")
    port = int(site.rsplit(":", 1)[1])
    for url in ("http://elsewhere.example/x", f"http://127.0.0.1:{port + 1}/y", "/api/me",
                f"{site}/api/games", "HTTPS://ELSEWHERE.example/z"):
        page.evaluate("(u) => fetch(u).catch(() => null)", url)
    assert seen["elsewhere"] == ["http://elsewhere.example/x", f"http://127.0.0.1:{port + 1}/y",
                                 "https://elsewhere.example/z"], seen
    ctx.close()


def test_hostile_next_runs_no_script_and_stays_on_the_site(site, browser):
    ctx = browser.new_context()
    seen = watch(ctx, site)
    page = ctx.new_page()
    for i, hostile in enumerate(HOSTILE_NEXT):
        name = f"nexter{i}"
        kind = "signup" if i % 2 else "login"
        if kind == "login":
            assert httpx.post(site + "/api/signup", json={"username": name, "password": SECRET}
                              ).status_code == 201
        url, me, saw = sign_in_with_next(page, seen, site, kind, name, hostile)
        assert me["username"] == name
        assert saw["dialogs"] == [], (hostile, saw)
        assert saw["elsewhere"] == [], (hostile, saw)
        # the lobby; "/%09/..." is a path of the site (one that does not exist)
        expected = "/%09/elsewhere.example/" if hostile.startswith("/%09") else "/"
        assert url == site + expected, (hostile, url)
    # a path of the site is followed, query and fragment included
    httpx.post(site + "/api/signup", json={"username": "nexter_ok", "password": SECRET})
    url, _, saw = sign_in_with_next(page, seen, site, "login", "nexter_ok", "/history?x=1#top")
    assert url == site + "/history?x=1#top" and saw["dialogs"] == []
    ctx.close()


ATTACK = """
async (target) => {
  const tableWs = target.ws;
  const out = {messages: [], close: null, sit: null};
  await new Promise((resolve) => {
    const ws = new WebSocket(tableWs);
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      out.messages.push(m);
      // a seat is sent the commitment before the deal: its nonce lets the deal come at once
      if (m.type === "commitment") ws.send(JSON.stringify({type: "nonce", nonce: "00"}));
    };
    ws.onclose = (e) => { out.close = [e.code, e.reason]; resolve(); };
    setTimeout(() => { ws.close(); resolve(); }, 3000);
  });
  try {
    const r = await fetch(target.sit, {method: "POST", credentials: "include", mode: target.mode});
    out.sit = r.type === "opaque" ? "opaque" : r.status;
  } catch (e) { out.sit = String(e); }
  return out;
}
"""


class Attacker(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>a page of another site</title><p>hello"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def seated(base: str, table: str, name: str) -> bool:
    seats = httpx.get(f"{base}/api/tables/{table}").json()["seats"]
    return any(s and s.get("name") == name for s in seats)


def test_a_page_on_another_port_can_neither_read_a_hand_nor_seat_the_player(site, browser):
    evil = http.server.ThreadingHTTPServer(("127.0.0.1", _free_port()), Attacker)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        # the victim signs in on the site and plays doudizhu against two bots
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(site + "/signup")
        page.fill("input[name=username]", "victim")
        page.fill("input[name=password]", SECRET)
        page.click("button[type=submit]")
        page.wait_for_selector("#me", state="attached")
        made = page.evaluate("""() => fetch("/api/tables", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({game: "doudizhu", bots: 2})}).then((r) => r.json())""")
        assert made["status"] == "playing"
        # two open tables of someone else
        host = httpx.Client(base_url=site)
        assert host.post("/api/signup", json={"username": "tablehost", "password": SECRET}).status_code == 201
        xiangqi = {"game": "xiangqi", "settings": {"clock": "none"}}
        open_tables = [host.post("/api/tables", json=xiangqi).json()["id"] for _ in range(2)]
        ws_url = site.replace("http://", "ws://") + f"/ws/tables/{made['id']}"

        # from a page of another port of 127.0.0.1
        page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        out = page.evaluate(ATTACK, {"ws": ws_url, "sit": f"{site}/api/tables/{open_tables[0]}/sit",
                                     "mode": "no-cors"})
        assert [m["type"] for m in out["messages"]] == ["error"], out
        assert out["messages"][0]["error"] == "bad_origin"
        assert out["close"] == [4403, "bad_origin"]
        assert "hand" not in json.dumps(out["messages"])
        assert not seated(site, open_tables[0], "victim")

        # the same from the site itself
        page.goto(site + "/")
        page.wait_for_selector("#me", state="attached")
        out = page.evaluate(ATTACK, {"ws": ws_url, "sit": f"{site}/api/tables/{open_tables[1]}/sit",
                                     "mode": "same-origin"})
        states = [m for m in out["messages"] if m["type"] == "state"]
        assert out["messages"][0]["type"] == "hello" and states, out
        assert len(states[0]["view"]["hand"]) == 17
        assert out["sit"] == 200 and seated(site, open_tables[1], "victim")
        ctx.close()
    finally:
        evil.shutdown()
