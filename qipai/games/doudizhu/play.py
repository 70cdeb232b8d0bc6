"""``qipai play doudizhu``: one deal in the terminal, you against two bots.

:func:`run` draws a Rich table after every action: each seat's role, card count and last
action, the kitty once it is public, the play to beat, and your hand as card codes and as a
rank string. Type plays as rank strings (``33344``, ``333444+56``, ``LB`` for the rocket) or
card codes (``3S 3H 3D 4C``, ``LJ``), ``pass``, ``bid 2`` or ``call`` while bidding, ``hint`` for
your legal plays, ``quit`` to stop. Bad input gets the reason and a fresh prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from qipai.bots import make_bot
from qipai.core.errors import IllegalAction, OptionError

ROLE = {True: "地主 landlord", False: "农民 peasant"}
HELP = ("Type a play as ranks (33344, 333444+56, LB = rocket, T = ten) or card codes (3S 3H 4C, LJ); "
        "'pass'; while bidding 'bid 1'..'bid 3' or 'call'; 'hint' (or 'moves') lists your legal "
        "actions; 'quit' stops.")


def _last_actions(state) -> dict[int, str]:
    last: dict[int, str] = {}
    for seat, action in state.bid_log:
        last[seat] = str(action)
    for seat, action in state.play_log:
        last[seat] = str(action)
    return last


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    last = _last_actions(state)
    table = Table(title=f"斗地主 doudizhu — {view['phase']}", show_lines=False)
    table.add_column("seat")
    table.add_column("player")
    table.add_column("role")
    table.add_column("cards", justify="right")
    table.add_column("last action")
    for s in range(3):
        role = "" if view["landlord"] is None else ROLE[view["landlord"] == s]
        mark = "▶ " if s in view["to_act"] else ""
        table.add_row(f"{mark}{s}", names[s], role, str(view["counts"][s]), last.get(s, ""))
    console.print(table)
    info = [f"base {view['base'] or '-'}", f"doublings {view['bombs']}"]
    if view.get("face_up"):
        info.append(f"face-up card {view['face_up']['card']} (seat {view['face_up']['seat']})")
    if view["kitty"] is not None:
        info.append("kitty " + _show(view["kitty"]))
    if view["top"] is not None:
        info.append(f"to beat: {view['top']['play']} ({view['top']['type']}, seat {view['top']['seat']})")
    console.print("  ".join(info))
    console.print(f"your hand ({len(view['hand'])}): [bold]{_show(view['hand'])}[/bold]")
    console.print(f"as ranks: [bold]{view['hand_ranks']}[/bold]")


def _show(codes) -> str:
    """Card codes for display: one pack, so the pack digit (``3S0`` -> ``3S``) is left out."""
    return " ".join(c[:-1] if c[-1:] == "0" and len(c) == 3 else c for c in codes)


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None,
        read_line: Callable[[str], str] | None = None) -> Any:
    """Play one deal of ``game`` (a loaded doudizhu game) in the terminal.

    ``bot`` names the opponents' bot (``None``: a rule bot and a random bot); ``seat`` (0..2) is
    yours; ``seed`` fixes the deal (``None``: a fresh one). ``read_line(prompt)`` returns one
    line of input and raises ``EOFError`` at the end of input (default: ``console.input``).
    Returns the final state (unfinished if you quit or input ended)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2):
        raise OptionError(f"seat must be 0, 1 or 2, got {seat!r}")
    state = game.new_state(seed=seed)
    names: list[str] = []
    bots: dict[int, Any] = {}
    default = ["rule", "random"]
    k = 0
    for s in range(3):
        if s == seat:
            names.append("you")
            continue
        name = bot or default[k]
        k += 1
        bots[s] = make_bot(game.id, name, None if seed is None else seed * 7 + s)
        names.append(f"bot ({name})")
    console.print(HELP)
    shown_deal = -1
    while not state.is_terminal():
        if state.redeals != shown_deal and state.redeals:
            console.print(f"[yellow]Nobody bid: the cards are dealt again (redeal {state.redeals}).[/yellow]")
        shown_deal = state.redeals
        actor = state.current_player
        if actor != seat:
            action = bots[actor].choose(state, actor)
            state.apply(action, actor)
            console.print(f"seat {actor} ({names[actor]}): [cyan]{action}[/cyan]")
            continue
        render(state, seat, names, console)
        while True:
            try:
                line = read_line("your action> ")
            except EOFError:
                console.print("\nend of input: the deal is left unfinished.")
                return state
            text = line.strip()
            if not text:
                continue
            if text.lower() in ("quit", "exit", "q"):
                console.print("you left the table.")
                return state
            if text.lower() in ("help", "?"):
                console.print(HELP)
                continue
            if text.lower() in ("hint", "hints", "moves"):
                legal = [str(a) for a in state.legal_actions(seat)]
                more = f" … ({len(legal)} in all)" if len(legal) > 40 else ""
                console.print("legal: " + ", ".join(legal[:40]) + more)
                continue
            try:
                state.apply(text, seat)
            except IllegalAction as e:
                console.print(f"[red]not accepted:[/red] {e.reason}")
                continue
            console.print(f"seat {seat} (you): [cyan]{state.log[-1]}[/cyan]")
            break
    render(state, seat, names, console)
    res = state.result
    d = res.details
    if d.get("void"):
        console.print("[bold]Nobody bid: the deal ends without a score (no_bid = end).[/bold]")
        return state
    who = "you" if seat in res.winners else "the bots"
    console.print(f"[bold]Deal over: {'landlord' if d.get('landlord') in res.winners else 'peasants'} "
                  f"win ({who} won).[/bold]")
    scores = Table(title="scores")
    for s in range(3):
        scores.add_column(f"seat {s} ({names[s]})", justify="right")
    scores.add_row(*[f"{r:+d}" for r in res.returns])
    console.print(scores)
    extra = " (spring)" if d.get("spring") else " (anti-spring)" if d.get("anti_spring") else ""
    console.print(f"base {d.get('base')} × multiplier {d.get('multiplier')}{extra}")
    return state
