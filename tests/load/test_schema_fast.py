"""The compiled yes/no schema check agrees with the explaining validator.

`check_schema` trusts the fast check's "valid" answer and skips the slow validator, so a file
the fast check wrongly accepts would lose its diagnostics. Each shipped file, and many broken
copies of it, must get the same verdict from both.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.load.schema_check import SchemaName, _fast_validator, _validator
from interpreter.load.yamlsource import load_yaml

GAMES = Path(__file__).resolve().parents[2] / "games"
FILES: list[tuple[str, SchemaName]] = [
    ("downtown/game.yaml", "game"), ("downtown/board.yaml", "board"),
    ("city/game.yaml", "game"), ("city/board.yaml", "board"),
    ("london/game.yaml", "game"), ("london/cards.yaml", "components"), ("london/districts.yaml", "components"),
]
REPLACEMENTS: list[Any] = [None, 3, -1, 1.5, "Text With Capitals", "name", True, [], [1], {}, {"x": 1}]


def broken_copies(data: Any, depth: int = 0) -> Iterator[Any]:
    """Copies of `data` with one value replaced or one key removed, at the first three levels."""
    if depth > 2:
        return
    if isinstance(data, dict):
        for key in list(data)[:12]:
            without = dict(data)
            del without[key]
            yield without
            for value in REPLACEMENTS:
                changed = dict(data)
                changed[key] = value
                yield changed
            for inner in broken_copies(data[key], depth + 1):
                changed = dict(data)
                changed[key] = inner
                yield changed
        yield {**data, "unknown_key": 1}
    elif isinstance(data, list) and data:
        for value in REPLACEMENTS:
            yield [value] + data[1:]
        for inner in broken_copies(data[0], depth + 1):
            yield [inner] + data[1:]


def fast_accepts(schema: SchemaName, data: Any) -> bool:
    fast = _fast_validator(schema)
    assert fast is not None, "the schema no longer compiles for the fast check"
    try:
        fast(data)
        return True
    except Exception:
        return False


@pytest.mark.parametrize("name,schema", FILES)
def test_fast_and_full_checks_agree(name: str, schema: SchemaName) -> None:
    data, _, diags = load_yaml(GAMES / name, name)
    assert diags == []
    full = _validator(schema)
    assert fast_accepts(schema, data) and full.is_valid(data)
    disagreements = []
    checked = rejected = 0
    for variant in broken_copies(copy.deepcopy(data)):
        checked += 1
        valid = full.is_valid(variant)
        rejected += not valid
        if fast_accepts(schema, variant) != valid:
            disagreements.append(variant)
    assert checked > 50 and rejected > 20
    assert disagreements == [], f"{len(disagreements)} of {checked} copies differ, e.g. {str(disagreements[0])[:300]}"
