"""Why a play of a climbing game (斗地主, 挖坑, 4A4, ...) does not beat the play on the table:
the refusal every such game gives once its own special cases (bombs, the rocket) are handled."""

from __future__ import annotations

from typing import Any

from qipai.core.errors import Message


def why_not_higher(prefix: str, play: Any, top: Any, *, answer: str, unit: str | None = None) -> Message:
    """The refusal of ``play`` on ``top`` (both with ``type``, ``length`` and ``text``): another
    type (``answer`` says what does beat ``top``, ``{type}`` standing for its type, e.g. ``"play
    a higher {type} or a bomb"``), another chain length (counted in ``unit``: ``"cards"``,
    ``"ranks"``; none: a bare length), or the same shape but not higher. The codes are
    ``<prefix>.does_not_beat``, ``<prefix>.length_differs`` and ``<prefix>.not_higher``, so each
    game keeps its own catalogue texts (its own words for the types)."""
    if play.type != top.type:
        return Message(f"a {play.type} does not beat a {top.type} ({top.text}); "
                       + answer.format(type=top.type),
                       code=f"{prefix}.does_not_beat",
                       params={"type": play.type, "type2": top.type, "text": top.text})
    if play.length != top.length:
        size = (lambda n: f"{n} {unit}") if unit else (lambda n: f"length {n}")
        return Message(f"length differs: {top.text} has {size(top.length)}, {play.text} has {play.length}",
                       code=f"{prefix}.length_differs",
                       params={"text": top.text, "length": top.length, "text2": play.text,
                               "length2": play.length})
    return Message(f"{play.text} is not higher than {top.text}",
                   code=f"{prefix}.not_higher", params={"text": play.text, "text2": top.text})
