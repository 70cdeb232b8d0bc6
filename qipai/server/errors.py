"""Machine-readable errors: every refusal carries a stable ``error`` code and a ``message``.

HTTP answers ``{"error": code, "code": code, "params": extra, "message": text, ...extra}``
with the status code; WebSocket answers ``{"type": "error", "error": code, "code": code,
"params": extra, "message": text, ...extra}``. ``message`` is English; a client shows the
text of catalogue key ``error.<code>`` in its reader's language with ``params`` filled in
(:mod:`qipai.i18n`). ``extra`` stays at the top level too, for the clients that read it there.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException


class ApiError(Exception):
    """An HTTP refusal: ``status`` (400, 401, 403, 404, 409, 413, 429), ``code``, ``message``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = writable(message)
        self.extra = writable(extra)

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "code": self.code, "params": self.extra,
                "message": self.message, **self.extra}


def ws_error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """A WebSocket error message: ``code`` (catalogue key ``error.<code>``), the English
    ``message``, and ``extra`` as the template's parameters."""
    extra = writable(extra)
    return {"type": "error", "error": code, "code": code, "params": extra, "message": writable(message),
            **extra}


def writable(value: Any) -> Any:
    """``value`` with every float JSON cannot write (NaN, ±Infinity: a refusal naming what was
    sent, e.g. a komi of "nan") as its text, and every lone surrogate of a string (which UTF-8
    cannot encode) as its escape ``\\ud800``, so the refusal itself can be sent."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, str):
        return sendable(value)
    if isinstance(value, dict):
        return {sendable(k) if isinstance(k, str) else k: writable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [writable(v) for v in value]
    return value


def sendable(text: str) -> str:
    """``text`` with each lone surrogate written as its escape (``"x\\ud800"``): every string
    of an answer must encode as UTF-8."""
    return LONE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if LONE.search(text) else text


#: a lone surrogate in a decoded string (json.loads joins a valid pair into one character, so
#: any surrogate left is alone: not a character, and no UTF-8 text can hold it)
LONE = re.compile("[\ud800-\udfff]")
#: a JSON escape of a surrogate, in the raw text: only texts holding one need to be walked
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89abcdefABCDEF]")


#: the error code of FastAPI's own refusals, by status (any other status: ``http_<status>``)
HTTP_CODES = {400: "bad_json", 404: "not_found", 405: "method_not_allowed"}
BAD_JSON = ("the body is not valid JSON (bad syntax or encoding, a number too long or too large, "
            "NaN or Infinity, a string with a lone surrogate, or nested too deeply)")


class Unreadable(ValueError):
    """Valid JSON syntax the server refuses to read (see :func:`loads`)."""


class NonFinite(Unreadable):
    """A JSON text with ``NaN``, ``Infinity`` or a number past a float's range."""


class NotText(Unreadable):
    """A JSON string (or key) with a lone surrogate escape (``"\\ud800"``): valid JSON, but
    not Unicode text; no name, chat line or move can hold it, and the database cannot store it
    (it fails to encode as UTF-8)."""


def _refuse_constant(name: str) -> Any:
    raise NonFinite(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NonFinite(f"{text} is past the largest number")
    return value


def loads(text: str | bytes) -> Any:
    """``json.loads`` of standard JSON text: Python's reads ``NaN``, ``Infinity`` and ``1e400``
    as floats no option, clock or count can hold (they answered 500 from deep inside a game's
    option checks): here they raise :class:`NonFinite`; and it reads ``"\\ud800"`` as a string
    no UTF-8 answer or database row can hold (500s, and a store that could not write): here
    it raises :class:`NotText`. Both are ValueErrors (:class:`Unreadable`). This is the one
    door of every request body (:class:`~qipai.server.guard.Guard`) and socket message."""
    value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    escaped = _SURROGATE_ESCAPE_BYTES if isinstance(text, bytes) else _SURROGATE_ESCAPE
    if escaped.search(text):            # a rare text: only then walk the value's strings
        _check_text(value)
    return value


def _check_text(value: Any) -> None:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if LONE.search(v):
                raise NotText("a string holds a lone surrogate (\\ud800-\\udfff), which is not "
                              "a character")
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def unreadable(body: bytes) -> bool:
    """Whether ``body`` is JSON that :func:`loads` refuses (a number past a float, a lone
    surrogate); anything else, valid or not, is left to the framework's own parsing and its
    refusals."""
    try:
        loads(body)
    except Unreadable:
        return True
    except (ValueError, RecursionError):
        return False
    return False


def add_request_handlers(app: FastAPI) -> None:
    """Answer a request the framework refuses with ``{"error", "message"}`` and its status:

    * a body that is not JSON at all — bad syntax, not UTF-8, nested too deeply, an integer too
      long to read (FastAPI's "error parsing the body") — 400 ``bad_json``;
    * a body of the wrong shape — 400 ``bad_request`` with ``problems`` (where, what);
    * a path that does not exist — 404 ``not_found``; a method a path does not take — 405
      ``method_not_allowed`` (both keep FastAPI's ``detail`` as well)."""

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse({"error": "bad_json", "code": "bad_json", "params": {},
                                 "message": BAD_JSON}, status_code=400)
        problems = writable([{"where": ".".join(str(p) for p in e.get("loc", ())),
                              "problem": e.get("msg")} for e in errors])
        return JSONResponse({"error": "bad_request", "code": "bad_request", "params": {},
                             "message": "the request body is not valid",
                             "problems": problems}, status_code=400)

    @app.exception_handler(HTTPException)
    async def refused(request: Request, exc: HTTPException) -> Response:
        shell = getattr(request.app.state, "shell", None)
        if exc.status_code == 404 and shell and request.method == "GET" and \
                not request.url.path.startswith(("/api/", "/ws/", "/static/")) and \
                "text/html" in request.headers.get("accept", ""):
            # a browser's page (a mistyped or old link): the site's shell says so in the
            # reader's language, with the way back (web/app.js notFound), not the JSON refusal
            return HTMLResponse(shell, status_code=404)
        code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
        message = BAD_JSON if code == "bad_json" else writable(str(exc.detail))
        return JSONResponse({"error": code, "code": code, "params": {}, "message": message,
                             "detail": writable(exc.detail)},
                            status_code=exc.status_code, headers=exc.headers)
