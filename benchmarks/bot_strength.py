"""Strength of the built-in bot levels (docs/bots.md): each search level against random (level
1), the rule bot (level 2) and the level below, per game; for xiangqi and go also against
Fairy-Stockfish at skill level 0 and GNU Go at level 1 through the engine doors.

Two-seat games alternate who moves first; a result is a win, a draw or a loss of the level
under test, reported with its score rate (a draw counts half) and the Wilson 95% interval of the
win rate. In doudizhu the level plays one seat against two copies of the opponent, the seat
going round; the same deals are then played with the opponent in that seat too (duplicate):
besides its win rate, the level's *duplicate* record counts the deals where it won and the
opponent lost from the same seat (better) and the reverse (worse), with the Wilson interval of
better / (better + worse).

Load-independent: the bots think with their playout budgets only (no clock), so a result means
the same on a busy machine and a run is reproducible (game ``i`` is seeded by ``i``). The time
a level takes is reported as the **CPU seconds per move** of its own decisions
(``time.process_time`` in the process playing the game). With ``--live`` the measured level
thinks within its live time limit too (search.LEVEL_BUDGETS, no clock: what a live table
without a clock gives it; load-dependent), and each JSON line says ``"live": true`` and gives
``slowest_wall``, the wall seconds of the longest decision (the limit is of wall time).

Run (slow; ``nice`` on a shared machine; ``--jobs`` games at once in worker processes)::

    nice python benchmarks/bot_strength.py --only go --levels 3 --opponents rule --games 100 \
        --jobs 2 --json strength.jsonl
    python benchmarks/bot_strength.py --markdown strength.jsonl   # the table of docs/bots.md

Each game appends one JSON line (a one-game row, with its seed, outcome, end reason, number of
actions and ``slowest``, the CPU seconds of the level's longest decision) to ``--json``;
``--markdown`` merges the lines of the same pairing (runs extended with ``--first N``, the seed
of the first game) into one table row.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, fields
from itertools import islice
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import qipai  # noqa: E402
from qipai.bots import bot_levels, make_bot  # noqa: E402

#: games measured, with the options they are played with
GAMES: dict[str, dict[str, Any]] = {"gomoku": {}, "xiangqi": {}, "go": {"board_size": 9},
                                    "doudizhu": {}, "wakeng": {}, "fouafour": {}, "sandayi": {},
                                    "mahjong-gb": {"hands_per_match": 1},
                                    "laizi-mahjong": {"hands_per_match": 1},
                                    "baibian-bajue": {"hands_per_match": 1}, "chinese-checkers": {},
                                    "junqi": {}, "shengji": {}, "baohuang": {}}
LABELS = {"gomoku": "gomoku (renju)", "go": "go 9×9"}
ENGINES = {"xiangqi": ("Fairy-Stockfish, Skill Level 0, 100 ms", "/usr/games/fairy-stockfish",
                       {"options": {"Skill Level": 0}, "movetime": 100}),
           "go": ("GNU Go, level 1", "/usr/games/gnugo --mode gtp --level 1", {"movetime": 1000})}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Row:
    """One pairing's results. ``cpu``/``moves``: the level's CPU seconds and decisions;
    ``better``/``worse``: doudizhu's duplicate deals (None in two-seat games)."""

    game: str
    level: int
    opponent: str
    playouts: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    cpu: float = 0.0
    moves: int = 0
    better: int | None = None
    worse: int | None = None

    def add(self, other: Row) -> None:
        for f in ("games", "wins", "draws", "losses", "cpu", "moves"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        if other.better is not None:
            self.better = (self.better or 0) + other.better
            self.worse = (self.worse or 0) + other.worse

    def markdown(self) -> str:
        lo, hi = wilson(self.wins, self.games)
        score = (self.wins + self.draws / 2) / self.games
        dup = "–"
        if self.better is not None:
            decided = self.better + self.worse
            dlo, dhi = wilson(self.better, decided)
            share = f"{self.better / decided:.0%} [{dlo:.0%}, {dhi:.0%}]" if decided else "–"
            dup = f"{self.better}-{self.worse}: {share}"
        per_move = self.cpu / self.moves if self.moves else 0.0
        return (f"| {LABELS.get(self.game, self.game)} | {self.level} | {self.opponent} | "
                f"{self.playouts:,} | {self.games} | {self.wins}-{self.draws}-{self.losses} | "
                f"{self.wins / self.games:.0%} [{lo:.0%}, {hi:.0%}] | {score:.0%} | {dup} | "
                f"{per_move:.2f} |")


HEADER = ("| game | level | opponent | playouts/move | games | W-D-L | win rate [95% Wilson] | "
          "score | duplicate better-worse [95% Wilson] | CPU s/move |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


class Timed:
    """A bot whose decisions are counted and timed (CPU seconds of this process); ``slowest``
    is its longest decision (a live table's limit is per move, which a mean can hide)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.cpu, self.moves, self.slowest = bot, 0.0, 0, 0.0
        self.slowest_wall = 0.0          # the longest decision's wall seconds (``--live``)

    def choose(self, state: Any, seat: int) -> Any:
        t, w = time.process_time(), time.perf_counter()
        try:
            return self.bot.choose(state, seat)
        finally:
            took = time.process_time() - t
            self.cpu += took
            self.slowest = max(self.slowest, took)
            self.slowest_wall = max(self.slowest_wall, time.perf_counter() - w)
            self.moves += 1


def _play(game: Any, bots: list[Any], seed: int) -> Any:
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        seat = state.to_act[0]
        action = bots[seat].choose(state, seat)
        if action == "resign":
            state.resign(seat)
            break
        state.apply(action, seat)
    return state


#: set by ``--live`` (the environment reaches the worker processes)
LIVE = "QIPAI_STRENGTH_LIVE"


def play_one(game_id: str, level: int, opponent: str, i: int) -> dict[str, Any]:
    """Game ``i`` of a pairing (run in a worker process): the level's outcome ("win", "draw",
    "loss"), CPU seconds and moves; in doudizhu also whether the opponent won from the same
    seat and deal. ``opponent`` is a bot name or ``engine`` (the game's :data:`ENGINES` entry)."""
    game = qipai.load(game_id, **GAMES[game_id])
    mine = Timed(make_bot(game_id, bot_levels(game_id)[level], seed=i))
    if os.environ.get(LIVE):
        mine.bot.ms = mine.bot.budget.ms       # a live table's limit, without a clock
        out_live = True
    else:
        out_live = False
    seats = game.seat_counts()[0]
    out: dict[str, Any] = {}
    engine = None
    if seats == 2:
        me = i % 2
        if opponent == "engine":
            from qipai.engines import EngineBot

            label, command, kw = ENGINES[game_id]
            engine = EngineBot(game, command, name=label, **kw)
        other = engine or make_bot(game_id, opponent, seed=10_000 + i)
        bots = [mine, other] if me == 0 else [other, mine]
    else:
        me = i % seats
        bots = [make_bot(game_id, opponent, seed=100 * i + s) for s in range(seats)]
        bots[me] = mine
    try:
        end = _play(game, bots, seed=i)
    finally:
        if engine is not None:
            engine.close()
    winners = end.result.winners
    # why and when the game ended (a lost game's seed and reason tell where to look)
    out["reason"], out["plies"] = end.result.reason, len(end.log)
    # a hand that nobody wins (a drawn mahjong hand: everyone tied) is a draw
    out["outcome"] = "draw" if len(winners) in (0, seats) else "win" if me in winners else "loss"
    out["points"] = end.result.returns[me]
    if seats > 2:
        base = [make_bot(game_id, opponent, seed=100 * i + s) for s in range(seats)]
        base_end = _play(game, base, seed=i)
        out["baseline"] = me in base_end.result.winners
        out["baseline_points"] = base_end.result.returns[me]
    out["cpu"], out["moves"], out["slowest"] = mine.cpu, mine.moves, round(mine.slowest, 3)
    if out_live:
        out["live"], out["slowest_wall"] = True, round(mine.slowest_wall, 3)
    return out


def pairing(game_id: str, level: int, opponent: str, n: int, first: int, jobs: int,
            json_path: Path | None = None, minutes: float | None = None) -> Row:
    """``n`` games (seeds ``first`` ..) of the level against ``opponent``; each game is
    appended to ``json_path`` as a one-game row when given. After ``minutes`` of wall time no
    further game is started (the games under way finish)."""
    stop = None if minutes is None else time.monotonic() + 60 * minutes
    from qipai.bots.search import LEVEL_BUDGETS

    label = ENGINES[game_id][0] if opponent == "engine" else \
        f"{opponent} ({next(lv for lv, b in bot_levels(game_id).items() if b == opponent)})"
    row = Row(game_id, level, label, LEVEL_BUDGETS[level].playouts)
    seats = qipai.load(game_id, **GAMES[game_id]).seat_counts()[0]
    if seats > 2:
        row.better = row.worse = 0
        row.opponent += f", {('two', 'three', 'four')[seats - 3]} seats"
    seeds = iter(range(first, first + n))
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        # at most ``jobs`` games under way, started in seed order, recorded in seed order
        running = deque(ex.submit(play_one, game_id, level, opponent, seed) for seed in
                        islice(seeds, jobs))
        seed = first
        while running:
            try:
                res = running.popleft().result()
            except Exception as exc:      # noqa: BLE001 - the level's bot raised: a forfeit
                # on a live table a bot that raises forfeits (bot_error): the game counts lost
                # (reason "bot_error" in the JSON line); the duplicate record leaves it out
                print(f"  {game_id} seed {seed}: the level's bot raised {exc!r}", file=sys.stderr)
                res = {"outcome": "loss", "reason": "bot_error", "plies": None, "cpu": 0.0,
                       "moves": 0, **({"baseline": False} if seats > 2 else {})}
            nxt = next(seeds, None)
            if nxt is not None and (stop is None or time.monotonic() < stop):
                running.append(ex.submit(play_one, game_id, level, opponent, nxt))
            one = Row(row.game, row.level, row.opponent, row.playouts, games=1, cpu=res["cpu"],
                      moves=res["moves"], wins=int(res["outcome"] == "win"),
                      draws=int(res["outcome"] == "draw"), losses=int(res["outcome"] == "loss"))
            if "baseline" in res:
                won = res["outcome"] == "win"
                one.better, one.worse = int(won and not res["baseline"]), int(res["baseline"] and not won)
            row.add(one)
            if json_path:                  # one line a game: a run stopped early keeps its games
                extra = {k: res[k] for k in ("points", "baseline_points", "slowest", "live", "slowest_wall")
                         if k in res}
                with json_path.open("a") as f:
                    f.write(json.dumps({**asdict(one), "seed": seed, "outcome": res["outcome"],
                                        "reason": res["reason"], "plies": res["plies"],
                                        **extra}) + "\n")
            print(f"  {game_id} L{level} vs {row.opponent}: {row.wins}-{row.draws}-{row.losses}"
                  + (f" (duplicate {row.better}-{row.worse})" if row.better is not None else ""),
                  file=sys.stderr, flush=True)
            seed += 1
    return row


def markdown(path: Path) -> str:
    """The table of the JSON lines in ``path``, one row per (game, level, opponent), in the
    order of :data:`GAMES`, then levels, then the opponents' levels (engines last)."""
    rows: dict[tuple[str, int, str], Row] = {}
    names = {f.name for f in fields(Row)}
    for line in path.read_text().splitlines():
        if line.strip():
            r = Row(**{k: v for k, v in json.loads(line).items() if k in names})
            key = (r.game, r.level, r.opponent)
            if key in rows:
                rows[key].add(r)
            else:
                rows[key] = r
    order = list(GAMES)

    def opponent_level(name: str) -> int:         # "rule (2), two seats" -> 2; an engine last
        m = re.search(r"\((\d)\)", name)
        return int(m.group(1)) if m else 9

    keys = sorted(rows, key=lambda k: (order.index(k[0]) if k[0] in order else 99, k[1],
                                       opponent_level(k[2])))
    return "\n".join([HEADER] + [rows[k].markdown() for k in keys])


def points(path: Path) -> str:
    """Per pairing of three or more seats in ``path`` (games whose lines keep the points), the
    level's mean points a game (the game's own ``returns``: a shengji hand's levels, a baohuang
    deal's points, a mahjong hand's score) and the opponent's from the same seat of the same
    deal, with the mean difference and its 95% interval (normal, the differences' standard
    error)."""
    pairs: dict[tuple[str, int, str], list[tuple[float, float]]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            if "baseline_points" in r:
                pairs.setdefault((r["game"], r["level"], r["opponent"]), []).append(
                    (r["points"], r["baseline_points"]))
    out = ["| game | level | opponent | games | level's points a game | opponent's from the same "
           "seat | difference [95%] |", "|---|---|---|---|---|---|---|"]
    for (game, level, opponent), ps in pairs.items():
        n = len(ps)
        diffs = [a - b for a, b in ps]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n) if n > 1 else math.inf
        out.append(f"| {LABELS.get(game, game)} | {level} | {opponent} | {n} | "
                   f"{sum(a for a, _ in ps) / n:+.2f} | {sum(b for _, b in ps) / n:+.2f} | "
                   f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10, help="games per pairing")
    ap.add_argument("--first", type=int, default=0, help="seed of the first game (to extend a run)")
    ap.add_argument("--only", nargs="*", default=list(GAMES), help="games to measure")
    ap.add_argument("--levels", nargs="*", type=int, default=[3, 4, 5])
    ap.add_argument("--opponents", nargs="*", default=["random", "rule", "below"],
                    help="random, rule (level 2), below (the level under it) and/or engine "
                         "(xiangqi, go)")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    ap.add_argument("--minutes", type=float,
                    help="wall minutes per pairing after which no further game starts")
    ap.add_argument("--json", type=Path, help="append each game as a JSON line to this file")
    ap.add_argument("--markdown", type=Path, metavar="JSONL",
                    help="print the table of a --json file (merging runs of a pairing) and stop")
    ap.add_argument("--points", type=Path, metavar="JSONL",
                    help="print the mean points of the level and of the opponent from the same "
                         "seat and deal (games of three or more seats) in a --json file and stop")
    ap.add_argument("--live", action="store_true",
                    help="the measured level thinks within its live time limit too (load-dependent)")
    args = ap.parse_args()
    if args.live:
        os.environ[LIVE] = "1"            # read by the game's worker process (play_one)
    if args.markdown:
        print(markdown(args.markdown))
        return
    if args.points:
        print(points(args.points))
        return
    print(HEADER)
    for game_id in args.only:
        levels = bot_levels(game_id)
        for level in args.levels:
            opponents: list[str] = []
            for o in args.opponents:
                if o == "engine":
                    if game_id in ENGINES:
                        opponents.append("engine")
                    continue
                name = levels[{"random": 1, "rule": 2, "below": level - 1}[o]]
                if name not in opponents:
                    opponents.append(name)
            for opp in opponents:
                row = pairing(game_id, level, opp, args.games, args.first, args.jobs, args.json,
                              args.minutes)
                print(row.markdown(), flush=True)


if __name__ == "__main__":
    main()
