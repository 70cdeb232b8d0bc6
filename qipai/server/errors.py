"""Machine-readable errors: every refusal carries a stable ``error`` code and a ``message``.

HTTP answers ``{"error": code, "message": text, ...extra}`` with the status code;
WebSocket answers ``{"type": "error", "error": code, "message": text, ...extra}``.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An HTTP refusal: ``status`` (400, 401, 403, 404, 409, 413, 429), ``code``, ``message``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


def ws_error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "error": code, "message": message, **extra}
