"""bot: the default bot. It judges each option by the learned value of the position it leads to.

For each of its options the bot answers on a state sampled from what its seat may see
(determinize.py) and plays on until the phase that asked has finished (the vote, the purchase, the
turn), as greedy does: the other seats answer at random (their answers are unknown to it), and its
own further answers in that phase are each tried, the best counting, while a budget of positions
allows. Past the budget, its next own answer ends the line once the option has shown (the rules
logged what followed it; a move's gains, a purchase), and is answered at random before (a secret
pick whose details are asked next). When the game says `finish_phase` (a phase that pays for what
was done when it ends) the line goes on past the budget instead, as several completions with its
own answers at random, as many as the option's share of the budget, the best counting. "The phase
that asked" is its own call, marked in the bot's copies when the question is asked, never the
same phase called again for the next seat. It then reads the learned value (value.py) of where
that leaves it, from its own view only; a game that ends there counts by its result. Its own
random answers are the same in every option's lines, so that options differ by what they do
rather than by the luck of their completions. Where the outcome depended on chance (a roll, a
draw, the others' answers), a few samples are averaged, as many as the budget of positions allows;
where it did not, one is enough.

Ties go to the bot's seeded generator; with `explore` > 0 (self-play while training) it sometimes
answers at random instead, from the same generator, so its games stay reproducible. A game without
a value trained on its rules is played by greedy (the declared evaluation) instead.
"""

from __future__ import annotations

from typing import Any

from ..core import rng
from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.state import copy_state
from .determinize import InfoSet
from .greedy import GreedyAgent
from .seeding import decision_stream, mix
from .value import LearnedValue, ValueFileError, final_scores, learned_value, result_target

# Positions judged for one decision: the seat's own further answers in the same phase are each
# tried while this allows, and samples are added within it. Small, so that a decision costs a few
# milliseconds: benchmarks/bench_bots.py measures what a larger one buys.
LEAF_BUDGET = 16
# Samples added, at most, when some failed (rules that cannot continue from a sampled hidden state).
RETRIES = 4
# Decisions an option is followed for, at most, before its position is judged as it stands.
HORIZON = 60
# Appended to the asking phase's frame (a list: name, place, locals) in the bot's own copies: a later
# call of the same phase at the same depth, the next seat's turn, is then told from it.
_ASKING = "\0asking"


