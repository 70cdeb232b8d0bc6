"""``qipai fan "HAND"``: score a hand line from the command line (the logic; cli.py calls it)."""

from __future__ import annotations

from dataclasses import replace

from qipai.tiles.notation import parse_hand

from .fans import calculate


def fan_report(text: str, *, self_drawn: bool = False, kong: bool = False, last: bool = False,
               fourth: bool = False, seat: str | None = None, round_wind: str | None = None,
               flowers: int | None = None, exclusions: str = "pymahjonggb", mixed_kongs: str = "combined",
               english: bool = False) -> str:
    """The fans of the hand line ``text`` (flags given here are added to those of the line), one
    per line, then the totals. Raises ``NotationError`` or ``NotWinning``."""
    from qipai.i18n import say

    hand = parse_hand(text)
    changes = {}
    if self_drawn:
        changes["self_drawn"] = True
    if kong:
        changes["kong"] = True
    if last:
        changes["last"] = True
    if fourth:
        changes["fourth"] = True
    if seat is not None:
        changes["seat_wind"] = _wind(seat)
    if round_wind is not None:
        changes["round_wind"] = _wind(round_wind)
    if flowers is not None:
        if not 0 <= flowers <= 8:
            from qipai.core.errors import NotationError

            raise NotationError(f"flowers must be 0..8, got {flowers}", "flowers",
                                code="notation.flag_value", params={"flag": "flowers"})
        changes["flowers"] = flowers
    hand = replace(hand, **changes)
    r = calculate(hand, exclusions=exclusions, mixed_kongs=mixed_kongs)
    lines = [str(hand)]
    for no, count in r.fans:
        from .fantable import FANS

        zh, en, value = FANS[no]
        name = f"{zh} {en}" if english else zh
        lines.append(f"  {no:>2} {name}  {value}" + (f" ×{count}" if count > 1 else ""))
    lines.append(say("cli.fan.total", {"total": r.total, "base": r.base_total}))
    if r.base_total < 8:
        lines.append(say("cli.fan.below"))
    return "\n".join(lines)


def _wind(text: str) -> int:
    from qipai.core.errors import NotationError

    if text not in ("E", "S", "W", "N"):
        raise NotationError(f"a wind is E, S, W or N, got {text!r}", "wind",
                            code="notation.flag_value", params={"flag": "wind"})
    return "ESWN".index(text)
