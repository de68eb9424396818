"""Formulas that always give a list of their own (ruledsl/opt/fresh_results.py): which ones, and that a
kept value that is not copied still belongs to its name alone."""

from __future__ import annotations

from pathlib import Path

from lang_helpers import engine as tiny, parse_ok
from ruledsl.opt.fresh_results import fresh_results

FORMULAS = """\
formula evens(xs: list[int]) = [x for x in xs if x % 2 == 0]
formula given(xs: list[int]) = xs
formula joined(xs: list[int]) = xs + [1]
formula either(xs: list[int], b: bool) = evens(xs) if b else [0]
formula or_given(xs: list[int], b: bool) = evens(xs) if b else xs
formula built(xs: list[int]):
    let out = []
    for x in xs:
        add x to out
    return out
formula handed_on(xs: list[int]):
    let out = []
    out = xs
    return out
formula element(xss: list[list[int]]):
    for xs in xss:
        return xs
    return []
formula twice(xs: list[int]) = built(evens(xs))
formula board() = [1, 2, 3]
"""


def test_which_formulas_give_a_list_of_their_own() -> None:
    formulas = {f.name: f for f in parse_ok(FORMULAS).formulas}
    assert fresh_results(formulas, set()) == {"evens", "joined", "either", "built", "twice", "board"}
    assert "board" not in fresh_results(formulas, {"board"})  # remembered: every call gives the same list


def test_a_kept_list_of_a_formula_is_its_names_alone(tmp_path: Path) -> None:
    e = tiny(tmp_path, """\
        formula picks(n: int):
            let out = []
            for i in range(n):
                add i + base to out
            return out

        phase main:
            let a = picks(3)
            let b = picks(3)
            add 9 to a
            remove 0 from b
            log kept(a=a, b=b, again=picks(3)) "kept"
            end winners seats
        """, global_={"base": ("int", 0)}, seats=(1, 1))  # reading the state: not remembered
    assert "_cnt(c, _F" in e.program.code.source and "), 1)[:]" not in e.program.code.source
    state = e.play(1, 1, [lambda st, seat, options: 0])
    assert state["log"][0]["data"] == {"a": [0, 1, 2, 9], "b": [1, 2], "again": [0, 1, 2]}
