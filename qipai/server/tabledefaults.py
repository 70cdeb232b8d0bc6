"""What a lobby table takes when its creator does not choose (its clock, the options that make
it one game, the bot for a seat) and which bots and engines may fill a seat of a game."""

from __future__ import annotations

from typing import Any

from qipai.bots import bot_names
from qipai.match.presets import CARD_GAMES

from .errors import ApiError

#: clock used when a table does not choose one (competition.md §4.5): every card and tile game its
#: card clock, where a timeout plays the game's default action (wakeng: its seed clock S4);
#: other games the board clock
DEFAULT_CLOCK = {**dict.fromkeys(CARD_GAMES, "card_default"), "wakeng": "wakeng_s4"}
BOARD_CLOCK = "board_default"


def refuse_bot_clock(clock: Any, bot_account: bool) -> None:
    """A person (not a bot account) never sits under a clock made for games of bots only (a
    ``bot_…`` preset: 2 s a move, lost on time; the lobby's forms do not offer them): 409
    ``bot_clock_seat`` (``clock``)."""
    if not bot_account and isinstance(clock, str) and clock.startswith("bot_"):
        raise ApiError(409, "bot_clock_seat", f"the clock {clock!r} is for games of bots only: a "
                       "person cannot sit under it (choose a clock for people)", clock=clock)
#: options a lobby table sets when its creator does not (docs/server.md, "Lobby"): a lobby table
#: plays one game (a mahjong-gb or laizi-mahjong state is a whole match of ``hands_per_match``
#: hands), and people end a go game by marking dead stones (rules/go.md §4.2; the library's
#: default, all_alive, suits programs)
LOBBY_ONE_GAME: dict[str, dict[str, Any]] = {"mahjong-gb": {"hands_per_match": 1},
                                             "laizi-mahjong": {"hands_per_match": 1},
                                             "baibian-bajue": {"hands_per_match": 1},
                                             "go": {"end_procedure": "agreement"}}

#: options that describe a whole match of deals (kept by a game's match layer and by events'
#: sessions): a lobby table plays one deal, where they change nothing, so its form does not offer
#: them (``GET /api/games`` gives them as ``match_options``; the API still takes them)
LOBBY_MATCH_ONLY: dict[str, tuple[str, ...]] = {
    "shengji": ("time_limit_min", "timeout_tiebreak"),
    "baohuang": ("time_limit_min",),
    "doudizhu": ("match", "match_deals"),
    "sandayi": ("hands",),
    "wakeng": ("deals_per_match",),
    "chinese-checkers": ("max_games",),
}


def seat_bots(settings: Any, game_id: str) -> list[str]:
    """What may fill a seat of ``game_id`` at a lobby table: the built-in bots, then the engines
    the server offers for that game (``engine:NAME``, docs/engines.md)."""
    from qipai.bots import _real_id

    real = _real_id(game_id)
    return bot_names(game_id) + [f"engine:{e.name}" for e in settings.engines if e.game == real]


def engine_refusal(settings: Any, game: Any, bot: str) -> str | None:
    """Why the offered engine ``bot`` cannot play ``game`` with its options (a Gomocup engine
    and a swap opening), or None."""
    if not bot.startswith("engine:"):
        return None
    from qipai.core.errors import OptionError
    from qipai.engines import engine_player

    spec = next((e for e in settings.engines if e.name == bot.split(":", 1)[1]), None)
    try:
        engine_player(game, spec) if spec is not None else None
    except OptionError as e:
        return str(e)
    return None


def default_bot(game_id: str) -> str:
    names = bot_names(game_id)
    for preferred in ("rule", "greedy"):
        if preferred in names:
            return preferred
    return "random"
