"""The server's outer guard (ASGI middleware): cross-site requests, body sizes, request rates.

Every refusal is the machine-readable error of :mod:`.errors`:

* **Origin** (cross-site request forgery): a WebSocket handshake, and every state-changing HTTP
  request (POST, PUT, PATCH, DELETE), whose ``Origin`` header names another site than the one
  the request was sent to is refused: HTTP 403 ``bad_origin``; a WebSocket is accepted only to
  receive ``{"type": "error", "error": "bad_origin"}`` and be closed with code 4403 (reason
  ``bad_origin``). The request's own origin is its scheme (after a trusted proxy's
  ``X-Forwarded-Proto``, see uvicorn's ``forwarded_allow_ips``) and its ``Host`` header; the
  origins of ``Settings.allowed_origins`` are accepted as well (a site behind a proxy that
  rewrites ``Host``). A request without ``Origin`` (command-line and API clients; browsers
  always send it on these requests) is allowed: it cannot come from another site's page —
  unless its ``Sec-Fetch-Site`` header, which browsers set, says ``cross-site``. A
  Bot API request (``/api/bot/...``) with ``Authorization: Bearer`` is not checked either: it
  acts with its token alone, never a cookie (:func:`bearer_bot_api`).
* **Body size**: a body over ``Limits.body_bytes`` is refused with 413 ``too_large``, whether
  announced by ``Content-Length`` (refused before reading) or sent in chunks (refused as soon
  as the bytes read pass the limit; no more than the limit is ever held in memory).
* **Rate**: state-changing requests other than sign-in and sign-up (which have their own
  limits) are limited per client address: 429 ``rate_limited`` with ``Retry-After``.
* A request another worker of a cluster relayed here (:mod:`.relay`) was checked there and
  passes.

:class:`SafetyNet`, outside everything else, turns any unexpected exception (in a route or a
middleware) into a JSON 500 ``internal`` and logs its trace on the ``qipai.server`` logger, and
gives every HTTP answer the headers of :data:`SECURITY_HEADERS` (no content-type sniffing, no
framing by another site) and every page (HTML, but FastAPI's ``/docs`` and ``/redoc``, which load
their scripts from elsewhere) the :data:`PAGE_POLICY` content security policy.
"""

from __future__ import annotations

import contextlib
import json
import logging
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse

from .conns import address_key
from .errors import BAD_JSON, unreadable, writable, ws_error
from .ratelimit import retry_after, retry_header

log = logging.getLogger("qipai.server")
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443}
WS_BAD_ORIGIN = 4403
#: the headers of every HTTP answer (see :class:`SafetyNet`)
SECURITY_HEADERS = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"same-origin"))
#: the content security policy of the site's pages: no framing, plugins, other base or form
#: targets. (No script-src: the browser tests' Playwright evaluates strings in the page, which a
#: script-src without 'unsafe-eval' refuses.)
PAGE_POLICY = b"frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'"
#: pages of FastAPI's own whose scripts come from elsewhere: no policy of the site's
OWN_POLICY_PATHS = ("/docs", "/redoc")

Origin = tuple[str, str, int]         # (scheme, host, port), lower case, port filled in


def parse_origin(text: str) -> Origin | None:
    """``"https://Example.org"`` -> ``("https", "example.org", 443)``; None for anything that
    is not an http(s) origin (``"null"``, a path, a bad port)."""
    try:
        u = urlsplit(text.strip())
        scheme = {"ws": "http", "wss": "https"}.get(u.scheme.lower(), u.scheme.lower())
        if scheme not in DEFAULT_PORTS or not u.hostname:
            return None
        return scheme, u.hostname.lower(), u.port or DEFAULT_PORTS[scheme]
    except ValueError:
        return None


def allowed_origins(texts) -> frozenset[Origin]:
    """The parsed ``Settings.allowed_origins``; raises ValueError naming a malformed one."""
    out = set()
    for text in texts:
        origin = parse_origin(text)
        if origin is None:
            raise ValueError(f"not an origin (scheme://host[:port]): {text!r}")
        out.add(origin)
    return frozenset(out)


