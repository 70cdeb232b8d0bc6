"""Replay every real renju and gomoku record of ../shared/data through the referee.

    .venv/bin/python benchmarks/renju_replay.py [--jobs 2] [--limit N] [--write-docs]

* ``renju/dasimagin-renju_train-2.tar.xz``: 147,229 human renju games, one a line, read
  straight from the archive; replayed as renju (h8 first, forbidden moves lose, passes allowed,
  no dead-draw rule).
* ``gomoku/yixin_selfplay/*.rec``: 617 Piskvork games between engines, replayed as freestyle.

Each game gets one category (:func:`qipai.games.gomoku.records.classify`): ``ok``,
``unfinished``, ``result_contradicts_board``, ``moves_after_end``, ``illegal_move``; an
exception escaping the referee would be an ``engine_error``. The summary (a Markdown table)
is printed and, with ``--write-docs``, written into ``docs/games/renju.md`` between the
``replay-summary`` markers.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tarfile
import time
import traceback
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from qipai.games.gomoku import records  # noqa: E402
from qipai.games.gomoku.notation import parse_point  # noqa: E402

try:                                               # the peer's verdict on disputed stones
    from renju.check_forbid import get_foul_type
except ImportError:                                # pragma: no cover - dev extra missing
    get_foul_type = None
PEER_KINDS = {0: None, 1: "double_three", 2: "double_four", 3: "overline"}


def peer_verdict(rec, move: int) -> str:
    """The ``renju`` package's verdict on the black stone of ``move`` (1-based) of ``rec``."""
    if get_foul_type is None:
        return "peer not installed"
    grid = [[0] * 15 for _ in range(15)]
    for i, text in enumerate(rec.actions[:move - 1]):
        if text != "pass":
            p = parse_point(text)
            grid[p % 15][p // 15] = 1 if i % 2 == 0 else 2
    p = parse_point(rec.actions[move - 1])
    kind = PEER_KINDS[get_foul_type(grid, p % 15, p // 15)]
    return f"renju package: {kind or 'not forbidden'}"

SHARED = ROOT.parent / "shared" / "data"
ARCHIVE = SHARED / "renju" / "dasimagin-renju_train-2.tar.xz"
REC_DIR = SHARED / "gomoku" / "yixin_selfplay"
DOC = ROOT / "docs" / "games" / "renju.md"


def detail(category: str, rec, d) -> str:
    """A finer label inside a category, for the summary."""
    if category in ("ok", "unfinished"):
        res = d.result
        if res is None:
            return "no result recorded, game not over"
        word = rec.meta.get("recorded_result") or res.text
        if res.reason == "unknown":
            return f"{word}: ending not on the board (resign/time/agreement), result applied"
        return f"{res.text} {res.reason}"
    if category == "result_contradicts_board":
        m = re.search(r"recorded result (\S+) but the rules give (\S+) \((\w+)\)", d.reason)
        if not m:
            return d.reason
        label = f"recorded {m.group(1)}, board gives {m.group(2)} ({m.group(3)})"
        if m.group(3) in PEER_KINDS.values():
            label += f"; {peer_verdict(rec, d.move)}"
        return label
    if category == "moves_after_end":
        m = re.search(r"already over \((\w+)\)", d.reason)
        label = f"game over by {m.group(1)} before the last recorded move"
        if m.group(1) in PEER_KINDS.values():
            label += f"; {peer_verdict(rec, d.move - 1)}"
        return label
    if category == "illegal_move":
        reason = d.reason.replace("illegal move: ", "")
        return re.sub(r"\b[a-o]\d{1,2}\b", "<p>", reason)
    return d


def classify_lines(args):
    text, first_index, source = args
    cats: Counter = Counter()
    fine: Counter = Counter()
    examples = {}
    recs = records.read_lines(text, source)
    for k, rec in enumerate(recs):
        idx = first_index + k
        try:
            cat, d = records.classify(rec, source)
            label = detail(cat, rec, d)
        except Exception:                          # an engine error: reported, never hidden
            cat, label = "engine_error", traceback.format_exc(limit=3).splitlines()[-1]
        cats[cat] += 1
        fine[(cat, label)] += 1
        examples.setdefault((cat, label), idx)
    return cats, fine, examples


def classify_rec(path: Path):
    rec = records.read_rec(path.read_bytes(), path.name)[0]
    try:
        cat, d = records.classify(rec, path.name)
        return cat, detail(cat, rec, d), path.name
    except Exception:
        return "engine_error", traceback.format_exc(limit=3).splitlines()[-1], path.name


def renju_chunks(limit: int | None, size: int = 2000):
    with tarfile.open(fileobj=io.BytesIO(ARCHIVE.read_bytes()), mode="r:xz") as tar:
        member = next(m for m in tar if m.isfile())
        lines = tar.extractfile(member).read().decode("ascii").splitlines()
    if limit:
        lines = lines[:limit]
    for start in range(0, len(lines), size):
        yield "\n".join(lines[start:start + size]), start + 1, member.name


def table(title: str, total: int, cats: Counter, fine: Counter, examples: dict, where: str) -> str:
    out = [f"### {title}: {total:,} games", "", "| category | games | detail | games | e.g. |",
           "|---|---:|---|---:|---|"]
    order = ["ok", "unfinished", "result_contradicts_board", "moves_after_end", "illegal_move",
             "engine_error"]
    for cat in order:
        if not cats.get(cat):
            continue
        first = True
        for (c, label), n in sorted(fine.items(), key=lambda kv: -kv[1]):
            if c != cat:
                continue
            out.append(f"| {cat if first else ''} | {cats[cat] if first else ''} | {label} | {n} "
                       f"| {where} {examples[(c, label)]} |")
            first = False
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=None, help="only the first N renju lines")
    ap.add_argument("--write-docs", action="store_true")
    args = ap.parse_args()
    t0 = time.perf_counter()
    cats: Counter = Counter()
    fine: Counter = Counter()
    examples: dict = {}
    with Pool(args.jobs) as pool:
        for c, f, e in pool.imap(classify_lines, renju_chunks(args.limit)):
            cats.update(c)
            fine.update(f)
            for k, v in e.items():
                examples.setdefault(k, v)
        t_renju = time.perf_counter() - t0
        t1 = time.perf_counter()
        g_cats: Counter = Counter()
        g_fine: Counter = Counter()
        g_ex: dict = {}
        for cat, label, name in pool.map(classify_rec, sorted(REC_DIR.glob("*.rec"))):
            g_cats[cat] += 1
            g_fine[(cat, label)] += 1
            g_ex.setdefault((cat, label), name)
        t_gomoku = time.perf_counter() - t1
    n_renju, n_gomoku = sum(cats.values()), sum(g_cats.values())
    summary = "\n\n".join([
        table(f"renju (`{ARCHIVE.name}`)", n_renju, cats, fine, examples, "line"),
        table("freestyle gomoku (`yixin_selfplay/*.rec`)", n_gomoku, g_cats, g_fine, g_ex, ""),
        f"Run: `benchmarks/renju_replay.py --jobs {args.jobs}`, {n_renju:,} renju games in "
        f"{t_renju:.0f} s, {n_gomoku} gomoku games in {t_gomoku:.1f} s; engine errors: "
        f"{cats.get('engine_error', 0) + g_cats.get('engine_error', 0)}.",
    ])
    print(summary)
    if args.write_docs:
        text = DOC.read_text(encoding="utf-8")
        start, end = "<!-- replay-summary:start -->", "<!-- replay-summary:end -->"
        i, j = text.index(start) + len(start), text.index(end)
        DOC.write_text(text[:i] + "\n" + summary + "\n" + text[j:], encoding="utf-8")
        print(f"written into {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
