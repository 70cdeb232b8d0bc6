"""The game contract shared by every game: errors, options, states, records, randomness."""

from .errors import IllegalAction, NotationError, OptionError, QipaiError, RecordError
from .game import Game, GameInfo, Result, State
from .options import Option
from .record import Record, replay
from .registry import games, load, register
from .rng import DealRng, commitment, new_seed, verify

__all__ = [
    "DealRng", "Game", "GameInfo", "IllegalAction", "NotationError", "Option", "OptionError",
    "QipaiError", "Record", "RecordError", "Result", "State", "commitment", "games", "load",
    "new_seed", "register", "replay", "verify",
]
