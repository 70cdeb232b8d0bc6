"""What the mahjong matches share beyond the tiles: a match of hands between four fixed seats
(:class:`TileMatch`), the check of an explicit deal (:func:`check_deals`, :func:`read_wall_deal`)
and table points by match score (:func:`table_points`).

A match is one :class:`~qipai.core.game.State`: ``hands_per_match`` hands, dealt from the seed
(hand ``k`` from the same :class:`~qipai.core.rng.DealRng` stream, in order) or from an explicit
deal that names every hand. The match keeps ``scores`` (per seat), ``hand_results`` (one dict
per finished hand, in order) and ``hand_no`` (hands finished so far).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from qipai.core.errors import IllegalAction, NotationError
from qipai.core.rng import DealRng
from qipai.core.viewdelta import ViewDelta, whole

from .handlog import HandLog
from .meld import Meld
from .referee import TileReferee
from .table import seat_line
from .tile import NUM_KINDS, format_tiles, parse_tiles
from .wall import Wall, check_tile_counts, deal_hands

SEATS = 4
#: extra hands played at most to break a tie for first place (option ``first_place_tiebreak``)
MAX_TIEBREAK_HANDS = 16


def table_points(scores: Sequence[int], points: Sequence[float] = (4, 2, 1, 0)) -> list[float]:
    """Table points (4/2/1/0 by default) by match score; tied seats share the places they
    occupy (two seats tied first get (4 + 2) / 2 = 3 each)."""
    n = len(scores)
    order = sorted(range(n), key=lambda s: -scores[s])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(points[i:j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


def check_deals(deal: Any, hands_total: int,
                read_item: Callable[[int, Any], dict[str, Any]]) -> list[dict[str, Any]]:
    """An explicit deal of a match: one item per hand (a single item may stand alone, not in a
    list), at least ``hands_total`` of them, each read by ``read_item(hand number from 1, item)``.
    Checked when the match is created, so that play never finds a hand without its deal.
    Raises :class:`NotationError`."""
    items = deal if isinstance(deal, list) else [deal]
    if len(items) < hands_total:
        raise NotationError(f"the deal covers {len(items)} hands, the match has {hands_total}", "deal",
                            code="notation.deal_count", params={"want": hands_total})
    return [read_item(i + 1, d) for i, d in enumerate(items)]


def read_tiles(number: int, text: Any) -> list[int]:
    """Tiles given as text (``"123m5p"``) or as a list of tile numbers. Raises
    :class:`NotationError` naming the hand ``number``."""
    try:
        return parse_tiles(text) if isinstance(text, str) else list(text)
    except (TypeError, NotationError):
        raise NotationError(f"hand {number}: hands and wall are tiles", "deal",
                            code="notation.deal_shape") from None


def read_hands(number: int, d: Any, *, wall_keys: tuple[str, ...] = ("wall",)) -> list[list[int]]:
    """The four 13-tile hands (by seat) of one hand's deal ``d``, a dict that also holds one of
    ``wall_keys``. Raises :class:`NotationError`."""
    if not isinstance(d, dict) or "hands" not in d or not any(k in d for k in wall_keys):
        raise NotationError(f"hand {number}: a deal needs 'hands' and {' or '.join(map(repr, wall_keys))}",
                            "deal",
                            code="notation.deal_shape")
    if not isinstance(d["hands"], list):
        raise NotationError(f"hand {number}: 'hands' is a list of four hands", "deal",
                            code="notation.deal_shape")
    hands = [read_tiles(number, h) for h in d["hands"]]
    if len(hands) != SEATS or any(len(h) != 13 for h in hands):
        raise NotationError(f"hand {number}: four hands of 13 tiles", "deal",
                            code="notation.deal_cards")
    return hands


def read_wall_deal(number: int, d: Any, *, kinds: int, wall_size: int) -> dict[str, Any]:
    """One hand's deal ``{"hands": [4 × 13 tiles by seat], "wall": "..."}`` with no flowers: the
    wall holds the ``wall_size`` undealt tiles in draw order, only kinds ``0 .. kinds - 1``
    occur, each at most four times. Returns ``{"hands", "wall"}`` as tile numbers. Raises
    :class:`NotationError`."""
    hands = read_hands(number, d)
    wall = read_tiles(number, d["wall"])
    if any(type(t) is not int or not 0 <= t < kinds for t in [*wall, *(x for h in hands for x in h)]):
        raise NotationError(f"hand {number}: only the {kinds} playing kinds of the set (no flowers)", "deal",
                            code="notation.deal_cards")
    check_tile_counts(number, hands, wall)
    if len(wall) != wall_size:
        raise NotationError(f"hand {number}: the wall holds the {wall_size} undealt tiles, got {len(wall)}",
                            "deal",
                            code="notation.deal_cards")
    return {"hands": hands, "wall": wall}


class TileMatch(TileReferee):
    """A mahjong match between four fixed seats (see the module doc). A subclass gives
    ``KINDS``, :meth:`_four_seats` (the refusal of another seat count), :meth:`_read_deal`,
    :meth:`_start_hand`, :meth:`_finish` and the hooks of :class:`~.referee.TileReferee`.

    Raises :class:`NotationError` for a position or a bad deal, :class:`IllegalAction` for a
    seat count other than four."""

    def __init__(self, game, *, seed=None, deal=None, position=None, num_seats=None):
        super().__init__(game, seed=seed, deal=deal, position=position, num_seats=SEATS)
        if position is not None:
            raise NotationError(f"{game.id} has no position notation; use seed or deal", "position",
                                code="notation.no_position")
        if num_seats not in (None, SEATS):
            raise self._four_seats()
        self.opt = game.options
        self.hands_total = self.opt["hands_per_match"]
        self._deals = check_deals(deal, self.hands_total, self._read_deal) if deal is not None else None
        self.rng = DealRng(seed if seed is not None else 0)
        self.scores = [0] * SEATS
        self.hand_results: list[dict[str, Any]] = []
        self.hand_no = 0
        self._start_hand()

    # ----- hooks ---------------------------------------------------------------------------
    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): the hand's ``log`` grows (an
        entry never changes once written; a new hand is a new log, a whole view); every other
        key is given again, and the keys that come and go (``current``, ``claim``, ...) are
        named when they go. ``view(seat, log=False)`` is the view with ``log`` left ``None``.
        The mark is ``(log serial, log length, the view's keys)``."""
        hand_log = self.hand_log
        serial, length = hand_log.serial, len(hand_log.entries)
        if type(since) is not tuple or len(since) != 3 or since[0] != serial or since[1] > length:
            view = self.view(seat)
            return whole(view, (serial, length, frozenset(view)))
        out = self.view(seat, log=False)
        keys = frozenset(out)
        del out["log"]
        return ViewDelta(out, {"log": hand_log.seen(seat, since[1])}, (serial, length, keys), False,
                         tuple(since[2] - keys))

    def seen_table(self, seat: int) -> tuple:
        """What ``view(seat)`` shows that the research tensor reads, in the state's own codes,
        without building the view: per seat its discarded tile kinds (the view's
        ``discards``, claimed ones included), the tile kinds of the sets ``seat`` sees (its
        own all, another seat's concealed kong none: ``melds``) and its concealed tile count;
        ``seat``'s 34 counts (``hand``) and the tile it has just drawn (``drawn``, ``None``
        unless it is playing a turn), the phase, the wall count, :meth:`_seen_marks` and
        :meth:`seen_claim`. The live lists are given: read only."""
        melds = [[t for m in ms if s == seat or not m.concealed for t in m.tiles] if ms else []
                 for s, ms in enumerate(self.melds)]
        mine = self.current == seat and self.phase == "turn"
        return (self.ponds, melds, list(map(sum, self.hands)), self.hands[seat],
                self.drawn if mine else None, self.phase, self.wall.remaining(),
                self._seen_marks(seat), self.seen_claim(seat))

    def seen_claim(self, seat: int) -> tuple[int | None, int] | None:
        """The open claim window as ``view(seat)["claim"]`` shows it: ``(the tile's kind,
        the seat it came from)``, the kind ``None`` where the game hides the tile from
        ``seat``; ``None`` when no window is open. The default: every tile shown."""
        p = self.pending
        return None if p is None else (p["tile"], p["from"])

    def _seen_marks(self, seat: int) -> tuple:
        """The rest of :meth:`seen_table`, as the game's view shows it: ``(the seat's wind,
        the prevalent wind, the dealer, the laizi, its indicator, each seat's flowers: a
        tuple of their codes, ``FLOWER_BASE`` + 0..7)``, ``None`` for what the view does not
        have. The default: the dealer only."""
        return None, None, self.dealer, None, None, None

    def _four_seats(self) -> IllegalAction:
        """The refusal of a seat count other than four, in the game's own words."""
        raise NotImplementedError

    def _read_deal(self, number: int, item: Any) -> dict[str, Any]:
        """One hand's item of an explicit deal, checked (see :func:`check_deals`)."""
        raise NotImplementedError

    def _start_hand(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        """Set ``self.result`` once the last hand is over."""
        raise NotImplementedError

    def _seat_text(self, s: int) -> str:
        """Seat ``s``'s tiles as revealed at the end of a hand."""
        return seat_line(self.hands[s], self.melds[s])

    def _match_over(self) -> bool:
        return self.hand_no >= self.hands_total and not self._tie_for_first()

    def _tie_for_first(self) -> bool:
        """True while the option ``first_place_tiebreak`` (games that have it) asks for one
        more hand: first place is shared after the last hand. At most ``MAX_TIEBREAK_HANDS``
        extra hands, so a match always ends; a match from an explicit deal plays one only when
        the deal has an item for it (with none left the tie stands)."""
        if not self.opt.get("first_place_tiebreak") or self.hand_no >= self.hands_total + MAX_TIEBREAK_HANDS:
            return False
        if self._deals is not None and self.hand_no >= len(self._deals):
            return False
        best = max(self.scores)
        return self.scores.count(best) > 1

    def _paid_in_hand(self) -> list[int]:
        """What the seats were paid during the hand and is in ``scores`` already (none)."""
        return [0] * SEATS

    # ----- a hand --------------------------------------------------------------------------
    def _clear_table(self) -> None:
        """Empty hands, sets and discards; no window open."""
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(SEATS)]
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.ponds: list[list[list[Any]]] = [[] for _ in range(SEATS)]   # [tile, claimed?]
        self.pending: dict[str, Any] | None = None
        self.answers: dict[int, Any] = {}
        self.hand_log = HandLog()

    def _deal_due(self) -> dict[str, Any] | None:
        """The explicit deal of the hand about to start, ``None`` when dealing from the seed."""
        return self._deals[self.hand_no] if self._deals is not None else None

    def _deal_fixed(self, dealer: int, tiles: Callable[[], list[int]]) -> list[int]:
        """Deal the hand about to start to the fixed seats (seat ``dealer`` first): the explicit
        deal's hands, or ``tiles()`` (a seeded shuffle) dealt by :func:`.wall.deal_hands`.
        Fills ``hands``; returns the undealt tiles in draw order."""
        d = self._deal_due()
        if d is not None:
            dealt, rest = d["hands"], d["wall"]
        else:
            by_pos, rest = deal_hands(tiles(), 0)
            dealt = [by_pos[(s - dealer) % SEATS] for s in range(SEATS)]
        for s in range(SEATS):
            for t in dealt[s]:
                self.hands[s][t] += 1
        return list(rest)

    def _next(self, seat: int, step: int = 1) -> int:
        return (seat + step) % SEATS

    def _draw(self, seat: int, kind: str) -> None:
        """A head draw (``kind`` ``wall``) or a tail draw (any other kind: a replacement) for
        ``seat`` from the single wall ``self.wall``; an empty wall ends the hand drawn."""
        wall: Wall = self.wall
        if wall.is_empty():
            self._end_hand({"winners": [], "how": "drawn", "payments": [0] * SEATS})
            return
        t = wall.draw() if kind == "wall" else wall.draw_tail()
        self.hand_log.add(seat, "draw", format_tiles([t]))
        self.hands[seat][t] += 1
        self.drawn = t
        self.draw_kind = kind
        self.last_drawn = wall.is_empty()
        self.current = seat
        self.phase = "turn"
        self.after_claim = False
        self.waiting: tuple[int, ...] = (seat,)

    def _end_hand(self, info: dict[str, Any]) -> None:
        """Close the hand: ``info`` (the game's facts of it, with ``payments`` per seat) gets
        the hand's number and the revealed tiles and joins ``hand_results``; the payments not
        yet in ``scores`` go in; then the next hand starts or the match finishes."""
        info["hand"] = self.hand_no + 1
        info["revealed"] = {str(s): self._seat_text(s) for s in range(SEATS)}
        paid = self._paid_in_hand()
        for s in range(SEATS):
            self.scores[s] += info["payments"][s] - paid[s]
        self.hand_results.append(info)
        self.hand_log.add_end(info)
        self.waiting = ()
        self.pending = None
        self.answers = {}
        self.drawn = None
        self.hand_no += 1
        if self._match_over():
            self._finish()
        else:
            self._start_hand()
