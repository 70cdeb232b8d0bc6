"""The game contract: :class:`Game` (rules + options) and :class:`State` (one position).

Every game package subclasses both. See ``docs/contract.md`` for the author's checklist.

Conventions shared by all games:

* Seats are numbered ``0 .. n-1``. Colours and roles (Red/Black, landlord, dealer) are part
  of the state, never a renumbering of seats.
* ``to_act`` is the tuple of seats that may act now. In sequential play it holds one seat
  (``current_player``). In a simultaneous phase (sealed bids, tribute) it holds several; each
  acts with ``apply(action, seat=s)`` and the phase resolves when all have acted.
* Chance is internal: a state is created from a ``seed`` (random deals use only
  :class:`~qipai.core.rng.DealRng` seeded with it) or from an explicit ``deal`` / ``position``.
* ``apply`` either applies a legal action or raises :class:`IllegalAction` and changes nothing.
* Endings that are not moves (resignation, agreed draw, timeout, forfeit) go through
  :meth:`State.resign`, :meth:`State.agree_draw` and :meth:`State.forfeit`; they are recorded
  with their reason like any other ending.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import IllegalAction
from .options import Option, resolve_options
from .viewdelta import ViewDelta
from .viewdelta import whole as whole_view


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``returns`` is the per-seat score exactly as the rule sheet scores it; ``reason`` is the
    end reason (``checkmate``, ``resign``, ...); ``text`` is the game's usual result notation
    (``1-0`` for xiangqi, ``B+R`` for go, ...); ``winners`` the seats that won (empty for a draw).
    """

    returns: tuple[float, ...]
    reason: str
    text: str
    winners: tuple[int, ...] = ()
    # game-specific facts the competition layer needs (finishing order, levels after a
    # shengji deal, placements, moves completed, ...), JSON-ready
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        out = {"returns": list(self.returns), "reason": self.reason, "text": self.text,
               "winners": list(self.winners)}
        if self.details:
            out["details"] = dict(self.details)
        return out


#: markings of a game or of a rule set (an option value) that is not for competition:
#: ``experimental`` (a provisional completion of a loose rule text, e.g. 山东保皇) and
#: ``proposal`` (a game a rule file proposes, e.g. 百变八雀). Declared by ``Game.status`` and
#: ``Option.marks``; ``qipai games``, ``/api/games`` and the lobby show them.
MARKINGS = ("experimental", "proposal")


@dataclass(frozen=True)
class GameInfo:
    """What :func:`qipai.games` lists for one game."""

    id: str
    name_zh: str
    name_en: str
    seats: tuple[int, ...]
    options: tuple[Option, ...]
    aliases: tuple[str, ...] = field(default=())
    status: str | None = None              # a marking of MARKINGS, or None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name_zh": self.name_zh, "name_en": self.name_en,
                "seats": list(self.seats), "options": [o.describe() for o in self.options],
                "aliases": list(self.aliases), "status": self.status}


