"""A seat's view as a change: what ``state.view(seat)`` gained since the seat last read it.

An observer that reads a seat's view after every action (a research environment, a bot)
pays for the whole view each time, and the lists that grow through a deal (plays, bids,
moves) are rebuilt from their first entry: a deal of ``n`` actions costs ``O(n²)``.
``State.view_delta(seat, since)`` gives the change instead, and :class:`ViewFollower` keeps
one seat's whole view up to date from the changes.

The contract (``State.view_delta``):

* ``since`` is the ``mark`` of a :class:`ViewDelta` this state gave the same seat before, or
  ``None``;
* the answer either is **whole** (``whole=True``: ``changed`` is the whole view, as
  ``view(seat)`` gives it) or is a **change**: ``changed`` holds every key whose value may have
  changed (with its whole new value; a key not named is unchanged), and ``appended`` maps each
  growing list of the view (a key whose list only gains entries at its end until the deal
  ends) to its entries past the lengths ``since`` recorded, and ``removed`` names the keys
  the view of ``since`` had and the view now has not;
* applying the change to the view of ``since`` gives ``view(seat)`` exactly (the property the
  tests check over random games of every game that gives changes).

A game that gives no changes answers whole views (the default of ``State.view_delta``); a
game that does keeps a mark such as ``(deal number, length of each growing source list)``
and answers whole when ``since`` is from another deal (:func:`continues`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import le
from types import MappingProxyType
from typing import Any, NamedTuple


class ViewDelta(NamedTuple):
    """One change of a seat's view (see the module docstring): ``changed`` (key → whole new
    value), ``appended`` (growing key → new entries; read only), ``mark`` (opaque, for the
    next call), ``whole`` (``changed`` is the whole view) and ``removed`` (keys no longer in
    the view). Immutable; a named tuple, since one is made per view read (a frozen dataclass
    costs four times as much to make)."""

    changed: dict[str, Any]
    appended: Mapping[str, list] = MappingProxyType({})
    mark: Any = None
    whole: bool = False
    removed: tuple[str, ...] = ()


def whole(view: dict[str, Any], mark: Any = None) -> ViewDelta:
    """A whole view as a :class:`ViewDelta`."""
    return ViewDelta(view, {}, mark, True)


def continues(since: Any, mark: tuple) -> bool:
    """True when a change can be given from ``since`` to ``mark``: both are tuples
    ``(deal key, length, length, ...)`` of the same deal, and no length has shrunk."""
    return (type(since) is tuple and len(since) == len(mark) and since[0] == mark[0]
            and all(map(le, since[1:], mark[1:])))


def growing_delta(state: Any, seat: int | None, since: Any, mark: tuple,
                  fixed: Callable[[], dict[str, Any]],
                  tails: Callable[[tuple], Mapping[str, list]],
                  kept: tuple[Any, Callable[[], dict[str, Any]]] | None = None) -> ViewDelta:
    """The usual ``view_delta`` of a game whose view is some small keys plus growing lists:
    whole (``state.view(seat)``) unless ``since`` continues to ``mark`` (:func:`continues`);
    else ``fixed()`` (the view's other keys, rebuilt) as ``changed`` and ``tails(since)``
    (each growing key's entries past ``since``'s lengths) as ``appended``.

    ``kept`` (optional) is ``(key, build)``: view keys that ``fixed()`` leaves out and
    ``build()`` gives (a dict), rebuilt only when ``key`` (any value that changes whenever
    they may: a seat's hand changes only when the seat plays) differs from ``since``'s. The
    mark given back is ``(mark, key)``."""
    key = kept[0] if kept is not None else None
    if type(since) is not tuple or len(since) != 2 or not continues(since[0], mark):
        return whole(state.view(seat), (mark, key))
    changed = fixed()
    if kept is not None and since[1] != key:
        changed.update(kept[1]())
    return ViewDelta(changed, dict(tails(since[0])), (mark, key), False)


class ViewFollower:
    """One seat's view kept up to date through ``view_delta``.

    ``follow(state)`` returns a dict equal to ``state.view(seat)``; the dict is the follower's
    own and is updated in place by the next ``follow`` (a grown list is a new list), so a
    reader copies what it keeps. A different state object (a new game) starts from a whole view.
    ``last`` is the :class:`ViewDelta` the view was brought up to date with."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.reset()

    def reset(self) -> None:
        self._state: Any = None
        self._mark: Any = None
        self.view: dict[str, Any] = {}
        self.last: ViewDelta | None = None

    def follow(self, state: Any) -> dict[str, Any]:
        since = self._mark if state is self._state else None
        delta = state.view_delta(self.seat, since)
        view = self.view
        if delta.whole:
            view = self.view = dict(delta.changed)
        else:
            view.update(delta.changed)
            for k in delta.removed:
                del view[k]
            for k, entries in delta.appended.items():
                if entries:
                    view[k] = view[k] + entries    # a new list: a reader may hold the old one
        self._state, self._mark, self.last = state, delta.mark, delta
        return view
