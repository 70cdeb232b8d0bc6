"""One clock model for every clock of the rule sheets (competition.md §4).

All times are integers in milliseconds. A :class:`ClockSpec` holds the parts of a clock (bank,
increment, delay, per-move cap, phase caps, byo-yomi or Canadian overtime, and what passing a
deadline does); a :class:`SeatClock` is one seat's clock during a game and implements the exact
semantics of competition.md §4.2:

* :meth:`SeatClock.start_turn` at the moment T0 a decision becomes pending;
* :meth:`SeatClock.deadline` gives the earliest pending deadline (inclusive: an action received
  at exactly that millisecond is in time);
* :meth:`SeatClock.act` when a valid action is received at T1 <= deadline (charges the bank,
  adds the increment, counts Canadian moves);
* :meth:`SeatClock.expire` when the deadline passes first: returns a :class:`Timeout` that says
  whether the turn goes on (entering overtime, a new byo-yomi period, a warning) or ends
  (``lose``, ``auto``, ``skip``).

The clock never sleeps and never reads a clock itself: the match runner feeds it times from a
:class:`~qipai.match.timesource.TimeSource`, so tests are exact to the millisecond.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from qipai.core.errors import OptionError

LOSE, WARN, AUTO, SKIP = "lose", "warn", "auto", "skip"
_CONSEQUENCES = (LOSE, WARN, AUTO, SKIP)

#: the phase name a game reports for a deal's first play (uses ``first_lead_cap``)
FIRST_LEAD = "first_lead"

#: the longest duration a clock part may have (7 days, in ms): far past any rule sheet's clock,
#: and far below what a page's numbers (2**53) or a database integer hold
MAX_DURATION = 7 * 24 * 3_600_000
#: the most byo-yomi periods, Canadian moves per period, timeouts before trusteeship, warnings
#: or skips a clock may count
MAX_COUNT = 1000


@dataclass(frozen=True)
class Consequence:
    """What passing a deadline does: ``lose``, ``warn`` (max N), ``auto`` or ``skip`` (max N).

    For ``warn`` and ``skip``, the timeout that brings the count to ``max`` is a loss instead.
    """

    kind: str
    max: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in _CONSEQUENCES:
            raise OptionError(f"unknown timeout consequence {self.kind!r}; valid: {', '.join(_CONSEQUENCES)}",
                              code="clock.unknown_consequence",
                              params={"value": self.kind, "valid": list(_CONSEQUENCES)})
        if self.kind in (WARN, SKIP) and not _count_ok(self.max):
            raise OptionError(f"{self.kind} needs a maximum count from 1 to {MAX_COUNT}",
                              code="clock.needs_max", params={"kind": self.kind, "max": MAX_COUNT})

    @classmethod
    def parse(cls, value: Any) -> Consequence | None:
        """``"lose"``, ``"auto"``, ``"warn:3"``, ``{"kind": "warn", "max": 3}`` or None."""
        if value is None or isinstance(value, Consequence):
            return value
        if isinstance(value, dict):
            return cls(value["kind"].lower(), value.get("max"))
        text = str(value).lower()
        if ":" in text:
            kind, n = text.split(":", 1)
            # "skip:three": a count that is no whole number, not a bad clock part in general
            return cls(kind, int(n) if n.strip().isdecimal() else None)
        return cls(text)

    def to_json(self) -> Any:
        return self.kind if self.max is None else f"{self.kind}:{self.max}"


@dataclass(frozen=True)
class Byoyomi:
    """Japanese overtime (读秒): ``periods`` periods of ``period`` ms; a move inside a period
    uses nothing, a period that runs out is lost."""

    periods: int
    period: int


@dataclass(frozen=True)
class Canadian:
    """Canadian overtime: ``moves`` moves within ``period`` ms, then a fresh block."""

    moves: int
    period: int


@dataclass(frozen=True)
class ClockSpec:
    """The parts of one seat's clock (competition.md §4.1). ``None`` means "no such part".

    ``phase_caps`` maps a phase name the game reports (``bid``, ``bury``, ``layout``...) to a
    fixed allowance in ms that is never charged to the bank. ``move_cap_scope`` is ``always``
    or ``while_bank``.
    """

    bank: int | None = None
    increment: int = 0
    bank_cap: int | None = None
    delay: int = 0
    move_cap: int | None = None
    move_cap_scope: str = "always"
    first_lead_cap: int | None = None
    phase_caps: dict[str, int] = field(default_factory=dict)
    overtime: Byoyomi | Canadian | None = None
    on_cap: Consequence | None = None
    on_out: Consequence | None = None
    trustee_after: int = 2
    trustee_delay: int = 1000
    #: a wall-clock limit of the whole game (ms, referee pauses excluded): at it the game is
    #: stopped and counted (go's ``go_s2_walltime``, go §5.2); None = no limit
    game_limit: int | None = None

    def __post_init__(self) -> None:
        for key in ("on_cap", "on_out"):     # "warn:3", {"kind": ...} mean what they mean in a preset
            object.__setattr__(self, key, Consequence.parse(getattr(self, key)))
        if self.move_cap_scope not in ("always", "while_bank"):
            raise OptionError(f"move_cap_scope must be always or while_bank, not {self.move_cap_scope!r}",
                              code="clock.bad_value", params={"field": "move_cap_scope"})
        for name in ("bank", "move_cap", "first_lead_cap", "bank_cap", "game_limit"):
            v = getattr(self, name)
            if v is not None and not _duration_ok(v):
                raise _too_long(name)
            if v is not None and v <= 0:
                raise OptionError(f"clock {name} must be positive",
                                  code="clock.not_positive", params={"part": name})
        for name in ("increment", "delay", "trustee_delay"):
            if not _duration_ok(getattr(self, name)):
                raise _too_long(name)
        if self.increment < 0 or self.delay < 0 or self.trustee_delay < 0:
            raise OptionError("clock increment and delay must not be negative",
                              code="clock.not_negative")
        if not isinstance(self.phase_caps, dict) or not all(
                isinstance(k, str) and _duration_ok(v) and v > 0 for k, v in self.phase_caps.items()):
            raise _too_long("phase_caps")
        if not _count_ok(self.trustee_after):
            raise _bad_count("trustee_after")
        ot = self.overtime
        if ot is not None:
            if not isinstance(ot, (Byoyomi, Canadian)):
                raise OptionError("overtime must be byoyomi or canadian",
                                  code="clock.bad_value", params={"field": "overtime"})
            if not _count_ok(ot.periods if isinstance(ot, Byoyomi) else ot.moves):
                raise _bad_count("overtime")
            if not (_duration_ok(ot.period) and ot.period > 0):
                raise _too_long("overtime")
        caps = self.move_cap is not None or self.first_lead_cap is not None or self.phase_caps
        if caps and self.on_cap is None:
            object.__setattr__(self, "on_cap", Consequence(LOSE))
        if (self.bank is not None or self.overtime is not None) and self.on_out is None:
            object.__setattr__(self, "on_out", Consequence(LOSE))

    @property
    def untimed(self) -> bool:
        return (self.bank is None and self.move_cap is None and self.overtime is None
                and self.first_lead_cap is None and not self.phase_caps and self.game_limit is None)

    # ----- (de)serialisation: the shape used in preset TOML files -----------------------
    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClockSpec:
        """Build from a dict such as ``{"bank": "30m", "move_cap": "300s", "on_cap": "lose",
        "overtime": {"byoyomi": {"periods": 1, "period": "180s"}}}``. Durations are ms integers
        or strings with ``ms``, ``s``, ``m`` or ``h``. Raises OptionError naming the bad key, also
        for a part of the wrong shape (a list where a table belongs, a word where a count does)."""
        if not isinstance(d, dict):
            raise OptionError("a clock is a table of parts",
                              code="clock.bad_value", params={"field": "clock"})
        try:
            return cls._from_dict(d)
        except OptionError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError) as e:
            raise OptionError(f"bad clock part: {e}",
                              code="clock.bad_value", params={"field": "clock"}) from None

    @classmethod
    def _from_dict(cls, d: dict[str, Any]) -> ClockSpec:
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(d) - known - {"name", "source"}
        if unknown:
            raise OptionError(f"unknown clock part(s) {sorted(unknown)}; valid: {sorted(known)}",
                              code="clock.unknown_parts",
                              params={"keys": sorted(unknown), "valid": sorted(known)})
        kw: dict[str, Any] = {}
        for key in ("bank", "bank_cap", "move_cap", "first_lead_cap", "increment", "delay",
                    "trustee_delay", "game_limit"):
            if d.get(key) is not None:
                kw[key] = duration_ms(d[key])
        if "trustee_after" in d:
            kw["trustee_after"] = int(d["trustee_after"])
        if "move_cap_scope" in d:
            kw["move_cap_scope"] = d["move_cap_scope"]
        if d.get("phase_caps"):
            kw["phase_caps"] = {k: duration_ms(v) for k, v in d["phase_caps"].items()}
        ot = d.get("overtime")
        if ot:
            if "byoyomi" in ot:
                kw["overtime"] = Byoyomi(int(ot["byoyomi"]["periods"]), duration_ms(ot["byoyomi"]["period"]))
            elif "canadian" in ot:
                kw["overtime"] = Canadian(int(ot["canadian"]["moves"]), duration_ms(ot["canadian"]["period"]))
            else:
                raise OptionError(f"overtime must be byoyomi or canadian, not {sorted(ot)}",
                                  code="clock.bad_value", params={"field": "overtime"})
        for key in ("on_cap", "on_out"):
            if d.get(key) is not None:
                kw[key] = Consequence.parse(d[key])
        return cls(**kw)

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if v not in (None, {}, 0) or k == "trustee_after"}
        if self.overtime is not None:
            kind = "byoyomi" if isinstance(self.overtime, Byoyomi) else "canadian"
            out["overtime"] = {kind: asdict(self.overtime)}
        for key in ("on_cap", "on_out"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key).to_json()
        return out


def _duration_ok(v: Any) -> bool:
    """An int (not a bool) of at most MAX_DURATION ms in size (the sign is checked apart)."""
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_DURATION


def _count_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_COUNT


def _too_long(part: str) -> OptionError:
    return OptionError(f"clock {part} must be whole milliseconds from 0 to {MAX_DURATION} (7 days)",
                       code="clock.too_long", params={"part": part, "max": "168h"})


def _bad_count(part: str) -> OptionError:
    return OptionError(f"clock {part} must count from 1 to {MAX_COUNT}",
                       code="clock.bad_count", params={"part": part, "max": MAX_COUNT})


def duration_ms(value: Any) -> int:
    """Milliseconds from an int (ms) or a string ``"1500ms"``, ``"20s"``, ``"30m"``, ``"1.5h"``."""
    if isinstance(value, bool):
        raise OptionError(f"bad duration {value!r}",
                          code="clock.bad_duration", params={"value": value})
    if isinstance(value, int):
        return value
    text = str(value).strip().lower()
    for unit, scale in (("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)):
        if text.endswith(unit):
            num = text[: -len(unit)]
            try:
                ms = float(num) * scale
            except ValueError:
                break
            if math.isnan(ms):              # "NaNs": no number at all, not one too long
                break
            if not math.isfinite(ms) or abs(ms) > MAX_DURATION:
                raise OptionError(f"duration {value!r} is past {MAX_DURATION} ms (7 days)",
                                  code="clock.too_long", params={"part": value, "max": "168h"})
            if ms != int(ms):
                raise OptionError(f"duration {value!r} is not a whole number of milliseconds",
                                  code="clock.bad_duration", params={"value": value})
            return int(ms)
    raise OptionError(f"bad duration {value!r}; write e.g. 1500ms, 20s, 30m, 1.5h",
                      code="clock.bad_duration", params={"value": value})


@dataclass(frozen=True)
class Timeout:
    """The result of :meth:`SeatClock.expire`.

    ``kind``: ``overtime`` (bank ran out, overtime starts; turn goes on), ``period`` (a byo-yomi
    period was used; turn goes on), ``warn`` (warning; turn goes on with a fresh cap), ``lose``,
    ``auto`` (take the default action), ``skip`` (pass the turn). ``at`` is the deadline in ms.
    """

    kind: str
    at: int
    deadline: str          # which deadline passed: bank, cap, period
    count: int = 0         # warnings or strikes so far in this game (after this one)

    @property
    def ends_turn(self) -> bool:
        return self.kind in (LOSE, AUTO, SKIP)


class SeatClock:
    """One seat's clock for one game (or one card session). See the module docstring."""

    def __init__(self, spec: ClockSpec) -> None:
        self.spec = spec
        self.bank_left: int | None = spec.bank
        ot = spec.overtime
        self.periods_left = ot.periods if isinstance(ot, Byoyomi) else 0
        self.canadian_moves_left = ot.moves if isinstance(ot, Canadian) else 0
        self.canadian_time_left = ot.period if isinstance(ot, Canadian) else 0
        self.warnings = 0
        self.strikes = 0
        self.consecutive_timeouts = 0
        self.trusteeship = False
        self.cap_off = False          # a while_bank cap stops for good once the bank is gone
        #: a lobby table's limit (ms) for this seat's first move, during which its bank does not
        #: run (as on lichess: a clock starts with its side's first move); None: no such grace
        self.first_move_cap: int | None = None
        self.moved = False            # this seat made a move (its clock runs from now on)
        # current turn
        self.t0: int | None = None
        self.mode: str | None = None  # bank | overtime | capped | phase | first | untimed
        self.cap: int | None = None
        self.cap_start = 0
        self.period_start = 0

    # ----- turn ---------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.t0 is not None

    def start_turn(self, t0: int, phase: str | None = None) -> None:
        """A decision of this seat becomes pending at ``t0`` (ms). ``phase`` is the game's
        phase name for phase allowances, or :data:`FIRST_LEAD` for a deal's first play."""
        s = self.spec
        self.t0 = t0
        self.cap_start = t0
        self.period_start = t0
        if phase is not None and phase in s.phase_caps:
            self.mode, self.cap = "phase", s.phase_caps[phase]
            return
        if self.first_move_cap is not None and not self.moved:
            self.mode, self.cap = "first", self.first_move_cap   # nothing charged; over it, lost
            return
        cap = s.first_lead_cap if phase == FIRST_LEAD and s.first_lead_cap is not None else s.move_cap
        if self.bank_left is not None and self.bank_left > 0:
            self.mode = "bank"
        elif s.overtime is not None:
            self.mode = "overtime"
            self.cap_off = self.cap_off or s.bank is not None
        elif cap is not None:
            self.mode = "capped"
        elif s.bank is not None:
            self.mode = "bank"     # bank exhausted and nothing else: the deadline is now
        else:
            self.mode = "untimed"
        scoped_off = s.move_cap_scope == "while_bank" and (self.cap_off or self.mode != "bank")
        self.cap = None if scoped_off else cap

    def _bank_deadline(self) -> int | None:
        if self.mode == "bank":
            return self.t0 + self.spec.delay + (self.bank_left or 0)
        return None

    def _period_deadline(self) -> int | None:
        if self.mode != "overtime":
            return None
        ot = self.spec.overtime
        if isinstance(ot, Byoyomi):
            return self.period_start + ot.period
        return self.period_start + self.canadian_time_left

    def _cap_deadline(self) -> int | None:
        return None if self.cap is None else self.cap_start + self.cap

    def deadline(self) -> int | None:
        """The earliest pending deadline of the running turn (inclusive), or None (no limit)."""
        if self.t0 is None:
            return None
        ds = [d for d in (self._bank_deadline(), self._period_deadline(), self._cap_deadline())
              if d is not None]
        return min(ds) if ds else None

    def act(self, t1: int) -> int:
        """A valid action was received at ``t1`` (not after :meth:`deadline`). Returns the ms
        this turn took and charges the clock (§4.2 rule 3)."""
        if self.t0 is None:
            raise RuntimeError("no turn is running")
        dl = self.deadline()
        if dl is not None and t1 > dl:
            raise RuntimeError(f"action at {t1} after the deadline {dl}: call expire first")
        used = t1 - self.t0
        self._charge(t1)
        self.moved = True
        self.consecutive_timeouts = 0
        self.t0 = None
        return used

    def _charge(self, t1: int) -> None:
        s = self.spec
        if self.mode == "bank":
            self.bank_left = max(0, self.bank_left - max(0, (t1 - self.t0) - s.delay))
            self.bank_left += s.increment
            if s.bank_cap is not None:
                self.bank_left = min(self.bank_left, s.bank_cap)
        elif self.mode == "overtime" and isinstance(s.overtime, Canadian):
            self.canadian_time_left -= t1 - self.period_start
            self.canadian_moves_left -= 1
            if self.canadian_moves_left == 0:
                self.canadian_moves_left = s.overtime.moves
                self.canadian_time_left = s.overtime.period

    def expire(self) -> Timeout:
        """The running turn's earliest deadline has passed (§4.2 rule 4). Returns what it does;
        when ``Timeout.ends_turn`` the turn is over (the runner loses, auto-plays or skips)."""
        dl = self.deadline()
        if dl is None:
            raise RuntimeError("no deadline is pending")
        s = self.spec
        if self.mode == "first":            # the first move never came
            return self._end(Timeout(LOSE, dl, "first"))
        bank_dl, cap_dl = self._bank_deadline(), self._cap_deadline()
        if bank_dl is not None and bank_dl == dl:
            self.bank_left = 0
            if s.overtime is not None:
                self.mode = "overtime"
                self.period_start = dl
                if s.move_cap_scope == "while_bank":
                    self.cap_off, self.cap = True, None
                return Timeout("overtime", dl, "bank")
            return self._consequence(s.on_out, dl, "bank")
        if cap_dl is not None and cap_dl == dl:
            return self._consequence(s.on_cap, dl, "cap")
        # overtime period
        if isinstance(s.overtime, Byoyomi):
            self.periods_left -= 1
            if self.periods_left > 0:
                self.period_start = dl
                return Timeout("period", dl, "period", s.overtime.periods - self.periods_left)
        self.canadian_time_left = 0 if isinstance(s.overtime, Canadian) else self.canadian_time_left
        return self._consequence(s.on_out, dl, "period")

    def _consequence(self, c: Consequence | None, at: int, which: str) -> Timeout:
        c = c or Consequence(LOSE)
        if c.kind == WARN:
            self.warnings += 1
            if self.warnings >= c.max:
                return self._end(Timeout(LOSE, at, which, self.warnings))
            self.cap_start = at
            return Timeout(WARN, at, which, self.warnings)
        if c.kind == SKIP:
            self.strikes += 1
            if self.strikes >= c.max:
                return self._end(Timeout(LOSE, at, which, self.strikes))
            return self._end(Timeout(SKIP, at, which, self.strikes))
        if c.kind == AUTO:
            self.consecutive_timeouts += 1
            if self.consecutive_timeouts >= self.spec.trustee_after:
                self.trusteeship = True
            return self._end(Timeout(AUTO, at, which, self.consecutive_timeouts))
        return self._end(Timeout(LOSE, at, which))

    def _end(self, t: Timeout) -> Timeout:
        if self.mode == "bank":      # time used is charged; no increment without an action
            self.bank_left = max(0, self.bank_left - max(0, (t.at - self.t0) - self.spec.delay))
        self.t0 = None
        return t

    def shift(self, ms: int) -> None:
        """Move the running turn's reference times ``ms`` later: a referee pause or a server
        outage of that length is not charged (§4.7: T0 is shifted by the length of the pause,
        so the time already used in the turn is kept). No effect between turns."""
        if ms < 0:
            raise ValueError("a pause cannot be negative")
        if self.t0 is None:
            return
        self.t0 += ms
        self.cap_start += ms
        self.period_start += ms

    def add_time(self, ms: int) -> str:
        """A referee gives this seat ``ms`` more (competition.md §5.7). Where it goes: the bank
        when the clock has one and the seat is not in overtime (``"bank"``); the current
        overtime period (``"period"``: Japanese or Canadian, the running turn's); else the
        running turn's move cap (``"turn"``). Returns that name, or None when there is nothing
        to add to (a cap-only clock between two turns, an untimed clock). Raises ValueError
        for ``ms`` <= 0."""
        if ms <= 0:
            raise ValueError("the time added must be positive")
        if self.bank_left is not None and (self.t0 is None or self.mode == "bank"):
            self.bank_left += ms
            return "bank"
        if self.t0 is None:
            return None
        if self.mode == "overtime":
            self.period_start += ms
            return "period"
        if self.cap is not None:
            self.cap_start += ms
            return "turn"
        return None

    def drop_turn(self) -> None:
        """The decision was answered for this seat by the table itself (a prompt of the deal
        closed at its minimum time): the turn ends and the clock is not charged."""
        self.t0 = None

    def cancel_turn(self, t: int) -> None:
        """The decision stopped being pending without this seat acting (another seat ended
        a simultaneous phase or the game ended): charge the time used, like an action."""
        if self.t0 is None:
            return
        dl = self.deadline()
        self._charge(min(t, dl) if dl is not None else t)
        self.t0 = None

    # ----- display ------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """JSON-ready clock state for a state message or the record (§4.3 last point)."""
        out: dict[str, Any] = {}
        if self.bank_left is not None:
            out["bank"] = self.bank_left
        if isinstance(self.spec.overtime, Byoyomi):
            out["periods"] = self.periods_left
        if isinstance(self.spec.overtime, Canadian):
            out["canadian"] = [self.canadian_moves_left, self.canadian_time_left]
        if self.warnings:
            out["warnings"] = self.warnings
        if self.strikes:
            out["strikes"] = self.strikes
        if self.trusteeship:
            out["trustee"] = True
        dl = self.deadline()
        if dl is not None:
            out["deadline"] = dl
        if self.mode == "first" and self.t0 is not None:
            out["first_move"] = True      # the deadline is the first move's; the bank stands
        return out
