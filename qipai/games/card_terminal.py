"""Terminal play of a card game at a table of bots (``qipai play wakeng``, ``qipai play
fouafour``): the loop that lets bots act, prompts the human seat, answers ``help``, ``hint``
and ``quit``, and reports refused input with its reason. Several seats may be asked at once
(4A4's 叉/勾 windows): the bots answer first, then the human."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from qipai.core.errors import IllegalAction
from qipai.i18n import current, say

from .terminal import refusal

#: a seat's place at the table from the reader's seat, by how many seats on (the web table's words)
PLACES = {3: ("right", "left"), 4: ("right", "across", "left"),
          5: ("right", "acrossRight", "acrossLeft", "left")}


def place_names(seat: int, seats: int, bot: str) -> list[str]:
    """The names of a terminal table's seats as the reader at ``seat`` sees them: you / 你, and
    each ``bot`` by its place and kind ("Right (Rule-based bot)", 下家（规则型机器人）), never a
    seat number."""
    out = []
    for s in range(seats):
        k = (s - seat) % seats
        out.append(say("term.you") if k == 0 else
                   say("term.botAt", {"place": say(f"ct.pos.{PLACES[seats][k - 1]}"), "name": bot}))
    return out


_CARD = re.compile(r"(?:(10|[2-9TJQKA])([SHDC])|([LB])J)\d?")
_SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def face(code: str) -> str:
    """A card as the web table names it: ``TH0`` -> ♥10, ``AS`` -> ♠A, a joker Big Joker /
    Small Joker (大王 / 小王 in Chinese; the pack digit of a game of several packs is left out);
    any other text as it is."""
    m = _CARD.fullmatch(code)
    if not m:
        return code
    if m.group(3):
        return say(f"term.joker.{m.group(3)}")
    return _SIGN[m.group(2)] + ("10" if m.group(1) in ("T", "10") else m.group(1))


def show_cards(codes) -> str:
    """Cards (a list of codes, or a text of them among other words: ``bury 3D 5C``) as their
    faces (:func:`face`): ``♠3 ♥10 Big Joker``, ``bury ♦3 ♣5``."""
    tokens = codes.split() if isinstance(codes, str) else list(codes)
    return " ".join(face(c) for c in tokens)


def seat_table(game: Any, phase: str, columns: list[str]) -> Table:
    """The seats' table of a card game: titled with the game's name in the current language and
    its phase in words (``term.phase.<phase>``), the columns named by ``term.col.<name>``."""
    name = game.name_zh if current() == "zh" and getattr(game, "name_zh", "") else game.name_en
    table = Table(title=f"{name} — {phase_words(phase)}", show_lines=False)
    for c in columns:
        table.add_column(say(f"term.col.{c}"), justify="right" if c == "cards" else "left")
    return table


def phase_words(phase: str) -> str:
    """A game phase in words (``bidding`` -> 叫分), or the phase itself when it has none."""
    return say(f"term.phase.{phase}", default=phase)


def to_beat(game_id: str, top: dict[str, Any], play: str, names: list[str]) -> str:
    """The play to beat in words: "to beat: 33 (pair, <name>)"; ``top["type"]`` is named by
    ``term.<game_id>.<type>`` where the catalogue has it."""
    kind = top.get("type")
    kind_words = say(f"term.{game_id}.{kind}", default=kind) if kind else ""
    who = names[top["seat"]] if 0 <= top["seat"] < len(names) else str(top["seat"])
    return say("term.toBeat", {"play": play, "type": kind_words, "seat": who})


#: the Chinese words of an action's verb, as the web tables name it (catalogue keys of the
#: boards): ``discard 5p`` -> 打出 5p, ``declare 2H`` -> 亮 2H, ``accept`` -> 当皇帝
VERBS = {"discard": "mj.discard", "chow": "mj.chow", "pung": "mj.pung", "add": "mj.add",
         "win": "mj.win", "bomb": "mj.bomb", "peel": "lz.peel", "laizi": "lz.laiziKong",
         "bury": "sj.bury", "accept": "bh.accept", "decline": "bh.decline",
         "cha": "faf.cha", "gou": "faf.gou", "trump": "sdy.trump"}
#: ``pass`` where it is not 不要: a mahjong seat's 过, shengji's 不亮, sandayi's 不叫
PASS = {"mahjong-gb": "mj.pass", "laizi-mahjong": "mj.pass", "baibian-bajue": "mj.pass",
        "shengji": "sj.nodeclare", "sandayi": "sdy.nobid"}


def action_words(text: str, game: str = "", phase: str = "") -> str:
    """An action's verb in words (``pass`` -> 不要, or 过 / 不亮 / 不叫 in ``game``; ``bid 2`` ->
    叫 2); in Chinese every verb of :data:`VERBS` too (``discard 5p`` -> 打出 5p, ``declare 2H``
    -> 亮 2H, ``kong 5p`` -> 暗杠 5p, ``trump D`` -> 主 方块), what follows the verb (cards,
    tiles) left to :func:`show_cards` or ``tiles_text``; English keeps the typed verbs, which
    are words already; a ``pass`` of the bidding ``phase`` is 不叫, as the boards word it. A play
    of cards is as it is written."""
    if text == "pass" and phase in ("bidding", "bid") and current() == "zh":
        return say("ddz.nobid")
    if text == "pass":
        return say(PASS[game]) if game in PASS and current() == "zh" else say("term.act.pass")
    if text.startswith("bid ") and text[4:].isdigit():
        return say("term.act.bid", {"n": text[4:]})
    if current() != "zh":
        return text
    verb, _, rest = text.partition(" ")
    if verb == "declare":
        return say("sj.declare", {"cards": rest})
    if verb == "kong":
        return say("mj.ckong") + " " + rest if rest else say("mj.kong")
    if verb == "trump":
        return say("sdy.trump") + " " + say(f"term.suit.{rest}", default=rest)
    if verb in VERBS:
        return (say(VERBS[verb]) + " " + rest).strip()
    return text


def legal_words(actions, game: str = "", shown: Callable[[str], str] = lambda t: show_cards(t),
                phase: str = "") -> str:
    """The actions a hint lists, each in words (:func:`action_words`, then ``shown``) and, where
    those differ from what is typed, the typed text after it: 不叫（pass）, 亮 ♦2（declare 2D）."""
    out = []
    for a in actions:
        text = str(a)
        words = shown(action_words(text, game, phase))
        out.append(words if words == text else say("term.wordsTyped", {"words": words, "typed": text}))
    return ("、" if current() == "zh" else ", ").join(out)


def bids_line(bids: list[list[Any]], names: list[str]) -> str:
    """The bids so far in words: "bids: <name> 1 分, <name> 不叫" (``-`` before the first)."""
    text = ", ".join(f"{names[s]} {action_words(str(a), phase='bidding')}" for s, a in bids)
    return say("term.lbl.bids", {"bids": text or "-"})


def trick_text(plays: list[list[Any]], names: list[str]) -> str:
    """A trick's plays by seat name: ``[[seat, [cards...]], ...]`` -> "<name>: ♥6 ♥6, ..."."""
    return ", ".join(f"{names[s]}: {show_cards(cards)}" for s, cards in plays)


