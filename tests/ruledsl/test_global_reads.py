"""Global fields read once per function run (ruledsl/opt/global_reads.py): only fields no rule replaces
as a whole, only the code's own look-ups (never a rule's text), and the game plays the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.agents import RandomAgent, bot_seed
from lang_helpers import engine as tiny
from ruledsl.opt.global_reads import GlobalReads


def _body(*lines: str) -> list[tuple[int, str, None]]:
    return [(1, line, None) for line in lines]


def unchanged_globals(texts: list[str]) -> set[str]:
    return GlobalReads([texts]).unchanged


def bind_globals(*bodies: list[tuple[int, str, None]], names: dict[str, str]) -> list[tuple[list[str], list[str]]]:
    """Each function's lines and top bindings, the program being these functions."""
    reads = GlobalReads([[text for _, text, _ in body] for body in bodies])
    found = []
    for i, body in enumerate(bodies):
        lines, binds = reads.bind(i, body, names)
        found.append(([text for _, text, _ in lines], binds))
    return found


def test_a_field_assigned_whole_anywhere_is_not_unchanged() -> None:
    texts = ["V['at'][_l1] = 3", "_l2 = V['at'][_l1] + V['round']", "V['round'] += 1", "V['moved'] = None",
             "_l3 = [V['seen'], V['moved']]"]
    assert unchanged_globals(texts) == {"at", "seen"}


def test_text_that_spells_a_look_up_is_not_one() -> None:
    texts = ["c.log('x', {}, [], \"V['round'] = 1\", None)", "_l1 = V['round']"]
    assert unchanged_globals(texts) == {"round"}
    [(lines, binds)] = bind_globals(_body("c.log('x', {}, [], \"V['round'] and V['round']\", None)",
                                          "_l1 = V['round']"), names={})
    assert binds == [] and lines[0].count("V['round']") == 2


def test_v_used_whole_binds_nothing() -> None:
    assert unchanged_globals(["_l1 = V['at']", "_F1(c, V)"]) == set()
    assert bind_globals(_body("_l1 = V['at']", "_l2 = V['at']", "_F1(c, V)"), names={})[0][1] == []


def test_only_fields_read_more_than_once_are_bound_and_names_are_shared() -> None:
    names: dict[str, str] = {}
    first, again = bind_globals(_body("V['at'][_l1] = 2", "for _l2 in _K0:", "    _l3 = V['at'][_l2] + V['seen']"),
                                _body("_l1 = V['seen'] + V['seen']", "_l2 = V['at'] + V['at']"), names=names)
    assert first == (["_g0[_l1] = 2", "for _l2 in _K0:", "    _l3 = _g0[_l2] + V['seen']"], ["_g0 = c.V['at']"])
    assert again[1] == ["_g0 = c.V['at']", "_g1 = c.V['seen']"] and again[0][0] == "_l1 = _g1 + _g1"


def test_a_phase_changing_a_map_in_place_and_replacing_another_plays_the_same_on_both_paths(tmp_path: Path) -> None:
    e = tiny(tmp_path, """\
        phase main:
            let p = seats[0]
            for i in range(6):
                choose k from ["a", "b", "c"] by p
                marks[k] = marks[k] + last
                last = marks["a"] + marks["b"] + marks["c"]
                log step(seat=p, n=last) "{k}: {last}"
            end winners seats
        """, global_={"marks": ("map[str, int]", {"a": 1, "b": 2, "c": 3}), "last": ("int", 1)}, seats=(1, 1))
    source = e.program.code.source
    assert "= c.V['marks']" in source and "= c.V['last']" not in source
    pickers = [RandomAgent(bot_seed(4, 0)).picker]
    journal: list[tuple[int, str]] = []
    fast = e.play(1, 4, pickers, journal=journal)
    slow = e.new_game(1, 4)
    for seat, option in journal:
        e.apply_inplace(slow, option, seat)
    assert fast["log"] == slow["log"] and fast["global"] == slow["global"]
    totals: list[Any] = [event["data"]["n"] for event in fast["log"] if event["kind"] == "step"]
    assert len(totals) == 6 and totals == sorted(totals) and totals[0] > 6
