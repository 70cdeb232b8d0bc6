"""One package per game (``qipai.games.<id with _ for ->``).

``qipai.games`` is both this package and a function: ``qipai.games()`` lists every game
(id, Chinese and English names, seat counts, options with defaults), as
:func:`qipai.core.registry.games` does. The package object is made callable so that importing
a game package (which binds ``qipai.games`` to this module) never hides the function.
"""

import sys
import types


class _CallableModule(types.ModuleType):
    def __call__(self):
        from qipai.core.registry import games

        return games()


sys.modules[__name__].__class__ = _CallableModule
