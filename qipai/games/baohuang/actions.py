"""Actions of 保皇 and their canonical text (``rules/baohuang.md`` §3.6, notation §6).

=====================  ==============================================================
text                   action
=====================  ==============================================================
``accept``             the candidate becomes emperor (§2.4)
``decline``            the candidate passes the package on; ``decline 2H3`` names the
                       ``2`` added to the package when one is owed (§2.4 step 3, D3)
``declare 7H0 7H2 7H3``  the emperor names ♥7 and reveals those copies (3 or 4, §2.5);
                       ``declare 7H`` reveals his three lowest copies, ``declare 7Hx4`` all four
``pass``               a follower passes; ``pass jiefeng`` is the pass that applies for
                       接风 (§3.4, D7)
``999LL``              a set as a rank string (normal cards, then ``L``, then ``B``); the
                       referee plays the lowest card ids of each rank
``9H1 9S0 LJ2``        a set as card ids (the player picks the physical cards); a face code
                       without index (``9H``, ``LJ``) means the lowest copy of that face held
=====================  ==============================================================
"""

from __future__ import annotations

from qipai.cards import Card, parse_card
from qipai.core.errors import IllegalAction, why

from .sets import NRANKS, ORDER, Play, from_counts

_RANKSET = set(ORDER.ranks)


class Accept:
    """``accept``: the candidate takes the package and becomes emperor."""

    __slots__ = ()
    kind = "accept"
    text = "accept"

    def __str__(self) -> str:
        return "accept"

    def __repr__(self) -> str:
        return "ACCEPT"

    def __reduce__(self):
        return "ACCEPT"


ACCEPT = Accept()


class Decline:
    """``decline`` (``card`` = the ``2`` added to the package, or ``None``)."""

    __slots__ = ("card", "text")
    kind = "decline"

    def __init__(self, card: Card | None = None) -> None:
        self.card = card
        self.text = "decline" if card is None else f"decline {card.id}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Decline({self.card!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decline) and other.card is self.card

    def __hash__(self) -> int:
        return hash(("decline", self.card))


