"""Point counting of laizi mahjong (rules/laizi-mahjong.md sections 3 and 4).

:func:`best_base` finds the best pattern a hand can be read as, with its wildcards (laizi)
standing for any kind (also a fifth copy) or, with ``jokers=0`` and the laizi counted as their
own kind, the *identity* reading. :func:`score` turns a winning hand into its points: the base
of the soft or hard reading (3.2) times every doubling of 4.1; :func:`money` is the five-yuan
band of 4.3. Hands are the one-line notation of :mod:`qipai.tiles.notation` with this game's
flags (:func:`parse_laizi_hand`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import NotationError
from qipai.tiles.jokers import pairs_cost, standard_cost
from qipai.tiles.meld import CHOW, KONG, Meld
from qipai.tiles.notation import Hand, parse_hand
from qipai.tiles.tile import NUM_KINDS, format_tiles, parse_tiles

#: colour patterns (3.1) and their values (3.3)
COLOURS = {"hun": 1, "qing": 2, "feng": 2, "jiang": 2}
#: shape patterns and their values
SHAPES = {"pengpeng": 2, "qidui": 2}
#: the pattern's Chinese name by (colour, shape); 屁胡 is the plain hand of ``allow_pihu``
NAMES = {
    ("hun", None): "奏一色", ("qing", None): "清一色", ("feng", None): "风一色", ("jiang", None): "将一色",
    (None, "pengpeng"): "碰碰糊", (None, "qidui"): "七对",
    ("hun", "pengpeng"): "奏碰碰", ("hun", "qidui"): "奏七对", ("qing", "pengpeng"): "清碰",
    ("jiang", "pengpeng"): "将碰", ("feng", "pengpeng"): "风碰", ("qing", "qidui"): "清七对",
    ("jiang", "qidui"): "将七对", ("feng", "qidui"): "风七对", (None, None): "屁胡",
}
#: the doublings of 4.1 in the order they are listed, with their Chinese names
DOUBLINGS = {"hard": "硬糊", "self_drawn": "自摸", "bloom": "杠开", "last": "海捞", "all_melded": "全求人",
             "concealed": "门前清", "exposed_kong": "明杠", "peel_kong": "皮子杠", "laizi_kong": "赖子杠",
             "concealed_kong": "暗杠"}
JIANG_RANKS = (1, 4, 7)          # rank index of 2, 5, 8


def successor(t: int) -> int:
    """The laizi kind for indicator ``t`` (2.2): n → n+1 and 9 → 1 in a suit, E → S → W → N → E,
    C → F → P → C."""
    if t < 27:
        return t - t % 9 + (t % 9 + 1) % 9
    if t < 31:
        return 27 + (t - 27 + 1) % 4
    return 31 + (t - 31 + 1) % 3


def pattern_value(colour: str | None, shape: str | None, *, extrapolated: bool = True) -> int:
    """Base of a colour and a shape pattern (3.3): either alone, or ``c × s × 2`` together;
    with ``extrapolated=False`` 清七对, 将七对 and 风七对 are worth the larger single value."""
    if colour is None and shape is None:
        return 1
    if colour is None:
        return SHAPES[shape]
    if shape is None:
        return COLOURS[colour]
    if shape == "qidui" and colour != "hun" and not extrapolated:
        return max(COLOURS[colour], SHAPES[shape])
    return COLOURS[colour] * SHAPES[shape] * 2


def _group(t: int) -> int:
    return t // 9 if t < 27 else 3


class _Reading:
    """What every pattern test of one hand shares: its real kinds, the groups they fall in
    (characters, dots, bamboo, honors) and those of the melds."""

    def __init__(self, counts: list[int], jokers: int, melds: tuple[Meld, ...]) -> None:
        self.counts = counts
        self.jokers = jokers
        self.melds = melds
        meld_tiles = [t for m in melds for t in m.tiles]
        kinds = {t for t in range(NUM_KINDS) if counts[t]} | set(meld_tiles)
        self.groups = {_group(t) for t in kinds}
        self.meld_groups = {_group(t) for t in meld_tiles}
        self.all_jiang = all(t < 27 and t % 9 in JIANG_RANKS for t in kinds)
        self.chow_meld = any(m.kind == CHOW for m in melds)

    def feasible(self, colour: str | None, suit: int | None, shape: str | None) -> bool:
        """Can the hand be read as the pattern (colour over ``suit``, shape; ``None``/``None``
        is a plain standard shape)?"""
        chows = [True, True, True, False]
        nonempty = [False] * 4
        if colour is None:
            allowed = [True] * 4
        elif colour == "feng":
            allowed = [False, False, False, True]
        elif colour == "jiang":
            if not self.all_jiang:
                return False
            allowed = [True, True, True, False]
            chows = [False] * 4
        else:
            allowed = [g == suit or (colour == "hun" and g == 3) for g in range(4)]
            nonempty = [g == suit and g not in self.meld_groups for g in range(4)]
            if colour == "hun":
                nonempty[3] = 3 not in self.meld_groups
        if any(not allowed[g] for g in self.groups):
            return False
        if shape is None and colour in ("feng", "jiang"):
            return True                              # these need no shape (3.1)
        melds, counts, jokers = self.melds, self.counts, self.jokers
        if shape == "qidui":
            return not melds and pairs_cost(counts, allowed=allowed, nonempty=nonempty) <= jokers
        if shape == "pengpeng":
            if self.chow_meld:
                return False
            chows = [False] * 4
        if standard_cost(counts, allowed=allowed, chows=chows, nonempty=nonempty) <= jokers:
            return True
        # a colour pattern alone needs a standard or a seven-pairs shape
        return (shape is None and colour is not None and not melds
                and pairs_cost(counts, allowed=allowed, nonempty=nonempty) <= jokers)


def _candidates(pihu: bool, extrapolated: bool) -> list[tuple[int, str | None, int | None, str | None]]:
    out = []
    colours: list[tuple[str | None, int | None]] = [(None, None), ("feng", None), ("jiang", None)]
    colours += [(c, s) for c in ("hun", "qing") for s in range(3)]
    for colour, suit in colours:
        for shape in (None, "pengpeng", "qidui"):
            if colour is None and shape is None and not pihu:
                continue
            out.append((pattern_value(colour, shape, extrapolated=extrapolated), colour, suit, shape))
    out.sort(key=lambda x: -x[0])
    return out


_CANDIDATES = {(p, e): _candidates(p, e) for p in (False, True) for e in (False, True)}


def best_base(counts: list[int], jokers: int, melds: tuple[Meld, ...] = (), *, pihu: bool = False,
              extrapolated: bool = True) -> tuple[int, str | None, str | None]:
    """The best base of the hand (3.3) and its pattern ``(base, colour, shape)``; ``(0, None,
    None)`` when no pattern holds. ``counts``: the 34 counts of the concealed tiles with the
    winning tile, wildcards apart; ``jokers``: how many wildcards; ``melds``: declared sets
    (concealed kongs included, peel and laizi kongs not)."""
    r = _Reading(counts, jokers, melds)
    if (not r.all_jiang and r.groups - {3} and standard_cost(counts) > jokers
            and (melds or pairs_cost(counts) > jokers)):
        return 0, None, None                 # no shape at all, and no shapeless pattern
    for value, colour, suit, shape in _CANDIDATES[(pihu, extrapolated)]:
        if r.feasible(colour, suit, shape):
            return value, colour, shape
    return 0, None, None


@dataclass
class Score:
    """A scored win: the pattern read (``base`` of ``colour``/``shape``), whether it is hard,
    the soft and hard bases found, every doubling as ``(key, factor)`` (a key of
    :data:`DOUBLINGS`, repeated per kong) and the points ``P``."""

    base: int
    colour: str | None
    shape: str | None
    hard: bool
    soft_base: int
    hard_base: int
    doublings: list[tuple[str, int]] = field(default_factory=list)
    points: int = 0

    @property
    def pattern(self) -> str:
        return NAMES[(self.colour, self.shape)]

    def to_json(self) -> dict[str, Any]:
        return {"pattern": self.pattern, "colour": self.colour, "shape": self.shape, "base": self.base,
                "hard": self.hard, "soft_base": self.soft_base, "hard_base": self.hard_base,
                "doublings": [{"key": k, "name": DOUBLINGS[k], "factor": f} for k, f in self.doublings],
                "points": self.points}


def score(hand: Hand, *, allow_pihu: bool = False, concealed_bonus: bool = True, laizi_kong_factor: int = 2,
          extrapolated_pairs_combos: bool = True) -> Score | None:
    """The points of a winning hand in the notation of :func:`parse_laizi_hand` (its ``extra``
    holds ``ind``, ``peel``, ``lzk``), or ``None`` when it is not a win (sections 3 and 4.1)."""
    laizi = successor(hand.extra["ind"])
    counts = [0] * NUM_KINDS
    for t in hand.concealed:
        counts[t] += 1
    counts[hand.win] += 1
    pihu = allow_pihu or hand.extra.get("pihu", False)
    hard_base, hc, hs = best_base(counts, 0, hand.melds, pihu=pihu, extrapolated=extrapolated_pairs_combos)
    jokers = counts[laizi]
    soft = list(counts)
    soft[laizi] = 0
    if jokers:
        soft_base, sc, ss = best_base(soft, jokers, hand.melds, pihu=pihu,
                                      extrapolated=extrapolated_pairs_combos)
    else:
        soft_base, sc, ss = hard_base, hc, hs
    if soft_base == 0:
        return None
    hard = hard_base > 0 and 2 * hard_base >= soft_base
    if hard:
        s = Score(hard_base, hc, hs, True, soft_base, hard_base)
    else:
        s = Score(soft_base, sc, ss, False, soft_base, hard_base)
    exposed = [m for m in hand.melds if not m.concealed]
    d = s.doublings
    if hard:
        d.append(("hard", 2))
    if hand.self_drawn:
        d.append(("self_drawn", 2))
    if hand.kong:
        d.append(("bloom", 2))
    if hand.last and hand.self_drawn:
        d.append(("last", 2))
    if len(exposed) == 4 and not hand.self_drawn:
        d.append(("all_melded", 2))
    if not exposed and concealed_bonus:
        d.append(("concealed", 2))
    d.extend(("exposed_kong", 2) for m in exposed if m.kind == KONG)
    d.extend(("peel_kong", 2) for _ in range(hand.extra.get("peel", 0)))
    d.extend(("laizi_kong", laizi_kong_factor) for _ in range(hand.extra.get("lzk", 0)))
    d.extend(("concealed_kong", 4) for m in hand.melds if m.concealed)
    points = s.base
    for _, f in d:
        points *= f
    s.points = points
    return s


def money(points: int, floor: int = 5, cap: int = 35) -> int:
    """The five-yuan band of ``points`` (4.3): ``5 × (log2 P − 2)`` kept within ``floor`` and
    ``cap`` (64 → 20, 128 → 25, 256 → 30, 512 → 35; 8 or less → 5)."""
    steps = points.bit_length() - 1 - 2
    return max(floor, min(cap, 5 * steps))


def payments(points: int, winner: int, payer: int | None, *, discard_payers: str = "all", floor: int = 5,
             cap: int = 35, seats: int = 4) -> list[int]:
    """What each seat gains (+) or pays (−) for a win of ``points`` (4.2): self-drawn
    (``payer`` None), each other seat pays ``money(P)``; on a discard the discarder pays
    ``money(2P)`` and, with ``discard_payers="all"``, each other seat ``money(P)``."""
    pay = [0] * seats
    for s in range(seats):
        if s == winner:
            continue
        if payer is None:
            amount = money(points, floor, cap)
        elif s == payer:
            amount = money(2 * points, floor, cap)
        elif discard_payers == "all":
            amount = money(points, floor, cap)
        else:
            amount = 0
        pay[s] -= amount
        pay[winner] += amount
    return pay


# ----- notation (rule file section 6) ---------------------------------------------------------
def parse_flags(text: str, offset: int = 0) -> dict:
    """The flags of a laizi hand line: ``ind=<tile>`` (required), ``tsumo``, ``bloom``,
    ``last``, ``peel=N``, ``lzk=N``, ``pihu``, as keyword arguments of :class:`Hand`."""
    out: dict = {"extra": {}}
    extra = out["extra"]
    pos = 0
    for word in text.split():
        at = text.index(word, pos)
        pos = at + len(word)
        where = f"at position {offset + at + 1}"
        key, eq, value = word.partition("=")
        if not eq:
            if word == "tsumo":
                out["self_drawn"] = True
            elif word == "bloom":
                out["self_drawn"] = out["kong"] = True
            elif word == "last":
                out["self_drawn"] = out["last"] = True
            elif word == "pihu":
                extra["pihu"] = True
            else:
                raise NotationError(f"unknown flag {word!r} {where} (ind=, tsumo, bloom, last, peel=, lzk=, "
                                    "pihu)", "flags",
                                    code="notation.unknown_flag", params={"flag": word})
        elif key == "ind":
            tiles = parse_tiles(value, offset + at + 4)
            if len(tiles) != 1 or tiles[0] >= NUM_KINDS:
                raise NotationError(f"ind= names one playing tile {where}", "flags",
                                    code="notation.flag_value", params={"flag": "ind"})
            extra["ind"] = tiles[0]
        elif key in ("peel", "lzk"):
            if not (value.isascii() and value.isdecimal()) or int(value) > 4:
                raise NotationError(f"{key} must be 0..4, got {value!r} {where}", "flags",
                                    code="notation.flag_value", params={"flag": key})
            extra[key] = int(value)
        else:
            raise NotationError(f"unknown flag {word!r} {where}", "flags",
                                code="notation.unknown_flag", params={"flag": word})
    if "ind" not in extra:
        raise NotationError("the indicator is missing: add ind=<tile> after '|'", "flags",
                            code="notation.indicator_missing")
    return out


def parse_laizi_hand(text: str) -> Hand:
    """A hand line of the rule file, e.g. ``234m 567m 9m 6p EE [789m] + E | ind=5p``. Raises
    :class:`NotationError` naming the fault."""
    body, bar, _ = text.partition("|")
    if not bar:
        raise NotationError("the indicator is missing: add | ind=<tile>", "flags",
                            code="notation.indicator_missing")
    return parse_hand(text, flags=parse_flags)


def hand_text(hand: Hand) -> str:
    """The canonical line of a laizi hand (inverse of :func:`parse_laizi_hand`)."""
    e = hand.extra
    flags = [f"ind={format_tiles([e['ind']])}"]
    if hand.self_drawn and not hand.kong and not hand.last:
        flags.append("tsumo")
    if hand.kong:
        flags.append("bloom")
    if hand.last:
        flags.append("last")
    for key in ("peel", "lzk"):
        if e.get(key):
            flags.append(f"{key}={e[key]}")
    if e.get("pihu"):
        flags.append("pihu")
    return hand.body() + " | " + " ".join(flags)