class Game:
    """A game with its options fixed. Subclasses set the class attributes and ``new_state``."""

    id: ClassVar[str] = ""
    name_zh: ClassVar[str] = ""
    name_en: ClassVar[str] = ""
    seats: ClassVar[tuple[int, ...]] = (2,)
    option_spec: ClassVar[tuple[Option, ...]] = ()
    #: drawn-game offers between the two sides (competition.md §5.4: two-sided board games only;
    #: the match runner refuses them elsewhere)
    draw_offers: ClassVar[bool] = False
    #: true when some seat may not see everything (hands, tiles, the wall, junqi's piece
    #: identities, competition.md §6.2): a server then delays spectators (§6.5) and keeps the
    #: game's progress out of its lobby until the game ends. Every game declares it.
    hidden_information: ClassVar[bool] = False
    #: options a server plays with at a table where a seat is a person's, whatever the table was
    #: made with: rule variants that keep hidden information out of what a person can watch
    #: (who is asked, how often, for how long) and give a person the time a card room gives
    #: (shengji's ``deal_prompt="every_card"``: a deal paced card by card to declare in). Empty: none.
    people_options: ClassVar[dict[str, Any]] = {}
    #: ``None`` for a game fit for competition, else a marking of :data:`MARKINGS`
    status: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's names are the catalogues' ``gamename.<id>`` (one name per game and language,
        the one every page and the terminal show); a class declares ``name_zh``/``name_en``
        only for a game without a catalogue entry (a test's own game)."""
        super().__init_subclass__(**kwargs)
        from qipai.i18n import catalogue

        for lang in ("zh", "en"):
            text = catalogue(lang).get(f"gamename.{cls.id}") if cls.id else None
            if text and not cls.__dict__.get(f"name_{lang}"):
                setattr(cls, f"name_{lang}", text)

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = resolve_options(self.option_spec, options, self.id)

    @classmethod
    def info(cls, aliases: Iterable[str] = ()) -> GameInfo:
        return GameInfo(cls.id, cls.name_zh, cls.name_en, cls.seats, cls.option_spec, tuple(aliases),
                        cls.status)

    @property
    def marking(self) -> str | None:
        """The marking of this game with these options: the game's own ``status``, else the
        mark of a chosen option value (``Option.marks``), else ``None``."""
        if self.status is not None:
            return self.status
        return next((m for o in self.option_spec if (m := o.mark(self.options.get(o.name)))), None)

    @classmethod
    def seats_by_option(cls) -> dict[str, dict[Any, tuple[int, ...]]]:
        """Option values that fix other seat counts than ``seats`` (baohuang's
        ``ruleset="sdbh.provisional"``: 4), declared as ``{option: {value: seat counts}}``;
        an option listed names every one of its values. Default: none."""
        return {}

    def seat_counts(self) -> tuple[int, ...]:
        """The seat counts this game allows with its options: those :meth:`seats_by_option`
        gives for a chosen value, else ``seats``."""
        for name, by_value in self.seats_by_option().items():
            if self.options.get(name) in by_value:
                return by_value[self.options[name]]
        return self.seats

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> State:
        """A state at the start of a game (or at ``position``, or with ``deal``)."""
        raise NotImplementedError

    def parse_action(self, text: str, state: State | None = None) -> Any:
        """The action written ``text`` in the canonical notation. Raises ``IllegalAction``."""
        raise NotImplementedError

    def is_move_text(self, text: str) -> bool:
        """False when ``text`` is written like no move of this game at all (a typing slip such as
        ``hello``), as opposed to a move that is only illegal now. A person's typed text that is
        no move is refused without counting toward the illegal-move limit (competition server,
        :mod:`qipai.server.tableinput`); games with no such check read every text as a move."""
        return True

    def state_from_json(self, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_json` output by replaying its log."""
        from .record import Record, replay

        return replay(Record.from_json(data), game=self)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State:
    """One position of a game. Subclasses implement the ``_``-prefixed hooks.

    The base class keeps what makes a state reproducible: its origin (seed, deal or position),
    the log of applied actions with the seats that made them, and an external ending if any.
    ``to_json`` writes exactly that, and ``Game.state_from_json`` replays it.
    """

    def __init__(self, game: Game, *, seed: Any = None, deal: Any = None,
                 position: str | None = None, num_seats: int | None = None) -> None:
        self.game = game
        self.seed = seed
        self.deal = deal
        self.position = position
        self.num_seats = num_seats if num_seats is not None else game.seats[0]
        # canonical action texts in order; an entry is [seat, text] when several seats could act
        self.log: list[str | list[Any]] = []
        self.result: Result | None = None

    # ----- turn -----------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (empty when the game is over)."""
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        """The seat to act in sequential play; ``None`` when terminal or when several act at once."""
        seats = self.to_act
        return seats[0] if len(seats) == 1 else None

    def turns_private(self) -> bool:
        """True while which of ``to_act`` still has to answer must not be shown to the other
        seats (4A4's 叉/勾 windows ask every seat with cards, so that nobody learns who could
        claim, fouafour §3.4): a server then tells each seat only whether it is to act itself,
        and shows no other seat's deadline. Default: false."""
        return False

    def deal_prompt_open(self) -> bool:
        """True while the open private window is a prompt of the deal itself (shengji's
        ``deal_prompt="every_card"`` asks the seat dealt each card): a runner holds such a prompt
        its ``deal_hold`` (a server's ``deal_window_ms``), shorter than a declaration window's,
        so a deal of a hundred prompts lasts about as long as a card room's deal. Default: false."""
        return False

    def deal_prompts(self) -> bool:
        """True when this game's deal asks its seats prompt by prompt
        (:meth:`deal_prompt_open` is true while cards are dealt), before, during and after the
        deal alike: a server takes declarations sent ahead (:meth:`check_ahead`) at such a
        table only. Default: false."""
        return False

    def check_ahead(self, action: Any, seat: int) -> None:
        """Refuse an answer ``seat`` sends ahead during the deal (for its next prompt where it is
        legal) that no prompt of this deal can take from it: raises :class:`IllegalAction`
        with the reason and code, changing nothing. It is kept, not applied: what the seat
        will hold then is not known now. Default: nothing refused (a game with
        :meth:`deal_prompts` says what its prompts take)."""

    #: Whether a private window keeps one fixed minimum time even at a table where a single
    #: person plays with bots that answer at once (fouafour §3.4 asks for "identical timing"
    #: in every window). False where the rules ask only that nobody learns who could claim
    #: (mahjong-gb 2.6): with one person, the window's time then depends only on that person's
    #: own hand and answer, which it knows (see :meth:`qipai.server.tablegame.TableGame.window_hold`).
    fixed_window_time: bool = True

    def sides(self) -> list[tuple[int, ...]]:
        """The groups of seats that share a result (partners); default: every seat alone."""
        return [(s,) for s in range(self.num_seats)]

    def default_action(self, seat: int) -> Any:
        """The deterministic action taken for ``seat`` on a timeout or under trusteeship
        (competition.md §4.6), or ``None`` when a timeout is not answered by an action
        (board games, where it loses)."""
        return None

    # ----- actions --------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Any]:
        """Every legal action of ``seat`` (default: the current player), nothing else."""
        if self.result is not None:
            return []
        acting = self.to_act
        if seat is None and len(acting) == 1:
            seat = acting[0]
        else:
            seat = self._seat(seat, acting)
        if seat not in acting:
            return []
        return self._legal_actions(seat)

    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply ``action`` (an action object or its text) for ``seat``.

        Raises :class:`IllegalAction` with the reason, leaving the state unchanged, when the
        game is over, it is not that seat's turn, the text does not parse, or the action is
        not legal.
        """
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})", action,
                                code="game_over", params={"reason": self.result.reason})
        acting = self.to_act
        if seat is None and len(acting) == 1:
            seat = acting[0]
        else:
            seat = self._seat(seat, acting)
        if seat not in acting:
            raise IllegalAction(f"seat {seat} is not to act (to act: {list(acting)})", action,
                                code="seat_not_act_act", params={"seat": seat, "to_act": list(acting)})
        several = len(acting) > 1
        if isinstance(action, str):
            action = self.game.parse_action(action, self)
        text = self._action_text(action)
        self._apply(action, seat)
        self.log.append([seat, text] if several else text)

    def _seat(self, seat: int | None, acting: tuple[int, ...] | None = None) -> int:
        """``seat`` checked, or the only seat of ``acting`` (default: ``to_act``) when ``None``."""
        if seat is None:
            seats = self.to_act if acting is None else acting
            if len(seats) != 1:
                raise IllegalAction(f"several seats act now ({list(seats)}): name the seat",
                                    code="several_seats_act_now", params={"seats": list(seats)})
            return seats[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_seats:
            raise IllegalAction(f"no seat {seat!r}", code="no_seat", params={"seat": seat})
        return seat

    def _legal_actions(self, seat: int) -> list[Any]:
        raise NotImplementedError

    def _apply(self, action: Any, seat: int) -> None:
        """Apply or raise ``IllegalAction`` before changing anything."""
        raise NotImplementedError

    def _action_text(self, action: Any) -> str:
        return str(action)

    # ----- end ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        """Per-seat scores of the finished game (all zero while it is running)."""
        if self.result is None:
            return [0.0] * self.num_seats
        return list(self.result.returns)

    def resign(self, seat: int) -> None:
        """``seat`` resigns; its side loses (``reason = "resign"``)."""
        self.forfeit(seat, "resign")

    def forfeit(self, seat: int, reason: str) -> None:
        """``seat`` loses for ``reason`` (``resign``, ``timeout``, ``illegal_moves``, ...)."""
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})",
                                code="game_over", params={"reason": self.result.reason})
        self._seat(seat)
        self.result = self._loss_result(seat, reason)

    def agree_draw(self, reason: str = "agreement") -> None:
        """End the game drawn by agreement (or another external draw ``reason``)."""
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})",
                                code="game_over", params={"reason": self.result.reason})
        self.result = self._draw_result(reason)

    def end_by_result_text(self, text: str, reason: str) -> None:
        """End with a result given in the game's notation (used by record replay)."""
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})",
                                code="game_over", params={"reason": self.result.reason})
        self.result = self._result_from_text(text, reason)

    def _loss_result(self, seat: int, reason: str) -> Result:
        raise IllegalAction(f"{self.game.id} has no {reason!r} ending for one seat",
                            code="no_ending_seat", params={"id": self.game.id, "reason": reason})

    def _draw_result(self, reason: str) -> Result:
        raise IllegalAction(f"{self.game.id} has no drawn ending",
                            code="no_drawn_ending", params={"id": self.game.id})

    def _result_from_text(self, text: str, reason: str) -> Result:
        raise IllegalAction(f"{self.game.id} cannot read result {text!r}",
                            code="cannot_read_result", params={"id": self.game.id, "text": text})

    # ----- views and serialization ----------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready; ``None`` is a spectator. Games with hidden
        information must override this."""
        raise NotImplementedError

    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """What ``view(seat)`` gained since the view whose mark is ``since`` (a
        :class:`~qipai.core.viewdelta.ViewDelta`; the contract is in :mod:`qipai.core.viewdelta`).
        Default: the whole view. Raises as :meth:`view` does."""
        return whole_view(self.view(seat))

    def clone(self) -> State:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this state (see :meth:`Game.state_from_json`)."""
        return self.to_record().to_json()

    def to_record(self, seats: list[str] | None = None, meta: dict[str, Any] | None = None):
        from .record import Record

        return Record.from_state(self, seats=seats, meta=meta)
