"""Loops of the browser tests bounded by time, not by a count of rounds: on a loaded machine the
bots are slower and a page waits more rounds for its turn, so a round count runs out before the
game ends while a time bound does not."""

from __future__ import annotations

import time
from collections.abc import Iterator

#: how long a page may wait for a finished game's record link (ms): the link comes once the
#: server has written the record, queued behind the game's log rows, which a machine whose
#: disk and cores are shared with other work can hold up for longer than Playwright's default
#: 30 s (a waited condition: a quick server shows it at once)
RECORD_MS = 120_000


def until(seconds: float) -> Iterator[int]:
    """Yield 0, 1, 2, ... until ``seconds`` of wall time have passed."""
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        yield n
        n += 1
