"""Terminal play of a mahjong match at a table of bots (``qipai play mahjong-gb``, ``qipai play
laizi-mahjong``): the loop that lets bots act, passes for the human when passing is all it can
do (every seat answers every discard), prompts with the numbered legal actions, answers
``help`` and ``quit``, reports refused input with its reason and each finished hand."""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.console import Console

from qipai.bots import make_bot
from qipai.core.errors import IllegalAction
from qipai.i18n import current, say
from qipai.i18n.results import mahjong_seat_word

from .card_terminal import action_words
from .terminal import refusal

_RUN = re.compile(r"([1-9]+)([mps])|([ESWNCFP])|f([1-8])")
_WORD = re.compile(r"[0-9a-zA-Z]+")


def tiles_text(text: object) -> str:
    """Tiles written in their codes, alone or in other text (a hand ``13689m23pWCC``, a set
    ``[234m]``, an action ``discard 5p``), in words as the web table names them: a run of one
    suit together (1 3 6 8 9 crak, 13689万), an honour or a flower by its name (Red dragon, 红中;
    Plum 5, 梅), a hand's parts apart ("6 7 crak, 2 3 dot, Red dragon"); words that are no
    tiles (discard, pass, win) as they are."""
    zh = current() == "zh"

    def words(m: re.Match) -> str:
        tok = m.group(0)
        if _RUN.sub("", tok):
            return tok
        out = []
        for r in _RUN.finditer(tok):
            if r.group(1):
                out.append(say(f"term.mj.run.{r.group(2)}", {"ranks": ("" if zh else " ").join(r.group(1))}))
            elif r.group(3):
                out.append(say(f"tile.{r.group(3)}"))
            else:
                out.append(say("tile.f", {"n": int(r.group(4))}))
        return (" " if zh else ", ").join(out)
    return _WORD.sub(words, str(text))


def who(s: int, view: dict) -> str:
    """Seat ``s`` as the reader of ``view`` names it: you / 你, else its place at the table
    (下家 / 对家 / 上家; Right / Across / Left), never a seat number."""
    return mahjong_seat_word(s, seat=view["you"], lang=current())


def meld_text(m: dict) -> str:
    """A set of a view as text: ``[234m]``, ``(5555p)``, a hidden concealed kong as such."""
    if "tiles" not in m:
        return say("term.mj.concealedKong")
    return f"({m['tiles']})" if m.get("concealed") else f"[{m['tiles']}]"


def seat_lines(view: dict, extra: Callable[[dict], str] = lambda s: "") -> list[str]:
    """Two lines a seat: its sets and ``extra`` facts, then its discards (claimed ones starred)."""
    lines = []
    for s in view["seats"]:
        tag = say("term.you") if s["seat"] == view["you"] else who(s["seat"], view)
        melds = " ".join(tiles_text(meld_text(m)) for m in s["melds"])
        ponds = ("、" if current() == "zh" else ", ").join(
            tiles_text(d["tile"]) + ("*" if d["claimed"] else "") for d in s["discards"])
        lines.append(say("term.mj.seatLine", {"tag": f"{tag:>7}", "score": f"{s['score']:>5}",
                                               "melds": melds or "-", "extra": extra(s)}))
        lines.append(say("term.mj.discards", {"tiles": ponds or "-"}))
    mine = view["seats"][view["you"]]
    drew = say("term.mj.drew", {"tile": tiles_text(mine["drawn"])}) if mine.get("drawn") else ""
    lines.append(say("term.mj.yourHand", {"hand": tiles_text(mine["hand"])}) + drew)
    return lines


def play_match(game, *, bot: str, seat: int, seed: int | None, console: Console,
               read_line: Callable[[str], str], table_text: Callable[[dict], str],
               report: Callable[[dict, Console], None], help_text: str) -> None:
    """Play one match with the human at ``seat`` (0..3) and ``bot`` at the other seats;
    ``table_text(view)`` draws the table, ``report(hand_result, console)`` tells a hand's end."""
    if seat not in range(4):
        raise IllegalAction(f"{game.id} seats are 0..3", code="mahjong.seats", params={"id": game.id})
    state = game.new_state(seed=seed if seed is not None else 0)
    bots = {s: make_bot(game.id, bot, None if seed is None else seed + s) for s in range(4) if s != seat}
    console.print(say("term.mj.intro", {"bot": bot}), markup=False)
    seen = 0
    while not state.is_terminal():
        if len(state.hand_results) > seen:
            report(state.hand_results[seen], console)
            seen += 1
        acting = state.to_act
        only_pass = state.phase != "turn" and [str(a) for a in state.legal_actions(seat)] == ["pass"]
        if seat in acting and only_pass:
            state.apply("pass", seat=seat)   # every seat answers every discard; nothing to ask
            continue
        if seat in acting:
            view = state.view(seat)
            console.print(table_text(view), markup=False)
            legal = view["legal"]
            offered = (f"{i}:{tiles_text(action_words(a, game.id))}" for i, a in enumerate(legal, 1))
            console.print("  ".join(offered), markup=False)
            line = read_line(say("term.prompt")).strip()
            if line in ("quit", "exit"):
                console.print(say("term.matchAbandoned"), markup=False)
                return
            if line == "help":
                console.print(help_text, markup=False)
                continue
            if line.isdecimal() and 1 <= int(line) <= len(legal):
                line = legal[int(line) - 1]
            try:
                state.apply(line, seat=seat)
            except IllegalAction as e:
                console.print(say("term.refused", {"reason": refusal(e)}), markup=False)
            continue
        s = next(x for x in acting if x != seat)
        a = bots[s].choose(state, s)
        if a.kind not in ("pass", "discard"):
            console.print(say("term.mj.botPlayed", {"who": mahjong_seat_word(s, seat=seat, lang=current()),
                                                    "action": tiles_text(action_words(str(a), game.id))}),
                          markup=False)
        state.apply(a, seat=s)
    for info in state.hand_results[seen:]:
        report(info, console)
    res = state.result
    console.print(say("term.matchOver", {"scores": " ".join(str(int(x)) for x in res.returns),
                                         "points": str(res.details.get("table_points"))}), markup=False)
