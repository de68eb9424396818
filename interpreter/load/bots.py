"""The `bots:` part of game.yaml: the formulas that tell the bots how good a seat's position is.

```yaml
bots:
  evaluation: position                       # a formula of one seat giving a number (or of none
                                             # giving a list, one number per seat)
  profiles:
    builder: {position: 1, buildings: 2}     # or formulas with weights, summed
  playout: 40                                # decisions a search playout makes before it evaluates
  finish_phase: yes                          # `bot` judges an option once the phase that asked is over
  training: {games: 60, rounds: 3, budget: 16, network: yes}   # `cityrules train`'s defaults for this game
```

The shapes are checked by the schema; this module checks that every name is a formula of one seat
giving a number (or of no argument giving every seat's, a list of numbers), and that `network: no` has an evaluation to stand for, and places each mistake on
its name in game.yaml.
"""

from __future__ import annotations

from typing import Any

from ruledsl.diagnostics import did_you_mean
from ruledsl.program import Program
from ruledsl.types import Type

from ..core.game import BotSettings
from .base import LoaderBase
from .yamlsource import PositionMap

Terms = tuple[tuple[str, float], ...]


def _terms(value: Any) -> Terms:
    """A formula's name, or a map of formulas to weights, as (formula, weight) pairs."""
    if isinstance(value, str):
        return ((value, 1.0),)
    if isinstance(value, dict):
        return tuple((str(k), float(w)) for k, w in value.items())
    return ()


def bot_formulas(data: dict[str, Any]) -> tuple[str, ...]:
    """Every formula the bots' declarations name (so the compiler does not report them unused)."""
    bots = data.get("bots") or {}
    names = [name for name, _ in _terms(bots.get("evaluation"))]
    for profile in (bots.get("profiles") or {}).values():
        names.extend(name for name, _ in _terms(profile))
    return tuple(names)


def _judges(params: list[Type], result: Type) -> bool:
    """Whether a formula can judge a position: of one seat giving a number, or of no argument giving
    a list of numbers (every seat's at once, for an evaluation that shares work between seats)."""
    numbers = ("int", "bool", "any")
    if not params:
        return result.kind == "any" or (result.kind == "list" and result.elem.kind in numbers)
    return [t.kind for t in params] == ["seat"] and result.kind in numbers


class BotsMixin(LoaderBase):
    """Checks and gathers the bots' evaluation and profiles."""

    def bot_settings(self, data: dict[str, Any], pos: PositionMap, program: Program) -> BotSettings:
        """The bots' settings, with a positioned diagnostic for each name that is not a fitting formula."""
        bots = data.get("bots") or {}
        evaluation = self._checked_terms(bots.get("evaluation"), ("bots", "evaluation"), pos, program)
        profiles = {name: self._checked_terms(value, ("bots", "profiles", name), pos, program)
                    for name, value in (bots.get("profiles") or {}).items()}
        training = bots.get("training") or {}
        if training.get("network") is False and not evaluation:
            # Said here rather than after `cityrules train` has started: the learned value would be
            # the declared evaluation alone, and there is none.
            where = pos.key_span(("bots", "training", "network")) or pos.nearest(("bots", "training", "network"))
            self.diags.error(where, "schema", "bots: `network: no` makes the trained value the declared evaluation "
                             "alone, and `bots:` declares no `evaluation`",
                             "add `evaluation: FORMULA` (a formula of one seat giving a number) under `bots:`, "
                             "or leave `network: no` out")
        return BotSettings(evaluation, profiles, bots.get("playout"), dict(training),
                           bool(bots.get("finish_phase", False)))

    def _checked_terms(self, value: Any, path: tuple[str, ...], pos: PositionMap, program: Program) -> Terms:
        terms = _terms(value)
        for name, _ in terms:
            where = pos.nearest(path) if isinstance(value, str) else (pos.key_span(path + (name,))
                                                                      or pos.nearest(path + (name,)))
            found = program.formula_types.get(name)   # types only: checking never generates code
            if found is None:
                self.diags.error(where, "unknown-name", f"bots: '{name}' is not a formula",
                                 did_you_mean(name, list(program.formula_types)))
            elif not _judges(found[0], found[1]):
                params = ", ".join(str(t) for t in found[0])
                self.diags.error(where, "type", f"bots: '{name}' must be a formula of one seat giving a number "
                                 f"(or of no argument giving a list of numbers, one per seat), not of ({params}) "
                                 f"giving {found[1]}",
                                 f"like: formula {name}(s: seat) = s.money")
        return terms
