"""The events a game's rules can log: each kind with the data fields its `log` statements record.

Tools outside the rules (scenario tests, journals read as JSON) name events by kind and field;
this list lets them check those names when the game loads, with a "did you mean".
"""

from __future__ import annotations

from collections.abc import Iterable

from ..syntax import ast as A


def logged_events(phases: Iterable[A.Phase]) -> dict[str, tuple[str, ...]]:
    """Every event kind logged by these phases (abilities included), with its fields, sorted by kind."""
    found: dict[str, set[str]] = {}
    pending = [list(p.body) for p in phases]
    while pending:
        for statement in pending.pop():
            if isinstance(statement, A.Log):
                found.setdefault(statement.kind, set()).update(name for name, _ in statement.fields)
            pending.extend(list(block) for block in A.child_blocks(statement))
    return {kind: tuple(sorted(fields)) for kind, fields in sorted(found.items())}
