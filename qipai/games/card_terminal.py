"""Terminal play of a card game at a table of bots (``qipai play wakeng``, ``qipai play
fouafour``): the loop that lets bots act, prompts the human seat, answers ``help``, ``hint``
and ``quit``, and reports refused input with its reason. Several seats may be asked at once
(4A4's 叉/勾 windows): the bots answer first, then the human."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from qipai.core.errors import IllegalAction


def show_cards(codes) -> str:
    """Card codes for display: one pack, so the pack digit (``3S0`` -> ``3S``) is left out."""
    return " ".join(c[:-1] if c[-1:] == "0" and len(c) == 3 else c for c in codes)


def play_table(state, seat: int, bots: dict[int, Any], names: list[str], console: Console,
               read_line: Callable[[str], str], render: Callable[[], None], help_text: str,
               shown: Callable[[int, Any], str] | None = None) -> bool:
    """Play ``state`` to its end: bots (``seat -> bot``) act for the other seats, the human at
    ``seat`` types actions. ``render()`` draws the table before each human prompt; ``shown(s,
    action)`` is the text the human sees of bot seat ``s``'s action (default ``str(action)``;
    a game with hidden actions, such as a buried kitty, hides their cards). Returns ``False``
    when the human quit or input ended (the state is left unfinished)."""
    console.print(help_text, markup=False)
    while not state.is_terminal():
        asked = [s for s in state.to_act if s != seat]
        if asked:
            s = asked[0]
            action = bots[s].choose(state, s)
            state.apply(action, seat=s)
            text = shown(s, action) if shown is not None else str(action)
            console.print(f"seat {s} ({names[s]}): {text}", markup=False)
            continue
        render()
        while True:
            try:
                text = read_line("your action> ").strip()
            except EOFError:
                console.print("\nend of input: the deal is left unfinished.", markup=False)
                return False
            low = text.lower()
            if not text:
                continue
            if low in ("quit", "exit", "q"):
                console.print("you left the table.", markup=False)
                return False
            if low in ("help", "?"):
                console.print(help_text, markup=False)
                continue
            if low in ("hint", "hints", "moves"):
                legal = [str(a) for a in state.legal_actions(seat)]
                more = f" … ({len(legal)} in all)" if len(legal) > 40 else ""
                console.print("legal: " + ", ".join(legal[:40]) + more, markup=False)
                continue
            try:
                state.apply(text, seat=seat)
            except IllegalAction as e:
                console.print(f"not accepted: {e.reason}", markup=False)
                continue
            last = state.log[-1]
            console.print(f"seat {seat} (you): {last[1] if isinstance(last, list) else last}", markup=False)
            break
    render()
    return True
