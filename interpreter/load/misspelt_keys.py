"""Keys of items and board nodes that look like a misspelling of a key the file means.

An item's or a node's keys are free (every key is an attribute), so the schema cannot refuse an
unknown one. A misspelt key is still a mistake that changes the game silently: `on_activat:` makes
a card's ability code a text nobody runs, and `prise:` on one card leaves its price none. Two
kinds of key are reported:

- a key holding a text, close to one of the kind's declared abilities (`on_activat` for
  `on_activate`);
- a key written on fewer than a quarter of the entries, close to a key that every other entry has
  (`prise` on one card where the others have `price`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ruledsl.diagnostics import DiagnosticBag, did_you_mean

from .yamlsource import PositionMap

_IGNORED = ("id", "copies")


def check_misspelt_keys(entries: Sequence[Any], what: str, abilities: Sequence[str], list_key: str,
                        pos: PositionMap, diags: DiagnosticBag) -> None:
    """Report the keys of `entries` (the dicts under `list_key` of a YAML file) that look misspelt.

    `what` names an entry in messages ("card", "node").
    """
    rows = [e for e in entries if isinstance(e, dict)]
    counts = Counter(k for row in rows for k in row if k not in _IGNORED and isinstance(k, str))
    for i, row in enumerate(entries):
        if not isinstance(row, dict):
            continue
        for key in row:
            if key in _IGNORED or key in abilities or not isinstance(key, str):
                continue
            # Ability code is a text: a number or a flag named like an ability is an attribute.
            hint = did_you_mean(key, abilities) if isinstance(row[key], str) else None
            if hint is not None:
                message = f"{what} key '{key}' is not an ability of this kind, so its code never runs"
            else:
                hint = _rare_twin(key, counts, len(rows))
                if hint is None:
                    continue
                message = f"{what} key '{key}' is on {_entries(counts[key])}, where the others have another key"
            where = pos.key_span((list_key, i, key)) or pos.nearest((list_key, i, key))
            diags.error(where, "schema", message, hint)


def _rare_twin(key: str, counts: Counter[str], total: int) -> str | None:
    """The hint for a rarely used key close to a key that every other entry has, or None."""
    if counts[key] * 4 > total:
        return None
    # A slip of the keyboard is an edit or two: farther keys are other attributes that only some
    # entries have (an ability key on a few entries beside a flag named much like it on the rest).
    common = [k for k, n in counts.items() if k != key and n + counts[key] >= total and _edits(key, k) <= 2]
    return did_you_mean(key, common)


def _edits(a: str, b: str) -> int:
    """The Levenshtein distance between two keys."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _entries(n: int) -> str:
    return "one entry" if n == 1 else f"{n} entries"
