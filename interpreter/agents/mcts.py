"""mcts: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

Single-observer ISMCTS over the bot's information set. Each iteration:

1. samples a full state from what the bot's seat may see (determinize.py);
2. walks down one tree shared by all samples, keyed by the answers given (each answer is an edge
   `(seat, choice, value)`); at each node only the answers legal in this sample count, and an edge
   is scored by UCB1 with its *availability* (how often it was legal) in place of the parent's
   visits, as in the paper;
3. when it meets an answer never tried, tries it and plays on at random (a playout) for the game's
   `playout` number of decisions, then reads the evaluation (see evaluation.win_chances); a
   playout that reaches the end of the game scores who won, never a score;
4. adds each seat's reward to the edges that seat chose on the way down.

With a learned value, the search starts from `bot`'s judgement of the deciding seat's options
(learned.py): each counts as PRIOR_VISITS visits at the root with bot's value as their reward, and
the iterations correct it.

Simultaneous choices are decoupled: at such a node every seat picks its answer from its own edge
statistics, which never depend on the other seats' answers to the same question, so no seat
conditions on a choice that has not been revealed (the reveal is the child node, reached by the
answers of all). The decision is the bot's own most visited answer at the root.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from ..core import rng
from ..core.engine import Engine
from ..core.errors import RuleError
from .determinize import InfoSet
from .evaluation import Evaluation, Judging, result_rewards, win_chances
from .learned import ValueAgent
from .seeding import decision_stream, mix
from .value import LearnedValue, ValueFileError, learned_value

# Iterations per decision: about 20-25 ms of CPU with the learned value on the project's machine
# (benchmarks/bench_match.py and bench_bots.py measure it; docs/bots.md has the figures).
DEFAULT_BUDGET = 64
EXPLORATION = 0.7
# Visits `bot`'s judgement of each root option counts for, where there is a learned value. A tree
# of 64 iterations over a dozen options and a die gives each a few visits judged mid-turn; started
# from bot's judgement, mcts won two to four times as many games against the scripted players in
# two of the shipped games, as many as bot (docs/bots.md has the figures).
PRIOR_VISITS = 16
# Random decisions after a new answer before the learned value judges the position (when there is one).
LEARNED_PLAYOUT = 0
# A playout that never ends (rules that loop while bots answer at random) is cut here and evaluated.
PLAYOUT_CAP = 20_000

Edge = tuple[int, int, Any]


def _key(value: Any) -> Any:
    """A hashable stand-in for an option's value (lists become tuples)."""
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    return value


class _Node:
    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[Edge, ...], _Node] = {}
        # edge -> [visits, total reward of the seat that chose it, availability]
        self.stats: dict[Edge, list[float]] = {}


@dataclass(frozen=True)
class OptionStats:
    """What the search found for one of the deciding seat's options."""

    index: int
    visits: int
    win_chance: float


class MCTSAgent(Judging):
    """Information-set MCTS with an iteration budget and an optional time budget per decision."""

    name = "mcts"

    def __init__(self, seed: int, budget: int = DEFAULT_BUDGET, think: float | None = None,
                 profile: str | None = None, playout: int | None = None, exploration: float = EXPLORATION,
                 use_learned: bool = True, prior: int = PRIOR_VISITS):
        self.seed = rng.seed_state(seed)
        self.prior = prior
        self.budget = budget
        self.think = think
        self.profile = profile
        self.playout = playout
        self.exploration = exploration
        self.use_learned = use_learned
        self.iterations = 0
        self.playouts = 0

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        """The most visited of the seat's options after the search."""
        if engine.option_count(state, seat) == 1:
            return 0
        return self.search(engine, state, seat)[0].index

    def search(self, engine: Engine, state: dict[str, Any], seat: int) -> list[OptionStats]:
        """Search from the seat's information set; its options, best first."""
        n = engine.option_count(state, seat)
        stream = decision_stream(self.seed, state)
        info = InfoSet(engine, state, seat)
        learned = self._learned(engine)
        run = _Search(engine, self.evaluation(engine), self._depth(engine, state, learned is not None), self.exploration,
                      learned, self.profile)
        root = _Node()
        p = state["pending"]
        spec = p["spec"]
        options = p["options"][p["seats"].index(seat)]
        prior = 0
        if learned is not None and self.prior > 0:
            prior = self.prior
            # Stream 0 of the decision: the iterations draw from 2 on, the final tie-break from 1.
            judged = ValueAgent(mix(stream, 0), profile=self.profile, value=learned).option_values(engine, state, seat)
            for value, chance in zip(options, judged):
                root.stats[(seat, spec, _key(value))] = [float(prior), prior * max(0.0, chance), 0.0]
        deadline = time.perf_counter() + self.think if self.think else None
        for i in range(self.budget):
            if deadline is not None and i and time.perf_counter() > deadline:
                break
            run.iterate(root, info.sample(mix(stream, 2 * i + 2)), mix(stream, 2 * i + 3))
        if run.failure is not None and run.iterations == 0:
            # Every sample failed: a mistake in the rules or the evaluation, not bad luck. Say so.
            raise run.failure
        self.iterations += run.iterations
        self.playouts += run.playouts
        found = []
        for k, value in enumerate(options):
            st = root.stats.get((seat, spec, _key(value)))
            # The visits the search made (every option had the prior's alike); the estimate is both's.
            visits = int(st[0]) - prior if st else 0
            found.append(OptionStats(k, visits, st[1] / st[0] if st and st[0] else 0.0))
        _, bits = rng.next_u64(mix(stream, 1))
        # Most visits first, then the better estimate, then a seeded draw among equals.
        order = sorted(found, key=lambda o: (-o.visits, -o.win_chance, (o.index + bits) % n))
        return order

    def _learned(self, engine: Engine) -> LearnedValue | None:
        """The game's learned value, or None without one (the search then reads the declared evaluation)."""
        if not self.use_learned:
            return None
        try:
            return learned_value(engine)
        except ValueFileError:
            return None

    def _depth(self, engine: Engine, state: dict[str, Any], learned: bool) -> int:
        if self.playout is not None:
            return self.playout
        if learned:
            # The learned value judges the position a new answer leads to, as it stands.
            return LEARNED_PLAYOUT
        declared = engine.game.bots.playout
        if declared is not None:
            return declared
        return 8 * state["seats"] if self.evaluation(engine).informative else 0


