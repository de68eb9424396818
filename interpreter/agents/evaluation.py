"""How good a seat's position is, by the game's own formulas (`bots: evaluation` in game.yaml).

An evaluation is a weighted sum of formulas of one seat. A profile is another such sum, chosen by
name (`mcts:builder`). A game that declares none is judged by its final score field; a game
without one gives every position the same value, so only finished playouts tell moves apart.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable

from ..core.engine import Engine
from ..core.errors import RuleError


class UnknownProfile(ValueError):
    """A bot profile the game does not declare."""


class _EverySeat:
    """A formula of no argument giving every seat's value, as a function of (runtime, seat): worked
    out once for the state bound, then read seat by seat (a position is judged for every seat)."""

    def __init__(self, name: str, formula: Callable[[Any], Any]):
        self.name = name
        self.formula = formula
        self.read: tuple[Any, int] | None = None    # (the runtime, its count of binds) the values are of
        self.values: Any = None

    def __call__(self, runtime: Any, seat: int) -> Any:
        read = self.read
        if read is None or read[0] is not runtime or read[1] != runtime.bound:
            values = self.formula(runtime)
            if len(values) != runtime.nseats:
                raise RuleError(f"bots: '{self.name}' gives {len(values)} values for {runtime.nseats} seats "
                                "(one per seat, in seat order)", None)
            self.values, self.read = values, (runtime, runtime.bound)
        return self.values[seat]


def seat_formula(engine: Engine, name: str) -> Callable[[Any, int], Any]:
    """A formula the bots judge by (game.yaml `bots`), as a function of (runtime, seat): a formula of
    one seat as it is, a formula of no argument giving a list (one value per seat) read once for
    each state bound. The caller binds the state to judge before the first seat's call."""
    formula = engine.program.formulas[name][0]
    params = engine.program.formula_types[name][0]
    return _EverySeat(name, formula) if not params else formula


class Evaluation:
    """`value(state, seat)`: the game's evaluation of one seat; `values(state)`: of every seat."""

    def __init__(self, engine: Engine, profile: str | None = None):
        self.engine = engine
        settings = engine.game.bots
        if profile is not None:
            if profile not in settings.profiles:
                known = ", ".join(settings.profiles) or "none"
                raise UnknownProfile(f"{engine.game.title} has no bot profile '{profile}' (profiles: {known})")
            terms = settings.profiles[profile]
        else:
            terms = settings.evaluation
        self.terms: list[tuple[Callable[..., Any], float]] = [(seat_formula(engine, name), w) for name, w in terms]
        self.score = engine.game.score_field if not terms else None
        self.informative = bool(self.terms) or self.score is not None

    def value(self, state: dict[str, Any], seat: int) -> float:
        """The seat's evaluation in this (full) state."""
        return self._of(state, [seat])[0]

    def values(self, state: dict[str, Any]) -> list[float]:
        """Every seat's evaluation (the state bound once for all of them)."""
        return self._of(state, range(state["seats"]))

    def _of(self, state: dict[str, Any], seats: Iterable[int]) -> list[float]:
        if self.score is not None:
            return [float(state["seat"][self.score][s]) for s in seats]
        if not self.terms:
            return [0.0 for _ in seats]
        runtime = self.engine.runtime
        runtime.bind(state)
        try:
            return [float(sum(w * f(runtime, s) for f, w in self.terms)) for s in seats]
        except RuleError:
            raise
        except Exception as err:
            raise self.engine._locate(err) from err


class Judging:
    """For bots that judge positions: the evaluation (their profile's) of each engine, built once."""

    profile: str | None = None

    def evaluation(self, engine: Engine) -> Evaluation:
        """The evaluation this bot uses with this engine."""
        cache: dict[int, Evaluation] = self.__dict__.setdefault("_evaluations", {})
        key = id(engine)
        if key not in cache:
            cache[key] = Evaluation(engine, self.profile)
        return cache[key]


def win_chances(values: list[float], scale: float) -> list[float]:
    """A rough chance of winning for each seat from evaluations: each seat's lead over the best other
    seat, through a logistic curve whose width is `scale` (evaluation units)."""
    n = len(values)
    if n == 1:
        return [1.0]
    chances = []
    for i, v in enumerate(values):
        best_other = max(values[j] for j in range(n) if j != i)
        x = (v - best_other) / scale
        chances.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x)))))
    return chances


def result_rewards(result: dict[str, Any], seats: int) -> list[float]:
    """1 for a sole winner, shared equally on a shared win, 0 for the others."""
    winners = result["winners"]
    share = 1.0 / len(winners) if winners else 0.0
    return [share if s in winners else 0.0 for s in range(seats)]
