"""Message catalogues: every text a person reads, in Chinese and English.

A message is a stable key and named parameters, as gettext and Babel do: the engine raises
``IllegalAction(..., code="must_follow_suit", params={"suit": "♠"})``, the server sends
``{"code": ..., "params": ...}``, and the page, the server or the terminal formats it in the
reader's language with :func:`t`.

The catalogues are flat JSON objects in this package, ``en.json`` and ``zh.json``, one key a
line. Keys are namespaced by what they name:

- ``refusal.<code>``: why the referee refused an action (``IllegalAction.code``);
- ``end.<reason>``: why a game ended (``Result.reason``);
- ``error.<code>``: the server's error codes (HTTP JSON ``error`` and WebSocket ``error``);
- ``close.<reason>``: the reasons the server gives when it closes a WebSocket;
- ``option.<game>.<name>`` and ``value.<game>.<name>.<value>``: game options and their values;
- ``clock.<name>``, ``status.<status>``, ``preset.<name>``: clocks, event and table statuses,
  event presets;
- keys without a dot: the web client's own words (``lobby``, ``resign`` ...).

A template names its parameters in braces: ``"you must follow {suit}"``. ``{name|ns}`` formats
the parameter through the catalogue too: the value ``v`` of ``name`` becomes the text of key
``ns.v``, filled from the same parameters (so ``"the game is over ({reason|end})"`` says the
end reason in the same language). ``{name|ns+other}`` looks under ``ns.<other's value>``:
``{value|value+label}`` with ``label`` ``go.ko_rule`` words ``value.go.ko_rule.<value>``, an
option's value in the reader's language.
A list value is joined with ", ".

``{name|cards}`` words cards written in the games' codes (a message that names the cards in
a hand, on the table or missing): in Chinese each card by its suit and rank, 红桃A for ``AH``
or ``AH0``, 小王 and 大王 for ``LJ`` and ``BJ``, and a play written in ranks (``AL``, ``334``,
``T`` for 10, ``L``/``B`` for the jokers) rank by rank, ``A 小王``; in English each card as
its face reads on the table, suit sign and rank (♥A, ♠10), the jokers by name, ``Small Joker``
and ``Big Joker`` (as English card rooms name them), and a play rank by rank, ``A Small Joker``
(:func:`card_words`). A code a person is to type stays in the template as the thing to
type, after 输入. ``{name|tiles}`` words mahjong tiles written in their codes (``5m``, ``E``,
``345p``, ``f1``) by their names, 五万、东风 in Chinese, "5 crak", "East wind" in English,
the suit words the English tile faces carry (crak, dot, bam) (:func:`tile_words`).
``{name|cell}`` names a Chinese checkers hole ``q,r`` by its cell name (:func:`cell_word`).
``{name|seat}`` names a seat index by its player, from the message's ``names`` parameter (the
table's seats in order), never by a bare number where names are known (:func:`seat_word`).

A message that counts has plural forms instead of one template: ``"ct.count.one": "{n} card"``,
``"ct.count.other": "{n} cards"``; :func:`t` of ``ct.count`` picks the form of ``n`` (else of
the first numeric parameter) by the language's rules (:func:`plural`). Chinese has ``other``
only.

The terminal (``qipai play``) speaks one language for a whole session: :func:`use` picks it
(``--lang``, else :func:`env_language` from the locale variables) and :func:`say` words a key in
it.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

LANGS = ("en", "zh")
"""The languages with a catalogue; ``en`` is the fallback."""

_DIR = Path(__file__).resolve().parent
_FIELD = re.compile(r"\{(\w+)(?:\|([\w.-]+)(?:\+(\w+))?)?\}")
#: a Chinese character (CJK ideograph) — where a Latin word meets one, Chinese text puts a space
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_EDGE = re.compile(r"[A-Za-z0-9]")


def spaced(value: str, before: str, after: str) -> str:
    """``value`` (a filled field) set off by a space where a Latin word in it meets a Chinese
    character of the template around it (``before``/``after``: the template's characters next
    to the field): "carol 胜", "由 Ann 中止", as Chinese pages write a Latin name in a sentence.
    A number alone ("3步") and a value already set off by the template keep their text."""
    if not re.search(r"[A-Za-z]", value):
        return value
    if value and _LATIN_EDGE.match(value[-1]) and after and _CJK.match(after):
        value += " "
    if value and _LATIN_EDGE.match(value[0]) and before and _CJK.match(before):
        value = " " + value
    return value


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` (``"en"`` or ``"zh"``) as a dict key -> template.

    Raises ``KeyError`` for a language without a catalogue.
    """
    if lang not in LANGS:
        raise KeyError(lang)
    return json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))


