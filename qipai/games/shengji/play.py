"""``qipai play shengji``: a match in the terminal, you and a bot partner against two bots.

Before each of your decisions :func:`render` prints what your seat sees (``view(seat)`` only):
levels, dealer, trump, the current and last trick, points, your hand grouped by effective suit.
Type ``pass``, ``declare 2H 2H``, ``bury …`` or the cards to play (``AS AS KS``); ``hint`` shows
what is legal now, ``help`` the notation, ``quit`` stops. Bad input gets the reason and a fresh
prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from qipai.bots import make_bot
from qipai.core.errors import OptionError

from ..terminal import APPLIED, QUIT, RESIGNED, take_turn
from .match import Match
from .trump import TRUMP, Trump

HELP = ("Type 'pass' or 'declare 2H 2H' at a declaration prompt, 'bury' and the cards when you take "
        "the kitty, or the cards to play (AS AS KS; T = ten, LJ/BJ = small/big joker). 'hint' lists "
        "what is legal, 'resign' gives up the match, 'quit' stops.")
SUIT_NAME = {TRUMP: "trumps", "S": "♠ spades", "H": "♥ hearts", "C": "♣ clubs", "D": "♦ diamonds"}


def render(state, seat: int, console: Console) -> None:
    """Print the table as ``seat`` sees it."""
    v = state.view(seat)
    dealer = "-" if v["dealer"] is None else f"seat {v['dealer']}"
    trump = v["trump"] or ("(declaring: " + (v["declarations"][-1]["trump"] if v["declarations"] else "none")
                           + ")")
    console.print(f"[bold]{v['phase']}[/bold]  levels: team 0+2 {v['levels'][0]}, team 1+3 "
                  f"{v['levels'][1]}  hand level {v['level']}  dealer {dealer}  trump {trump}  "
                  f"cards {v['counts']}")
    if v["kitty_shown"]:
        console.print("kitty turned up: " + " ".join(v["kitty_shown"]))
    if v["buried"]:
        console.print("you buried: " + " ".join(v["buried"]))
    if v["last_trick"]:
        lt = v["last_trick"]
        console.print("last trick: " + ", ".join(f"{s}: {' '.join(fs)}" for s, fs in lt["plays"])
                      + f"  → seat {lt['winner']} ({lt['points']} points)")
    if v["trick"]:
        console.print("this trick: " + ", ".join(f"{s}: {' '.join(fs)}" for s, fs in v["trick"])
                      + f"  (lead {', '.join(v['lead_format'])}; seat {v['winning']} winning)")
    console.print(f"attackers' points: {v['attacker_points']}  penalty {v['penalty']}")
    if v["trump"] is not None:
        t = Trump(v["level"], None if v["trump"] == "NT" else v["trump"],
                  state.game.options["two_always_trump"])
        groups: dict[str, list[str]] = {}
        for f in v["hand"]:
            groups.setdefault(t.eff[f], []).append(f)
        for suit in (TRUMP, "S", "H", "C", "D"):
            if suit in groups:
                console.print(f"  {SUIT_NAME[suit]:<12} {' '.join(groups[suit])}")
    else:
        console.print("your hand: " + " ".join(v["hand"]))


def _hint(state, seat: int, console: Console) -> None:
    acts = state.legal_actions(seat)
    shown = [str(acts[i]) for i in range(min(30, len(acts)))]
    more = f" … ({len(acts)} in all)" if len(acts) > 30 else ""
    console.print("legal: " + ", ".join(shown) + more, markup=False)
    console.print(f"timeout default: {state.default_action(seat)}", markup=False)


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None,
        read_line: Callable[[str], str] | None = None) -> Any:
    """Play a match of ``game`` (a loaded shengji game: its profile and options) in the terminal.
    ``bot`` names the three bots (default ``rule``); ``seat`` (0..3) is yours; ``seed`` fixes the
    deals. ``read_line(prompt)`` returns one line and raises ``EOFError`` at the end of input.
    Returns the last hand's state (unfinished if you quit or input ended)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2, 3):
        raise OptionError(f"seat must be 0..3, got {seat!r}")
    opts = {k: v for k, v in game.options.items()
            if k not in ("team0_level", "team1_level", "dealer") and v is not None}
    from qipai.core.rng import new_seed
    match = Match(seed if seed is not None else new_seed(), **opts)
    bots = {s: make_bot("shengji", bot or "rule", None if seed is None else seed * 7 + s)
            for s in range(4) if s != seat}
    console.print(HELP, markup=False)
    console.print(f"You are seat {seat}; your partner is seat {(seat + 2) % 4}.")
    state = None
    while match.winner is None:
        state = match.next_state()
        while not state.is_terminal():
            actor = state.current_player
            if actor != seat:
                action = bots[actor].choose(state, actor)
                state.apply(action, actor)
                if state.phase not in ("deal",) or str(action) != "pass":
                    console.print(f"seat {actor}: {action}", markup=False)
                continue
            render(state, seat, console)
            while True:
                try:
                    line = read_line("your action> ")
                except EOFError:
                    console.print("\nend of input: the match is left unfinished.")
                    return state
                text = line.strip()
                low = text.lower()
                if not text:
                    continue
                if low in ("hint", "hints", "moves"):       # legal sets can be huge: a summary
                    _hint(state, seat, console)
                    continue
                done = take_turn(text, state, seat, console, help_text=HELP)
                if done == QUIT:
                    return state
                if done in (RESIGNED, APPLIED):
                    break
        d = state.result.details
        if "forfeit_team" in d:
            match.record(state)
            break
        console.print(f"[bold]Hand over: {state.result.text}[/bold] (attackers {d['attack_total']} = "
                      f"tricks {d['trick_points']} + kitty {d['kitty_points']}×{d['kitty_multiplier']} "
                      f"+ penalty {d['penalty']}); levels now {d['levels']}; buried {' '.join(d['buried'])}")
        match.record(state)
    mine = seat % 2
    outcome = "You win" if match.winner == mine else "You lose"
    console.print(f"Game over: team {match.winner} ({match.reason}), levels {match.levels}. {outcome}.",
                  markup=False)
    return state