def _header(scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


def own_origin(scope) -> Origin | None:
    """The origin a request was sent to: its scheme and its ``Host`` header (else the address
    the server listens on)."""
    host = _header(scope, b"host")
    if host is None:
        server = scope.get("server")
        if not server:
            return None
        host = f"{server[0]}:{server[1]}".encode()
    return parse_origin(f"{scope.get('scheme', 'http')}://{host.decode('latin-1')}")


def origin_ok(scope, allowed: frozenset[Origin]) -> bool:
    """True when the request has no ``Origin`` header, or its origin is the request's own or
    an allowed one."""
    header = _header(scope, b"origin")
    if header is None:
        # no Origin: a command-line or API client, unless a browser's fetch metadata says the
        # request came from another site's page (a second safeguard; browsers send Origin too)
        return _header(scope, b"sec-fetch-site") != b"cross-site"
    origin = parse_origin(header.decode("latin-1"))
    return origin is not None and (origin == own_origin(scope) or origin in allowed)


def refusal(status: int, code: str, message: str, headers: dict[str, str] | None = None,
            **extra) -> JSONResponse:
    """The machine-readable HTTP error ``{"error": code, "code": code, "params": extra,
    "message": message, **extra}`` (see :mod:`.errors`)."""
    extra = writable(extra)
    return JSONResponse({"error": code, "code": code, "params": extra, "message": writable(message),
                         **extra},
                        status_code=status,
                        headers=headers)


class BodyTooLarge(Exception):
    pass


async def read_body(receive, limit: int) -> list[dict]:
    """The request's body messages, read to the end; raises BodyTooLarge once their bytes
    pass ``limit`` (the rest is left unread)."""
    messages, size = [], 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages
        size += len(message.get("body", b""))
        if size > limit:
            raise BodyTooLarge
        if not message.get("more_body", False):
            return messages


def replay(messages: list[dict], receive):
    """An ASGI ``receive`` that gives ``messages`` first, then the original ``receive``."""
    pending = list(messages)

    async def receive_again():
        if pending:
            return pending.pop(0)
        return await receive()
    return receive_again


def bearer_bot_api(scope) -> bool:
    """A Bot API request (``/api/bot/...``) that carries a bearer token: it acts with the token
    alone, never the cookie, so another site's page gains nothing by sending it (and a browser
    sends no such header across sites without a CORS grant, which the server never gives)."""
    auth = _header(scope, b"authorization") or b""
    return scope["path"].startswith("/api/bot/") and auth[:7].lower() == b"bearer "


class Guard:
    """ASGI middleware: the origin check, body limit and rate limit described above."""

    def __init__(self, app, settings, limits, hub=None) -> None:
        self.app = app
        self.max_body = settings.limits.body_bytes
        self.limits = limits
        self.allowed = allowed_origins(settings.allowed_origins)
        self.hub = hub
        from .relay import accept_relayed  # (relay uses this module's body helpers)

        self.accept_relayed = accept_relayed

    async def __call__(self, scope, receive, send) -> None:
        if self.hub is not None and self.hub.cluster is not None and \
                self.accept_relayed(scope, self.hub.cluster):
            return await self.app(scope, receive, send)    # checked by the worker that relayed it
        if scope["type"] == "websocket":
            if not origin_ok(scope, self.allowed):
                return await self._refuse_socket(receive, send)
        elif scope["type"] == "http":
            refused = await self._check(scope)
            if refused is None:
                try:
                    body = await read_body(receive, self.max_body)
                    receive = replay(body, receive)
                    if unreadable(b"".join(m.get("body", b"") for m in body)):
                        refused = refusal(400, "bad_json", BAD_JSON)
                except BodyTooLarge:
                    refused = self._too_large()
            if refused is not None:
                return await refused(scope, receive, send)
        await self.app(scope, receive, send)

    def _too_large(self) -> JSONResponse:
        # Connection: close - the server hangs up instead of reading (and discarding) the rest
        return refusal(413, "too_large", f"a request body has at most {self.max_body} bytes",
                       headers={"Connection": "close"}, max=self.max_body)

    async def _check(self, scope) -> JSONResponse | None:
        if scope["method"] not in STATE_CHANGING:
            return None
        if not origin_ok(scope, self.allowed) and not bearer_bot_api(scope):
            return refusal(403, "bad_origin", "this request came from a page of another site; "
                           "sign in on this site, or have the server allow that origin")
        size = _header(scope, b"content-length") or b""
        # bytes (a raw header): isdigit() is ASCII-only here
        if size.isdigit() and int(size) > self.max_body:
            return self._too_large()
        if not scope["path"].startswith(("/api/login", "/api/signup")):
            client = scope.get("client")
            wait = await self.limits.hit("api_ip", address_key(client[0]) if client else "?")
            if wait:
                return refusal(429, "rate_limited", "too many requests",
                               headers={"Retry-After": retry_header(wait)},
                               retry_after=retry_after(wait))
        return None

    @staticmethod
    async def _refuse_socket(receive, send) -> None:
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        error = ws_error("bad_origin", "this connection came from a page of another site")
        await send({"type": "websocket.send", "text": json.dumps(error)})
        await send({"type": "websocket.close", "code": WS_BAD_ORIGIN, "reason": "bad_origin"})


def secure_headers(path: str, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with :data:`SECURITY_HEADERS` (those not set already), and a page's
    :data:`PAGE_POLICY`."""
    have = {k.lower() for k, _ in headers}
    out = list(headers) + [(k, v) for k, v in SECURITY_HEADERS if k not in have]
    html = any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers)
    if html and b"content-security-policy" not in have and not path.startswith(OWN_POLICY_PATHS):
        out.append((b"content-security-policy", PAGE_POLICY))
    return out


class SafetyNet:
    """ASGI middleware: an exception that escapes the app is logged with its trace and answered
    with 500 ``{"error": "internal", "message": ...}`` (when no answer has started yet; a
    WebSocket is closed with code 1011)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        started = False

        async def watch(message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            if message["type"] == "http.response.start":
                message = {**message, "headers": secure_headers(scope.get("path", ""),
                                                                message.get("headers", []))}
            await send(message)
        try:
            await self.app(scope, receive, watch)
        except Exception:
            log.exception("%s %s failed", scope.get("method", "WEBSOCKET"), scope.get("path"))
            with contextlib.suppress(Exception):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1011, "reason": "internal"})
                elif not started:
                    await refusal(500, "internal", "the server failed to answer this request; "
                                  "the fault is logged")(scope, receive, watch)