class _Search:
    """One decision's search: the playout policy, the rewards, the evaluation's running scale."""

    def __init__(self, engine: Engine, evaluation: Evaluation, depth: int, exploration: float,
                 learned: LearnedValue | None = None, profile: str | None = None):
        self.engine = engine
        self.evaluation = evaluation
        self.learned = learned
        self.profile = profile
        self.depth = depth if depth > 0 or learned is not None else PLAYOUT_CAP
        self.c = exploration
        self.lead_sum = 0.0
        self.leads = 0
        self.iterations = 0
        self.playouts = 0
        self.failure: RuleError | None = None

    def iterate(self, root: _Node, state: dict[str, Any], g: int) -> None:
        """One iteration on one sampled state (changed in place)."""
        engine = self.engine
        path: list[tuple[_Node, list[Edge]]] = []
        node = root
        try:
            while state["result"] is None:
                p = state["pending"]
                spec = p["spec"]
                chosen: list[tuple[int, int]] = []
                edges: list[Edge] = []
                fresh = False
                for i, s in enumerate(p["seats"]):
                    if p["done"][i]:
                        continue
                    g, k, is_new = self._select(node, s, spec, p["options"][i], g)
                    fresh = fresh or is_new
                    chosen.append((s, k))
                    edges.append((s, spec, _key(p["options"][i][k])))
                key = tuple(edges)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                path.append((node, edges))
                for s, k in chosen:
                    engine.apply_index(state, s, k)
                state["log"].clear()
                node = child
                if fresh:
                    break
            rewards = self._playout(state, g)
        except RuleError as err:
            # The sample drew hidden values the rules cannot go on with (see docs/bots.md): skip it.
            self.failure = err
            return
        self.iterations += 1
        for node, edges in path:
            stats = node.stats
            for edge in edges:
                st = stats[edge]
                st[0] += 1
                st[1] += rewards[edge[0]]

    def _select(self, node: _Node, seat: int, spec: int, options: list[Any], g: int) -> tuple[int, int, bool]:
        """UCB1 with availability among the options legal here; an untried option first."""
        stats = node.stats
        untried = []
        best_k, best = 0, -1.0
        keys = []
        for k, value in enumerate(options):
            edge = (seat, spec, _key(value))
            keys.append(edge)
            st = stats.get(edge)
            if st is None:
                st = stats[edge] = [0.0, 0.0, 0.0]
            st[2] += 1
            if st[0] == 0:
                untried.append(k)
        if untried:
            g, j = rng.below(g, len(untried))
            return g, untried[j], True
        for k, edge in enumerate(keys):
            visits, total, avail = stats[edge]
            score = total / visits + self.c * math.sqrt(math.log(avail) / visits)
            if score > best:
                best_k, best = k, score
        return g, best_k, False

    def _playout(self, state: dict[str, Any], g: int) -> list[float]:
        """Random answers for `depth` decisions, then who won, or the evaluation's win chances."""
        engine = self.engine
        for _ in range(self.depth):
            if state["result"] is not None:
                break
            s = engine.first_open_seat(state)
            g, bits = rng.next_u64(g)
            engine.apply_index(state, s, bits % engine.option_count(state, s))
            state["log"].clear()
        self.playouts += 1
        if state["result"] is not None:
            return result_rewards(state["result"], state["seats"])
        if self.learned is not None:
            # Each seat's learned chance from its own view of the sample (a seat's features never
            # read what that seat may not see; the sample itself is drawn from the bot's view).
            return self.learned.values(self.learned.features_all(state, self.profile), self.profile)
        values = self.evaluation.values(state)
        n = len(values)
        for i, v in enumerate(values):
            self.lead_sum += abs(v - max(values[j] for j in range(n) if j != i))
        self.leads += n
        return win_chances(values, max(1e-6, self.lead_sum / self.leads))
