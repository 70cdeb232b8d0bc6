"""pytest's rewritten test modules, written once before the xdist workers collect.

Each worker imports every test file to collect the suite, and pytest rewrites each one's
``assert`` statements first (parse, rewrite, compile), caching the result beside it
(``__pycache__/*-pytest-*.pyc``) unless bytecode is not to be written
(``PYTHONDONTWRITEBYTECODE``, set where CI runs). A clean clone has no such cache, and the
workers collect at once, so every worker rewrote all ~390 files: ~14 s of a worker's ~21 s of
CPU collecting (three workers: ~40 s of the two cores at the run's start). :func:`write` makes
the cache in the main process before the workers start, the files shared among one process per
core; a worker then reads it (pytest reads a cached file whatever the variable says) and
collects in ~7 s. The rewrite is pytest's own (its ``_rewrite_test`` and ``_write_pyc``); where
this pytest has not got them, or asserts are not rewritten, nothing is written and the workers
rewrite as before.
"""

from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
_config: list = []


def _rewritten(p: Path) -> bool:
    return (p.name.startswith("test_") or p.name == "conftest.py") and "__pycache__" not in p.parts


def test_files(args: list[str] | None = None) -> list[Path]:
    """The files pytest rewrites when it collects the suite, or the run's ``args`` (its paths or
    node ids) within it: the test files and the conftest files above them."""
    if not args:
        return sorted(p for p in HERE.rglob("*.py") if _rewritten(p))
    found: set[Path] = set()
    for arg in args:
        path = Path(arg.split("::", 1)[0]).resolve()
        if path.is_dir():
            found.update(p for p in path.rglob("*.py") if _rewritten(p))
        elif path.suffix == ".py" and path.is_file() and _rewritten(path):
            found.add(path)
        for parent in path.parents:
            if (parent / "conftest.py").exists():
                found.add(parent / "conftest.py")
    return sorted(p for p in found if p.is_relative_to(HERE))


def _write_one(path: str) -> bool:
    """Rewrite the file ``path`` and cache it, unless its cache is up to date; whether it wrote."""
    from _pytest.assertion import rewrite

    config = _config[0]
    fn = Path(path)
    cache = rewrite.get_cache_dir(fn)
    pyc = cache / (fn.name[:-3] + rewrite.PYC_TAIL)
    if rewrite._read_pyc(fn, pyc) is not None:
        return False
    source_hash, co = rewrite._rewrite_test(fn, config)
    return rewrite.try_makedirs(cache) and rewrite._write_pyc(
        config.stash[rewrite.assertstate_key], co, source_hash, pyc)


def write(config, processes: int) -> int:
    """Cache the rewritten test files of the run (see the module's docstring) over ``processes``
    forked processes; the number of files written (0 where it cannot be done)."""
    if config.getoption("assertmode", "rewrite") != "rewrite" or not hasattr(os, "fork"):
        return 0
    try:
        from _pytest.assertion import rewrite

        if not all(hasattr(rewrite, name) for name in
                   ("get_cache_dir", "PYC_TAIL", "_read_pyc", "_rewrite_test", "try_makedirs", "_write_pyc",
                    "assertstate_key")) or rewrite.assertstate_key not in config.stash:
            return 0
    except ImportError:
        return 0
    import multiprocessing

    _config[:] = [config]
    try:
        paths = [str(p) for p in test_files(config.args)]
        with multiprocessing.get_context("fork").Pool(max(1, processes)) as pool:
            return sum(pool.map(_write_one, paths, chunksize=8))
    finally:
        _config.clear()
