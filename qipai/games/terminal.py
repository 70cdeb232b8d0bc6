"""What every board game's terminal play (``qipai play GAME``) shares: the commands that mean
the same in every game, and the closing result line."""

from __future__ import annotations

from rich.console import Console

from qipai.i18n import current, say

QUIT, RESIGNED, HANDLED, APPLIED = "quit", "resigned", "handled", "applied"


def common_command(cmd: str, state, seat: int, console: Console, *, help_text: str,
                   bot: str | None = None, move_text=str) -> str | None:
    """Answer ``quit``/``exit``, ``help``, ``moves``, ``resign`` and (when ``bot`` names the
    opponent, which then declines) ``draw``. ``moves`` lists the legal actions each written by
    ``move_text(action)`` (default ``str``: the canonical text; a game whose players read
    another notation passes its own, e.g. Chinese checkers' cell names).

    Returns :data:`QUIT` (stop without a result), :data:`RESIGNED` (``seat`` resigned; the game
    is over), :data:`HANDLED` (answered; prompt again) or ``None`` (not a common command).
    """
    if cmd in ("quit", "exit"):
        console.print(say("term.abandoned"), markup=False)
        return QUIT
    if cmd == "help":
        console.print(help_text, markup=False)
        return HANDLED
    if cmd == "moves":
        console.print(" ".join(move_text(m) for m in state.legal_actions(seat)), markup=False)
        return HANDLED
    if cmd == "resign":
        state.resign(seat)
        return RESIGNED
    if cmd == "draw" and bot is not None:
        console.print(say("term.declines", {"bot": bot}), markup=False)
        return HANDLED
    return None


def take_turn(text: str, state, seat: int, console: Console, *, help_text: str,
              move_text=str) -> str | None:
    """One line typed by the person at ``seat``: a common command (see :func:`common_command`)
    or an action applied to ``state``. Returns :data:`QUIT`, :data:`RESIGNED`, :data:`HANDLED`,
    :data:`APPLIED` (the action was taken and echoed) or ``None`` (refused with the reason;
    prompt again). ``move_text(action)`` writes the actions ``moves`` lists and the one echoed."""
    from qipai.core.errors import IllegalAction

    done = common_command(text.lower(), state, seat, console, help_text=help_text, move_text=move_text)
    if done is not None:
        return done
    try:
        state.apply(text, seat)
    except IllegalAction as e:
        console.print(say("term.notAccepted", {"reason": refusal(e)}), markup=False)
        return None
    console.print(say("term.youPlayed", {"seat": seat, "action": move_text(state.log[-1])}), markup=False)
    return APPLIED


def refusal(e) -> str:
    """Why the referee refused (an :class:`~qipai.core.errors.IllegalAction`), in the
    terminal's language (:func:`qipai.i18n.use`), from the catalogue in English too, so cards and
    holes read as the pages word them (``{name|cards}``, ``{name|cell}``), not as codes."""
    return e.text(current())


def outcome(state, seat: int) -> str:
    """You win / Draw / You lose, for ``seat``, in the terminal's language."""
    res = state.result
    return say("term.youWin" if seat in res.winners else "term.draw" if not res.winners else "term.youLose")


def result_line(state, seat: int | None, names=()) -> str:
    """The finished game's result in words for ``seat``, in the terminal's language, as the
    page says it ("你赢了 — 将死", "You lost — time out"): :func:`qipai.i18n.results.result_words`,
    worded from the result's codes, never the record's text ("forfeit by 1")."""
    from qipai.i18n.results import result_words

    try:
        view = state.view(None)
    except Exception:                  # a game whose spectator view needs a seat: its colours are public
        view = state.view(seat if seat is not None else 0)
    # the person at the terminal reads "You won"; among other seats' names theirs is its seat number
    names = ["" if s == seat else n for s, n in enumerate(names)]
    return result_words(state.result.to_json(), game=state.game.id, seat=seat, names=names,
                        view=view, lang=current())


def print_result(state, seat: int, console: Console, extra: str = "", names=()) -> None:
    """``Game over: <the result in words>.<extra>`` in the terminal's language."""
    console.print(say("term.gameOver", {"result": result_line(state, seat, names), "extra": extra}),
                  markup=False)


def opponent_for(game, bot, seed):
    """The terminal's opponent: a built-in bot by name, or a bot object as it is (an engine,
    :class:`qipai.engines.EngineBot`)."""
    if not isinstance(bot, str):
        return bot
    from qipai.bots import make_bot

    return make_bot(game.id, bot, seed)


def opponent_moves(opponent, state, seat: int, limit: int = 3):
    """Ask ``opponent`` for ``seat``'s action and apply it: the referee checks it like a
    person's, a refused action is asked again and the ``limit``-th refusal loses
    (``illegal_moves``); the text ``resign`` resigns. Returns the action applied, or None when
    the game ended without one."""
    from qipai.core.errors import IllegalAction

    for _ in range(limit):
        action = opponent.choose(state, seat)
        if isinstance(action, str) and action == "resign":
            state.resign(seat)
            return None
        try:
            state.apply(action, seat=seat)
            return action
        except IllegalAction:
            continue
    state.forfeit(seat, "illegal_moves")
    return None
