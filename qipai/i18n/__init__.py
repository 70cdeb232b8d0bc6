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
end reason in the same language).
A list value is joined with ", ".
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

LANGS = ("en", "zh")
"""The languages with a catalogue; ``en`` is the fallback."""

_DIR = Path(__file__).resolve().parent
_FIELD = re.compile(r"\{(\w+)(?:\|([\w.-]+))?\}")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` (``"en"`` or ``"zh"``) as a dict key -> template.

    Raises ``KeyError`` for a language without a catalogue.
    """
    if lang not in LANGS:
        raise KeyError(lang)
    return json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))


def language(tag: str | None) -> str:
    """The catalogue language for a language tag or an Accept-Language value:
    ``"zh"`` for any ``zh*`` first choice, else ``"en"``."""
    first = (tag or "").split(",")[0].strip().lower()
    return "zh" if first.startswith("zh") else "en"


def has(key: str, lang: str = "en") -> bool:
    """Whether ``lang``'s catalogue has ``key``."""
    return key in catalogue(lang)


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value)
    return str(value)


def fill(template: str, params: dict[str, Any] | None, lang: str = "en") -> str:
    """``template`` with its ``{name}`` and ``{name|ns}`` fields replaced from ``params``.

    A field with no parameter is left as written, so a missing parameter shows rather than
    raising.
    """
    params = params or {}

    def one(m: re.Match) -> str:
        name, ns = m.group(1), m.group(2)
        if name not in params:
            return m.group(0)
        value = params[name]
        if ns:
            values = value if isinstance(value, (list, tuple)) else [value]
            return ", ".join(t(f"{ns}.{v}", params, lang=lang, default=_text(v)) for v in values)
        return _text(value)

    return _FIELD.sub(one, template)


def t(key: str, params: dict[str, Any] | None = None, *, lang: str = "en",
      default: str | None = None) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in.

    Falls back to the English catalogue, then to ``default``, then to the key itself.
    """
    template = catalogue(lang).get(key) if lang in LANGS else None
    if template is None:
        template = catalogue("en").get(key)
    if template is None:
        return default if default is not None else key
    return fill(template, params, lang)


def fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {m.group(1) for m in _FIELD.finditer(template)}
