"""Stopping a process pool at once, leaving nothing behind.

``ProcessPoolExecutor.shutdown(wait=False)`` returns while the pool's manager thread still holds
its queues, whose semaphores the multiprocessing resource tracker counts as in use: a server that
then stops the tracker (or exits) is told "There appear to be N leaked semaphore objects to clean
up at shutdown", and the queues' own clean-up later fails on semaphores the tracker already
removed. :func:`stop_pool` ends the work (tasks queued are cancelled, workers terminated), then
waits for the manager thread, so that the queues are closed and their semaphores are released
when the pool is dropped.
"""

from __future__ import annotations

import gc
from concurrent.futures import ProcessPoolExecutor


def stop_pool(executor: ProcessPoolExecutor, join_s: float = 5.0) -> None:
    """Stop ``executor`` now: queued tasks cancelled, running ones abandoned (their workers
    terminated), its manager thread joined; the caller drops its last reference after this
    call (the queues' semaphores are released with the pool)."""
    procs = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        p.terminate()
    for p in procs:
        p.join(join_s)
    executor.shutdown(wait=True)       # the manager thread sees its workers gone and ends


def release() -> None:
    """Let pools dropped by :func:`stop_pool`'s callers go now (a pool and its manager refer to
    each other: a collection frees them and their queues' semaphores)."""
    gc.collect()
