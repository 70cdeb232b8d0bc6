"""What the mahjong referees share at the table: a claimed set taken into a hand, the public
and the private part of a seat in a view, a seat's tiles as one line, and match scores as a
result.

The counts of a hand are 34-long lists indexed by kind; a pond is the list of a seat's
discards as ``[tile, claimed?]``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from qipai.core.game import Result

from .meld import CHOW, KONG, PUNG, Meld
from .tile import NAMES, NUM_KINDS, format_tiles


def take_claimed_set(counts: list[int], kind: str, low: int | None, t: int, frm: int) -> Meld:
    """The set a claim on the discard ``t`` of seat ``frm`` makes (``kind`` chow, pung or kong;
    a chow from its lowest tile ``low``): the hand's tiles it uses leave ``counts``."""
    if kind == "chow":
        for x in (low, low + 1, low + 2):
            if x != t:
                counts[x] -= 1
        return Meld(CHOW, low, claimed=t, source=frm)
    counts[t] -= 2 if kind == "pung" else 3
    return Meld(PUNG if kind == "pung" else KONG, t, claimed=t, source=frm)


def concealed_text(counts: list[int]) -> str:
    """The concealed tiles of ``counts`` in canonical order (``123m55pE``)."""
    return _concealed_text(tuple(counts))


@lru_cache(maxsize=4096)
def _concealed_text(counts: tuple[int, ...]) -> str:
    """:func:`concealed_text`, kept per hand (every view writes each seat's hand)."""
    return format_tiles([t for t in range(NUM_KINDS) for _ in range(counts[t])], sort=False)


def seat_line(counts: list[int], melds: list[Meld], flowers: list[int] = ()) -> str:
    """A seat's tiles as one line: concealed tiles, sets, flowers (``123m55pE [789p] (5555s)``)."""
    parts = [concealed_text(counts)] + [str(m) for m in melds]
    if flowers:
        parts.append(format_tiles(flowers))
    return " ".join(p for p in parts if p)


def public_seat(counts: list[int], melds: list[Meld], pond: list[list[Any]]) -> dict[str, Any]:
    """What every seat sees of a seat: its discards (claimed ones marked), its sets (a
    concealed kong only as such) and how many tiles it holds."""
    return {
        "discards": [{"tile": NAMES[t], "claimed": c} for t, c in pond],
        "melds": [m.to_json() if not m.concealed else {"kind": "kong", "concealed": True} for m in melds],
        "concealed_count": sum(counts),
    }


def own_seat(counts: list[int], melds: list[Meld], drawn: int | None) -> dict[str, Any]:
    """What a seat sees of itself besides :func:`public_seat`: its tiles, its concealed kongs,
    the tile it has just drawn (``None`` when it has not)."""
    return {"hand": concealed_text(counts), "melds": [m.to_json() for m in melds],
            "drawn": NAMES[drawn] if drawn is not None else None}


def score_text(scores: list[int]) -> str:
    return " ".join(str(int(x)) for x in scores)


def read_scores(text: str, seats: int = 4) -> list[int] | None:
    """The scores of a result written ``"10 -5 -5 0"``, or ``None`` when it is not ``seats``
    whole numbers."""
    try:
        scores = [int(x) for x in text.split()]
    except ValueError:
        return None
    return scores if len(scores) == seats else None


def scores_result(scores: list[int], reason: str, details: dict[str, Any] | None = None, *,
                  tie_is_draw: bool = False) -> Result:
    """A result by match scores: the winners are the seats with the best score (none when
    ``tie_is_draw`` and nobody scored)."""
    best = max(scores)
    if tie_is_draw and not any(scores):
        return Result(tuple(float(x) for x in scores), reason, score_text(scores), (), details=details or {})
    winners = tuple(s for s in range(len(scores)) if scores[s] == best)
    return Result(tuple(float(x) for x in scores), reason, score_text(scores), winners, details=details or {})


def close_view(state: Any, out: dict[str, Any], seat: int | None, log: bool = True) -> dict[str, Any]:
    """The end of a mahjong view: who is playing a turn, ``seat``'s legal actions, the hand's
    log as ``seat`` may read it (:mod:`.handlog`; ``None`` unless ``log``), the result."""
    out["log"] = state.hand_log.seen(seat) if log else None
    if state.phase == "turn":
        out["current"] = state.current
    if seat is not None:
        out["legal"] = [str(a) for a in state.legal_actions(seat)]
    if state.result is not None:
        out["result"] = state.result.to_json()
    return out


class MatchEndings:
    """The endings of a mahjong match that are not hands (a mixin for a referee keeping match
    ``scores``, ``_details(scores)`` and ``_forfeit_pay()``): a seat that resigns or forfeits pays
    ``_forfeit_pay()`` to each other seat; an agreed draw keeps the scores; a recorded result is
    four scores adding up to zero."""

    def _loss_result(self, seat: int, reason: str) -> Result:
        pay = self._forfeit_pay()
        scores = [x + (-3 * pay if s == seat else pay) for s, x in enumerate(self.scores)]
        return scores_result(scores, reason, self._details(scores))

    def _draw_result(self, reason: str) -> Result:
        return Result(tuple(float(x) for x in self.scores), reason, score_text(self.scores), (),
                      details=self._details(self.scores))

    def _result_from_text(self, text: str, reason: str) -> Result:
        from qipai.core.errors import IllegalAction

        scores = read_scores(text)
        if scores is None or sum(scores) != 0:
            raise IllegalAction(f"a result is four scores adding up to zero, got {text!r}",
                                code="mahjong.result_four_scores", params={"text": text})
        return scores_result(scores, reason, self._details(scores))
