"""What ``qipai event show`` prints: an event's draw, its rounds with their matches and games,
the standings, the penalty ledger and the champion, in the chosen language."""

from __future__ import annotations

import json
from typing import Any

from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from qipai.console import console
from qipai.i18n import current, say


def heading(key: str, params: dict[str, Any] | None = None) -> str:
    """A table's title or a column's heading from the catalogue, Rich markup escaped."""
    return escape(say(key, params))


def champion(outcome: dict[str, Any]) -> None:
    console.print(say("cli.ev.champion", {"champion": outcome["champion"],
                                          "runners": ", ".join(outcome["runner_up"]) or "-"}), markup=False)


def render(d, header: bool = True, footer: bool = True) -> None:
    ev = d.ev
    name = {k: e.entrant_id for k, e in d.by_draw.items()}
    if header:
        # an event named by its preset's title (the default) is named in the chosen language
        title = say(f"preset.{ev.preset}", default=ev.name) if ev.name == (ev.config or {}).get("title") \
            else ev.name
        console.print(f"[bold]{escape(ev.id)}[/bold] — {escape(title)}", markup=True)
        console.print(say("cli.ev.header", {"preset": ev.preset, "game": ev.game, "stage": d.stage, "n": d.n,
                                            "status": ev.status, "commitment": ev.commitment[:16]}),
                      markup=False)
    if d.stages > 1:
        console.print(f"[bold]{heading('cli.ev.stageOf', {'no': d.stage_no, 'of': d.stages})}[/bold]: "
                      + heading("cli.ev.stageLine", {"stage": d.stage, "n": d.n}), markup=True)
    draw = Table(title=heading("reg.draw"), show_lines=False)
    for c in ("no", "player", "bot", "status"):
        draw.add_column(heading(f"cli.ev.col.{c}"))
    human = say("cli.ev.human")
    for k, e in sorted(d.by_draw.items()):
        status = escape(say("cli.ev.entrant", {"status": e.status}))
        if e.members:
            who = " + ".join(f"{x['id']} ({x['bot'] or human})" for x in e.members)
            draw.add_row(str(k), escape(e.entrant_id), escape(who), status)
        else:
            draw.add_row(str(k), escape(e.entrant_id), escape(e.bot or human), status)
    console.print(draw)
    tree = Tree(heading("cli.ev.rounds"))
    rounds: dict[int, list] = {}
    for m in d.matches():
        rounds.setdefault(m.round, []).append(m)
    for r, ms in rounds.items():
        branch = tree.add(heading("cli.ev.round", {"n": r}))
        for m in ms:
            who = say("cli.ev.vs").join(d.name(x) for x in m.entrants)
            res = _match_text(d, m)
            win = (m.result or {}).get("winner")
            label = f"{m.index}. {who}" + (f" — {res}" if res else "") + \
                (f" → {name[win]}" if win is not None and m.kind != "bye" else "")
            node = branch.add(escape(label))
            for g in m.games:
                if m.kind != "session" or g.status == "pending":
                    node.add(escape(_game_line(d, g)))
            if m.kind == "session":
                n_done = sum(1 for g in m.games if g.status == "finished")
                node.add(heading("cli.ev.dealsPlayed", {"n": n_done}))
    console.print(tree)
    columns = {"table_swiss": ("rank", "player", "tablePoints", "score", "byes"),
               "round_robin": ("rank", "player", "points", "sb", "wins"),
               "swiss": ("rank", "player", "points", "sb", "wins")}.get(d.stage)
    if columns:
        t = Table(title=heading("standings"))
        for c in columns:
            t.add_column(heading(f"cli.ev.col.{c}"))
        for row in d.standings():
            t.add_row(str(row["rank"]), escape(row["id"]), f"{row['points']:g}",
                      *((f"{row['measure']:g}", str(row["byes"])) if d.stage == "table_swiss"
                        else (f"{row['sb']:g}", str(row["wins"]))))
        console.print(t)
    if footer:
        render_penalties(d)
    if ev.outcome and footer:
        champion(ev.outcome)
        if "placement_points" in ev.outcome:
            pts = ev.outcome["placement_points"].items()
            console.print(say("cli.ev.placement", {"points": ", ".join(f"{k} {v:g}" for k, v in pts)}),
                          markup=False)


