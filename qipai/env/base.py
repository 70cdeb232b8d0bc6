"""What every game's research encoding provides: an observation tensor built from one seat's
view, and a fixed action space.

An :class:`Encoder` is made for one game (with its options) and one seat count. It has

* ``shape`` / ``high``: the observation tensor's shape and per-element upper bound (every
  element is ``>= 0``), ``float32``;
* ``encode(view, seat)``: the tensor for ``seat``, computed from ``state.view(seat)`` **only**
  (never from the state), so it can hold nothing the seat may not see;
* ``actions``: a :class:`FixedActions` (a fixed numbering of every action the game can have:
  go's points and pass, xiangqi's from-to pairs, doudizhu's 27,472 plays) or a
  :class:`ListActions` (an index into the seat's legal-action list, at most ``size`` per step,
  with a feature vector per candidate, for games whose plays are combinatorial);
* ``describe()``: the documentation rows (name, shape, meaning) that ``docs/research.md`` lists.

numpy is the only dependency here; the PettingZoo and Gymnasium doors are in :mod:`.aec` and
:mod:`.single`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from qipai.core.errors import QipaiError


class EnvError(QipaiError):
    """A research-door error: an action index outside the mask, an action a fixed space does
    not number, an unknown game encoding. ``code`` is machine-readable."""

    def __init__(self, message: str, code: str = "env_error", params: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = params or {}


@dataclass(frozen=True)
class Block:
    """One named part of a flat observation vector: ``shape``, element upper bound ``high``
    and what it holds (``doc``)."""

    name: str
    shape: tuple[int, ...]
    high: float
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class FlatLayout:
    """A flat ``float32`` vector made of :class:`Block` s, in order. ``view(buf)`` gives one
    writable numpy view per block name."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = list(blocks)
        self.offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for b in self.blocks:
            self.offsets[b.name] = (at, at + b.size)
            at += b.size
        self.size = at
        self.high = np.concatenate([np.full(b.size, b.high, np.float32) for b in self.blocks])

    def new(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        buf = np.zeros(self.size, np.float32)
        return buf, self.parts(buf)

    def parts(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        """One writable view of ``buf`` per block name."""
        return {b.name: buf[slice(*self.offsets[b.name])].reshape(b.shape) for b in self.blocks}


class ItemWrites:
    """A kept tensor written item by item through ``_flat``, a ``memoryview`` of the flat
    array named by ``_array`` (a third of the cost of numpy's scalar writes). A memoryview
    cannot be pickled or deep-copied: a copy drops it and makes it again over the copied
    array (``_views`` makes any other views again, as views do not survive a copy)."""

    _array = "_out"

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_flat"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if getattr(self, self._array, None) is not None:
            self._flat = memoryview(getattr(self, self._array).reshape(-1))
            self._views()

    def _views(self) -> None:
        """Make again the views of the kept array other than ``_flat`` (after a copy)."""


class FixedActions:
    """A fixed numbering of actions: ``size`` slots, ``index(action, position) -> slot``.

    ``index`` receives an action object as ``legal_actions`` returns it and its position in
    that list (junqi numbers its few layout choices by position) and raises
    :class:`EnvError` (``code="env.unnumbered_action"``) for an action the numbering does not
    cover. ``labels`` (optional) names every slot, for documentation and debugging.

    ``direct(state, seat, to_act)`` (optional; ``to_act`` is ``state.to_act``) reads the
    acting seat's legal actions from the engine's own legal set, without making and
    numbering the list: ``(flags, table)``, where ``flags`` is a new ``bytearray`` of one
    flag per slot from slot 0 (``1``: legal; slots past its end are not) and ``table[slot]``
    the action of each legal slot, or ``None`` where it does not apply (another phase): the
    mask is then made from ``legal_actions``. Both ways give the same mask (each game's env
    tests check it)."""

    kind = "fixed"

    def __init__(self, size: int, index: Callable[[Any, int], int], doc: str,
                 labels: Callable[[int], str] | None = None,
                 batch: Callable[[Sequence[Any]], list[int]] | None = None,
                 direct: Callable[[Any, int, tuple], tuple[bytearray, Sequence[Any]] | None] | None = None
                 ) -> None:
        self.size = size
        self._index = index
        self._batch = batch
        self.direct = direct
        self.doc = doc
        self.label = labels

    def slots(self, actions: Sequence[Any]) -> list[int]:
        """The slot of every action of a legal list, in order (``batch``, a faster whole-list
        form of ``index``, where the encoding gives one and it reads the list; else one by
        one)."""
        if self._batch is not None:
            try:
                return self._batch(actions)
            except (KeyError, ValueError, AttributeError, IndexError, TypeError):
                pass                         # an action the fast form does not read: one by one
        return [self.index(a, i) for i, a in enumerate(actions)]

    def index(self, action: Any, position: int = 0) -> int:
        try:
            i = self._index(action, position)
        except (KeyError, ValueError, AttributeError, IndexError) as e:
            raise EnvError(f"action {action!s} has no slot in this action space ({e})",
                           "env.unnumbered_action", {"action": str(action)}) from None
        if not 0 <= i < self.size:
            raise EnvError(f"action {action!s} numbered {i}, outside 0..{self.size - 1}",
                           "env.unnumbered_action", {"action": str(action)})
        return i


class ListActions:
    """An index into the acting seat's legal-action list, in the game's own (deterministic)
    order, with at most ``size`` candidates per step.

    A list longer than ``size`` is chosen in several steps ("pages"): the first step picks one
    of at most ``size`` consecutive blocks of the list, the next a block inside it, until a
    block of one action remains; the seat keeps the turn during paging and the game state does
    not change. ``featurize(action)`` gives each candidate's feature vector (length
    ``features``); at a paging step a block is described by its first action.
    """

    kind = "list"

    def __init__(self, size: int, features: int, featurize: Callable[[Any], np.ndarray],
                 doc: str, featurize_many: Callable[[Sequence[Any], np.ndarray], None] | None = None
                 ) -> None:
        self.size = size
        self.features = features
        self.featurize = featurize
        self.doc = doc
        self._many = featurize_many

    def featurize_many(self, actions: Sequence[Any], out: np.ndarray) -> None:
        """``out[j] = featurize(actions[j])`` for every candidate (``out`` zeroed, at least
        ``len(actions)`` rows): the encoding's whole-page form where it gives one."""
        if self._many is not None:
            self._many(actions, out)
        elif len(actions):
            out[:len(actions)] = [self.featurize(a) for a in actions]


class Encoder:
    """Base class: subclasses set ``shape``, ``high`` (array of ``shape``), ``actions``,
    ``rows`` (documentation rows ``(name, shape, meaning)``) and implement :meth:`encode`."""

    shape: tuple[int, ...]
    high: np.ndarray
    actions: FixedActions | ListActions
    rows: list[tuple[str, str, str]]

    def __init__(self, game: Any, num_seats: int) -> None:
        self.game = game
        self.num_seats = num_seats

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        raise NotImplementedError

    def follower(self, seat: int) -> TensorFollower:
        """A :class:`TensorFollower` of ``seat``: the tensor kept from a view follower's
        changes. Default: encoded again from the whole view at every step."""
        return TensorFollower(self, seat)

    def describe(self) -> dict[str, Any]:
        """Documentation of this encoding: observation shape and parts, action space."""
        return {"game": self.game.id, "observation_shape": list(self.shape), "parts": self.rows,
                "action_kind": self.actions.kind, "action_size": self.actions.size,
                "actions": self.actions.doc,
                "action_features": getattr(self.actions, "features", None)}


class TensorFollower:
    """One seat's observation tensor along one :class:`~qipai.core.viewdelta.ViewFollower`.

    ``update(view, delta)`` is called after every ``follower.follow(state)`` of that seat
    with the followed view and ``follower.last``; it returns a new array equal to
    ``encoder.encode(view, seat)``. This default encodes the whole view again; an encoder
    whose tensor can be kept as a change (:class:`~qipai.env.climbing.ClimbingEncoder`)
    updates only the blocks whose view keys changed. ``delta`` must come from the same
    follower as every earlier call (a whole delta starts again)."""

    def __init__(self, encoder: Encoder, seat: int) -> None:
        self.encoder = encoder
        self.seat = seat

    def update(self, view: dict[str, Any], delta: Any) -> np.ndarray:
        return self.encoder.encode(view, self.seat)

    def follow(self, state: Any, views: Any) -> np.ndarray:
        """The seat's tensor of ``state`` now, ``views`` being the seat's
        :class:`~qipai.core.viewdelta.ViewFollower`: by default the followed view and its
        change through :meth:`update`. A follower whose game gives the seat's changes piece by
        piece (:class:`~qipai.env.pieces.CheckersTensor`) or what the view shows of the board
        (:class:`~qipai.env.boards.GoTensor`) reads those instead."""
        return self.update(views.follow(state), views.last)

    def seen(self, state: Any, name: str) -> Any:
        """The seat's seen form ``state.<name>(seat, since)`` (``since``: the mark of this
        follower's last read of the same state, else None: whole), its mark kept in
        ``_state`` / ``_mark``; None when the state has no such method (the caller then
        follows the view)."""
        read = getattr(state, name, None)
        if read is None:
            self._state = None
            return None
        seen = read(self.seat, self._mark if state is getattr(self, "_state", None) else None)
        self._state, self._mark = state, seen.mark
        return seen


class FlatEncoder(Encoder):
    """An encoder whose tensor is one flat vector of :class:`Block` s; subclasses give
    ``blocks()`` and ``fill(view, seat, parts)`` (``parts`` are zeroed block views)."""

    def __init__(self, game: Any, num_seats: int) -> None:
        super().__init__(game, num_seats)
        self.layout = FlatLayout(self.blocks())
        self._buf, self._parts = self.layout.new()
        self.shape = (self.layout.size,)
        self.high = self.layout.high
        self.rows = [(b.name, "×".join(map(str, b.shape)), b.doc) for b in self.layout.blocks]

    def __setstate__(self, state: dict[str, Any]) -> None:
        # the block views do not survive a copy of the buffer: made again over the copy
        self.__dict__.update(state)
        self._parts = self.layout.parts(self._buf)
        self._views()

    def _views(self) -> None:
        """Make again a subclass's own views of ``_buf`` (after a copy)."""

    def blocks(self) -> list[Block]:
        raise NotImplementedError

    def fill(self, view: dict[str, Any], seat: int, parts: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """A new array each call (filled in a buffer the encoder keeps: one encoder serves one
        thread)."""
        buf = self._buf
        buf.fill(0.0)
        self.fill(view, seat, self._parts)
        np.minimum(buf, self.high, out=buf)
        return buf.copy()


def unless_absent(doc: str, name: str, absent: Any, why: str = "the game has none") -> str:
    """A block's documentation ``doc``, saying it is always zero when ``name`` is in
    ``absent`` (the blocks a game's view never fills)."""
    return f"{doc}; always zero: {why}" if name in absent else doc


def one_hot(out: np.ndarray, value: Any, choices: Sequence[Any]) -> None:
    """Set ``out[choices.index(value)] = 1`` when ``value`` is one of ``choices``."""
    try:
        out[list(choices).index(value)] = 1.0
    except ValueError:
        pass


def relative(seat: int, other: int | None, n: int) -> int | None:
    """``other``'s position seen from ``seat``: 0 = itself, 1 = the next seat, ..."""
    return None if other is None else (other - seat) % n


def seat_roles(out: np.ndarray, view: dict[str, Any], keys: Sequence[str], seat: int) -> None:
    """``out[r, k] = 1`` when the view's ``keys[r]`` names the seat ``k`` places after ``seat``
    (``out`` is ``len(keys) × seats``)."""
    n = out.shape[1]
    for r, key in enumerate(keys):
        who = view.get(key)
        if isinstance(who, int) and not isinstance(who, bool):
            out[r, (who - seat) % n] = 1
