"""What every board game's terminal play (``qipai play GAME``) shares: the commands that mean
the same in every game, and the closing result line."""

from __future__ import annotations

from rich.console import Console

QUIT, RESIGNED, HANDLED, APPLIED = "quit", "resigned", "handled", "applied"


def common_command(cmd: str, state, seat: int, console: Console, *, help_text: str,
                   bot: str | None = None) -> str | None:
    """Answer ``quit``/``exit``, ``help``, ``moves``, ``resign`` and (when ``bot`` names the
    opponent, which then declines) ``draw``.

    Returns :data:`QUIT` (stop without a result), :data:`RESIGNED` (``seat`` resigned; the game
    is over), :data:`HANDLED` (answered; prompt again) or ``None`` (not a common command).
    """
    if cmd in ("quit", "exit"):
        console.print("Game abandoned.", markup=False)
        return QUIT
    if cmd == "help":
        console.print(help_text, markup=False)
        return HANDLED
    if cmd == "moves":
        console.print(" ".join(str(m) for m in state.legal_actions(seat)), markup=False)
        return HANDLED
    if cmd == "resign":
        state.resign(seat)
        return RESIGNED
    if cmd == "draw" and bot is not None:
        console.print(f"The {bot} bot declines the draw.", markup=False)
        return HANDLED
    return None


def take_turn(text: str, state, seat: int, console: Console, *, help_text: str) -> str | None:
    """One line typed by the person at ``seat``: a common command (see :func:`common_command`)
    or an action applied to ``state``. Returns :data:`QUIT`, :data:`RESIGNED`, :data:`HANDLED`,
    :data:`APPLIED` (the action was taken and echoed) or ``None`` (refused with the reason;
    prompt again)."""
    from qipai.core.errors import IllegalAction

    done = common_command(text.lower(), state, seat, console, help_text=help_text)
    if done is not None:
        return done
    try:
        state.apply(text, seat)
    except IllegalAction as e:
        console.print(f"not accepted: {e.reason}", markup=False)
        return None
    console.print(f"seat {seat} (you): {state.log[-1]}", markup=False)
    return APPLIED


def print_result(state, seat: int, console: Console, extra: str = "") -> None:
    """``Game over: <result> (<reason>).<extra> You win|Draw|You lose.``"""
    res = state.result
    outcome = "You win" if seat in res.winners else "Draw" if not res.winners else "You lose"
    console.print(f"Game over: {res.text} ({res.reason}).{extra} {outcome}.", markup=False)