def _match_text(d, m) -> str:
    """A finished match's result as ``event show`` gives it: the referee's English text, or in
    another language the same from the result's fields (a series' score and games, a walkover,
    a forfeit, a session's scores and how equal ones were decided)."""
    r = m.result or {}
    text = r.get("text", "")
    if current() == "en" or not text:
        return text
    by = r.get("decided_by")
    if "points" in r and "games" in r:                       # a two-sided series
        if by == "double_no_show":
            return say("cli.ev.m.allAbsent")
        if by == "walkover":
            return say("cli.ev.m.walkover", {"who": [d.by_draw[x].entrant_id for x in m.absent or []]})
        if by == "forfeit":
            return say("cli.ev.m.forfeit", {"who": [d.by_draw[x].entrant_id for x in m.entrants
                                                    if x != r.get("winner")]})
        a, b = r["points"]
        score = f"{a:g}-{b:g}" if min(a, b) >= 0 else f"{a:g} : {b:g}"
        return say("cli.ev.m.series", {"score": score, "n": r["games"]})
    if text == "walkover":
        return say("cli.ev.m.walkoverSession")
    if text in ("all absent", "both absent"):
        return say("cli.ev.m.allAbsent")
    if text.startswith("forfeit by "):
        return say("cli.ev.m.forfeit", {"who": text.removeprefix("forfeit by ")})
    if by in ("on_stage", "captured_points", "extra_deals"):
        text = text.removesuffix(f" ({by.replace('_', ' ')})") + say(f"cli.ev.m.by.{by}")
    return text


def _game_line(d, g) -> str:
    """One game of a match as ``event show`` lists it: its players, clock and result."""
    line = say("cli.ev.game", {"id": g.id, "number": g.number,
                               "players": " / ".join(d.seat_player(g, i)[0] for i in range(len(g.seats)))})
    clock = g.spec.get("clock")
    if clock:
        line += say("cli.ev.clock", {"clock": clock if isinstance(clock, str) else json.dumps(clock)})
    if not g.result:
        return line + say("cli.ev.gameResult", {"text": say("cli.ev.pending")})
    text, reason = g.result["text"], g.result["reason"]
    shown = say(f"cli.ev.g.{text}", default=text)              # forfeit, void: words; else a score
    if reason and reason != text:
        shown += say("cli.ev.reason", {"reason": reason})
    line += say("cli.ev.gameResult", {"text": shown})
    return line + (say("cli.ev.corrected2") if g.result.get("corrections") else "") + \
        (say("cli.ev.confirmed2") if g.result.get("confirmed") else "")


def render_penalties(d) -> None:
    """The penalty ledger of the event (§2.7), if it has entries."""
    from sqlalchemy import select

    from .db import MatchRow, PenaltyRow

    rows = list(d.s.execute(select(PenaltyRow, MatchRow).join(MatchRow, PenaltyRow.match_id == MatchRow.id)
                            .where(PenaltyRow.event_id == d.ev.id).order_by(PenaltyRow.id)))
    if not rows:
        return
    t = Table(title=heading("cli.ev.penalties"))
    for c in ("player", "kind", "match", "deal", "source", "reason"):
        t.add_column(heading(f"cli.ev.col.{c}"))
    for p, m in rows:
        deal = next((str(g.number) for g in m.games if g.id == p.game_id), "-")
        t.add_row(escape(p.entrant_id), escape(say("cli.ev.kind", {"kind": p.kind})),
                  f"r{m.round}.m{m.index}", deal, escape(say("cli.ev.source", {"source": p.source})),
                  escape(p.reason))
    console.print(t)
