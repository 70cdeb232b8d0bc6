"""Named rule variants ("options") of a game, validated once when the game is loaded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError

#: the largest whole number an ``int`` option takes (counts of deals, plies, points, redeals): far
#: past any rule's value, and within what a page's numbers and a database integer hold
MAX_INT = 10**9


@dataclass(frozen=True)
class Option:
    """One rule variant of a game.

    ``choices`` lists the accepted values; when it is ``None`` the value is checked by
    ``kind`` (``int`` options also take ``minimum``). ``doc`` cites the rule it implements.
    ``marks`` pairs a value with a marking (:data:`qipai.core.game.MARKINGS`: ``experimental``,
    ``proposal``) when choosing it makes a rule set that is not for competition (a provisional
    completion of a loose rule text); the CLI and the lobby show it.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    kind: type = str
    minimum: int | None = None
    doc: str = ""
    nullable: bool = False
    marks: tuple[tuple[Any, str], ...] = ()

    def mark(self, value: Any) -> str | None:
        """The marking of ``value`` (``experimental``, ``proposal``), or ``None``."""
        return next((m for v, m in self.marks if v == value), None)

    def check(self, value: Any, game_id: str = "") -> Any:
        """Return ``value`` normalised, or raise :class:`OptionError` saying what is valid.

        The error's code is ``option.<what>`` and its ``label`` parameter ``<game_id>.<name>``,
        the option's catalogue key (``option.<game>.<name>``)."""
        label = f"{game_id}.{self.name}" if game_id else self.name
        if value is None and self.nullable:
            return None
        if self.choices is not None:
            if value not in self.choices:
                valid = ", ".join(repr(c) for c in self.choices)
                raise OptionError(f"option {self.name!r}: invalid value {value!r}; valid values: {valid}",
                                  code="option.not_in_choices",
                                  params={"label": label, "value": value, "choices": list(self.choices)})
            return value
        if self.kind is int:
            if isinstance(value, str) and value.strip().lstrip("-").isdecimal() and len(value) < 40:
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r}: expected an integer, got {value!r}",
                                  code="option.not_integer", params={"label": label, "value": value})
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r}: must be >= {self.minimum}, got {value}",
                                  code="option.too_small",
                                  params={"label": label, "min": self.minimum, "value": value})
            if abs(value) > MAX_INT:
                low = self.minimum if self.minimum is not None else -MAX_INT
                raise OptionError(f"option {self.name!r}: must be from {low} to {MAX_INT}, got {value}",
                                  code="option.out_of_range",
                                  params={"label": label, "min": low, "max": MAX_INT})
            return value
        if self.kind is bool:
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                value = value.lower() in ("true", "1", "yes")
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r}: expected true or false, got {value!r}",
                                  code="option.not_bool", params={"label": label, "value": value})
            return value
        if not isinstance(value, self.kind):
            raise OptionError(f"option {self.name!r}: expected {self.kind.__name__}, got {value!r}",
                              code="option.bad_value", params={"label": label, "value": value})
        return value

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "type": self.kind.__name__,
            "doc": self.doc,
            "marks": {str(v): m for v, m in self.marks},
        }


def resolve_options(spec: tuple[Option, ...], given: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Check ``given`` against ``spec`` and fill in defaults. Raises :class:`OptionError`."""
    by_name = {o.name: o for o in spec}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        valid = ", ".join(sorted(by_name)) or "(none)"
        raise OptionError(f"{game_id}: unknown option {unknown[0]!r}; valid options: {valid}",
                          code="option.unknown", params={"option": unknown[0], "valid": sorted(by_name)})
    out = {}
    for opt in spec:
        out[opt.name] = opt.check(given[opt.name], game_id) if opt.name in given else opt.default
    return out
