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
from qipai.i18n import say

from ..card_terminal import action_words, legal_words, phase_words, show_cards, trick_text
from ..terminal import APPLIED, QUIT, RESIGNED, take_turn
from .match import Match
from .trump import TRUMP, Trump

SUIT_SIGN = {TRUMP: "", "S": "♠ ", "H": "♥ ", "C": "♣ ", "D": "♦ "}


def team_words(team: int, seat: int | None = None, dealer: int | None = None) -> str:
    """A team in words with its seats (1-based, as players count them): "your team (seats 1 &
    3)", or relative to the hand's ``dealer``: "the declarers (seats 2 & 4)"; else "seats 1 & 3"."""
    seats = say("term.sj.seats", {"a": team + 1, "b": team + 3})
    if seat is not None:
        return say("term.sj.ourTeam" if team == seat % 2 else "term.sj.theirTeam", {"seats": seats})
    if dealer is not None:
        return say("term.sj.declarers" if team == dealer % 2 else "term.sj.attackers", {"seats": seats})
    return seats


def shape_words(shape: str) -> str:
    """A lead's component in words: ``pair`` -> 对子, ``tractor(3)`` -> 三连拖拉机 (3 pairs)."""
    if shape.startswith("tractor(") and shape.endswith(")"):
        return say("term.sj.shape.tractor", {"n": shape[8:-1]})
    return say(f"term.sj.shape.{shape}", default=shape)


def render(state, seat: int, console: Console, names: list[str] | None = None) -> None:
    """Print the table as ``seat`` sees it."""
    v = state.view(seat)
    who = names or [say("term.you") if s == seat else str(s) for s in range(4)]
    dealer = "-" if v["dealer"] is None else who[v["dealer"]]
    trump = (say(f"term.suit.{v['trump']}", default=v["trump"]) if v["trump"] else
             say("term.sj.declaring", {"trump": v["declarations"][-1]["trump"] if v["declarations"]
                                       else say("term.none")}))
    us = seat % 2
    counts = ", ".join(f"{who[s]} {n}" for s, n in enumerate(v["counts"]))
    console.print(f"[bold]{phase_words(v['phase'])}[/bold]  "
                  + say("term.sj.header", {"us": v["levels"][us], "them": v["levels"][1 - us],
                                           "level": v["level"], "dealer": dealer, "trump": trump,
                                           "counts": counts}))
    if v["kitty_shown"]:
        console.print(say("term.sj.kittyShown", {"cards": show_cards(v["kitty_shown"])}))
    if v["buried"]:
        console.print(say("term.sj.buried", {"cards": show_cards(v["buried"])}))
    if v["last_trick"]:
        lt = v["last_trick"]
        console.print(say("term.sj.lastTrick", {"plays": trick_text(lt["plays"], who),
                                                "winner": who[lt["winner"]], "points": lt["points"]}))
    if v["trick"]:
        console.print(say("term.sj.thisTrick", {"plays": trick_text(v["trick"], who),
                                                "winning": who[v["winning"]],
                                                "lead": ", ".join(map(shape_words, v["lead_format"]))}))
    console.print(say("term.sj.points", {"points": v["attacker_points"], "penalty": v["penalty"]}))
    if v["trump"] is not None:
        t = Trump(v["level"], None if v["trump"] == "NT" else v["trump"],
                  state.game.options["two_always_trump"])
        groups: dict[str, list[str]] = {}
        for f in v["hand"]:
            groups.setdefault(t.eff[f], []).append(f)
        for suit in (TRUMP, "S", "H", "C", "D"):
            if suit in groups:
                name = SUIT_SIGN[suit] + say(f"term.suit.{suit}")
                console.print(f"  {name:<12} {show_cards(groups[suit])}")
    else:
        console.print(say("term.lbl.hand", {"n": len(v["hand"]), "cards": show_cards(v["hand"])}))


