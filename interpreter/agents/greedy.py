"""greedy: the option whose consequences leave its own seat best placed, by the game's evaluation.

For each option the bot plays the consequences forward on sampled full states (determinizations,
see determinize.py) until the phase that asked the question has finished (or the game ends, or a
cap on decisions is reached), then reads its seat's evaluation:

- its own later decisions inside that stretch are played at random a few times and the best
  outcome counts (the bot assumes it will finish what it started well);
- other seats answer at random, but the same way for every option of one sample, so options are
  compared against the same behaviour of the others;
- a game that ends inside the stretch counts as a win or a loss, never by a score.

The values are averaged over the samples; ties go to the bot's seeded generator.
"""

from __future__ import annotations

from typing import Any

from ..core import rng
from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.state import copy_state
from .determinize import InfoSet
from .evaluation import Evaluation, Judging, result_rewards
from .seeding import decision_stream, mix

WIN = 1e9


class GreedyAgent(Judging):
    """One-decision lookahead over sampled states, steered by the game's evaluation."""

    name = "greedy"

    def __init__(self, seed: int, samples: int = 8, tries: int = 4, horizon: int = 60, profile: str | None = None):
        self.seed = rng.seed_state(seed)
        self.samples = samples
        self.tries = tries
        self.horizon = horizon
        self.profile = profile

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        """The option with the best average evaluation after its consequences."""
        values = self.option_values(engine, state, seat)
        stream = decision_stream(self.seed, state)
        best = max(values)
        tied = [k for k, v in enumerate(values) if v >= best - 1e-9 * max(1.0, abs(best))]
        _, bits = rng.next_u64(mix(stream, 1))
        return tied[bits % len(tied)]

    def option_values(self, engine: Engine, state: dict[str, Any], seat: int) -> list[float]:
        """Each option's average value (the seat's evaluation after it; ±1e9 for a win or loss)."""
        n = engine.option_count(state, seat)
        if n == 1:
            return [0.0]
        evaluate = self.evaluation(engine)
        info = InfoSet(engine, state, seat)
        stream = decision_stream(self.seed, state)
        totals = [0.0] * n
        counted = [0] * n
        depth = len(state["stack"])
        failure: RuleError | None = None
        for d in range(self.samples):
            base = info.sample(mix(stream, 2 * d + 2))
            others = mix(stream, 2 * d + 3)
            for k in range(n):
                best: float | None = None
                for t in range(self.tries):
                    sample = copy_state(base)
                    try:
                        own_choices = self._consequences(engine, sample, seat, k, depth, others,
                                                         mix(others, t + 1))
                    except RuleError as err:
                        # A sample the rules cannot continue (hidden values drawn inconsistently with
                        # something the rules remember): it says nothing about this option.
                        failure = err
                        break
                    value = _value(evaluate, sample, seat)
                    best = value if best is None or value > best else best
                    if not own_choices:
                        break
                if best is not None:
                    totals[k] += best
                    counted[k] += 1
        if failure is not None and not any(counted):
            # Every sample failed: a mistake in the rules or the evaluation, not bad luck. Say so.
            raise failure
        return [totals[k] / counted[k] if counted[k] else -WIN for k in range(n)]

    def _consequences(self, engine: Engine, state: dict[str, Any], seat: int, k: int, depth: int,
                      others: int, own: int) -> bool:
        """Answer option k, then play on until the asking phase is done; True if `seat` chose again."""
        asking = state["stack"][depth - 1]
        engine.apply_index(state, seat, k)
        own_choices = False
        for _ in range(self.horizon):
            stack = state["stack"]
            if state["result"] is not None or len(stack) < depth or stack[depth - 1] is not asking:
                break
            s = engine.first_open_seat(state)
            n = engine.option_count(state, s)
            if s == seat:
                own_choices = True
                _, bits = rng.next_u64(own ^ state["decisions"])
            else:
                _, bits = rng.next_u64(others ^ state["decisions"])
            engine.apply_index(state, s, bits % n)
            state["log"].clear()
        return own_choices


def _value(evaluate: Evaluation, state: dict[str, Any], seat: int) -> float:
    if state["result"] is not None:
        reward = result_rewards(state["result"], state["seats"])[seat]
        return WIN * reward if reward > 0 else -WIN
    return evaluate.value(state, seat)
