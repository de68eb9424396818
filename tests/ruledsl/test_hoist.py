"""Kept values (ruledsl/opt/hoist.py): a list searched again and again by `in` is kept as a set when a
set finds exactly what the list would (plain values on both sides), and the answers do not change."""

from __future__ import annotations

import re
from pathlib import Path

from lang_helpers import engine as tiny

RULES = """\
formula taken() = [n for n in [1, 2, 3, 4, 5, 6] if n not in [at[k] for k in keys(at)]]
formula none_inside() = [n for n in [1, 2] if none in [at[k] for k in keys(at)]]
formula flags() = [b for b in [true, false] if b in [at[k] == 2 for k in keys(at)]]
formula pairs() = [p for p in [[1, 2], [3, 4]] if p in [[1, at[k]] for k in keys(at)]]
formula names() = [k for k in ["a", "z", "b"] if k in keys(at)]
formula held() = [at[k] for k in keys(at)]
formula free() = [n for n in [1, 2, 3, 4, 5, 6] if n not in held()]

phase main:
    log found(taken=taken(), none_inside=none_inside(), flags=flags(), pairs=pairs(), names=names(),
              free=free()) "found"
    at["b"] = 4
    log found(taken=taken(), none_inside=none_inside(), flags=flags(), pairs=pairs(), names=names(),
              free=free()) "found"
    end winners seats
"""


def test_a_searched_list_of_plain_values_is_kept_as_a_set_and_finds_the_same(tmp_path: Path) -> None:
    e = tiny(tmp_path, RULES, global_={"at": ("map[str, int?]", {"a": 2, "b": None, "c": 5})}, seats=(1, 1))
    source = e.program.code.source
    kept_sets = re.findall(r":= (?:_hset\(|\{)", source)  # a set made from a list, or a set comprehension
    # Numbers, none and yes/no are plain values; a pair is a list (a set cannot hold it), and
    # `k in keys(at)` searches a list made once per element, never kept.
    assert sorted(kept_sets) == [":= _hset(", ":= {", ":= {", ":= {"], kept_sets
    state = e.play(1, 1, [lambda st, seat, options: 0])
    found = [event["data"] for event in state["log"] if event["kind"] == "found"]
    assert found[0] == {"taken": [1, 3, 4, 6], "none_inside": [1, 2], "flags": [True, False], "pairs": [[1, 2]],
                        "names": ["a", "b"], "free": [1, 3, 4, 6]}
    assert found[1] == {"taken": [1, 3, 6], "none_inside": [], "flags": [True, False], "pairs": [[1, 2]],
                        "names": ["a", "b"], "free": [1, 3, 6]}
