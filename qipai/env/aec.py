"""The PettingZoo AEC door: every qipai game as a turn-based multi-agent environment.

Agents are ``player_0 .. player_{n-1}`` (the seats). The agent to act is the first seat of
``state.to_act``; in a simultaneous phase (sealed bids, claim windows) the seats act one after
the other, each through ``state.apply(action, seat=s)``, and each sees only its own view, so a
seat acting later learns nothing of the earlier seats' hidden choices. Observations are
``{"observation": tensor, "action_mask": int8 mask}`` (plus ``"action_features"`` for list
action spaces), built from ``state.view(seat)`` only (kept up to date per seat from
``state.view_delta``, :class:`~qipai.core.viewdelta.ViewFollower`, and the tensor from the
view's changes, :class:`~qipai.env.base.TensorFollower`; Chinese checkers and junqi keep it
from the points the game names as changed for that seat, ``state.seen_changes``; go, gomoku
and xiangqi from what the seat's view shows of the board, ``state.seen_board``, the mahjong
games from ``state.seen_table``, the climbing card games from ``state.seen_climb`` and shengji
from ``state.seen_tricks``, without building the view). Rewards
are ``state.returns()`` when the game ends (all agents terminate together); ``max_steps``
truncates a game.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import qipai
from qipai.core.viewdelta import ViewFollower

from .base import EnvError
from .chooser import Chooser
from .registry import make_encoder


class QipaiAEC(AECEnv):
    """One qipai game as a PettingZoo AEC environment.

    ``game_id`` and ``options`` are as for :func:`qipai.load`; ``num_seats`` picks a seat count
    where a game allows several (chinese-checkers 2/3/4/6, baohuang 5/4); ``max_steps`` (agent
    steps, paging steps included) truncates a game that runs longer. ``action_mask=False``
    leaves the mask out of the observations (and their space): a loop then reads the legal
    slots from :meth:`legal_slots`, which every env gives, without a mask of the whole space
    made at each step (doudizhu's 27,476 slots). ``reset(seed=s)`` deals
    with seed ``s``; a reset without seed draws the next deal's seed from the generator the last
    seeded reset started, so a seeded sequence of games is reproducible.

    Raises :class:`qipai.IllegalAction` from ``step`` for an action outside the mask (the state
    is unchanged) and :class:`EnvError` for a game with no encoding.
    """

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game_id: str, *, num_seats: int | None = None, max_steps: int | None = None,
                 render_mode: str | None = None, action_mask: bool = True, **options: Any) -> None:
        super().__init__()
        self.masked = action_mask
        self.game = qipai.load(game_id, **options)
        self.num_seats = num_seats or self.game.seat_counts()[0]
        self.encoder = make_encoder(self.game, self.num_seats)
        self.metadata = {**self.metadata, "name": f"qipai_{self.game.id.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [f"player_{i}" for i in range(self.num_seats)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = self._observation_space()
        act = gymnasium.spaces.Discrete(self.encoder.actions.size)
        # one space object per agent (seeding a space must not seed another agent's)
        self.observation_spaces = {a: obs_space if i == 0 else self._observation_space()
                                   for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: act if i == 0 else gymnasium.spaces.Discrete(act.n)
                              for i, a in enumerate(self.possible_agents)}
        self._rng = random.Random()
        self.state = None
        self.chooser = Chooser(self.encoder.actions)
        self._views = [ViewFollower(s) for s in range(self.num_seats)]
        self._tensors = [self.encoder.follower(s) for s in range(self.num_seats)]
        self._paged = self.encoder.actions.kind == "list"      # whether steps may only page
        self._kept: list[tuple | None] = [None] * self.num_seats
        self._turn: tuple = (None, 0, ())

    def _observation_space(self) -> gymnasium.spaces.Dict:
        enc = self.encoder
        parts = {
            "observation": gymnasium.spaces.Box(0.0, enc.high, shape=enc.shape, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=(enc.actions.size,), dtype=np.int8),
        }
        if not self.masked:
            del parts["action_mask"]
        if enc.actions.kind == "list":
            parts["action_features"] = gymnasium.spaces.Box(
                0.0, 1.0, shape=(enc.actions.size, enc.actions.features), dtype=np.float32)
        return gymnasium.spaces.Dict(parts)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # ----- episode ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
            deal_seed = seed
        else:
            deal_seed = self._rng.getrandbits(63)
        self.deal_seed = deal_seed
        self.state = self.game.new_state(seed=deal_seed, num_seats=self.num_seats)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self.chooser.reset()
        self._kept = [None] * self.num_seats
        self._select()

    def _select(self) -> None:
        state = self.state
        to_act = state.to_act
        # the turn, kept for this state and log length: observe and step read it back
        self._turn = (state, len(state.log), to_act)
        if to_act:
            self.agent_selection = self.possible_agents[to_act[0]]

    def _to_act(self, state: Any) -> tuple:
        """``state.to_act``, as :meth:`_select` kept it when nothing was played since."""
        turn = self._turn
        if turn[0] is state and turn[1] == len(state.log):
            return turn[2]
        return state.to_act

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of[agent]
        state = self.state
        # a paging step (list action spaces) leaves the state as it was: the seat's tensor of
        # the last observation is given again (a copy kept of it), as the chooser keeps the list
        if self._paged:
            key = (id(state), len(state.log), seat, state.to_act, state.result is None)
            kept = self._kept[seat]
            if kept is not None and kept[0] == key:
                tensor = kept[1].copy()
            else:
                tensor = self._tensors[seat].follow(state, self._views[seat])
                self._kept[seat] = (key, tensor.copy())
        else:
            tensor = self._tensors[seat].follow(state, self._views[seat])
        chooser = self.chooser
        # only the selected agent may be to act (the others, and an agent truncated or
        # terminated, which may only step None, get the idle mask)
        if agent == self.agent_selection and not self._done(agent):
            to_act = self._to_act(state)
            if seat in to_act and not state.is_terminal():
                if chooser.fixed:
                    if not self.masked:
                        return {"observation": tensor}
                    return {"observation": tensor, "action_mask": chooser.mask(state, seat, to_act)}
                obs = {"observation": tensor}
                obs.update(chooser.observe(state, seat, to_act))
                if not self.masked:
                    del obs["action_mask"]
                return obs
        obs = {"observation": tensor}
        obs.update(chooser.idle())
        if not self.masked:
            del obs["action_mask"]
        return obs

    def legal_slots(self, agent: str) -> np.ndarray:
        """The slots ``agent`` may step now, ascending (``intp``): the set items of its
        observation's mask, read without making the mask (empty for an agent that is not to
        act, or whose game is over)."""
        seat = self._seat_of[agent]
        state = self.state
        if agent == self.agent_selection and not self._done(agent):
            to_act = self._to_act(state)
            if seat in to_act and not state.is_terminal():
                return self.chooser.slots(state, seat, to_act)
        return np.zeros(0, np.intp)

    def _done(self, agent: str) -> bool:
        """Whether ``agent`` is terminated or truncated (or gone: stepped after its end)."""
        return self.terminations.get(agent, True) or self.truncations.get(agent, True)

    def _follow(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s tensor of ``state``, kept from the seat's followed view (or the seat's
        changes piece by piece, where the game gives them: :meth:`TensorFollower.follow`)."""
        return self._tensors[seat].follow(state, self._views[seat])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat_of[agent]
        if action is None:
            raise EnvError(f"{agent} is to act: step(None) is only for a finished agent",
                           "env.no_action", {"agent": agent})
        state = self.state
        # raises, changing nothing
        chosen = self.chooser.choose(state, seat, int(action), self._to_act(state))
        self._cumulative_rewards[agent] = 0.0
        if chosen is not None:
            state.apply(chosen, seat=seat)
        self.steps += 1
        self._after_step()

    def _after_step(self) -> None:
        # rewards are all zero until the game ends (set only there, and a finished agent's
        # steps go to _was_dead_step): a step of a running game adds nothing to them
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._accumulate_rewards()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self._select()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return repr(self.state.view(None))

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


__all__ = ["EnvError", "QipaiAEC"]
