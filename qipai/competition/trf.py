"""An event as FIDE's Tournament Report File (TRF16, the FIDE Handbook's "TRF-2016"): the
fixed-column text a federation's rating officer, a pairing program (JaVaFo, bbpPairings,
py4swiss) or a tie-break checker reads.

The file describes individual players meeting two at a time in rounds: a Swiss or a round
robin of one stage, of a game of two seats. Any other event (a knockout, a table format, a
multi-stage event, pairs, a game of three or four) is refused with :class:`TrfRefused`, whose
code names why (the server's ``error.trf_*`` catalogue entries).

Lines (columns 1-based, as the standard counts them):

* ``012`` the event's name, ``042`` / ``052`` its first and last day (YYYY/MM/DD), ``062`` the
  number of players, ``092`` the type of tournament, ``132`` the date of each round (YY/MM/DD
  from column 92, ten columns a round);
* ``001`` a player: 5-8 the starting number (the draw number), 15-47 the name (the account),
  81-84 the points, 86-89 the rank (the event's standings), then for each round, from column
  92, ten columns: 4 the opponent's starting number (``0000`` none), 1 space, the colour
  (``w`` the first mover of the match, ``b`` the second, ``-`` none), 1 space, the result.

The results are TRF's: ``1`` ``=`` ``0`` a game played, ``+`` / ``-`` a walkover (forfeit), ``-``
for both when neither came, ``U`` the bye the pairing gave (a full point), ``Z`` a round the
player was not paired in (withdrawn). The points column is the TRF sum of those results (1, ½,
0; a forfeit win and a bye 1), so the file is consistent for any reader; the rank is the
event's own standings rank (its scoring and tie-breaks). Only the rounds every match of which
is over are written (a round still being played has no results to report), with the standings
at the end of the last of them.
"""

from __future__ import annotations

from typing import Any

from .director import Director

#: what a TRF result is worth (points times ten)
VALUE = {"1": 10, "+": 10, "W": 10, "U": 10, "F": 10, "=": 5, "D": 5, "H": 5}
#: the stage kinds a TRF describes
KINDS = {"swiss": "Individual: Swiss-System (FIDE Dutch)", "round_robin": "Individual: round robin"}


class TrfRefused(Exception):
    """The event is not one a TRF describes: ``code`` (``trf_game``, ``trf_format``,
    ``trf_pairs``, ``trf_no_draw``) and ``params`` say why; ``args[0]`` in English."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def check(d: Director) -> None:
    """Raise :class:`TrfRefused` unless the event ``d`` directs is one a TRF describes."""
    ev = d.ev
    if ev.status == "registration":
        raise TrfRefused("the event has no draw yet: its TRF is written from round 1 on", "trf_no_draw")
    if d.full.pairs:
        raise TrfRefused("a TRF describes players of their own, not pairs", "trf_pairs")
    if d.cfg.seats != 2:
        raise TrfRefused(f"a TRF describes games between two players; this event's games seat {d.cfg.seats}",
                         "trf_game", seats=d.cfg.seats)
    if d.stages != 1 or d.stage not in KINDS:
        raise TrfRefused("a TRF describes a Swiss or a round robin of one stage, not this event's format",
                         "trf_format")


def describable(d: Director) -> bool:
    """Whether :func:`write_trf` writes the event (:func:`check` passes)."""
    try:
        check(d)
    except TrfRefused:
        return False
    return True


def _date(iso: str | None, short: bool = False) -> str:
    """``YYYY/MM/DD`` (``YY/MM/DD`` when ``short``) of an ISO time; blanks when unknown."""
    if not iso or len(iso) < 10:
        return " " * (8 if short else 10)
    y, m, day = iso[:4], iso[5:7], iso[8:10]
    return f"{y[2:] if short else y}/{m}/{day}"


def _name(s: str) -> str:
    """A name for columns 15-47: one line, at most 33 characters."""
    return " ".join(s.split())[:33]


def player_line(number: int, name: str, points10: int, rank: int, rounds: list[tuple[int, str, str]]) -> str:
    """One ``001`` line (see the module's columns)."""
    head = f"001 {number:>4}      {_name(name):<33} {'':>4} {'':<3} {'':>11} {'':<10} " \
           f"{points10 // 10:>2}.{points10 % 10} {rank:>4}"
    assert len(head) == 89, head
    return head + "".join(f"  {opp:>4} {colour} {res}" for opp, colour, res in rounds)


def complete_rounds(d: Director) -> list[int]:
    """The stage's rounds written: those before the first with a match not over."""
    by_round: dict[int, bool] = {}
    for m in d.matches():
        by_round[m.round] = by_round.get(m.round, True) and m.status == "finished"
    out = []
    for rnd in sorted(by_round):
        if not by_round[rnd]:
            break
        out.append(rnd)
    return out


def write_trf(d: Director) -> str:
    """The event ``d`` directs as a TRF16 file (lines ending in CR LF). Raises
    :class:`TrfRefused` for an event a TRF cannot describe (:func:`check`)."""
    check(d)
    ev = d.ev
    rounds = complete_rounds(d)
    last = rounds[-1] if rounds else None
    # draw number -> per written round (opponent, colour, result)
    history: dict[int, list[tuple[int, str, str]]] = {x: [] for x in d.by_draw}
    days: list[str] = []
    finished: list[str] = []
    for rnd in rounds:
        seen: set[int] = set()
        day = ""
        for m in d.matches(rnd):
            res = m.result or {}
            for g in m.games:
                if g.finished:
                    day = max(day, g.finished)
                    finished.append(g.finished)
            if m.kind == "bye":
                (x,) = m.entrants
                history[x].append((0, "-", "U" if res.get("winner") is not None else "Z"))
                seen.add(x)
                continue
            a, b = m.entrants
            w = res.get("winner")
            ra, rb = ("=", "=") if w is None else (("1", "0") if w == a else ("0", "1"))
            if res.get("decided_by") == "walkover":
                ra, rb = ("+", "-") if w == a else ("-", "+")
            elif res.get("decided_by") == "double_no_show":
                ra, rb = "-", "-"
            history[a].append((b, "w", ra))
            history[b].append((a, "b", rb))
            seen.update((a, b))
        for x, h in history.items():
            if x not in seen:
                h.append((0, "-", "Z"))
        days.append(day)
    table = d.standings(last) if last is not None else d.standings(d.round0)
    rank = {r["draw"]: r["rank"] for r in table}
    lines = [f"012 {_name(ev.name)}"]
    start = _date(ev.created)
    if start.strip():
        lines.append(f"042 {start}")
    if ev.status == "finished" and finished:
        lines.append(f"052 {_date(max(finished))}")
    lines += [f"062 {len(d.by_draw)}", f"092 {KINDS[d.stage]}"]
    if any(days):
        lines.append("132" + " " * 88 + "  ".join(_date(x, short=True) for x in days))
    for x in sorted(d.by_draw):
        h = history[x]
        lines.append(player_line(x, d.by_draw[x].entrant_id, sum(VALUE.get(r, 0) for _, _, r in h),
                                 rank.get(x, 0), h))
    return "\r\n".join(lines) + "\r\n"
