"""How good a seat's position is, by the game's own formulas (`bots: evaluation` in game.yaml).

An evaluation is a weighted sum of formulas of one seat. A profile is another such sum, chosen by
name (`mcts:builder`). A game that declares none is judged by its final score field; a game
without one gives every position the same value, so only finished playouts tell moves apart.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..core.engine import Engine
from ..core.errors import RuleError


class UnknownProfile(ValueError):
    """A bot profile the game does not declare."""


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
        formulas = engine.program.formulas
        self.terms: list[tuple[Callable[..., Any], float]] = [(formulas[name][0], w) for name, w in terms]
        self.score = engine.game.score_field if not terms else None
        self.informative = bool(self.terms) or self.score is not None

    def value(self, state: dict[str, Any], seat: int) -> float:
        """The seat's evaluation in this (full) state."""
        if self.score is not None:
            return float(state["seat"][self.score][seat])
        if not self.terms:
            return 0.0
        runtime = self.engine.runtime
        runtime.bind(state)
        try:
            return float(sum(w * f(runtime, seat) for f, w in self.terms))
        except RuleError:
            raise
        except Exception as err:
            raise self.engine._locate(err) from err

    def values(self, state: dict[str, Any]) -> list[float]:
        """Every seat's evaluation."""
        return [self.value(state, s) for s in range(state["seats"])]


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
