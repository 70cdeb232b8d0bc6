"""Named rule variants ("options") of a game, validated once when the game is loaded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError


@dataclass(frozen=True)
class Option:
    """One rule variant of a game.

    ``choices`` lists the accepted values; when it is ``None`` the value is checked by
    ``kind`` (``int`` options also take ``minimum``). ``doc`` cites the rule it implements.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    kind: type = str
    minimum: int | None = None
    doc: str = ""
    nullable: bool = False

    def check(self, value: Any) -> Any:
        """Return ``value`` normalised, or raise :class:`OptionError` saying what is valid."""
        if value is None and self.nullable:
            return None
        if self.choices is not None:
            if value not in self.choices:
                valid = ", ".join(repr(c) for c in self.choices)
                raise OptionError(f"option {self.name!r}: invalid value {value!r}; valid values: {valid}")
            return value
        if self.kind is int:
            if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r}: expected an integer, got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r}: must be >= {self.minimum}, got {value}")
            return value
        if self.kind is bool:
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                value = value.lower() in ("true", "1", "yes")
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r}: expected true or false, got {value!r}")
            return value
        if not isinstance(value, self.kind):
            raise OptionError(f"option {self.name!r}: expected {self.kind.__name__}, got {value!r}")
        return value

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "type": self.kind.__name__,
            "doc": self.doc,
        }


def resolve_options(spec: tuple[Option, ...], given: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Check ``given`` against ``spec`` and fill in defaults. Raises :class:`OptionError`."""
    by_name = {o.name: o for o in spec}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        valid = ", ".join(sorted(by_name)) or "(none)"
        raise OptionError(f"{game_id}: unknown option {unknown[0]!r}; valid options: {valid}")
    out = {}
    for opt in spec:
        out[opt.name] = opt.check(given[opt.name]) if opt.name in given else opt.default
    return out
