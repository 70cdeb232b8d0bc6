"""From action slots to game actions: the mask of the acting seat, and the action a slot means.

A :class:`Chooser` serves one environment. It keeps the acting seat's legal list for the
current state (computed once per state and seat), or the mask read from the engine's own
legal set where the encoding gives that form (``FixedActions.direct``: go's play phase), and,
for list action spaces, the page of the list being chosen from (see
:class:`~qipai.env.base.ListActions`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from qipai.core.errors import IllegalAction

from .base import FixedActions, ListActions


class Chooser:
    def __init__(self, actions: FixedActions | ListActions) -> None:
        self.actions = actions
        self.fixed = actions.kind == "fixed"
        self._direct = actions.direct if self.fixed else None
        self.reset()

    def reset(self) -> None:
        self._state: Any = None                 # the state the list is of (its object, not its id:
        self._key: tuple | None = None          # a copied env's chooser then follows the copied state)
        self._legal: Any = None
        self._slots: list[int] = []
        self._flags: bytes | None = None        # the engine's flags, when read from it (direct),
        #                                         padded to the action space's size
        self._fresh: bytearray | None = None    # the same flags, not yet handed out as a mask
        self._lo = self._hi = 0
        self._resume: tuple | None = None       # (key, lo, hi, paging) of a copied chooser's page

    def __getstate__(self) -> dict[str, Any]:
        # the legal list is not copied (a lazy list may hold the engine's local functions):
        # the copy reads it again from the copied state, and keeps the page it was on
        state = self.__dict__.copy()
        state.update(_key=None, _legal=None, _slots=[], _flags=None, _fresh=None,
                     _resume=None if self._legal is None else (self._key, self._lo, self._hi, self.paging))
        return state

    # ----- the legal list of the current state ---------------------------------------------
    def _refresh(self, state: Any, seat: int, to_act: tuple | None = None) -> None:
        if to_act is None:
            to_act = state.to_act
        key = (len(state.log), seat, to_act)
        same = state is self._state
        if key == self._key and same:
            return
        self._key, self._state = key, state
        if self.fixed:
            direct = self._direct
            got = direct(state, seat, to_act) if direct is not None else None
            if got is not None:          # the mask from the engine's legal set, no list
                flags, self._legal = got
                pad = self.actions.size - len(flags)
                if pad:
                    flags += bytes(pad)
                # choose() reads an immutable copy; the new bytearray becomes the first mask
                # handed out (without a copy: nothing else holds it)
                self._flags = bytes(flags)
                self._fresh = flags if type(flags) is bytearray else None
                return
            self._flags = self._fresh = None
            legal = self._legal = state.legal_actions(seat)
            self._slots = self.actions.slots(legal)
        else:
            legal = self._legal = state.legal_actions(seat)
            self._lo, self._hi = 0, len(legal)
            resume, self._resume = self._resume, None
            if resume is not None and resume[0] == key and same:
                self._lo, self._hi = resume[1:3]

    @property
    def paging(self) -> bool:
        """True while the acting seat is inside a page of its list (a block chosen, the game
        action not yet)."""
        if self._legal is None:
            return self._resume is not None and self._resume[3]
        return self.actions.kind == "list" and (self._lo > 0 or self._hi < len(self._legal))

    def _block(self) -> int:
        """How many list entries one slot stands for on the current page (1 on the last)."""
        k, n, block = self.actions.size, self._hi - self._lo, 1
        while n > k * block:
            block *= k
        return block

    # ----- what the acting seat sees ----------------------------------------------------------
    def observe(self, state: Any, seat: int, to_act: tuple | None = None) -> dict[str, np.ndarray]:
        """The mask (and features) of ``seat``, which is to act (``to_act``: ``state.to_act``
        when the caller has it)."""
        if self.fixed:
            return {"action_mask": self.mask(state, seat, to_act)}
        self._refresh(state, seat, to_act)
        acts: ListActions = self.actions
        block = self._block()
        count = -(-(self._hi - self._lo) // block)
        mask = np.zeros(acts.size, np.int8)
        mask[:count] = 1
        feats = np.zeros((acts.size, acts.features), np.float32)
        lo = self._lo
        if count:    # the first action of each block (a lazy list takes them in one walk)
            acts.featurize_many(self._legal[lo:lo + count * block:block], feats)
        return {"action_mask": mask, "action_features": feats}

    def mask(self, state: Any, seat: int, to_act: tuple | None = None) -> np.ndarray:
        """The action mask (a new array) of ``seat``, which is to act, for a fixed action
        space (``to_act``: ``state.to_act`` when the caller has it)."""
        self._refresh(state, seat, to_act)
        if self._flags is not None:
            flags, self._fresh = self._fresh, None
            return np.ndarray(self.actions.size, _INT8, flags or bytearray(self._flags))
        flags = bytearray(self.actions.size)     # item writes: cheaper than numpy's for a few
        for i in self._slots:
            flags[i] = 1
        return np.ndarray(self.actions.size, _INT8, flags)

    def slots(self, state: Any, seat: int, to_act: tuple | None = None) -> np.ndarray:
        """The legal slots of ``seat``, which is to act (ascending, ``intp``): the slots the
        mask of :meth:`observe` would set, without making the mask (a fixed space's slots as
        numbered, or its engine flags' set items; a list space's candidates of the page)."""
        self._refresh(state, seat, to_act)
        if not self.fixed:
            block = self._block()
            return np.arange(-(-(self._hi - self._lo) // block))
        if self._flags is not None:
            return np.frombuffer(self._flags, np.bool_).nonzero()[0]
        return np.array(sorted(set(self._slots)), np.intp)

    def idle(self) -> dict[str, np.ndarray]:
        """The mask part of the observation of a seat that is not to act: all zeros."""
        out = {"action_mask": np.zeros(self.actions.size, np.int8)}
        if self.actions.kind == "list":
            out["action_features"] = np.zeros((self.actions.size, self.actions.features), np.float32)
        return out

    def legal_mask(self, state: Any, seat: int) -> np.ndarray:
        return self.observe(state, seat)["action_mask"]

    # ----- choosing ---------------------------------------------------------------------------
    def choose(self, state: Any, seat: int, index: int, to_act: tuple | None = None) -> Any:
        """The game action slot ``index`` means now, or ``None`` after a paging step (the seat
        chooses again inside the block; ``to_act``: ``state.to_act`` when the caller has it).
        Raises :class:`IllegalAction` (code ``env.masked_action``) for a slot outside the
        mask; nothing changes then."""
        self._refresh(state, seat, to_act)
        if self.fixed:
            flags = self._flags
            if flags is not None:
                if 0 <= index < len(flags) and flags[index]:
                    return self._legal[index]
                raise _masked(index)
            try:
                return self._legal[self._slots.index(index)]     # the first action of a slot
            except ValueError:
                raise _masked(index) from None
        block = self._block()
        start = self._lo + index * block
        if not 0 <= index < self.actions.size or start >= self._hi:
            raise _masked(index)
        if block == 1:
            return self._legal[start]
        self._lo, self._hi = start, min(start + block, self._hi)
        return None


_INT8 = np.dtype(np.int8)


def _masked(index: int) -> IllegalAction:
    return IllegalAction(f"action index {index} is not legal now (see the action mask)", index,
                         code="env.masked_action", params={"index": index})
