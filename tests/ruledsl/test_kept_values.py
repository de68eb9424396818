"""The conveniences: phases that give back a value (from a choice too), `pay up to`, rolling N dice
at once and `unique_by`, compiled, checked and played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from interpreter.core.errors import RuleError
from interpreter.core.state import from_json, to_json
from lang_helpers import LINE_BOARD, RULES_FILE, check, engine, errors

SEAT = {"money": {"type": "int", "initial": 5, "ledger": True}, "score": ("int", 0)}


def texts(state: dict[str, Any]) -> list[str]:
    return [e["text"] for e in state["log"]]


def decide(eng: Engine, state: dict[str, Any], *option_ids: str) -> dict[str, Any]:
    for option in option_ids:
        assert isinstance(eng.pending(state), Decision)
        state = eng.apply(state, option)
    return state


def _sub(folder: Path, name: str) -> Path:
    (folder / name).mkdir()
    return folder / name


def only_error(folder: Path, rules: str, code: str, **kw: Any) -> Any:
    game, diags = check(folder, rules, **{"seat": SEAT, **kw})
    errs = errors(diags)
    assert game is None and len(errs) == 1 and errs[0].code == code, diags
    return errs[0]


# ----------------------------------------------------------- phases that give back a value

PICKER = """\
phase main:
    for s in seats:
        let n = run pick(s)
        s.score += run pick(s)
        log kept(seat=s, n=n, score=s.score) "{s} kept {n}, scores {s.score}"
    end winners seats

phase pick(s: seat):
    choose n from [1, 2, 3] by s "{s}, how many?"
    if n == 3:
        return 30
    return n
