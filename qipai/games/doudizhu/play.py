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
from qipai.games.card_terminal import action_words, face, legal_words, seat_table, show_cards, to_beat
from qipai.games.terminal import refusal
from qipai.i18n import say

ROLE = {True: "term.ddz.landlord", False: "term.ddz.peasant"}


def _last_actions(state) -> dict[int, str]:
    last: dict[int, str] = {}
    for seat, action in state.bid_log:
        last[seat] = action_words(str(action), phase="bidding")
    for seat, action in state.play_log:
        last[seat] = action_words(str(action))
    return last


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    last = _last_actions(state)
    table = seat_table(state.game, view["phase"], ["seat", "player", "role", "cards", "last"])
    for s in range(3):
        role = "" if view["landlord"] is None else say(ROLE[view["landlord"] == s])
        mark = "▶ " if s in view["to_act"] else ""
        table.add_row(f"{mark}{s}", names[s], role, str(view["counts"][s]), last.get(s, ""))
    console.print(table)
    info = [say("term.lbl.base", {"base": view["base"] or "-"}),
            say("term.lbl.doublings", {"n": view["bombs"]})]
    if view.get("face_up"):
        up = view["face_up"]
        info.append(say("term.lbl.faceUp", {"card": face(up["card"]), "seat": names[up["seat"]]}))
    if view["kitty"] is not None:
        info.append(say("term.lbl.kitty", {"cards": show_cards(view["kitty"])}))
    if view["top"] is not None:
        info.append(to_beat("doudizhu", view["top"], view["top"]["play"], names))
    console.print("  ".join(info))
    console.print(say("term.lbl.hand", {"n": len(view["hand"]),
                                        "cards": f"[bold]{show_cards(view['hand'])}[/bold]"}))
    console.print(say("term.lbl.ranks", {"ranks": f"[bold]{view['hand_ranks']}[/bold]"}))


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
        raise OptionError(f"seat must be 0, 1 or 2, got {seat!r}",
                          code="game.bad_seat", params={"seat": seat, "max": 2})
    state = game.new_state(seed=seed)
    names: list[str] = []
    bots: dict[int, Any] = {}
    default = ["rule", "random"]
    k = 0
    for s in range(3):
        if s == seat:
            names.append(say("term.you"))
            continue
        name = bot or default[k]
        k += 1
        bots[s] = make_bot(game.id, name, None if seed is None else seed * 7 + s)
        # a bot is named by its place at the table and its kind: "Right (Rule-based bot)",
        # 下家（规则型机器人）
        place = say("ct.pos.right" if (s - seat) % 3 == 1 else "ct.pos.left")
        names.append(say("term.botAt", {"place": place, "name": name}))
    console.print(say("term.help.doudizhu"))
    shown_deal = -1
    while not state.is_terminal():
        if state.redeals != shown_deal and state.redeals:
            console.print(f"[yellow]{say('term.ddz.redeal', {'n': state.redeals})}[/yellow]")
        shown_deal = state.redeals
        actor = state.current_player
        if actor != seat:
            action, phase = bots[actor].choose(state, actor), state.phase
            state.apply(action, actor)
            played = action_words(str(action), phase=phase)
            console.print(say("term.namePlayed", {"name": names[actor], "action": f"[cyan]{played}[/cyan]"}))
            continue
        render(state, seat, names, console)
        while True:
            try:
                line = read_line(say("term.prompt"))
            except EOFError:
                console.print("\n" + say("term.eofDeal"))
                return state
            text = line.strip()
            if not text:
                continue
            if text.lower() in ("quit", "exit", "q"):
                console.print(say("term.left"))
                return state
            if text.lower() in ("help", "?"):
                console.print(say("term.help.doudizhu"))
                continue
            if text.lower() in ("hint", "hints", "moves"):
                legal = [str(a) for a in state.legal_actions(seat)]
                more = say("term.inAll", {"n": len(legal)}) if len(legal) > 40 else ""
                words = legal_words(legal[:40], "doudizhu", phase=state.phase)
                console.print(say("term.legal", {"actions": words + more}))
                continue
            phase = state.phase
            try:
                state.apply(text, seat)
            except IllegalAction as e:
                console.print(f"[red]{say('term.notAccepted', {'reason': refusal(e)})}[/red]")
                continue
            mine = f"[cyan]{action_words(str(state.log[-1]), phase=phase)}[/cyan]"
            console.print(say("term.namePlayed", {"name": names[seat], "action": mine}))
            break
    render(state, seat, names, console)
    res = state.result
    d = res.details
    if d.get("void"):
        console.print(f"[bold]{say('term.ddz.void')}[/bold]")
        return state
    side = say("term.ddz.landlord" if d.get("landlord") in res.winners else "term.ddz.peasants")
    who = say("term.you" if seat in res.winners else "term.theBots")
    console.print(f"[bold]{say('term.ddz.over', {'side': side, 'who': who})}[/bold]")
    scores = Table(title=say("term.scores"))
    for s in range(3):
        scores.add_column(names[s], justify="right")
    scores.add_row(*[f"{r:+d}" for r in res.returns])
    console.print(scores)
    extra = (say("term.ddz.spring") if d.get("spring") else
             say("term.ddz.antiSpring") if d.get("anti_spring") else "")
    console.print(say("term.ddz.base", {"base": d.get("base"), "multiplier": d.get("multiplier"),
                                        "extra": extra}))
    return state
