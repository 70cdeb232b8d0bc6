"""The formats of an event's stages (competition.md §2.5, §2.8): each one a module with one
:class:`Format` subclass, registered under the stage name the presets use (``stage.kind``).

A format knows how to pair each round of its stage (:meth:`Format.pair`, which also says when
the stage is over), how its stage ranks the entrants (:meth:`Format.standings`) and who its
champion and runners-up are (:meth:`Format.placings`). Everything else — a match's games under
its series or session rule, results, storage — is the :class:`~qipai.competition.director.Director`'s,
the same for every format. A new format is one new module here: it is found and registered when
this package is imported.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from ..director import Director

#: stage name -> its format class
FORMATS: dict[str, type[Format]] = {}


class Format:
    """One stage's format, working on the stage's director ``d``."""

    #: the stage names (``stage.kind`` of the presets) this format plays
    kinds: ClassVar[tuple[str, ...]] = ()
    #: a points format: its pairing gives the first mover and its two-sided matches may end
    #: level (the series rule with ``game1 = lower_draw_number`` and ``tiebreak = none``, §2.8)
    points: ClassVar[bool] = False
    #: a knockout: who plays a round depends on who won the round before (a corrected result may
    #: pair the later rounds again, :mod:`..results`)
    knockout: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        for kind in cls.kinds:
            FORMATS[kind] = cls

    def __init__(self, d: Director) -> None:
        self.d = d

    def pair(self, rnd: int) -> bool:
        """Make round ``rnd`` of the stage (its matches, byes, tables); False when the stage is
        over instead (nothing is made then)."""
        raise NotImplementedError

    def standings(self) -> list[dict[str, Any]]:
        """The stage's table, best first (§2.8): by default the two-sided match table with the
        round robin tie-breaks (:func:`~qipai.competition.standings.two_sided_standings`)."""
        from ..standings import two_sided_standings

        return two_sided_standings(self.d, swiss=False)

    def placings(self) -> dict[str, Any]:
        """``champion`` and ``runner_up`` (a list) at the end of the stage; a points format also
        gives its ``standings``: first and second of its table."""
        table = self.standings()
        return {"standings": table, "champion": table[0]["id"],
                "runner_up": [table[1]["id"]] if len(table) > 1 else []}


def format_for(d: Director) -> Format:
    """The format that plays ``d``'s stage."""
    return FORMATS[d.stage](d)


for _mod in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_mod.name}")