def play_table(state, seat: int, bots: dict[int, Any], names: list[str], console: Console,
               read_line: Callable[[str], str], render: Callable[[], None], help_text: str,
               shown: Callable[[int, Any], str] | None = None, game: str = "") -> bool:
    """Play ``state`` to its end: bots (``seat -> bot``) act for the other seats, the human at
    ``seat`` types actions. ``render()`` draws the table before each human prompt; ``shown(s,
    action)`` is the text the human sees of bot seat ``s``'s action (default ``str(action)``;
    a game with hidden actions, such as a buried kitty, hides their cards); actions read in
    words (:func:`action_words` of ``game``) and their cards as faces. Returns ``False``
    when the human quit or input ended (the state is left unfinished)."""
    console.print(help_text, markup=False)
    while not state.is_terminal():
        asked = [s for s in state.to_act if s != seat]
        if asked:
            s = asked[0]
            action, phase = bots[s].choose(state, s), state.phase
            state.apply(action, seat=s)
            text = shown(s, action) if shown is not None else str(action)
            console.print(say("term.namePlayed", {"name": names[s],
                                                  "action": show_cards(action_words(text, game, phase))}),
                          markup=False)
            continue
        render()
        while True:
            try:
                text = read_line(say("term.prompt")).strip()
            except EOFError:
                console.print("\n" + say("term.eofDeal"), markup=False)
                return False
            low = text.lower()
            if not text:
                continue
            if low in ("quit", "exit", "q"):
                console.print(say("term.left"), markup=False)
                return False
            if low in ("help", "?"):
                console.print(help_text, markup=False)
                continue
            if low in ("hint", "hints", "moves"):
                legal = [str(a) for a in state.legal_actions(seat)]
                more = say("term.inAll", {"n": len(legal)}) if len(legal) > 40 else ""
                words = legal_words(legal[:40], game, phase=state.phase)
                console.print(say("term.legal", {"actions": words + more}), markup=False)
                continue
            phase = state.phase
            try:
                state.apply(text, seat=seat)
            except IllegalAction as e:
                console.print(say("term.notAccepted", {"reason": refusal(e)}), markup=False)
                continue
            last = state.log[-1]
            action = str(last[1] if isinstance(last, list) else last)
            console.print(say("term.namePlayed", {"name": names[seat],
                                                  "action": show_cards(action_words(action, game, phase))}),
                          markup=False)
            break
    render()
    return True