class Declare:
    """``declare``: the named identity (``face``, e.g. ``7H``) and the revealed copies.
    ``cards`` holds card ids when given, else ``count`` (3 or 4) lowest copies are revealed."""

    __slots__ = ("face", "cards", "count", "text")
    kind = "declare"

    def __init__(self, face: str, cards: tuple[Card, ...] = (), count: int = 3) -> None:
        self.face = face
        self.cards = tuple(sorted(cards, key=ORDER.card_key))
        self.count = len(cards) if cards else count
        self.text = "declare " + (" ".join(c.id for c in self.cards) if self.cards
                                  else face + ("x4" if count == 4 else ""))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Declare({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Declare) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class Pass:
    """``pass`` (``jiefeng`` = this pass applies for 接风)."""

    __slots__ = ("jiefeng", "text")
    kind = "pass"

    def __init__(self, jiefeng: bool = False) -> None:
        self.jiefeng = jiefeng
        self.text = "pass jiefeng" if jiefeng else "pass"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return "JIEFENG" if self.jiefeng else "PASS"

    def __reduce__(self):
        return "JIEFENG" if self.jiefeng else "PASS"


PASS = Pass(False)
JIEFENG = Pass(True)


class CardPlay:
    """A set given as physical cards: ``cards`` (exact card ids) and ``faces`` (face codes whose
    lowest held copy is played). ``set`` is the :class:`~.sets.Play` they make."""

    __slots__ = ("set", "cards", "faces", "text")
    kind = "cards"

    def __init__(self, set_: Play, cards: tuple[Card, ...], faces: tuple[str, ...]) -> None:
        self.set = set_
        self.cards = cards
        self.faces = faces
        self.text = " ".join([c.id for c in cards] + list(faces))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"CardPlay({self.text!r})"


_PASS_WORDS = {"pass", "p", "过", "过牌", "不要"}
_ACCEPT_WORDS = {"accept", "接受", "当皇帝"}
_DECLINE_WORDS = {"decline", "不当", "拒绝"}


def _face_of(token: str, text: str) -> str:
    """The face code of rank 3..A written ``token`` (``7H``), or raise naming ``text``."""
    t = token.strip().upper().replace("10", "T")
    if len(t) != 2 or t[0] not in "3456789TJQKA" or t[1] not in "SHDC":
        raise IllegalAction(f"{token!r} cannot be named: the named card is a rank 3..A with a suit, "
                            f"e.g. 7H (never a 2 or a joker)", text,
                            code="baohuang.cannot_named_named_card", params={"token": token})
    return t


def parse(text: str) -> object:
    """Read one action in the notation of this module. Raises :class:`IllegalAction` saying what
    is wrong (the state is never consulted: checks against the hand happen when applying)."""
    if not isinstance(text, str):
        raise IllegalAction("an action is written as text", text, code="baohuang.action_written_text")
    parts = text.strip().split()
    if not parts:
        raise IllegalAction("empty action", text, code="baohuang.empty_action")
    head = parts[0].lower()
    if head in _PASS_WORDS:
        if len(parts) == 1:
            return PASS
        if len(parts) == 2 and parts[1].lower() in ("jiefeng", "接风"):
            return JIEFENG
        raise IllegalAction("a pass is 'pass' or 'pass jiefeng'", text,
                            code="baohuang.pass_pass_pass_jiefeng")
    if head in _ACCEPT_WORDS:
        if len(parts) != 1:
            raise IllegalAction("'accept' takes nothing after it", text,
                                code="baohuang.accept_takes_nothing_after")
        return ACCEPT
    if head in _DECLINE_WORDS:
        if len(parts) == 1:
            return Decline(None)
        if len(parts) == 2:
            card = _card(parts[1], text)
            if card.rank != "2":
                raise IllegalAction("only a 2 is added to the package when declining", text,
                                    code="baohuang.only_added_package_when")
            return Decline(card)
        raise IllegalAction("a decline is 'decline' or 'decline 2H3'", text,
                            code="baohuang.decline_decline_decline_h")
    if head == "declare":
        return _parse_declare(parts[1:], text)
    return _parse_play(parts, text)


def _card(token: str, text: str) -> Card:
    try:
        card = parse_card(token)
    except (ValueError, AttributeError):
        raise IllegalAction(f"not a card: {token!r} (card ids look like 7H0, LJ1, BJ3)", text,
                            code="baohuang.not_card_card_ids", params={"token": token}) from None
    if card.deck > 3:
        raise IllegalAction(f"保皇 uses four packs (deck index 0..3): {card.id} does not exist", text,
                            code="baohuang.uses_four_packs_deck", params={"id": card.id})
    return card


def _parse_declare(rest: list[str], text: str) -> Declare:
    if len(rest) == 1:
        tok = rest[0]
        if tok.lower().endswith("x4"):
            return Declare(_face_of(tok[:-2], text), (), 4)
        return Declare(_face_of(tok, text), (), 3)
    if len(rest) not in (3, 4):
        raise IllegalAction("declare names a face (7H, 7Hx4) or reveals 3 or 4 card ids "
                            "(7H0 7H2 7H3)", text, code="baohuang.declare_names_face_h")
    if not all(t.strip()[-1].isdecimal() for t in rest):
        raise IllegalAction("revealed cards are written as card ids with their pack index (7H0)", text,
                            code="baohuang.revealed_cards_written_card")
    cards = tuple(_card(t, text) for t in rest)
    if len({c.id for c in cards}) != len(cards):
        raise IllegalAction("the same card is revealed twice", text,
                            code="baohuang.same_card_revealed_twice")
    if len({c.face for c in cards}) != 1:
        raise IllegalAction("the revealed cards must be copies of one card (same rank and suit)", text,
                            code="baohuang.revealed_cards_must_copies")
    return Declare(_face_of(cards[0].face, text), cards)


def _parse_play(parts: list[str], text: str) -> object:
    counts = [0] * NRANKS
    exact: list[Card] = []
    faces: list[str] = []
    for tok in parts:
        t = tok.upper()
        if _is_card_token(t):
            card = _card(t, text)
            if t[-1].isdecimal():
                exact.append(card)
            else:
                faces.append(card.face)
            counts[ORDER.index[card.rank]] += 1
            continue
        try:
            for i, c in enumerate(ORDER.parse_counts(t)):
                counts[i] += c
        except ValueError as e:
            raise IllegalAction(f"cannot read {tok!r}: {e}; actions are accept, decline, declare, "
                                f"pass or a set such as 999LL", text,
                                code="baohuang.cannot_read_actions_accept",
                                params={"tok": tok, **why(e, "unreadable")}) from None
    if (exact or faces) and sum(counts) != len(exact) + len(faces):
        raise IllegalAction("write a set either as a rank string (999LL) or as card ids "
                            "(9H0 9S1 LJ2), not both", text, code="baohuang.write_set_either_rank")
    if len({c.id for c in exact}) != len(exact):
        raise IllegalAction("the same card is named twice", text, code="baohuang.same_card_named_twice")
    try:
        p = from_counts(counts)
    except ValueError as e:
        raise IllegalAction(str(e), text, code="bad_notation",
                                params={"text": text, **why(e, "unreadable")}) from None
    if exact or faces:
        return CardPlay(p, tuple(sorted(exact, key=ORDER.card_key)), tuple(sorted(faces)))
    return p


def _is_card_token(t: str) -> bool:
    """Card ids (7H0, LJ2) and face codes with a suit (7H) or joker faces (LJ, BJ)."""
    if len(t) == 3 and t[2].isdecimal():
        t = t[:2]
    elif t.startswith("10") and len(t) in (3, 4):
        t = "T" + t[2:3]
    if len(t) != 2:
        return False
    return t in ("LJ", "BJ") or (t[0] in _RANKSET and t[1] in "SHDC")
