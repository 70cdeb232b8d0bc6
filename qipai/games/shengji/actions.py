"""Actions of 升级 and their canonical text (docs/games/shengji.md, "Notation").

* ``pass`` — decline a declaration prompt;
* ``declare 2H 2H`` — show cards to declare trump (亮主/反主/报主), face codes;
* ``bury 3C 4D …`` — the dealer's kitty exchange (扣底), exactly ``kitty_size`` face codes;
* ``AS AS KS`` — a play (lead or follow): the face codes of the cards.

Cards are named by face code (``TH``, ``LJ``); identical cards are interchangeable, so an action
never names a deck index (a card id such as ``TH1`` is read as its face). The canonical text
lists the faces sorted by :func:`canonical_order` (strongest group first: jokers, then ranks
high to low, suits S, H, C, D), so the same cards always give the same text.
"""

from __future__ import annotations

from collections import Counter

from qipai.cards.card import RANKS, parse_card
from qipai.core.errors import IllegalAction, why

KINDS = ("pass", "declare", "bury", "play")
_RANK_ORDER = {r: i for i, r in enumerate(RANKS)}
_RANK_ORDER.update({"L": 13, "B": 14})
_SUIT = {"S": 0, "H": 1, "C": 2, "D": 3}


def canonical_order(face: str) -> tuple[int, int]:
    """Sort key of faces in action texts: big joker, small joker, A … 2, suits S H C D."""
    if face in ("LJ", "BJ"):
        return (-_RANK_ORDER[face[0]], 0)
    return (-_RANK_ORDER[face[0]], _SUIT[face[1]])


class _Keys(dict):
    """:func:`canonical_order` of the 54 face codes, computed once; any other text is computed
    on each look-up (and raises as :func:`canonical_order` does)."""

    def __missing__(self, face: str) -> tuple[int, int]:
        return canonical_order(face)


#: ``canonical_key(face) == canonical_order(face)``, a dictionary look-up (hot sorts use it)
canonical_key = _Keys({f: canonical_order(f)
                       for f in [r + s for r in RANKS for s in _SUIT] + ["LJ", "BJ"]}).__getitem__


class Action:
    """``kind`` (``pass``, ``declare``, ``bury``, ``play``) and ``faces`` (sorted face codes).
    Equal and hashable by text."""

    __slots__ = ("kind", "faces", "text")

    def __init__(self, kind: str, faces: tuple[str, ...] = (), ordered: bool = False) -> None:
        self.kind = kind
        self.faces = tuple(faces) if ordered else tuple(sorted(faces, key=canonical_key))
        body = " ".join(self.faces)
        self.text = kind if kind == "pass" else body if kind == "play" else f"{kind} {body}"

    @property
    def counts(self) -> Counter:
        return Counter(self.faces)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self):
        return (Action, (self.kind, self.faces))


PASS = Action("pass")


class Fault:
    """A sanction entry (§5.3), never a legal action: ``fault follow 1`` (a follow error of team
    1), ``fault count 0`` (a count error), ``fault play 0 3`` (10 × 3 points, like a failed
    throw), ``fault bury 0`` (a wrong-size bury: the hand ends as "take over")."""

    __slots__ = ("kind", "team", "cards", "text")
    KINDS = ("follow", "count", "play", "bury")

    def __init__(self, kind: str, team: int, cards: int = 0) -> None:
        self.kind, self.team, self.cards = kind, team, cards
        self.text = f"fault {kind} {team}" + (f" {cards}" if kind == "play" else "")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Fault({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fault) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def _parse_fault(parts: list[str], text: str) -> Fault:
    kinds = Fault.KINDS
    ok = len(parts) >= 3 and parts[1] in kinds and parts[2] in ("0", "1")
    if ok and parts[1] == "play":
        ok = len(parts) == 4 and parts[3].isdecimal() and int(parts[3]) > 0
    elif ok:
        ok = len(parts) == 3
    if not ok:
        raise IllegalAction("a fault is 'fault follow|count|bury TEAM' or 'fault play TEAM CARDS' "
                            "(TEAM 0 or 1)", text, code="shengji.fault_fault_follow_count")
    return Fault(parts[1], int(parts[2]), int(parts[3]) if parts[1] == "play" else 0)


def play(faces) -> Action:
    return Action("play", tuple(faces))


def parse_action(text: str, decks: int = 2) -> Action | Fault:
    """Read ``pass``, ``declare …``, ``bury …`` or a play (face codes or card ids, optionally
    after ``play``). Case-insensitive; commas allowed; ``10`` for ``T``. Raises
    :class:`IllegalAction` naming the bad part."""
    if not isinstance(text, str):
        raise IllegalAction("an action is written as text", text, code="shengji.action_written_text")
    parts = text.replace(",", " ").split()
    if not parts:
        raise IllegalAction("empty action", text, code="shengji.empty_action")
    head = parts[0].lower()
    if head == "fault":
        return _parse_fault([p.lower() for p in parts], text)
    if head in ("pass", "p", "过", "不亮"):
        if len(parts) != 1:
            raise IllegalAction("'pass' takes no cards", text, code="shengji.pass_takes_no_cards")
        return PASS
    kind = "play"
    if head in ("declare", "bury", "play"):
        kind = head
        parts = parts[1:]
        if not parts:
            raise IllegalAction(f"'{kind}' needs cards", text,
                                code="shengji.needs_cards", params={"kind": kind})
    faces = []
    for tok in parts:
        try:
            card = parse_card(tok)
        except ValueError as e:
            raise IllegalAction(f"cannot read {tok!r}: {e}", text,
                                code="shengji.cannot_read",
                                params={"tok": tok, **why(e, "unreadable")}) from None
        if card.deck >= decks:
            raise IllegalAction(f"{tok} does not exist: this game uses {decks} decks "
                                f"(indexes 0..{decks - 1})", text,
                                code="shengji.does_not_exist_game",
                                params={"tok": tok, "decks": decks, "n": decks - 1})
        faces.append(card.face)
    return Action(kind, tuple(faces))
