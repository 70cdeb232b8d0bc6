"""百变八雀 (baibian-bajue): the **proposal** of ``rules/baibian-bajue.md`` §4, a four-player mahjong
with bombs, tile values and the highest score winning. It is marked ``proposal`` (``Game.status``):
the seed's text is vague and self-contradictory, and every rule here is the rule file's proposal,
to let an organizer try the game, never a competition rule. See ``docs/games/baibian-bajue.md``.
"""

from __future__ import annotations

from .game import BaibianBajue
from .state import BajueState, hand_value, tile_value

__all__ = ["BaibianBajue", "BajueState", "hand_value", "tile_value"]
