"""bot: the default bot. It judges each option by the learned value of the position it leads to.

For each of its options the bot answers on a state sampled from what its seat may see
(determinize.py), lets the other seats finish a choice they make at the same time (at random: their
answers are unknown to it), follows its own further answers of the same step one level (taking the
best), and reads the learned value (value.py) of where that leaves it, from its own view only. A
game that ends there counts by its result. Where the answer involves chance (a roll, a draw, the
others' answers), a few samples are averaged; where it does not, one is enough.

Ties go to the bot's seeded generator; with `explore` > 0 (self-play while training) it sometimes
answers at random instead, from the same generator, so its games stay reproducible.
"""

from __future__ import annotations

from typing import Any

from ..core import rng
from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.state import copy_state
from .determinize import InfoSet
from .seeding import decision_stream, mix
from .greedy import GreedyAgent
from .value import LearnedValue, ValueFileError, final_scores, learned_value, result_target

# Own further answers followed, at most, over all options of one decision (past it, the position
# after the first answer is judged as it is).
FOLLOW_UP_BUDGET = 40
# Samples added, at most, when some failed (rules that cannot continue from a sampled hidden state).
RETRIES = 4
# Decisions the other seats make at random to finish a choice they answer at the same time.
SETTLE_CAP = 64


class ValueAgent:
    """One step of lookahead judged by the game's learned value."""

    name = "bot"

    def __init__(self, seed: int, samples: int = 3, profile: str | None = None, explore: float = 0.0,
                 value: LearnedValue | None = None):
        self._seed = seed
        self._fallback: GreedyAgent | None = None
        self.seed = rng.seed_state(seed)
        self.samples = max(1, samples)
        self.profile = profile
        self.explore = explore
        self.value = value

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
            # No trained value for these rules: the game's own evaluation, one step ahead (the
            # commands that seat this bot say so, and how to train it).
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
        follow_ups = FOLLOW_UP_BUDGET // n
        d = 0
        # More samples than asked for only when some failed (see below), and never without end.
        while d < self.samples + (RETRIES if failure is not None else 0):
            base = info.sample(mix(stream, 2 * d + 2))
            judge = _Judge(engine, value, seat, self.profile)
            chancy = False
            for k in range(n):
                child = copy_state(base)
                try:
                    engine.apply_index(child, seat, k)
                    chancy |= _settle(engine, child, seat, mix(stream, 2 * d + 3))
                    chancy |= child["rng"] != base["rng"]
                    judge.add(k, child, follow_ups)
                except RuleError as err:
                    # A sample the rules cannot continue (hidden values drawn inconsistently with what
                    # the rules remember): it says nothing about this option.
                    failure = err
                    chancy = True
            for k, v in judge.results().items():
                totals[k] += v
                counted[k] += 1
            d += 1
            if not chancy and all(counted):
                break
        if failure is not None and not any(counted):
            raise failure
        return [totals[k] / counted[k] if counted[k] else -1.0 for k in range(n)]


def usable(engine: Engine) -> ValueFileError | None:
    """Why the engine's game has no usable learned value (missing, or trained on other rules), or None."""
    try:
        learned_value(engine)
    except ValueFileError as err:
        return err
    return None


class _Judge:
    """Collects the positions an option leads to and values them in one batch."""

    def __init__(self, engine: Engine, value: LearnedValue, seat: int, profile: str | None):
        self.engine = engine
        self.value = value
        self.seat = seat
        self.profile = profile
        self.rows: list[list[float]] = []
        # option -> (fixed value, or the rows whose best value it takes)
        self.found: dict[int, float | list[int]] = {}

    def _row(self, state: dict[str, Any]) -> float | int:
        """A finished game's value, or the index of the position's row of features."""
        if state["result"] is not None:
            n = state["seats"]
            return float(result_target(state["result"], final_scores(self.engine.game, state), self.seat, n))
        self.rows.append(self.value.features(state, self.seat, self.profile))
        return len(self.rows) - 1

    def add(self, k: int, state: dict[str, Any], follow_ups: int) -> None:
        """Option k led to `state`: judge it, or the best of the seat's own next answers when it
        answers again at once (the rest of its step), if there are at most `follow_ups` of them."""
        engine = self.engine
        p = state["pending"]
        again = (state["result"] is None and p is not None and engine.open_seats(state) == [self.seat]
                 and 1 < engine.option_count(state, self.seat) <= follow_ups)
        if not again:
            self.found[k] = self._row(state)
            return
        rows: list[float | int] = []
        for j in range(engine.option_count(state, self.seat)):
            child = copy_state(state)
            try:
                engine.apply_index(child, self.seat, j)
            except RuleError:
                continue
            rows.append(self._row(child))
        self.found[k] = self._row(state) if not rows else rows  # type: ignore[assignment]

    def results(self) -> dict[int, float]:
        """Each option's value: its position's, or the best of its follow-ups'."""
        values = self.value.values(self.rows, self.profile)

        def of(x: float | int) -> float:
            return values[x] if isinstance(x, int) else x

        out = {}
        for k, found in self.found.items():
            out[k] = max(of(x) for x in found) if isinstance(found, list) else of(found)
        return out


def _settle(engine: Engine, state: dict[str, Any], seat: int, g: int) -> bool:
    """Let the other seats answer, at random, a choice the seat has just answered with them; True if
    anybody did (the outcome then depends on the sample)."""
    answered = False
    for _ in range(SETTLE_CAP):
        p = state["pending"]
        if state["result"] is not None or p is None or seat in engine.open_seats(state) or len(p["seats"]) < 2:
            break
        if seat not in p["seats"]:
            break
        s = engine.first_open_seat(state)
        g, k = rng.below(g, engine.option_count(state, s))
        engine.apply_index(state, s, k)
        answered = True
    state["log"].clear()
    return answered
