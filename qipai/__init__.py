"""qipai (棋牌): referee engine and competition server for Chinese board, card and tile games.

>>> import qipai
>>> game = qipai.load("xiangqi")
>>> state = game.new_state()
>>> state.apply("h2e2")
"""

from . import native

native.install()   # compiled builds of the hot modules, when built from the source on disk

from . import games  # noqa: E402  callable: qipai.games() lists every game
from .core import (  # noqa: E402
    Game,
    GameInfo,
    IllegalAction,
    NotationError,
    Option,
    OptionError,
    QipaiError,
    Record,
    RecordError,
    Result,
    State,
    load,
    replay,
)

__version__ = "0.1.0"


def __getattr__(name: str):
    """``qipai.env`` after a bare ``import qipai`` (README: ``qipai.env.pettingzoo("doudizhu")``):
    the research doors are imported on first use, so ``import qipai`` stays light."""
    if name == "env":
        import importlib

        return importlib.import_module(".env", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Game", "GameInfo", "IllegalAction", "NotationError", "Option", "OptionError", "QipaiError",
    "Record", "RecordError", "Result", "State", "games", "load", "replay", "__version__",
]
