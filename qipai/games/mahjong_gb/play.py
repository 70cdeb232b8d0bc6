"""``qipai play mahjong-gb``: the human at one seat, bots at the other three, in the terminal.

Each time the human may act, the table is printed (own hand, every seat's discards, melds and
flowers) with the legal actions; type one (``discard 5p``, ``win``, ``pung``, ``chow 345p``,
``pass``, ...) or its number. Commands: ``help``, ``quit``. A refused action is answered with
the reason and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from qipai.bots import make_bot
from qipai.core.errors import IllegalAction


def table_text(view: dict) -> str:
    """A plain-text table of ``state.view(seat)``."""
    me = view["you"]
    lines = [f"hand {view['hand']}/{view['hands_per_match']}  prevalent {view['prevalent']}  "
             f"wall {view['wall']}"]
    for s in view["seats"]:
        tag = "you" if s["seat"] == me else f"seat {s['seat']}"
        melds = " ".join(_meld_text(m) for m in s["melds"])
        ponds = " ".join(d["tile"] + ("*" if d["claimed"] else "") for d in s["discards"])
        lines.append(f"{tag:>7} [{s['wind']}] score {s['score']:>5}  melds: {melds or '-'}  "
                     f"flowers: {s['flowers'] or '-'}")
        lines.append(f"         discards: {ponds or '-'}")
    mine = view["seats"][me]
    lines.append(f"your hand: {mine['hand']}" + (f"   drew {mine['drawn']}" if mine.get("drawn") else ""))
    if "claim" in view:
        c = view["claim"]
        if c["kind"] == "rob_concealed":
            lines.append(f"seat {c['from']} declares a concealed kong")
        else:
            verb = "discarded" if c["kind"] == "discard" else "adds a kong with"
            lines.append(f"seat {c['from']} {verb} {c['tile']}")
    return "\n".join(lines)


def _meld_text(m: dict) -> str:
    if "tiles" not in m:
        return "(concealed kong)"
    return f"({m['tiles']})" if m.get("concealed") else f"[{m['tiles']}]"


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one match (``hands_per_match`` hands) with the human at ``seat``."""
    if seat not in range(4):
        raise IllegalAction("mahjong-gb seats are 0..3", code="mahjong-gb.mahjong_gb_seats")
    state = game.new_state(seed=seed if seed is not None else 0)
    bots = {s: make_bot(game.id, bot, None if seed is None else seed + s) for s in range(4) if s != seat}
    console.print(f"You are seat {seat}; three {bot} bots play the others. Type help for commands.",
                  markup=False)
    seen_hands = 0
    while not state.is_terminal():
        if len(state.hand_results) > seen_hands:
            _report(state.hand_results[seen_hands], console)
            seen_hands += 1
        acting = state.to_act
        only_pass = state.phase != "turn" and [str(a) for a in state.legal_actions(seat)] == ["pass"]
        if seat in acting and only_pass:
            state.apply("pass", seat=seat)   # every seat answers every discard; nothing to ask
            continue
        if seat in acting:
            view = state.view(seat)
            console.print(table_text(view), markup=False)
            legal = view["legal"]
            console.print("  ".join(f"{i}:{a}" for i, a in enumerate(legal, 1)), markup=False)
            line = read_line("your action> ").strip()
            if line in ("quit", "exit"):
                console.print("Match abandoned.", markup=False)
                return
            if line == "help":
                console.print("Type an action as listed or its number: discard 5p, win, kong 5p, add 5p, "
                              "pass, pung, kong, chow 345p.", markup=False)
                continue
            if line.isdecimal() and 1 <= int(line) <= len(legal):
                line = legal[int(line) - 1]
            try:
                state.apply(line, seat=seat)
            except IllegalAction as e:
                console.print(f"Refused: {e.reason}", markup=False)
            continue
        s = next(x for x in acting if x != seat)
        a = bots[s].choose(state, s)
        if a.kind not in ("pass", "discard"):
            console.print(f"seat {s}: {a}", markup=False)
        state.apply(a, seat=s)
    for info in state.hand_results[seen_hands:]:
        _report(info, console)
    res = state.result
    console.print(f"Match over: scores {' '.join(str(int(x)) for x in res.returns)}; table points "
                  f"{res.details.get('table_points')}", markup=False)


def _report(info: dict, console: Console) -> None:
    if not info["winners"]:
        console.print(f"Hand {info['hand']}: drawn (wall exhausted).", markup=False)
        return
    for w in info["winners"]:
        f = info["fans"][str(w)]
        names = ", ".join(f"{x['name']} {x['value']}" + (f"×{x['count']}" if x["count"] > 1 else "")
                          for x in f["fans"])
        console.print(f"Hand {info['hand']}: seat {w} wins ({info['how']}) {f['hand']}\n"
                      f"  {names} = {f['total']}", markup=False)
    console.print(f"  payments {info['payments']}", markup=False)