class ValueAgent:
    """Each option played to the end of its phase and judged by the game's learned value."""

    name = "bot"

    def __init__(self, seed: int, samples: int = 3, profile: str | None = None, explore: float = 0.0,
                 value: LearnedValue | None = None, budget: int = LEAF_BUDGET):
        self._seed = seed
        self._fallback: GreedyAgent | None = None
        self.seed = rng.seed_state(seed)
        self.samples = max(1, samples)
        self.profile = profile
        self.explore = explore
        self.value = value
        self.budget = budget

    def learned(self, engine: Engine) -> LearnedValue:
        """The value this bot judges by (the game's trained file unless one was given); raises
        ValueFileError when the game has none for its rules."""
        return self.value if self.value is not None and self.value.engine is engine else learned_value(engine)

    def judges(self, engine: Engine) -> bool:
        """True when this bot has a learned value for the engine's game."""
        try:
            self.learned(engine)
        except ValueFileError:
            return False
        return True

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        """The option whose consequences the learned value likes best."""
        n = engine.option_count(state, seat)
        if n == 1:
            return 0
        if not self.judges(engine):
            # No trained value for these rules: the game's own evaluation (the commands that seat
            # this bot say so, and how to train it).
            if self._fallback is None:
                self._fallback = GreedyAgent(self._seed, profile=self.profile)
            return self._fallback.pick(engine, state, seat)
        stream = decision_stream(self.seed, state)
        if self.explore > 0.0:
            _, bits = rng.next_u64(mix(stream, 7))
            if (bits & 0xFFFFFFFF) < self.explore * 0x100000000:
                return (bits >> 32) % n
        values = self.option_values(engine, state, seat)
        best = max(values)
        tied = [k for k, v in enumerate(values) if v >= best - 1e-12]
        _, bits = rng.next_u64(mix(stream, 1))
        return tied[bits % len(tied)]

    def option_values(self, engine: Engine, state: dict[str, Any], seat: int) -> list[float]:
        """Each option's value for the seat (its average over samples)."""
        value = self.learned(engine)
        n = engine.option_count(state, seat)
        info = InfoSet(engine, state, seat)
        stream = decision_stream(self.seed, state)
        totals = [0.0] * n
        counted = [0] * n
        failure: RuleError | None = None
        depth = len(state["stack"])
        d = judged = 0
        # More samples than asked for only when some failed (see below), and never without end; a
        # further sample only while the decision's budget of positions is not spent.
        while d < self.samples + (RETRIES if failure is not None else 0):
            base = info.sample(mix(stream, 2 * d + 2))
            base["stack"][depth - 1].append(_ASKING)
            others = mix(stream, 2 * d + 3)
            judge = _Judge(engine, value, seat, self.profile, depth, own=mix(others, 1), others=others)
            logged = len(base["log"])
            for k in range(n):
                # The sample itself serves the last option: nothing reads it after.
                child = copy_state(base) if k < n - 1 else base
                try:
                    engine.apply_index(child, seat, k)
                    judge.add(k, child, self.budget // n, logged)
                except RuleError as err:
                    # A sample the rules cannot continue (hidden values drawn inconsistently with what
                    # the rules remember): it says nothing about this option.
                    failure = err
                    judge.chancy = True
            for k, v in judge.results().items():
                totals[k] += v
                counted[k] += 1
            d += 1
            judged += max(n, len(judge.rows))
            if (not judge.chancy and all(counted)) or (judged + judged // d > self.budget and all(counted)):
                break
        if failure is not None and not any(counted):
            raise failure
        return [totals[k] / counted[k] if counted[k] else -1.0 for k in range(n)]


class _Judge:
    """Plays each option's consequences on and values the positions they lead to, in one batch.

    An option is followed until the phase that asked has finished (what the seat chose then shows
    in the state), the game ends, or HORIZON decisions: the other seats answer at random, and the
    seat's own further answers are each tried (the best counts) while the budget allows, else
    answered at random (with `finish_phase`, in several completions, the best counting).
    """

    def __init__(self, engine: Engine, value: LearnedValue, seat: int, profile: str | None, depth: int,
                 own: int, others: int):
        self.engine = engine
        self.value = value
        self.seat = seat
        self.profile = profile
        self.depth = depth
        self.own_start = own               # where its own random answers start, for every option
        self.own = own                     # its own random answers' generator
        self.others = others               # the other seats' random answers' generator
        self.chancy = False                # the outcome depended on the sample (chance, others' answers)
        self.rows: list[list[float]] = []
        self.found: dict[int, Any] = {}    # option -> a leaf (a float value or a row index) or a list
        # The game's phases pay for what was done when they end (bots: finish_phase): follow on.
        self.finish_phase = engine.game.bots.finish_phase

    def add(self, k: int, state: dict[str, Any], budget: int, logged: int) -> None:
        """Option k was answered in `state` (whose log held `logged` entries before): follow it and
        remember what it leads to."""
        # Its own random answers are the same in every option's lines (common random numbers: the
        # options differ by what they do, not by the luck of their completions); the others' are
        # drawn afresh, so that no option is chosen against one imagined reply (paired too, the bot
        # won fewer games against scripted players: docs/bots.md).
        self.own = self.own_start
        self.found[k] = self._follow(state, budget, logged)

    def _asking(self, state: dict[str, Any]) -> bool:
        """Whether the phase that asked the decision is still running: its own frame, marked when the
        decision was asked, not a later call of the same phase (the next seat's turn)."""
        stack = state["stack"]
        return len(stack) >= self.depth and stack[self.depth - 1][-1] == _ASKING

    def _follow(self, state: dict[str, Any], budget: int, logged: int, rollout: bool = False) -> Any:
        engine, seat = self.engine, self.seat
        before = state["rng"]
        for _ in range(HORIZON):
            if state["result"] is not None or not self._asking(state):
                break
            s = engine.first_open_seat(state)
            n = engine.option_count(state, s)
            if s == seat and n > budget >= 2 and not rollout and self.finish_phase:
                # Past the budget in a game that pays at the phase's end: as many completions at
                # random as the budget allows, the best counting (its own answers are its to choose:
                # one random string of them, averaged, judged a many-step option by its blunders).
                completions = []
                for j in range(budget):
                    child = copy_state(state) if j < budget - 1 else state
                    completions.append(self._follow(child, 1, logged, rollout=True))
                return completions
            if s == seat and n > budget and len(state["log"]) > logged and not self.finish_phase:
                # Past the budget, its own next answer, once the option has shown (the rules logged
                # what followed it): the position is judged where it stands, as the next answer will
                # be when it is asked; answering at random would blur it. Before anything has shown
                # (a secret pick awaiting its details) it is answered at random below, like the others'.
                break
            if s == seat and 1 < n <= budget and not rollout:
                branches = []
                logged = len(state["log"])
                for j in range(n):
                    child = copy_state(state) if j < n - 1 else state   # (the last answer takes this copy)
                    engine.apply_index(child, seat, j)
                    branches.append(self._follow(child, budget // n, logged))
                return branches
            k = 0
            if n > 1:
                if s == seat:
                    self.own, k = rng.below(self.own, n)
                else:
                    self.others, k = rng.below(self.others, n)
                self.chancy = True        # a random answer: the outcome depends on the sample
            engine.apply_index(state, s, k)
        state["log"].clear()
        if state["rng"] != before:
            self.chancy = True
        return self._leaf(state)

    def _leaf(self, state: dict[str, Any]) -> float | int:
        """A finished game's value (a float), or the index of the position's row of features (an int)."""
        if state["result"] is not None:
            n = state["seats"]
            return float(result_target(state["result"], final_scores(self.engine.game, state), self.seat, n))
        self.rows.append(self.value.features(state, self.seat, self.profile))
        return len(self.rows) - 1

    def results(self) -> dict[int, float]:
        """Each option's value: its leaf's, or the best of its own further answers' (recursively)."""
        values = self.value.values(self.rows, self.profile)

        def of(x: Any) -> float:
            if isinstance(x, list):
                return max(of(y) for y in x)
            return values[x] if isinstance(x, int) else float(x)

        return {k: of(found) for k, found in self.found.items()}