@cache
def keys_of_texts(ns: str) -> dict[str, str]:
    """The catalogues read backwards under ``ns``: each text of a key ``ns.<name>`` in any
    language, to its ``name``. A text a person sent in their language is found again, to be
    worded in another's (a quick chat phrase, ``chat.quick.N``)."""
    out: dict[str, str] = {}
    for lang in LANGS:
        for key, text in catalogue(lang).items():
            head, _, name = key.rpartition(".")
            if head == ns:
                out[text] = name
    return out


def language(tag: str | None) -> str:
    """The catalogue language for a language tag or an Accept-Language value:
    ``"zh"`` for any ``zh*`` first choice, else ``"en"``."""
    first = (tag or "").split(",")[0].strip().lower()
    return "zh" if first.startswith("zh") else "en"


def has(key: str, lang: str = "en") -> bool:
    """Whether ``lang``'s catalogue has ``key``, as one template or as plural forms."""
    cat = catalogue(lang)
    return key in cat or f"{key}.other" in cat


def plural(lang: str, count: Any) -> str:
    """The CLDR plural category of ``count`` in ``lang``: English ``"one"`` for exactly 1,
    else ``"other"``; Chinese has only ``"other"``."""
    return "one" if lang == "en" and _number(count) == 1 else "other"


def _number(value: Any) -> float | None:
    """``value`` as a number (a numeric text too), or None."""
    if isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _count(template: str, params: dict[str, Any]) -> Any:
    """The count a plural message turns on: ``n``, else its first numeric parameter."""
    if "n" in params:
        return params["n"]
    return next((params[m.group(1)] for m in _FIELD.finditer(template)
                 if m.group(1) in params and _number(params[m.group(1)]) is not None), None)


def _template(key: str, params: dict[str, Any], lang: str) -> str | None:
    """The template of ``key`` in ``lang``'s catalogue: the key itself, or its plural form for
    the message's count (``key.one``, ``key.other``; a missing form is ``other``)."""
    cat = catalogue(lang)
    if key in cat:
        return cat[key]
    other = cat.get(f"{key}.other")
    if other is None:
        return None
    return cat.get(f"{key}.{plural(lang, _count(other, params))}", other)


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value)
    return str(value)


_FACE = re.compile(r"(10|[2-9TJQKA])([SHDC])\d?")
_JOKER = re.compile(r"([LB])J\d?")
_RANKS = re.compile(r"[2-9TJQKALB+]+|10")


#: English card words: suit signs as the cards on the table read (boards/cardtable.js)
_SUIT_SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_words(text: Any, lang: str = "en") -> str:
    """Cards written in the games' codes (``"9H TH0 LJ"``, a play in ranks ``"AL"``), in words
    of ``lang``: Chinese names each card (红桃9、红桃10、小王; ``A 小王``), English writes each
    as its face reads, a joker by name (♥9, ♥10, Small Joker; ``A Small Joker``); cards are
    listed with 、 in Chinese, ", " in English. A token that is no card is kept as written."""
    text = _text(text)
    suit = {s: t(f"term.suit.{s}", lang=lang) for s in "SHDC"} if lang == "zh" else _SUIT_SIGN
    joker = {"L": t("term.joker.L", lang=lang), "B": t("term.joker.B", lang=lang)}

    def rank(r: str) -> str:
        return "10" if r == "T" else joker.get(r, r)

    words = []
    for tok in text.replace(",", " ").split():
        if m := _FACE.fullmatch(tok):
            words.append(suit[m.group(2)] + rank(m.group(1)))
        elif m := _JOKER.fullmatch(tok):
            words.append(joker[m.group(1)])
        elif _RANKS.fullmatch(tok):
            plus = "＋" if lang == "zh" else "+"
            words.append(" ".join(plus if c == "+" else rank(c) for c in tok.replace("10", "T")))
        else:
            words.append(tok)
    return ("、" if lang == "zh" else ", ").join(words)


