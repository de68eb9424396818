"""Charge lines of the work budget have their like terms added up when compiling (budget.fold_charge):
the same amount, charged at the same place, with fewer additions at run time."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ruledsl.budget.charge import fold_charge


@pytest.mark.parametrize(("line", "folded"), [
    ("    try: c.steps -= 0 + c.nseats + c.nseats + (c.nseats) * 101 + 3 * (c.nseats)",
     "    try: c.steps -= 106 * c.nseats"),
    ("c.steps -= 75 + 1913 + c.nseats * (25) + c.nseats", "c.steps -= 1988 + 26 * c.nseats"),
    ("  try: c.steps -= 1 + (c.nseats) * 51 + len(_l13)", "  try: c.steps -= 1 + 51 * c.nseats + len(_l13)"),
    ("try: c.steps -= len(L['a + b']) + 2 + len(L['a + b'])", "try: c.steps -= 2 + 2 * (len(L['a + b']))"),
    ("c.steps -= 0", "c.steps -= 0"),
    # Anything but a plain sum at the top level is left as it is.
    ("c.steps -= 3 + x - 1", "c.steps -= 3 + x - 1"),
    ("c.steps -= 3 + (a if b else 2) + 4", "c.steps -= 7 + (a if b else 2)"),
    ("c.steps -= a if b else 2 + 4", "c.steps -= a if b else 2 + 4"),
    ("x = 1 + 2", "x = 1 + 2"),
])
def test_like_terms_are_added_up(line: str, folded: str) -> None:
    assert fold_charge(line) == folded


def test_the_folded_amount_is_the_same() -> None:
    names = {"c": SimpleNamespace(nseats=5), "_l13": [1, 2, 3], "L": {"a + b": [1]}, "x": 9, "a": 1, "b": False}
    for line in ("0 + c.nseats + c.nseats + (c.nseats) * 101 + 3 * (c.nseats)", "1 + (c.nseats) * 51 + len(_l13)",
                 "len(L['a + b']) + 2 + len(L['a + b'])", "3 + (a if b else 2) + 4", "c.nseats * (25) + c.nseats"):
        folded = fold_charge("c.steps -= " + line).removeprefix("c.steps -= ")
        assert eval(folded, names) == eval(line, names), line
