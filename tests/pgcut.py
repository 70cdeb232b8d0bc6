"""A TCP proxy in front of the test PostgreSQL that breaks a connection right after a COMMIT went
through: the server's answer to the COMMIT (its CommandComplete ``COMMIT``) is never passed on and
both sockets are closed, so the client sees its connection lost while the transaction is stored.

:meth:`CommitCut.arm` names a piece of SQL (``b"INSERT INTO users"``): the next transaction
whose statements contain it is cut at its COMMIT, once. Connections go through the proxy with
``sslmode=disable`` (the server's messages are then all typed: kind byte, length, body)."""

from __future__ import annotations

import socket
import struct
import threading
from urllib.parse import urlsplit, urlunsplit


class CommitCut:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pattern: bytes | None = None
        #: how many commits were cut (each stored by the server, its answer never delivered)
        self.cuts = 0
        self.cut_done = threading.Event()
        self._socks: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        """``url`` (a SQLAlchemy URL of the test server) through the proxy."""
        parts = urlsplit(url)
        netloc = parts.netloc.rsplit("@", 1)
        host = f"127.0.0.1:{self.port}"
        netloc = f"{netloc[0]}@{host}" if len(netloc) == 2 else host
        query = "&".join(x for x in (parts.query, "sslmode=disable", "gssencmode=disable") if x)
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))

    def arm(self, pattern: bytes) -> None:
        """Cut the next transaction that sends ``pattern``, right after its COMMIT is stored."""
        with self.lock:
            self.pattern = pattern
            self.cut_done.clear()

    def close(self) -> None:
        self.listener.close()
        for s in list(self._socks):
            _close(s)

    # ----- the proxy ----------------------------------------------------------------------------
    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self._socks += [client, server]
            state = {"tainted": False}
            threading.Thread(target=self._up, args=(client, server, state), daemon=True).start()
            threading.Thread(target=self._down, args=(server, client, state), daemon=True).start()

    def _up(self, client: socket.socket, server: socket.socket, state: dict) -> None:
        """Client to server, as it comes; a statement holding the armed pattern taints the
        connection (its transaction's COMMIT answer is cut)."""
        tail = b""
        while True:
            data = _recv(client)
            if not data:
                _close(server)
                return
            seen = tail + data
            with self.lock:
                if self.pattern is not None and self.pattern in seen:
                    state["tainted"] = True
                    self.pattern = None
            tail = seen[-200:]
            try:
                server.sendall(data)
            except OSError:
                _close(client)
                return

    def _down(self, server: socket.socket, client: socket.socket, state: dict) -> None:
        """Server to client, message by message; a tainted connection's CommandComplete of a
        COMMIT is dropped and both sockets closed."""
        buf = b""
        while True:
            data = _recv(server)
            if not data:
                _close(client)
                return
            buf += data
            out = b""
            while len(buf) >= 5:
                size = struct.unpack("!I", buf[1:5])[0]
                if len(buf) < 1 + size:
                    break
                msg, buf = buf[:1 + size], buf[1 + size:]
                if state["tainted"] and msg[:1] == b"C" and msg[5:].rstrip(b"\0") == b"COMMIT":
                    if out:
                        client.sendall(out)
                    self.cuts += 1
                    _close(client)
                    _close(server)
                    self.cut_done.set()
                    return
                out += msg
            try:
                if out:
                    client.sendall(out)
            except OSError:
                _close(server)
                return


def _recv(sock: socket.socket) -> bytes:
    """What ``sock`` has next, or b"" once it is closed or broken."""
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
