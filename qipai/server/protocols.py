"""uvicorn's connection protocols, answering what they refuse themselves in JSON.

A request that never reaches the app — malformed HTTP (a bad ``Content-Length``, both
``Content-Length`` and ``Transfer-Encoding``, an unknown method) or a WebSocket handshake the
WebSocket library refuses (no ``Sec-WebSocket-Key``, an unsupported version) — is answered by
uvicorn or the ``websockets`` library with a plain-text body. These subclasses answer the same
status with ``{"error": "bad_request", "message": text}`` (``internal`` for a 500), as every
other refusal of the server (:mod:`.errors`). ``qipai serve`` runs uvicorn with them.
"""

from __future__ import annotations

import http
import json
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.datastructures import Headers
from websockets.http11 import Response


def json_error(status: int, message: str) -> bytes:
    """The body of a refusal: ``{"error": "bad_request" | "internal" | ..., "message": text}``."""
    code = "internal" if status >= 500 else "bad_request"
    return json.dumps({"error": code, "code": code, "params": {},
                       "message": message.strip() or http.HTTPStatus(status).phrase}).encode()


class JsonHTTPProtocol(AutoHTTPProtocol):      # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (httptools, else h11); an unparseable request gets JSON."""

    def send_400_response(self, msg: str) -> None:
        body = json_error(400, msg)
        self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
                             b"content-length: " + str(len(body)).encode() + b"\r\n"
                             b"connection: close\r\n\r\n" + body)
        self.transport.close()


class JsonWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol; a handshake refused by the library gets JSON."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn.reject = _json_reject        # type: ignore[method-assign]


def _json_reject(status: http.HTTPStatus | int, text: str) -> Response:
    status = http.HTTPStatus(status)
    body = json_error(status.value, text)
    headers = Headers([("Connection", "close"), ("Content-Length", str(len(body))),
                       ("Content-Type", "application/json")])
    return Response(status.value, status.phrase, headers, body)