_TILE_RUN = re.compile(r"([1-9]+)([mps])|([ESWNCFP])|f([1-8])")


def tile_words(text: Any, lang: str = "en") -> str:
    """Mahjong tiles written in their codes (``"5m"``, ``"E"``, a run ``"345p"``, a flower
    ``"f1"``; tiles.tile.name) in words of ``lang`` from the catalogue's ``tile.*`` entries:
    五万、东风、红中、春 in Chinese, "5 crak", "East wind", "Red dragon", "Spring 1" in
    English; listed with 、 in Chinese, ", " in English. A token that is no tile run is kept
    as written."""
    words = []
    for tok in _text(text).replace(",", " ").split():
        if not _TILE_RUN.sub("", tok) == "":
            words.append(tok)
            continue
        for m in _TILE_RUN.finditer(tok):
            if m.group(1):
                words.extend(t(f"tile.{m.group(2)}", {"rank": int(r)}, lang=lang) for r in m.group(1))
            elif m.group(3):
                words.append(t(f"tile.{m.group(3)}", lang=lang))
            else:
                words.append(t("tile.f", {"n": int(m.group(4))}, lang=lang))
    return ("、" if lang == "zh" else ", ").join(words)


_HOLE = re.compile(r"(-?\d+),(-?\d+)")


def komi_stones(points) -> str:
    """A go komi given in points (B - W, SGF ``KM``) as the stones of an area count, half the
    points in quarters (8 -> "4", 7.5 -> "3¾", 0.5 -> "¼"); a template's ``{name|stones}``
    (as server/web/i18n.js komiStones)."""
    q = round(abs(float(points)) * 2)            # quarter stones
    return f"{q // 4 or ('' if q % 4 else '0')}{('', '¼', '½', '¾')[q % 4]}"


def cell_word(value: Any) -> str:
    """A Chinese checkers hole written ``q,r`` by its cell name (``-1,5`` is ``q4``, as the
    board and the move list name it; docs/games/chinese-checkers.md); other text as it is."""
    from qipai.games.chinese_checkers.board import CELL_NAMES, INDEX

    m = _HOLE.fullmatch(_text(value).strip())
    hole = INDEX.get((int(m.group(1)), int(m.group(2)))) if m else None
    return CELL_NAMES[hole] if hole is not None else _text(value)


_BOT = re.compile(r"bot:(\w+)")
_ENGINE = re.compile(r"engine:(.+)")


def seat_name(name: Any, lang: str = "en") -> str:
    """A seat's name as people read it (as the pages' seatName): a built-in bot's seat
    (``bot:rule``) in words, 机器人（规则型） / "Bot (Rule-based)", an engine's (``engine:fsf``)
    as 引擎 fsf / "Engine fsf", anyone else's name as it is."""
    text = "" if name is None else str(name)
    if m := _BOT.fullmatch(text):
        return t("botseat", {"bot": m.group(1)}, lang=lang)
    if m := _ENGINE.fullmatch(text):
        return t("bot.engine", {"name": m.group(1)}, lang=lang)
    return text


def seat_names(names: Any, lang: str = "en") -> list[str]:
    """The seats' names as people read them (:func:`seat_name`), a name two seats share (bots of
    one kind at a lobby table) told apart by a number in seat order: 机器人（规则型）1,
    机器人（规则型）2 / "Bot (Rule-based) 1" (as the pages' seatNames)."""
    words = [seat_name(x, lang) if x else "" for x in names or ()]
    seen: dict[str, int] = {}
    out = []
    for w in words:
        if w and words.count(w) > 1:
            seen[w] = seen.get(w, 0) + 1
            w = t("seatnameNo", {"name": w, "n": seen[w]}, lang=lang)
        out.append(w)
    return out


