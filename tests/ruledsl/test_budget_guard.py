"""The work budget's guarded charges: a charge that cannot be read leaves the error to the statement."""

from pathlib import Path

import lang_helpers as H

RULES = """
formula size(k: str) = sum([x for x in sizes[k]]) if k != "none" else 0

phase main():
    total = size(key)
    end winners seats
"""

def test_a_charge_that_cannot_be_read_is_left_to_the_statement(tmp_path: Path) -> None:
    e = H.engine(tmp_path, RULES, global_={"total": ("int", 0), "key": ("str", "none")},
                 tables={"sizes": {"a": [1, 2], "b": [3]}})
    state = e.new_game(1, 0)
    assert state["result"] == {"winners": [0]} and state["global"]["total"] == 0
