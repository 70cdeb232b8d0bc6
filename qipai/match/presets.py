"""Every seed clock as a named preset (competition.md §4.5), as data.

``clock_preset(name)`` returns the :class:`~qipai.match.clock.ClockSpec`; ``CLOCK_PRESETS``
holds the dicts (the same shape a preset TOML file may use inline).
"""

from __future__ import annotations

from typing import Any

from qipai.core.errors import OptionError

from .clock import ClockSpec

_CARD_PHASES = {"bid": "30s", "declare": "30s", "accept": "30s", "bury": "60s", "tribute": "60s",
                "return": "60s", "claim": "10s"}

CLOCK_PRESETS: dict[str, dict[str, Any]] = {
    # S2: each move at most 15 s, one overrun loses
    "xq_s2_15s": {"move_cap": "15s", "on_cap": "lose"},
    # S0 slow games: about 5 min per move, third warning loses (choice, §7 decision 5)
    "xq_s0_slow": {"move_cap": "300s", "on_cap": "warn:3"},
    # S0 rapid games: 20 s per move, overrun = warning, third warning loses
    "xq_s0_rapid": {"move_cap": "20s", "on_cap": "warn:3"},
    # S3: 局时 30 min, 步时 5 min while game time lasts, then 读秒 3 min; either overrun loses
    "xq_s3": {"bank": "30m", "move_cap": "300s", "move_cap_scope": "while_bank",
              "overtime": {"byoyomi": {"periods": 1, "period": "180s"}},
              "on_cap": "lose", "on_out": "lose"},
    # S2 go: 30 min per side, sudden death (reading of the seed, §4.5)
    "go_s2": {"bank": "30m", "on_out": "lose"},
    # S2 go, the literal reading (§4.5 option): one 60-minute limit for the whole game, at which
    # it is stopped and counted (go §5.2 seed002_walltime)
    "go_s2_walltime": {"game_limit": "60m"},
    # junqi: 30 s per move (choice), 5 timeouts lose (S0); layout 180 s (choice)
    "junqi_default": {"move_cap": "30s", "on_cap": "skip:5", "phase_caps": {"layout": "180s"}},
    # games with no seed clock (gomoku, two-player tiaoqi): 10 min + 3 x 30 s byo-yomi (choice)
    "board_default": {"bank": "10m", "overtime": {"byoyomi": {"periods": 3, "period": "30s"}},
                      "on_out": "lose"},
    "tiaoqi_multi": {"move_cap": "30s", "on_cap": "skip:3"},
    # S4 wakeng: first play of a deal 1 min, later plays 30 s; bids 30 s (choice)
    "wakeng_s4": {"move_cap": "30s", "first_lead_cap": "60s", "phase_caps": {"bid": "30s"},
                  "on_cap": "auto"},
    # every card and tile game with no seed clock (choice, modelled on S4)
    "card_default": {"move_cap": "30s", "first_lead_cap": "60s", "phase_caps": _CARD_PHASES,
                     "on_cap": "auto"},
    # bot-only events, Botzone-style
    "bot_default_board": {"move_cap": "2s", "on_cap": "lose"},
    "bot_default_cards": {"move_cap": "1s", "on_cap": "auto"},
    # no clock at all (casual play, entering results by hand)
    "none": {},
}


def clock_preset(name: str | dict[str, Any] | ClockSpec) -> ClockSpec:
    """The ClockSpec of preset ``name`` (or built from an inline dict). Raises OptionError
    listing the valid names."""
    if isinstance(name, ClockSpec):
        return name
    if isinstance(name, dict):
        return ClockSpec.from_dict(name)
    if not isinstance(name, str):           # a list, a number: neither a name nor a table
        raise OptionError("a clock is a preset's name or a table of its parts",
                          code="clock.not_a_clock")
    if name not in CLOCK_PRESETS:
        raise OptionError(f"unknown clock preset {name!r}; valid: {', '.join(CLOCK_PRESETS)}",
                          code="clock.unknown_preset", params={"name": name})
    return ClockSpec.from_dict(CLOCK_PRESETS[name])


#: the game a preset named after a rule sheet's clock is for (the first part of its name); a
#: preset with another name (board_default, card_default, none) suits any game
PRESET_GAME = {"xq": "xiangqi", "go": "go", "junqi": "junqi", "tiaoqi": "chinese-checkers",
               "wakeng": "wakeng"}


#: the card and tile games: their clocks time plays and a deal's phases; every other game is
#: played on a board
CARD_GAMES = frozenset(("doudizhu", "shengji", "baohuang", "sandayi", "fouafour", "mahjong-gb",
                        "laizi-mahjong", "baibian-bajue", "wakeng"))

#: presets made for one kind of game only: a board game is not offered "30 s a play, 1 min to
#: open a deal", nor a card game "10 min + 3 × 30 s"
CARD_CLOCKS = frozenset(("card_default", "bot_default_cards"))
BOARD_CLOCKS = frozenset(("board_default", "bot_default_board"))


def suited_clocks(game_id: str) -> list[str]:
    """The presets a table or event of ``game_id`` is offered, in their order: every preset but
    those named after another game's rule sheet (no "Junqi: 30 s a move" for xiangqi) and those
    of the other kind of game (no card clock for a board game, nor a board clock for cards)."""
    other = BOARD_CLOCKS if game_id in CARD_GAMES else CARD_CLOCKS
    return [name for name in CLOCK_PRESETS
            if PRESET_GAME.get(name.split("_")[0], game_id) == game_id and name not in other]