def seat_word(value: Any, names: Any = None, lang: str = "en") -> str:
    """A seat index (0-based) by its player's name from ``names`` (the table's seats in order;
    a bot's seat ``bot:rule`` in words, 机器人（规则型）), else by its number, "seat 2" / "座位 2"
    (the number a referee types); a template's ``{name|seat}`` with the message's ``names``."""
    if isinstance(value, int) and not isinstance(value, bool) and isinstance(names, (list, tuple)) \
            and 0 <= value < len(names) and names[value]:
        return seat_name(names[value], lang)
    return t("seatno", {"n": _text(value)}, lang=lang)


def fill(template: str, params: dict[str, Any] | None, lang: str = "en",
         _within: tuple[str, ...] = ()) -> str:
    """``template`` with its ``{name}`` and ``{name|ns}`` fields replaced from ``params``.

    A field with no parameter is left as written, so a missing parameter shows rather than
    raising. A ``{name|ns}`` field that would word a key already being worded (``_within``, a
    message that wraps its own kind) shows the value as it is, so wording always ends.
    """
    params = params or {}

    def one(m: re.Match) -> str:
        text = field(m)
        if lang != "zh" or m.group(2) not in (None, "seat"):   # a plain field or a seat's name
            return text
        return spaced(text, template[m.start() - 1:m.start()], template[m.end():m.end() + 1])

    def field(m: re.Match) -> str:
        name, ns, within = m.group(1), m.group(2), m.group(3)
        if name not in params or (within and within not in params):
            return m.group(0)
        value = params[name]
        if within:                    # {value|value+label}: keys value.<label>.<value>
            ns = f"{ns}.{params[within]}"
        if ns == "cards":
            return card_words(value, lang)
        if ns == "tiles":
            return tile_words(value, lang)
        if ns == "cell":
            return cell_word(value)
        if ns == "stones":
            return komi_stones(value)
        if ns == "seat":
            return seat_word(value, params.get("names"), lang)
        if ns:
            values = value if isinstance(value, (list, tuple)) else [value]
            return ", ".join(_text(v) if f"{ns}.{v}" in _within
                             else t(f"{ns}.{v}", params, lang=lang, default=_text(v), _within=_within)
                             for v in values)
        return _text(value)

    return _FIELD.sub(one, template)


def t(key: str, params: dict[str, Any] | None = None, *, lang: str = "en",
      default: str | None = None, _within: tuple[str, ...] = ()) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in.

    A key may have plural forms instead of one template (``key.one``, ``key.other``, as ICU
    names them): the form of the message's count (:func:`plural`) is used.
    Falls back to the English catalogue, then to ``default``, then to the key itself.
    """
    template = _template(key, params or {}, lang) if lang in LANGS else None
    if template is None:
        template = _template(key, params or {}, "en")
    if template is None:
        return default if default is not None else key
    return fill(template, params, lang, (*_within, key))


def fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {n for m in _FIELD.finditer(template) for n in (m.group(1), m.group(3)) if n}


_current = "en"


def use(lang: str) -> None:
    """The language :func:`say` speaks from now on (``"en"`` or ``"zh"``)."""
    global _current
    if lang not in LANGS:
        raise KeyError(lang)
    _current = lang


def current() -> str:
    """The language :func:`say` speaks (``"en"`` until :func:`use` says otherwise)."""
    return _current


def say(key: str, params: dict[str, Any] | None = None, default: str | None = None) -> str:
    """The text of ``key`` in the current language (:func:`use`)."""
    return t(key, params, lang=_current, default=default)


def env_language(environ: Any = None) -> str:
    """The language of the locale variables, as the C library reads them: ``LC_ALL``, else
    ``LC_MESSAGES``, else ``LANG`` (``zh_CN.UTF-8`` is ``"zh"``; unset, ``C`` or any other is
    ``"en"``)."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            return language(env[name].replace("_", "-"))
    return "en"
