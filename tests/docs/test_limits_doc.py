"""The limits the docs quote are the values of the constants that enforce them.

Each limit is defined once, in code; every place a doc quotes it is listed here with the words
around the number, so that changing a constant (or a doc) without the other fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.core.runtime import LOG_LIMIT
from interpreter.load import yamlsource
from ruledsl.budget.cost import LOG_STEPS, SEARCH_STEPS
from ruledsl.runtime_support import LIST_LIMIT, MAX_DEPTH, RANGE_LIMIT, STEP_BUDGET, TEXT_LIMIT

ROOT = Path(__file__).resolve().parents[2]

# (constant's value, doc, the words around it with {} for the number as the docs write it: 2,000,000)
QUOTED: list[tuple[int, str, str]] = [
    (STEP_BUDGET, "language.md", "this loop ran more than {} steps without a decision"),
    (STEP_BUDGET, "language.md", "the rules did more than {} steps of work without a decision"),
    (STEP_BUDGET, "language.md", "| step budget | {} steps of work between two decisions"),
    (STEP_BUDGET, "language.md", "a rule that runs away uses {} in a"),
    (STEP_BUDGET, "architecture.md", "the rules may do {} steps of work between two"),
    (STEP_BUDGET, "security.md", "| loop steps between two decisions | {} |"),
    (LIST_LIMIT, "language.md", "a list of ... elements is over the limit of {} / a list may hold at most {} elements"),
    (LIST_LIMIT, "language.md", "| lists | at most {} elements"),
    (LIST_LIMIT, "language.md", "on lists of at most {} elements"),
    (LIST_LIMIT, "architecture.md", "Lists and texts are limited to {}"),
    (TEXT_LIMIT, "language.md", "a text of ... characters is over the limit of {} |"),
    (TEXT_LIMIT, "language.md", "| texts | at most {} characters"),
    (TEXT_LIMIT, "architecture.md", "Lists and texts are limited to {}"),
    (RANGE_LIMIT, "language.md", "`range(...)` of more than {} numbers"),
    (RANGE_LIMIT, "language.md", "| `range` | at most {} numbers"),
    (RANGE_LIMIT, "architecture.md", "`range` to {} numbers"),
    (LOG_LIMIT, "language.md", "the rules wrote more than {} characters of log"),
    (LOG_LIMIT, "language.md", "| event log | {} characters between two decisions"),
    (MAX_DEPTH, "language.md", "| phases running each other | {} deep"),
    (MAX_DEPTH, "security.md", "| phases running each other | {} deep |"),
    (MAX_DEPTH, "architecture.md", "stop at `MAX_DEPTH` = {} deep"),
    (SEARCH_STEPS, "language.md", "- {} for a built-in that searches a list"),
    (SEARCH_STEPS, "architecture.md", "a\n  fixed {} for searching a list"),
    (LOG_STEPS, "language.md", "- {} for each `log` line"),
    (LOG_STEPS, "architecture.md", "{} per log line"),
    (yamlsource.MAX_NODES, "language.md", "at most {} values once aliases and merges"),
    (yamlsource.MAX_NODES, "security.md", "| YAML values, aliases and merges expanded | {} |"),
    (yamlsource.MAX_NODES, "architecture.md", "1 MiB per file, {} values"),
    (yamlsource.MAX_DEPTH, "language.md", "nested at most {} deep; an alias"),
    (yamlsource.MAX_DEPTH, "security.md", "| YAML nesting | {} levels |"),
    (yamlsource.MAX_DEPTH, "architecture.md", "depth {} (bounded"),
]


@pytest.mark.parametrize(("value", "doc", "words"), QUOTED, ids=[f"{d}: {w[:40]}" for _, d, w in QUOTED])
def test_each_doc_quotes_the_limit_the_code_enforces(value: int, doc: str, words: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    quoted = words.format(*[f"{value:,}"] * words.count("{}"))
    assert quoted in text, f"docs/{doc} should say {quoted!r} (the value of the constant)"
