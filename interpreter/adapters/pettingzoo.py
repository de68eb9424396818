"""Any game folder as a PettingZoo AEC environment: `env(game, players=K, seed=S)`.

- Agents are the seats, named `seat_0` ... `seat_{K-1}` in turn order.
- An action is an option index (see `common`): action k answers with the k-th legal option. The
  observation is a dict: `observation`, the seat's view as a vector (see `encoding`), and
  `action_mask`, 1 for each legal index. `infos[agent]["options"]` lists the option ids of the
  agent to act, in action order; `env.view(agent)` gives the view itself as plain data.
- Observations come from `interpreter.core.view.view` of the observing seat only, never from the
  state: a hand or a face-down pile shows as hidden, another seat's secret answer never shows.
- Simultaneous secret choices (every seat votes at once) are asked one seat after another; a seat
  asked after another sees that it has answered, never its answer, until every answer is in.
- Rewards come at the end: 1 to each winner, 0 to the others. A game still running after
  `max_decisions` answers is truncated, with no reward.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.engine import Engine
from ..core.game import Game
from ..core.view import view as seat_view
from .common import check_players, engine_of, survey, too_many, win_returns
from .encoding import HIGH, LOW, ViewEncoder


class CityrulesEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment playing one cityrules game at a fixed number of seats."""

    metadata = {"render_modes": ["ansi"], "name": "cityrules", "is_parallelizable": False}

    def __init__(self, game: str | Path | Game | Engine, players: int | None = None, seed: int = 0,
                 max_actions: int | None = None, max_decisions: int | None = None,
                 render_mode: str | None = None, variant: str | None = None):
        super().__init__()
        self.engine = engine_of(game, variant)
        self.players = check_players(self.engine, players)
        found = survey(self.engine, self.players, seed) if max_actions is None or max_decisions is None else None
        self.max_actions = max_actions if max_actions is not None else found.options  # type: ignore[union-attr]
        self.max_decisions = max_decisions if max_decisions is not None else found.decisions  # type: ignore[union-attr]
        self.seed = seed
        self.render_mode = render_mode
        self.encoder = ViewEncoder(self.engine, self.players, self.max_actions)
        self.possible_agents = [f"seat_{s}" for s in range(self.players)]
        self.metadata = {**self.metadata, "name": f"cityrules_{self.engine.game.name}"}
        self._spaces = {a: spaces.Dict({
            "observation": spaces.Box(LOW, HIGH, (self.encoder.size,), np.int64),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8)}) for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.state_: dict[str, Any] | None = None
        self.reset()

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space object for an agent every time (PettingZoo seeds it)."""
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Option indexes 0 .. max_actions - 1."""
        return self._actions[agent]

    # ------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same seed (the constructor's when none is given) gives the same game."""
        if seed is not None:
            self.seed = seed
        self.state_ = self.engine.new_game(self.players, self.seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _options(self, shown: dict[str, Any]) -> list[str]:
        """The ids of the options a seat's view offers it (none when it is not asked)."""
        ids = [option_id for option_id, _ in (shown["pending"] or {}).get("options", [])]
        if len(ids) > self.max_actions:
            raise too_many(len(ids), self.max_actions)
        return ids

    def _after_move(self) -> None:
        """Who acts next, and the end of the game when it has come."""
        state = self.state_
        assert state is not None
        if state["result"] is not None:
            returns = win_returns(state)
            for a in self.agents:
                self.rewards[a] = returns[self._seat(a)]
                self.terminations[a] = True
        elif state["decisions"] >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
        if state["result"] is None and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[self.engine.first_open_seat(state)]
        elif self.agents:
            self.agent_selection = self.agents[0]
        for a in self.agents:
            self.infos[a] = {}
        if self.agents and state["result"] is None and not any(self.truncations.values()):
            self.infos[self.agent_selection] = {"options": self._options(self.view(self.agent_selection))}

    def step(self, action: Any) -> None:
        """Answer the current agent's decision with option index `action`."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        assert state is not None
        seat = self._seat(agent)
        count = self.engine.option_count(state, seat)
        k = int(action)
        if not 0 <= k < count:
            raise ValueError(f"action {k} is not legal for {agent}: it has {count} option(s) (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.engine.apply_index(state, seat, k)
        self._after_move()
        self._accumulate_rewards()

    # ------------------------------------------------------------ what a seat sees
    def view(self, agent: str) -> dict[str, Any]:
        """The agent's view of the game as plain data (`interpreter.core.view.view`)."""
        assert self.state_ is not None
        return seat_view(self.engine, self.state_, self._seat(agent))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation: its view as a vector, and the mask of its legal actions now."""
        shown = self.view(agent)
        options = self._options(shown)
        mask = np.zeros(self.max_actions, np.int8)
        mask[:len(options)] = 1
        return {"observation": self.encoder.encode(shown, options), "action_mask": mask}

    def render(self) -> str | None:
        """The view of the agent to act, as text (render_mode "ansi")."""
        if self.render_mode != "ansi" or not self.agents:
            return None
        v = self.view(self.agent_selection)
        return f"{self.agent_selection} ({v['names'][v['seat']]}): {v['pending']}"

    def close(self) -> None:
        """Nothing to release."""


@functools.wraps(CityrulesEnv)
def env(game: str | Path | Game | Engine, players: int | None = None, seed: int = 0, **kwargs: Any) -> CityrulesEnv:
    """A PettingZoo AEC environment for a shipped game's name or any game folder."""
    return CityrulesEnv(game, players=players, seed=seed, **kwargs)
