"""The Gymnasium door: one seat of a qipai game against built-in bots.

The observation and action spaces are the PettingZoo door's for that seat. The bots
(``opponents``: a bot name of :func:`qipai.bots.bot_names`, or one name per other seat;
``rule`` is the game's rule bot, ``greedy`` where a board game has no ``rule`` bot) play
every other seat, reading only their own seat's view and legal actions, seeded from the
environment's generator, so ``reset(seed=s)`` replays exactly. The reward is the seat's
``returns()`` entry when the game ends.

An action outside the mask is refused as the referee refuses one: the state does not change,
the reward is 0, and ``info["illegal_action"]`` is true (Gymnasium's checker samples
unmasked actions, and a learner must not be able to corrupt a game).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from qipai.bots import bot_names, make_bot
from qipai.core.errors import IllegalAction

from .aec import QipaiAEC

#: what ``opponents="rule"`` plays in a game without a bot of that name, best first
RULE_FALLBACK = ("rule", "greedy", "fast")


def _bot_name(game_id: str, name: str | None) -> str | None:
    """``name``, except that ``rule`` is the game's own rule bot: ``rule`` where the game has
    one (card and mahjong games), else ``greedy`` (board games), else ``fast``."""
    if name != "rule":
        return name
    have = bot_names(game_id)
    return next(b for b in RULE_FALLBACK if b in have)


class QipaiGym(gymnasium.Env):
    """``seat`` of ``game_id`` against ``opponents`` (``rule``: see :func:`_bot_name`);
    ``options`` as for :class:`QipaiAEC`
    (``num_seats``, ``max_steps`` and the game's own options).

    Raises :class:`qipai.OptionError` for an unknown bot name."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game_id: str, seat: int = 0, opponents: str | list[str] = "rule",
                 render_mode: str | None = None, **options: Any) -> None:
        self.aec = QipaiAEC(game_id, render_mode=render_mode, **options)
        n = self.aec.num_seats
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of {game_id} with {n} seats")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        names = [opponents] * n if isinstance(opponents, str) else list(opponents)
        names = [_bot_name(self.aec.game.id, x) for x in names]
        others = [s for s in range(n) if s != seat]
        if len(names) == n - 1:
            names = [None if s == seat else names[others.index(s)] for s in range(n)]
        if len(names) != n:
            raise ValueError(f"opponents: one bot name, or one per other seat ({n - 1}), not {len(names)}")
        names[seat] = None
        self.bot_names = names
        for s in others:                     # unknown names fail here, not at the first reset
            make_bot(self.aec.game.id, names[s], 0)
        self.bots: dict[int, Any] = {}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 2**62))
        self.aec.reset(seed=deal)
        self.bots = {s: make_bot(self.aec.game.id, self.bot_names[s], int(self.np_random.integers(0, 2**31)))
                     for s in range(self.aec.num_seats) if s != self.seat}
        self._play_others()
        return self._obs(), self._info()

    def step(self, action: Any):
        aec = self.aec
        if aec.state.is_terminal():
            raise gymnasium.error.ResetNeeded("the game is over: call reset()")
        try:
            aec.step(int(action))
        except IllegalAction:
            return self._obs(), 0.0, False, False, {**self._info(), "illegal_action": True}
        self._play_others()
        terminated = aec.state.is_terminal()
        truncated = bool(aec.truncations.get(self.agent)) and not terminated
        reward = float(aec.state.returns()[self.seat]) if terminated else 0.0
        return self._obs(), reward, terminated, truncated, self._info()

    def _play_others(self) -> None:
        aec, state = self.aec, self.aec.state
        while not state.is_terminal() and not aec.truncations.get(self.agent):
            seat = state.to_act[0]
            if seat == self.seat:
                return
            action = self.bots[seat].choose(state, seat)
            state.apply(action, seat=seat)
            aec.steps += 1
            aec._after_step()

    def legal_slots(self) -> np.ndarray:
        """The actions the seat may take now, ascending (``intp``; empty once the game is
        over): :meth:`QipaiAEC.legal_slots` of the seat's agent, the one way to read them in an
        env made with ``action_mask=False``, whose observations hold no mask."""
        return self.aec.legal_slots(self.agent)

    def _obs(self) -> dict[str, np.ndarray]:
        return self.aec.observe(self.agent)

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "deal_seed": self.aec.deal_seed}

    def render(self) -> str | None:
        return self.aec.render()