"""


def test_a_phase_gives_back_the_value_of_a_choice(tmp_path: Path) -> None:
    eng = engine(tmp_path, PICKER, seat=SEAT)
    state = decide(eng, eng.new_game(2), "n:2", "n:3", "n:1", "n:1")
    assert texts(state) == ["Ana kept 2, scores 30", "Ben kept 1, scores 1"]


def test_the_value_survives_a_save_while_the_phase_waits(tmp_path: Path) -> None:
    eng = engine(tmp_path, PICKER, seat=SEAT)
    state = decide(eng, eng.new_game(2), "n:2")
    state = from_json(to_json(state))  # saved and read back while `pick` waits for Ana
    state = decide(Engine(eng.game), state, "n:3", "n:1", "n:1")
    assert texts(state) == ["Ana kept 2, scores 30", "Ben kept 1, scores 1"]


def test_a_phase_that_never_waits_gives_back_its_value(tmp_path: Path) -> None:
    rules = ("phase main:\n    let doubled = run double(seats[0])\n    log \"{doubled}\"\n    run double(seats[0])\n"
             "    end winners seats\n\nphase double(s: seat):\n    s.score += 1\n    return s.money * 2\n")
    eng = engine(tmp_path, rules, seat=SEAT)
    state = eng.new_game(1)
    assert texts(state) == ["10"] and state["seat"]["score"] == [2]


def test_a_value_from_a_phase_run_inside_is_not_given_back_twice(tmp_path: Path) -> None:
    # `outer` ends without a return of its own: it gives none, whatever `inner` gave back.
    rules = ("phase main:\n    let x = run outer(seats[0])\n    log \"{x}\"\n    end winners seats\n\n"
             "phase outer(s: seat):\n    let y = run inner(s)\n    if y > 100:\n        return y\n\n"
             "phase inner(s: seat):\n    choose k from [1, 2] by s\n    return k\n")
    eng = engine(tmp_path, rules, seat=SEAT)
    assert texts(decide(eng, eng.new_game(1), "k:2")) == ["none"]


def test_keeping_the_value_of_a_phase_that_gives_none(tmp_path: Path) -> None:
    rules = "phase main:\n    let x = run quiet\n    end winners seats\n\nphase quiet:\n    pass\n"
    d = only_error(tmp_path, rules, "no-return")
    assert (d.span.line, d.span.column) == (2, 17)
    assert "'quiet' gives back no value" in d.message and "return VALUE" in (d.hint or "")


def test_an_ability_gives_back_no_value(tmp_path: Path) -> None:
    cards = "items:\n  - {id: a, on_use: \"pass\"}\n"
    extra = {"components": {"card": {"file": "cards.yaml", "collection": "all_cards",
                                     "abilities": {"on_use": ""}}}}
    rules = "phase main:\n    let x = run on_use of all_cards[0]\n    end winners seats\n"
    d = only_error(tmp_path, rules, "no-return", extra=extra, other_files={"cards.yaml": cards})
    assert "an ability gives back no value" in d.message


def test_the_kept_value_is_checked_like_any_value(tmp_path: Path) -> None:
    rules = ("phase main:\n    for s in seats:\n        s.name_text = run pick(s)\n    end winners seats\n\n"
             "phase pick(s: seat):\n    choose n from [1, 2] by s\n    return n\n")
    d = only_error(tmp_path, rules, "type", seat={**SEAT, "name_text": ("str", "")})
    assert (d.span.line, d.span.column) == (3, 23) and "cannot store" in d.message


def test_a_formula_cannot_run_a_phase_for_its_value(tmp_path: Path) -> None:
    rules = ("formula f() :\n    let x = run g\n    return x\n\nphase main:\n    log \"{f()}\"\n    end winners seats\n\n"
             "phase g:\n    return 1\n")
    game, diags = check(tmp_path, rules, seat=SEAT)
    assert game is None and errors(diags)[0].code == "not-in-formula" and errors(diags)[0].span.line == 2


def test_a_phase_may_keep_the_value_of_running_itself(tmp_path: Path) -> None:
    rules = ("phase main:\n    let t = run total(3)\n    log \"{t}\"\n    end winners seats\n\n"
             "phase total(k: int):\n    if k == 0:\n        return 0\n    let rest = run total(k - 1)\n"
             "    return rest + k\n")
    assert texts(engine(tmp_path, rules, seat=SEAT).new_game(1)) == ["6"]


# ----------------------------------------------------------------------------- pay up to

def test_pay_up_to_pays_what_the_seat_has_and_gives_the_amount(tmp_path: Path) -> None:
    rules = ("phase main:\n    let a = pay up to 3 from seats[0].money\n    let b = pay up to 3 from seats[0].money\n"
             "    pay up to 3 from seats[0].money\n    log \"{a} {b}\"\n    end winners seats\n")
    eng = engine(tmp_path, rules, seat=SEAT)
    state = eng.new_game(1)
    assert texts(state) == ["3 2"]
    assert state["seat"]["money"] == [0]
    assert state["ledger"]["money"] == [[5], [0]]  # paid, gained: every amount recorded


def test_pay_up_to_a_negative_amount_stops_the_game(tmp_path: Path) -> None:
    rules = "phase main:\n    let a = pay up to 0 - 2 from seats[0].money\n    log \"{a}\"\n    end winners seats\n"
    eng = engine(tmp_path, rules, seat=SEAT)
    with pytest.raises(RuleError, match="negative amount"):
        eng.new_game(1)


def test_a_kept_plain_pay_gives_its_amount(tmp_path: Path) -> None:
    rules = "phase main:\n    let a = pay 2 from seats[0].money\n    log \"{a}\"\n    end winners seats\n"
    state = engine(tmp_path, rules, seat=SEAT).new_game(1)
    assert texts(state) == ["2"] and state["seat"]["money"] == [3]


def test_pay_up_to_needs_a_number_field(tmp_path: Path) -> None:
    rules = "phase main:\n    let a = pay up to 2 from seats[0].nick\n    end winners seats\n"
    d = only_error(tmp_path, rules, "type", seat={**SEAT, "nick": ("str", "")})
    assert "pay needs a number field" in d.message


# ------------------------------------------------------------------------------- roll N

ROLLS = ("phase main:\n    roll 3 faces from [1, 2, 3, 4, 5, 6]\n    log \"{faces}\"\n"
         "    roll a from [1, 2, 3, 4, 5, 6]\n    roll b from [1, 2, 3, 4, 5, 6]\n    roll c from [1, 2, 3, 4, 5, 6]\n"
         "    log \"{a}, {b}, {c}\"\n    end winners seats\n")


def test_rolling_n_dice_draws_as_n_rolls_would(tmp_path: Path) -> None:
    eng = engine(tmp_path, ROLLS, seat=SEAT)
    for seed in range(5):
        first = texts(eng.new_game(1, seed))
        assert first == texts(eng.new_game(1, seed))  # the same seed, the same dice
        faces = first[0].split(", ")
        assert len(faces) == 3 and all(f in "123456" for f in faces)
    # Three dice rolled at once use the generator as three single rolls in a row.
    rules = ROLLS.replace("    roll 3 faces from [1, 2, 3, 4, 5, 6]\n    log \"{faces}\"\n", "")
    single = engine(_sub(tmp_path, "single"), rules, seat=SEAT)
    assert texts(eng.new_game(1, 7))[0] == texts(single.new_game(1, 7))[0]


def test_the_number_of_dice_is_a_number(tmp_path: Path) -> None:
    rules = "phase main:\n    roll \"two\" faces from [1, 2]\n    log \"{faces}\"\n    end winners seats\n"
    d = only_error(tmp_path, rules, "type")
    assert (d.span.line, d.span.column) == (2, 10) and "how many to roll" in d.message


def test_rolled_dice_are_a_list_of_the_faces(tmp_path: Path) -> None:
    rules = "phase main:\n    roll 2 faces from [1, 2]\n    seats[0].score = faces\n    end winners seats\n"
    d = only_error(tmp_path, rules, "type")
    assert "list[int]" in d.message


# ---------------------------------------------------------------------------- unique_by

def test_unique_by_keeps_the_first_of_each_kind(tmp_path: Path) -> None:
    rules = ('phase main:\n    let a = unique_by(nodes, "colour")\n    let b = unique_by(reversed(nodes), "colour")\n'
             '    let c = unique_by(seats, "score")\n    log "{a} {b}"\n    log "{c}"\n    end winners seats\n')
    state = engine(tmp_path, rules, seat=SEAT, board=LINE_BOARD).new_game(3)
    assert texts(state) == ["1, 2 3, 2", "Ana"]


def test_unique_by_names_a_field_or_attribute_that_exists(tmp_path: Path) -> None:
    rules = 'phase main:\n    let k = unique_by(nodes, "color")\n    log "{k}"\n    end winners seats\n'
    d = only_error(tmp_path, rules, "unknown-field", board=LINE_BOARD)
    assert d.hint == "did you mean 'colour'?" and (d.span.line, d.span.column) == (2, 30)


def test_unique_by_needs_the_attribute_as_a_text_and_things_with_attributes(tmp_path: Path) -> None:
    rules = "phase main:\n    let k = unique_by(nodes, colour)\n    log \"{k}\"\n    end winners seats\n"
    game, diags = check(tmp_path, rules, seat=SEAT, board=LINE_BOARD)
    assert game is None and any("must be written as a text" in e.message for e in errors(diags))
    rules = "phase main:\n    let k = unique_by([1, 2], \"x\")\n    log \"{k}\"\n    end winners seats\n"
    d = only_error(_sub(tmp_path, "numbers"), rules, "type")
    assert "seats, nodes or items" in d.message


def test_the_statements_parse_to_their_nodes() -> None:
    from lang_helpers import stmt
    from ruledsl.syntax import ast as A
    kept = stmt("let n = run roll_dice(s)")
    assert isinstance(kept, A.Keep) and kept.op == "let" and isinstance(kept.stmt, A.Run)
    paid = stmt("s.debt -= pay up to 3 from s.money")
    assert isinstance(paid, A.Keep) and paid.op == "-=" and isinstance(paid.stmt, A.Pay) and paid.stmt.up_to
    rolled = stmt("roll n + 1 faces from die")
    assert isinstance(rolled, A.Roll) and rolled.var == "faces" and isinstance(rolled.count, A.BinOp)
    assert RULES_FILE == "x.rules"
