"""`qipai serve` as a process: a second server on the same port or the same database stops
before it loads anything, so it can never write over the live games of the first."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from .server_process import free_port, start, wait_up


def tables(db: Path) -> list:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT id, status, live, settings FROM tables ORDER BY id").fetchall()


def test_a_second_server_stops_before_touching_the_first_ones_games(tmp_path):
    port = free_port()
    first = start(tmp_path, port)
    try:
        wait_up(port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as c:
            assert c.post("/api/signup", json={"username": "alice", "password": "correct horse"}
                          ).status_code == 201
            r = c.post("/api/tables", json={"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
            assert r.status_code == 201, r.text
        # the game's origin (seed and deal) reaches the file a moment after the answer
        before = tables(tmp_path / "qipai.db")
        for _ in range(300):
            if before and '"origin"' in (before[0][3] or ""):
                break
            time.sleep(0.1)
            before = tables(tmp_path / "qipai.db")
        assert before and before[0][1] == "playing"
        # the same port (another database), then the same database (another port)
        for data, other_port, says in ((tmp_path / "other", port, "cannot listen"),
                                       (tmp_path, free_port(), "another server is using")):
            second = start(data, other_port)
            out, err = second.communicate(timeout=60)
            assert second.returncode != 0 and says in err, err
            assert "startup complete" not in err
            assert tables(tmp_path / "qipai.db") == before
        assert first.poll() is None
    finally:
        first.terminate()
        out, _ = first.communicate(timeout=30)
    # the first server said where to open it, with the database it used
    assert f"open http://127.0.0.1:{port}/ in a browser" in out
    assert str(tmp_path / "qipai.db") in out


def read_only_dir(path: Path) -> Callable[[], None]:
    """Make ``path`` a folder nobody can write, even root (a read-only tmpfs mounted there when
    run as root); returns the undo."""
    path.mkdir()
    if os.geteuid() != 0:
        path.chmod(0o555)
        return lambda: path.chmod(0o755)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(path)], check=True)
    return lambda: subprocess.run(["umount", str(path)], check=True)


def test_a_read_only_data_directory_stops_the_server_with_one_line(tmp_path):
    ro = tmp_path / "ro"
    undo = read_only_dir(ro)
    try:
        for data in (ro, ro / "sub"):          # the folder itself, or one to be made in it
            server = start(data, free_port())
            out, err = server.communicate(timeout=60)
            assert server.returncode != 0
            lines = err.strip().splitlines()
            assert len(lines) == 1 and "Traceback" not in err, err
            assert "cannot" in lines[0] and str(ro) in lines[0], err
    finally:
        undo()
