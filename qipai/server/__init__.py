"""The qipai server: accounts, lobby, live tables over WebSockets, records, events, web pages.

``create_app(settings)`` builds the FastAPI application; :func:`serve` runs it with uvicorn
(``qipai serve``). See ``docs/server.md``.
"""

from __future__ import annotations

from .config import Limits, Settings


def create_app(settings: Settings | None = None):
    from .app import create_app as _create

    return _create(settings)


def serve(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None,
          log_level: str = "info") -> None:
    """Run the server in this process until interrupted (one worker, SQLite by default)."""
    import gc

    import uvicorn

    app = create_app(settings)
    # A live server holds many long-lived objects (tables, states, sockets); the default
    # generation-0 threshold makes full collections frequent, each a pause of tens to hundreds
    # of milliseconds across every table. Move what exists now out of the collector's way and
    # collect less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(200_000, 100, 1_000)
    # small JSON messages: compressing each one costs more CPU than it saves on the wire
    uvicorn.run(app, host=host, port=port, log_level=log_level,
                ws_max_size=1 << 16, ws_per_message_deflate=False)


__all__ = ["Limits", "Settings", "create_app", "serve"]