def public_text(action: Any) -> str:
    """What the other seats see of a bot's action, its cards as faces: a bury keeps its cards
    hidden (the kitty is the dealer's until the hand ends), "bury (8 cards)"."""
    text = str(action)
    if text.startswith("bury "):
        return say("term.sj.buriedN", {"n": len(text.split()) - 1})
    return show_cards(action_words(text, "shengji"))


def _hint(state, seat: int, console: Console) -> None:
    acts = state.legal_actions(seat)
    more = say("term.inAll", {"n": len(acts)}) if len(acts) > 30 else ""
    console.print(say("term.legal", {"actions": legal_words(acts[:30], "shengji") + more}), markup=False)
    default = str(state.default_action(seat))
    console.print(say("term.sj.default", {"action": legal_words([default], "shengji")}), markup=False)


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
        raise OptionError(f"seat must be 0..3, got {seat!r}",
                          code="game.bad_seat", params={"seat": seat, "max": 3})
    opts = {k: v for k, v in game.options.items()
            if k not in ("team0_level", "team1_level", "dealer") and v is not None}
    from qipai.core.rng import new_seed
    match = Match(seed if seed is not None else new_seed(), **opts)
    bots = {s: make_bot("shengji", bot or "rule", None if seed is None else seed * 7 + s)
            for s in range(4) if s != seat}
    # the others by their place at the table (下家, 对家, 上家): three bots' names alone would be alike
    names = [say("term.you")] + [say(f"ct.pos.{p}") for p in ("right", "across", "left")]
    names = names[-seat:] + names[:-seat] if seat else names
    console.print(say("term.help.shengji"), markup=False)
    console.print(say("term.shengji.welcome"))
    state = None
    while match.winner is None:
        state = match.next_state()
        while not state.is_terminal():
            actor = state.current_player
            if actor != seat:
                action = bots[actor].choose(state, actor)
                state.apply(action, actor)
                if state.phase not in ("deal",) or str(action) != "pass":
                    console.print(say("term.namePlayed", {"name": names[actor],
                                                          "action": public_text(action)}), markup=False)
                continue
            acts = state.legal_actions(seat)
            if len(acts) == 1 and str(acts[0]) == "pass":
                # deal_prompt="every_card": a prompt with nothing to declare answers itself
                state.apply(acts[0], seat)
                continue
            render(state, seat, console, names)
            while True:
                try:
                    line = read_line(say("term.prompt"))
                except EOFError:
                    console.print("\n" + say("term.eofMatch"))
                    return state
                text = line.strip()
                low = text.lower()
                if not text:
                    continue
                if low in ("hint", "hints", "moves"):       # legal sets can be huge: a summary
                    _hint(state, seat, console)
                    continue
                done = take_turn(text, state, seat, console, help_text=say("term.help.shengji"),
                                 move_text=lambda a: show_cards(action_words(str(a), "shengji")))
                if done == QUIT:
                    return state
                if done in (RESIGNED, APPLIED):
                    break
        d = state.result.details
        if "forfeit_team" in d:
            match.record(state)
            break
        kind, _, k = d["outcome"].partition("+")           # "D+1", "A+2", "take over"
        won = d["dealer_team"] if kind == "D" else d["attackers"]
        outcome = say(f"term.sj.outcome.{kind if k else 'take'}", {"n": k})
        console.print("[bold]" + say("term.sj.hand", {"team": team_words(won, dealer=d["dealer"]),
                                                      "outcome": outcome})
                      + "[/bold] " + say("term.sj.handPoints", {
                          "total": d["attack_total"], "tricks": d["trick_points"], "kitty": d["kitty_points"],
                          "mult": d["kitty_multiplier"], "penalty": d["penalty"],
                          "us": d["levels"][seat % 2], "them": d["levels"][1 - seat % 2],
                          "buried": show_cards(d["buried"])}))
        match.record(state)
    mine = seat % 2
    outcome = say("term.youWin" if match.winner == mine else "term.youLose")
    console.print(say("term.sj.over", {"team": team_words(match.winner, seat=seat), "reason": match.reason,
                                       "us": match.levels[mine], "them": match.levels[1 - mine],
                                       "outcome": outcome}), markup=False)
    return state
