"""Any game folder as a PettingZoo environment: `env(game, players=K, seed=S)` (AEC) or `parallel_env(...)`.

- Agents are the seats, named `seat_0` ... `seat_{K-1}` in turn order.
- An action is an option index (see `common`): action k answers with the k-th legal option.
- The observation is the seat's view as a float32 `Box` tensor (see `encoding`); the mask of legal
  actions is in `infos[agent]["action_mask"]`, next to `infos[agent]["options"]`, the option ids in
  action order. With `observation="dict"` the observation is a dict of `observation` (the same
  tensor) and `action_mask`, as PettingZoo's classic games give it. `env.view(agent)` gives the view
  itself as plain data.
- Observations come from what the observing seat may see only (`interpreter.core.view`), never from
  the rest of the state: a hand or a face-down pile shows as hidden, another seat's secret answer
  never shows.
- AEC: simultaneous secret choices (every seat votes at once) are asked one seat after another; a
  seat asked after another sees that it has answered, never its answer, until every answer is in.
  Parallel: every seat a simultaneous choice asks answers in the same step; at a choice of one
  seat, only that seat acts (the others' mask is empty and their actions are ignored).
- Rewards come at the end: 1 to each winner, 0 to the others. A game still running after
  `max_decisions` answers (a bound surveyed with a fixed seed, see `common.survey`) is truncated,
  with no reward.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ._extra import require

require("pettingzoo", "gymnasium")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402

from ..core.engine import Engine  # noqa: E402
from ..core.game import Game  # noqa: E402
from ..core.view import view as seat_view  # noqa: E402
from .common import OptionIds, check_players, engine_of, survey, too_many, win_returns  # noqa: E402
from .encoding import TensorEncoder  # noqa: E402

OBSERVATIONS = ("box", "dict")
BOUND = 2.0 ** 31   # the Box's bounds: no slot of a tensor holds a larger number (money, counts, lengths)


class _Table:
    """One game at a fixed number of seats, and what each seat is given of it (shared by both APIs)."""

    def __init__(self, game: str | Path | Game | Engine, players: int | None, max_actions: int | None,
                 max_decisions: int | None, variant: str | None, observation: str):
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation={observation!r}: expected one of {', '.join(OBSERVATIONS)}")
        self.engine = engine_of(game, variant)
        self.players = check_players(self.engine, players)
        found = survey(self.engine, self.players)
        self.max_actions = max_actions if max_actions is not None else found.options
        self.max_decisions = max_decisions if max_decisions is not None else found.decisions
        self.encoder = TensorEncoder(self.engine, self.players, self.max_actions, found.texts)
        self.ids = OptionIds(self.engine)
        self.observation = observation
        self.agents = [f"seat_{s}" for s in range(self.players)]
        tensor = spaces.Box(-BOUND, BOUND, (self.encoder.size,), np.float32)
        self.spaces: dict[str, spaces.Space[Any]] = {a: tensor if observation == "box" else spaces.Dict({
            "observation": tensor, "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8)})
            for a in self.agents}
        self.actions = {a: spaces.Discrete(self.max_actions) for a in self.agents}
        self.state: dict[str, Any] = {}
        self.moves = 0                       # answers applied since the last reset: observations are kept per move
        self._seen: dict[int, tuple[int, Any]] = {}
        # The move the open decision was last looked at: its public facts, and the options of each seat it waits for.
        self._at = -1
        self._facts: dict[str, Any] | None = None
        self._offered: dict[int, list[Any]] = {}
        self._masks: dict[int, np.ndarray] = {}

    def new_game(self, seed: int) -> None:
        """A new game from `seed`."""
        self.state = self.engine.new_game(self.players, seed)
        self.moves += 1

    def ended(self) -> bool:
        """Over, or cut short at the bound."""
        return self.state["result"] is not None or self.state["decisions"] >= self.max_decisions

    def asked(self) -> list[int]:
        """The seats the open decision waits for (none once the game has ended)."""
        if self._at != self.moves:
            self._look()
        if self._facts is None or self.state["decisions"] >= self.max_decisions:   # over, or cut short
            return []
        return list(self._facts["waiting_for"])

    def _look(self) -> None:
        """Look at the open decision now: its public facts (see `pending`), and each asked seat's options."""
        state = self.state
        p = state["pending"]
        facts = None
        offered: dict[int, list[Any]] = {}
        if p is not None and state["result"] is None:
            waiting, answered = [], []
            for seat, done, options in zip(p["seats"], p["done"], p["options"]):
                if done:
                    answered.append(seat)
                else:
                    waiting.append(seat)
                    offered[seat] = options
            facts = {"waiting_for": waiting, "spec": p["spec"], "answered": answered}
        self._at, self._facts, self._offered = self.moves, facts, offered

    def own_options(self, seat: int) -> list[Any] | None:
        """The values of the seat's own options now (None when it is not asked)."""
        if self._at != self.moves:
            self._look()
        found = self._offered.get(seat)
        if found is not None and len(found) > self.max_actions:
            raise too_many(len(found), self.max_actions)
        return found

    def option_ids(self, seat: int) -> list[str]:
        """The ids of the seat's options now, in action order (none when it is not asked)."""
        options = self.own_options(seat)
        if not options:
            return []
        return self.ids.all(self.state["pending"]["spec"], options)

    def mask(self, seat: int) -> np.ndarray:
        """1 for each legal option index of the seat now."""
        return self._mask(self.own_options(seat))

    def _mask(self, options: list[Any] | None) -> np.ndarray:
        """A new mask of the options' indexes (a copy of the one kept per number of options)."""
        count = len(options) if options else 0
        mask = self._masks.get(count)
        if mask is None:
            mask = self._masks[count] = np.zeros(self.max_actions, np.int8)
            mask[:count] = 1
        return mask.copy()

    def info(self, seat: int) -> dict[str, Any]:
        """The seat's infos now: its option ids in action order, and its action mask (new objects every call)."""
        if self._at != self.moves:   # own_options, without a call (every seat's, at every step)
            self._look()
        options = self._offered.get(seat)
        if options is not None and len(options) > self.max_actions:
            raise too_many(len(options), self.max_actions)
        if not options:
            return {"options": [], "action_mask": self._mask(None)}
        return {"options": self.ids.all(self.state["pending"]["spec"], options), "action_mask": self._mask(options)}

    def observe(self, seat: int) -> Any:
        """The seat's observation now (built once per move and seat)."""
        kept = self._seen.get(seat)
        if kept is not None and kept[0] == self.moves:
            return kept[1]
        observed = self.observation_now(seat)
        self._seen[seat] = (self.moves, observed)
        return observed

    def observation_now(self, seat: int) -> Any:
        """The seat's observation now, built anew (the parallel API's, new at every step)."""
        if self._at != self.moves:   # own_options, without a call (every seat's, at every step)
            self._look()
        options = self._offered.get(seat)
        if options is not None and len(options) > self.max_actions:
            raise too_many(len(options), self.max_actions)
        state = self.state
        tensor = self.encoder.encode(state, seat, state["decisions"], state["result"] is not None, self._facts,
                                     options, 0, self.moves)
        return tensor if self.observation == "box" else {"observation": tensor, "action_mask": self._mask(options)}

    def pending(self) -> dict[str, Any] | None:
        """The public facts of the open decision now: the seats it waits for, those that have answered, its choice."""
        if self._at != self.moves:
            self._look()
        return self._facts

    def check(self, agent: str, seat: int, action: Any) -> int:
        """The option index `action` of `agent`, or a ValueError saying why it is not legal now."""
        count = self.engine.option_count(self.state, seat)
        try:
            k = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"action {action!r} of {agent} is not an option index") from None
        if not 0 <= k < count:
            raise ValueError(f"action {k} is not legal for {agent}: it has {count} option(s) (see the action mask)")
        return k

    def answer(self, seat: int, k: int) -> None:
        """Apply the seat's option index k."""
        self.engine.apply_index(self.state, seat, k)
        self.moves += 1


class CityrulesEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment playing one cityrules game at a fixed number of seats."""

    metadata = {"render_modes": ["ansi"], "name": "cityrules", "is_parallelizable": False}

    def __init__(self, game: str | Path | Game | Engine, players: int | None = None, seed: int = 0,
                 max_actions: int | None = None, max_decisions: int | None = None,
                 render_mode: str | None = None, variant: str | None = None, observation: str = "box"):
        super().__init__()
        self.table = _Table(game, players, max_actions, max_decisions, variant, observation)
        self.engine = self.table.engine
        self.players = self.table.players
        self.max_actions = self.table.max_actions
        self.max_decisions = self.table.max_decisions
        self.encoder = self.table.encoder
        self.seed = seed
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self.metadata = {**self.metadata, "name": f"cityrules_{self.engine.game.name}"}
        self.reset()

    @property
    def state_(self) -> dict[str, Any]:
        """The engine's state of the game (everything, hidden parts included: not for agents)."""
        return self.table.state

    @state_.setter
    def state_(self, state: dict[str, Any]) -> None:
        self.table.state = state
        self.table.moves += 1

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same space object for an agent every time (PettingZoo seeds it): a Box, or a Dict."""
        return self.table.spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Option indexes 0 .. max_actions - 1."""
        return self.table.actions[agent]

    # ------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same seed (the constructor's when none is given) gives the same game."""
        if seed is not None:
            self.seed = seed
        self.table.new_game(self.seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _seat(self, agent: str) -> int:
        seat = self._seats.get(agent)
        if seat is None:
            return int(agent[5:]) if agent.startswith("seat_") else self.possible_agents.index(agent)
        return seat

    def _after_move(self) -> None:
        """Who acts next, the end of the game when it has come, and the infos of the agent to act."""
        table = self.table
        state = table.state
        if state["result"] is not None:
            returns = win_returns(state)
            for a in self.agents:
                self.rewards[a] = returns[self._seat(a)]
                self.terminations[a] = True
        elif state["decisions"] >= table.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
        ended = table.ended()
        if not ended:
            self.agent_selection = self.possible_agents[self.engine.first_open_seat(state)]
        elif self.agents:
            self.agent_selection = self.agents[0]
        for a in self.agents:
            if self.infos[a]:
                self.infos[a] = {}
        if self.agents and not ended:
            seat = self._seat(self.agent_selection)
            self.infos[self.agent_selection] = table.info(seat)

    def step(self, action: Any) -> None:
        """Answer the current agent's decision with option index `action`."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        k = self.table.check(agent, seat, action)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.table.answer(seat, k)
        self._after_move()
        self._accumulate_rewards()

    # ------------------------------------------------------------ what a seat sees
    def view(self, agent: str) -> dict[str, Any]:
        """The agent's view of the game as plain data (`interpreter.core.view.view`)."""
        return seat_view(self.engine, self.table.state, self._seat(agent))

    def observe(self, agent: str) -> Any:
        """The agent's observation: its view as a tensor (with `observation="dict"`, and its action mask)."""
        return self.table.observe(self._seat(agent))

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal option index of the agent now (all 0 when it is not asked)."""
        return self.table.mask(self._seat(agent))

    def render(self) -> str | None:
        """The view of the agent to act, as text (render_mode "ansi")."""
        if self.render_mode != "ansi" or not self.agents:
            return None
        v = self.view(self.agent_selection)
        return f"{self.agent_selection} ({v['names'][v['seat']]}): {v['pending']}"

    def close(self) -> None:
        """Nothing to release."""


class CityrulesParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A PettingZoo parallel environment: every seat a simultaneous choice asks answers in one step."""

    metadata = {"render_modes": [], "name": "cityrules"}

    def __init__(self, game: str | Path | Game | Engine, players: int | None = None, seed: int = 0,
                 max_actions: int | None = None, max_decisions: int | None = None, variant: str | None = None,
                 observation: str = "box"):
        self.table = _Table(game, players, max_actions, max_decisions, variant, observation)
        self.engine = self.table.engine
        self.players = self.table.players
        self.seed = seed
        self.possible_agents = list(self.table.agents)
        self.agents: list[str] = []
        self.metadata = {**self.metadata, "name": f"cityrules_{self.engine.game.name}"}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same space object for an agent every time: a Box, or a Dict."""
        return self.table.spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Option indexes 0 .. max_actions - 1."""
        return self.table.actions[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game (the same seed gives the same game): every seat's observation and infos."""
        if seed is not None:
            self.seed = seed
        self.table.new_game(self.seed)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def asked(self) -> list[str]:
        """The agents that must act in the next step."""
        return [self.possible_agents[s] for s in self.table.asked()]

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, dict[str, Any]]]:
        """Every asked seat's answer at once (others' actions are ignored); checked before any is applied."""
        table = self.table
        if not self.agents:
            raise ValueError("the game is over: call reset()")
        answers = []
        for seat in table.asked():
            agent = self.possible_agents[seat]
            action = actions.get(agent)
            if action is None:
                raise ValueError(f"{agent} must act in this step (the open decision waits for "
                                 f"{', '.join(self.asked())})")
            answers.append((seat, table.check(agent, seat, action)))
        for seat, k in answers:
            table.answer(seat, k)
        state = table.state
        over = state["result"] is not None
        cut = not over and state["decisions"] >= table.max_decisions
        returns = win_returns(state) if over else [0.0] * self.players
        agents = self.agents
        observations, infos = self._observations(), self._infos()
        rewards = dict(zip(self.possible_agents, returns)) if agents == self.possible_agents else {
            a: returns[s] for s, a in enumerate(self.possible_agents) if a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, cut)
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Any]:
        observe, agents = self.table.observation_now, self.agents
        if agents == self.possible_agents:
            return {a: observe(s) for s, a in enumerate(agents)}
        return {a: observe(s) for s, a in enumerate(self.possible_agents) if a in agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        info, agents = self.table.info, self.agents
        if agents == self.possible_agents:
            return {a: info(s) for s, a in enumerate(agents)}
        return {a: info(s) for s, a in enumerate(self.possible_agents) if a in agents}

    def view(self, agent: str) -> dict[str, Any]:
        """The agent's view of the game as plain data (`interpreter.core.view.view`)."""
        return seat_view(self.engine, self.table.state, self.possible_agents.index(agent))

    def state(self) -> np.ndarray:
        """Not given: a global state would hold what no seat may see."""
        raise NotImplementedError("a cityrules game gives no global state: it would hold hidden information")

    def close(self) -> None:
        """Nothing to release."""


@functools.wraps(CityrulesEnv)
def env(game: str | Path | Game | Engine, players: int | None = None, seed: int = 0, **kwargs: Any) -> CityrulesEnv:
    """A PettingZoo AEC environment for a shipped game's name or any game folder."""
    return CityrulesEnv(game, players=players, seed=seed, **kwargs)


@functools.wraps(CityrulesParallelEnv)
def parallel_env(game: str | Path | Game | Engine, players: int | None = None, seed: int = 0,
                 **kwargs: Any) -> CityrulesParallelEnv:
    """A PettingZoo parallel environment for a shipped game's name or any game folder."""
    return CityrulesParallelEnv(game, players=players, seed=seed, **kwargs)
