"""Fixed chance for a scenario: the dice it rolls and the order its shuffles leave, where it matters.

The engine still draws from the game's seeded generator (see `core.engine.ChanceHook`); this hook
replaces the outcome only of the rolls and shuffles a scenario fixes, so every other draw of the
game stays what the seed makes it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from ruledsl.diagnostics import Diagnostic

from .names import Names, Target, shown
from .where import Problem, Y


def face_text(face: Any) -> str:
    """A face as a scenario writes it: `2`, `red`, `yes`, a list as `1+2+3`, a tuple as `a:b`."""
    if face is None:
        return "none"
    if isinstance(face, bool):
        return "yes" if face else "no"
    if isinstance(face, list):
        return "+".join(face_text(f) for f in face)
    if isinstance(face, tuple):
        return ":".join(face_text(f) for f in face)
    return str(face)


@dataclass
class _Order:
    """A shuffle to fix: of which field, the elements to put first, where the scenario says so."""

    targets: list[Target]
    values: list[Any]
    y: Y


class ForcedChance:
    """The rolls and shuffles a scenario fixes, used up in order as the rules roll and shuffle."""

    def __init__(self, names: Names):
        self.names = names
        self.rolls: deque[Y] = deque()
        self.orders: list[_Order] = []
        self.problems: list[Diagnostic] = []

    def add_rolls(self, faces: tuple[Y, ...]) -> None:
        """The next rolls give these faces (after any fixed before)."""
        self.rolls.extend(faces)

    def add_shuffle(self, path: Y, order: Y) -> None:
        """The next shuffle of the field at `path` puts these elements first (Problem if the names are wrong)."""
        targets = self.names.targets(path)
        for t in targets:
            if t.type.kind != "list":
                raise Problem(path.span, "type", f"'{path.value}' is {t.type}, not a list: it is never shuffled")
        values = [self.names.value(e, targets[0].type.args[0]) for e in order.elements()]
        self.orders.append(_Order(targets, values, order))

    def unused(self) -> list[Diagnostic]:
        """Fixed rolls and shuffles that never happened: the game did not go as the scenario says."""
        found = [Diagnostic(y.span, "chance-unused", f"the game rolled no die for this fixed roll ({face_text(y.value)})",
                            "error", "the rolls happen in order, one fixed face for each roll of the rules")
                 for y in self.rolls]
        found += [Diagnostic(o.y.span, "chance-unused", f"'{o.targets[0].text}' was never shuffled after this",
                             "error", None) for o in self.orders]
        return found

    # ---------------------------------------------------------------- the engine's hook
    def roll(self, faces: list[Any], k: int) -> int:
        """The fixed face of this roll, if the scenario fixes one."""
        if not self.rolls:
            return k
        y = self.rolls.popleft()
        wanted = face_text(y.value)
        texts = [face_text(f) for f in faces]
        if wanted in texts:
            return texts.index(wanted)
        self.problems.append(Diagnostic(y.span, "not-offered", f"the rules roll from {', '.join(texts)}: "
                                        f"{wanted} is not one of them", "error", None))
        return k

    def shuffled(self, state: dict[str, Any], items: list[Any]) -> None:
        """Put the fixed elements first if this list is a field whose next shuffle the scenario fixes."""
        for n, order in enumerate(self.orders):
            if not any(_is(t, state, items) for t in order.targets):
                continue
            del self.orders[n]
            missing = [v for v in order.values if order.values.count(v) > items.count(v)]
            if missing:
                t = order.targets[0].type.args[0]
                self.problems.append(Diagnostic(
                    order.y.span, "expect-failed", f"'{order.targets[0].text}' does not hold "
                    f"{', '.join(self.names.show(v, t) for v in missing)} when it is shuffled", "error",
                    f"it holds {shown(self.names.show(items, order.targets[0].type))}"))
                return
            rest = list(items)
            for v in order.values:
                rest.remove(v)
            items[:] = order.values + rest
            return


def _is(target: Target, state: dict[str, Any], items: list[Any]) -> bool:
    try:
        return target.get(state) is items
    except (KeyError, IndexError, TypeError):
        return False
