"""Events: draw, knockout, table knockout, round robin, Swiss, sessions, standings, persistence.

>>> from qipai.competition import open_db, create_event, run_event
"""

from .config import EventConfig, load_preset, parse_config, preset_names
from .db import open_db
from .event import Director, EventError, create_event, enter_result, no_show, run_event, withdraw
from .penalties import penalize
from .rules import GamePoints, PlacementPoints, SeriesRule, series_status
from .sessionrule import SessionRule, session_status

__all__ = [
    "Director", "EventConfig", "EventError", "GamePoints", "PlacementPoints", "SeriesRule",
    "SessionRule", "create_event", "enter_result", "load_preset", "no_show", "open_db", "parse_config",
    "penalize", "preset_names", "run_event", "series_status", "session_status", "withdraw",
]
