"""Questions asked ahead of their turn, so that a hot seat hands the keyboard over less.

When several people at one terminal answer a secret choice in turn, the next question put to the
person who has just answered often does not depend on what the others will answer (a count of
parcels that depends only on the lot the person picked; whether to double one's own vote). Asking it at once, in the same sitting,
saves handing the keyboard back later. The rules allow that only when the question, and everything
the person may see before it, is the same whatever the others answer. Nothing here can prove that
for every answer, so it is checked on a handful of made-up answers of the others (`FILLINGS`), in
copies of the table; the session then uses an answer given ahead only when the real question turns
out to be exactly the one answered, and asks again otherwise. The made-up answers never reach a
screen: only the person's own question does, and it is the same in every copy.
"""

from __future__ import annotations

import random
from typing import Any, Hashable

from ..core.decision import Decision
from ..core.engine import Engine
from ..core.state import copy_state
from ..core.view import view

FILLINGS = 6
"""Made-up answers of the others tried: each seat's first option, each seat's last, then at random."""
MAX_AHEAD = 3
"""Questions asked ahead in one sitting at most."""


def signature(decision: Decision, seat: int) -> Hashable:
    """What makes two questions the same to the person asked: its name, words and options."""
    return decision.name, decision.prompt(seat), tuple((o.id, o.label, o.detail) for o in decision.options(seat))


def seen(engine: Engine, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """What `seat` sees of the table, apart from the question it is being asked and the count of
    answers given (the others' made-up answers count too)."""
    v = view(engine, state, seat)
    v.pop("pending", None)
    v.pop("decisions", None)
    return v


def _fill(engine: Engine, state: dict[str, Any], decision: Decision, seat: int, k: int) -> None:
    """Made-up answers (the k-th way) of every seat but `seat` still to answer `decision`, in `state`."""
    pick = random.Random(k)
    for other in decision.seats:
        if other == seat:
            continue
        options = decision.options(other)
        index = 0 if k == 0 else len(options) - 1 if k == 1 else pick.randrange(len(options))
        engine.apply_inplace(state, options[index].id, other)


def filled(engine: Engine, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Copies of `state`, where `seat` has just answered its part of a secret choice others still
    make, each with the others' answers made up in a different way."""
    decision = engine.pending(state)
    if not isinstance(decision, Decision):
        return []
    copies = []
    for k in range(FILLINGS):
        copy = copy_state(state)
        _fill(engine, copy, decision, seat, k)
        copies.append(copy)
    return copies


def question(engine: Engine, copies: list[dict[str, Any]], seat: int, before: dict[str, Any]) -> Decision | None:
    """The next question put to `seat` in every copy, when it may be asked now: the next question of
    the game in all of them, the same in all, with nothing new for the seat to see before it
    (`before`: what it sees now). None otherwise."""
    if not copies:
        return None
    decisions = [engine.pending(copy) for copy in copies]
    first = decisions[0]
    if not isinstance(first, Decision):
        return None
    asked = signature(first, seat) if seat in first.seats else None
    for copy, decision in zip(copies, decisions):
        if not isinstance(decision, Decision) or seat not in decision.seats:
            return None
        if signature(decision, seat) != asked or seen(engine, copy, seat) != before:
            return None
    return first


def advance(engine: Engine, copies: list[dict[str, Any]], seat: int, option: str) -> None:
    """Apply `seat`'s answer given ahead in every copy; the others' answers to the same choice, if
    they still have to give them, are made up again."""
    for k, copy in enumerate(copies):
        decision = engine.pending(copy)
        collecting = copy["pending"]
        engine.apply_inplace(copy, option, seat)
        rest = engine.pending(copy)
        if isinstance(decision, Decision) and copy["pending"] is collecting and isinstance(rest, Decision):
            _fill(engine, copy, rest, seat, k)
