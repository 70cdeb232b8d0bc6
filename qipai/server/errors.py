"""Machine-readable errors: every refusal carries a stable ``error`` code and a ``message``.

HTTP answers ``{"error": code, "code": code, "params": extra, "message": text, ...extra}``
with the status code; WebSocket answers ``{"type": "error", "error": code, "code": code,
"params": extra, "message": text, ...extra}``. ``message`` is English; a client shows the
text of catalogue key ``error.<code>`` in its reader's language with ``params`` filled in
(:mod:`qipai.i18n`). ``extra`` stays at the top level too, for the clients that read it there.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException


class ApiError(Exception):
    """An HTTP refusal: ``status`` (400, 401, 403, 404, 409, 413, 429), ``code``, ``message``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "code": self.code, "params": self.extra,
                "message": self.message, **self.extra}


def ws_error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """A WebSocket error message: ``code`` (catalogue key ``error.<code>``), the English
    ``message``, and ``extra`` as the template's parameters."""
    return {"type": "error", "error": code, "code": code, "params": extra, "message": message,
            **extra}


#: the error code of FastAPI's own refusals, by status (any other status: ``http_<status>``)
HTTP_CODES = {400: "bad_json", 404: "not_found", 405: "method_not_allowed"}
BAD_JSON = ("the body is not valid JSON (bad syntax or encoding, a number too long, or nested "
            "too deeply)")


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
        problems = [{"where": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg")}
                    for e in errors]
        return JSONResponse({"error": "bad_request", "code": "bad_request", "params": {},
                             "message": "the request body is not valid",
                             "problems": problems}, status_code=400)

    @app.exception_handler(HTTPException)
    async def refused(request: Request, exc: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
        message = BAD_JSON if code == "bad_json" else str(exc.detail)
        return JSONResponse({"error": code, "code": code, "params": {}, "message": message,
                             "detail": exc.detail},
                            status_code=exc.status_code, headers=exc.headers)
