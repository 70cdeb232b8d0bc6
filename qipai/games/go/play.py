"""``qipai play go``: one game in the terminal against a built-in bot.

The board is drawn with Rich (``X`` Black, ``O`` White, the last stone highlighted). Moves are
GTP points (``D4``, ``q16``) or SGF letters (``dp``); commands: ``pass``, ``moves``,
``resign``, ``help``, ``quit``. After two passes (dead-stone phase) the proposer's dead stones
are shown: ``dead D4`` / ``alive D4`` change your marks, ``done`` submits them, ``resume``
refuses the end. A refused move is answered with the reason; the ``illegal_limit``-th refused
submission loses the game (rules §4.4).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from qipai.core.errors import IllegalAction
from qipai.games.terminal import (
    HANDLED,
    QUIT,
    RESIGNED,
    common_command,
    opponent_for,
    opponent_moves,
    print_result,
    refusal,
)
from qipai.i18n import say

from .coords import GTP_COLUMNS, to_gtp


def komi_words(komi: float) -> str:
    """The komi as the table says it (boards/go.js komiText, go.md §4.3): in points in English
    ("Komi 7.5"), in the stones Black gives in Chinese, half the points (8 -> "黑贴 4 子")."""
    k = float(komi)
    if not round(abs(k) * 4):
        return say("go.komiNone")
    points = int(abs(k)) if abs(k).is_integer() else abs(k)
    return say("go.komiBlack" if k > 0 else "go.komiWhite", {"komi": points})


def komi_points_words(komi: float) -> str:
    """The komi in points, for the score line whose verdict is in points: one unit on the
    line ("黑贴 8 目 → 白胜 89 目", never "黑贴 4 子"; "Komi 8" in English), as boards/go.js."""
    from qipai.i18n import current
    from qipai.i18n.results import margin_text

    k = float(komi)
    if not round(abs(k) * 4):
        return say("go.komiNonePoints")
    return say("go.komiBlackPoints" if k > 0 else "go.komiWhitePoints",
               {"komi": margin_text(abs(k), current())})


def board_text(state) -> Text:
    """The board as Rich text, row ``size`` at the top, with column letters and row numbers."""
    n = state.size
    rows = state.rows()
    last = state.moves[-1] if state.moves else -1
    dead = set(state.dead) if state.result is not None else set()
    if state.phase == "marking":
        dead = set(state.dead_proposal())
    out = Text()
    out.append("    " + " ".join(GTP_COLUMNS[:n]) + "\n", style="dim")
    for r in range(n):
        out.append(f"{n - r:>3} ", style="dim")
        for c in range(n):
            p = r * n + c
            ch = rows[r][c]
            glyph = {".": "·", "X": "X", "O": "O"}[ch]
            style = "dim" if ch == "." else "bold bright_white" if ch == "X" else "bold yellow"
            if p == last:
                style += " underline"
            if p in dead:
                glyph = glyph.lower()
                style = "strike dim"
            out.append(glyph, style=style)
            out.append(" ")
        out.append(f"{n - r}\n", style="dim")
    out.append("    " + " ".join(GTP_COLUMNS[:n]) + "\n", style="dim")
    cap = state.board.prisoners
    out.append(say("term.go.captures", {"black": cap[1], "white": cap[2]}) + "\n", style="dim")
    return out


def run(game, *, bot, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one game: the human has ``seat`` (0 = Black unless nigiri), the bot the other."""
    if seat not in (0, 1):
        raise IllegalAction("go seats are 0 and 1", code="go.go_seats")
    state = game.new_state(seed=seed)
    opponent = opponent_for(game, bot, seed)
    who = say("term.theBot", {"name": bot}) if isinstance(bot, str) else opponent.name
    limit = game.options["illegal_limit"]
    refused = 0
    colour = say("term.black") if state.colour_of(seat) == 1 else say("term.white")
    console.print(say("term.go.intro", {"colour": colour, "who": who, "size": game.size}), markup=False)
    while not state.is_terminal():
        others = [s for s in state.to_act if s != seat]
        if seat not in state.to_act or (state.phase == "marking" and others):
            s = others[0] if others else state.to_act[0]
            playing = state.phase == "play"
            mover = say("term.black") if state.to_move == 1 else say("term.white")
            action = opponent_moves(opponent, state, s, limit or 3)
            if playing and action is not None:
                console.print(say("term.plays", {"who": mover, "move": action}), markup=False)
            continue
        console.print(board_text(state))
        if state.phase == "marking":
            marks = " ".join(to_gtp(p, state.size) for p in sorted(state.marks[seat])) or say("term.none")
            prop = " ".join(to_gtp(p, state.size) for p in state.dead_proposal()) or say("term.none")
            console.print(say("term.go.marking", {"proposal": prop, "marks": marks}), markup=False)
        line = read_line(f"{colour}> ").strip()
        if not line:
            continue
        done = common_command(line.lower(), state, seat, console, help_text=say("term.help.go"))
        if done == QUIT:
            return
        if done == RESIGNED:
            break
        if done == HANDLED:
            continue
        try:
            state.game.parse_action(line, state)
        except IllegalAction as e:    # a typo, not a move: answered, never counted (as in xiangqi)
            console.print(say("term.notAMoveWhy", {"text": repr(line), "reason": refusal(e)}), markup=False)
            continue
        try:
            state.apply(line, seat=seat)
        except IllegalAction as e:
            refused += 1
            console.print(say("term.refusedOf" if limit else "term.refusedN",
                              {"reason": refusal(e), "n": refused, "max": limit}), markup=False)
            if limit and refused >= limit:
                state.forfeit(seat, "illegal_moves")
    console.print(board_text(state))
    res = state.result
    extra = ""
    if "black" in res.details:
        extra = say("term.go.score", {**{k: f"{res.details[k]:g}" for k in ("black", "white")},
                                      "komi": komi_points_words(res.details["komi"])})
    print_result(state, seat, console, extra)
