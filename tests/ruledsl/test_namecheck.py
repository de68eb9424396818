"""The names pass (ruledsl/check/namecheck.py): a text written where a name is expected is checked.

Most tests build a small dice-and-cards game: cards with a `colour` and a `roll`, landmarks as texts
in a seat's list field, a table of landmark prices, a board whose streets have a direction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lang_helpers import check, errors
from ruledsl.check.nameterms import Names, Source, Term, column, element, from_data, text, unify
from ruledsl.diagnostics import Diagnostic, Span

CARDS = """\
items:
  - {id: wheat, copies: 2, colour: blue, roll: 1}
  - {id: bakery, colour: green, roll: 2}
  - {id: cafe, colour: red, roll: 3}
  - {id: stadium, colour: purple, roll: 6}
"""
LANDMARKS = ["train_station", "shopping_mall", "amusement_park", "radio_tower"]
BOARD = {"nodes": [{"id": 1, "zone": "quay"}, {"id": 2, "zone": "town"}],
         "edges": [{"from": 1, "to": 2, "dir": "east"}, {"from": 2, "to": 1, "dir": "west"}]}
COMPONENTS = {"card": {"file": "cards.yaml", "collection": "all_cards"}}


def game(folder: Path, rules: str, declared: bool = False, **kw: Any) -> tuple[Any, list[Diagnostic]]:
    """The dice game with these rules (`declared`: game.yaml declares the landmarks)."""
    extra: dict[str, Any] = {"components": COMPONENTS}
    if declared:
        extra["names"] = {"landmark": LANDMARKS}
    seat = {"coins": ("int", 3), "owned": ("list[card]", []),
            "built": ("list[landmark]" if declared else "list[str]", [])}
    return check(folder, rules, seat=seat, global_=kw.pop("global_", {"stage": ("str", "setup")}),
                 tables={"landmark_cost": dict(zip(LANDMARKS, (4, 10, 16, 22))), "kinds": ["small", "big"],
                         "rule": {"small": {"needs": "quay", "min": 1}, "big": {"needs": "town", "min": 2}}},
                 board=BOARD, extra=extra, other_files={"cards.yaml": CARDS}, **kw)


def name_errors(folder: Path, body: str, formulas: str = "", **kw: Any) -> list[Diagnostic]:
    """The unknown-value errors of the game whose start phase has this body."""
    rules = formulas + "\nphase main:\n" + body + "    end winners seats\n"
    _, diags = game(folder, rules, **kw)
    others = [d for d in errors(diags) if d.code != "unknown-value"]
    assert others == [], others
    return [d for d in errors(diags) if d.code == "unknown-value"]


def at(d: Diagnostic) -> tuple[int, int]:
    return d.span.line, d.span.column


ACTIVE = "formula active_cards(p: seat, colour: str, total: int) = " \
         "[c for c in p.owned if c.colour == colour and c.roll == total]\n"
HAS = "formula has(p: seat, l: str) = l in p.built\n"


# ------------------------------------------------------------- the two cases of the issue

def test_a_text_passed_to_a_formula_that_compares_it_with_data(tmp_path: Path) -> None:
    found = name_errors(tmp_path, '    let n = active_cards(seats[0], "purpel", 6)\n    log "{n}"\n', ACTIVE)
    assert len(found) == 1
    d = found[0]
    assert at(d) == (4, 36) and d.message == "no card has colour 'purpel'" and d.hint == "did you mean 'purple'?"
    # The note shows where the parameter meets the cards' colours.
    assert [(r.span.line, r.message) for r in d.related] == [(1, "the names expected there come from here")]


def test_a_text_looked_for_in_a_list_field_once_its_names_are_declared(tmp_path: Path) -> None:
    body = '    if has(seats[0], "amusment_park"):\n        log "again"\n'
    assert name_errors(tmp_path, body, HAS) == []  # a list of any texts: nothing to check against
    found = name_errors(tmp_path, body, HAS, declared=True)
    assert [at(d) for d in found] == [(4, 22)]
    assert found[0].message == "'amusment_park' is not one of the names of 'landmark'"
    assert found[0].hint == "did you mean 'amusement_park'?"
    assert found[0].related[-1].message == "the names of 'landmark' are declared here"


# ------------------------------------------------------------------------- each form

@pytest.mark.parametrize("body, where", [
    ('    let n = [c for c in all_cards if c.colour == "purpel"]\n    log "{n}"\n', (3, 50)),  # comparison
    ('    let n = [c for c in all_cards if c.colour != "purpel"]\n    log "{n}"\n', (3, 50)),
    ('    let n = [c for c in all_cards if c.colour in ["red", "purpel"]]\n    log "{n}"\n', (3, 58)),  # list
    ('    log "{landmark_cost["radio_towr"]}"\n', None),  # a table key: the checker's unknown-key
    ('    let n = landmark_cost\n    log "{n.radio_towr}"\n', (4, 13)),  # a key of a table kept in a variable
    ('    let n = get(landmark_cost, "radio_towr", 0)\n    log "{n}"\n', (3, 32)),  # a key of get
    ('    let ks = [c.colour for c in all_cards]\n    if "purpel" in ks:\n        pass\n', (4, 8)),  # in a list
    ('    let ks = [c.colour for c in all_cards]\n    log "{index(ks, "purpel")}"\n', None),
    ('    let ks = [c.colour for c in all_cards]\n    remove "purpel" from ks\n', (4, 12)),
    ('    let there = follow(nodes[0], "dir", "esat")\n    log "{there}"\n', (3, 41)),  # edge attribute
    ('    let ways = [w for w in exits(nodes[0], "dir") if w[1] == "esat"]\n    log "{ways}"\n', (3, 62)),
])
def test_each_form_of_use(tmp_path: Path, body: str, where: tuple[int, int] | None) -> None:
    rules = "\nphase main:\n" + body + "    end winners seats\n"
    _, diags = game(tmp_path, rules)
    found = [d for d in errors(diags) if d.code in ("unknown-value", "unknown-key")]
    if where is None:  # written inside the braces of a text, which cannot hold quotes: a syntax error
        assert [d.code for d in errors(diags)] == ["syntax"]
        return
    assert [at(d) for d in found] == [where], found


def test_a_text_added_to_a_list_field_of_declared_names(tmp_path: Path) -> None:
    found = name_errors(tmp_path, '    add "train_statoin" to seats[0].built\n', declared=True)
    assert [at(d) for d in found] == [(3, 9)] and found[0].hint == "did you mean 'train_station'?"


def test_a_text_stored_in_a_field_whose_texts_are_data(tmp_path: Path) -> None:
    # `stage` is compared with the kinds of the table: storing a text in it is a use.
    body = '    for k in kinds:\n        if stage == k:\n            stage = "smal"\n'
    found = name_errors(tmp_path, body, global_={"stage": ("str", "small")})
    assert [at(d) for d in found] == [(5, 21)] and found[0].message == "table kinds holds no 'smal'"


def test_a_text_passed_to_a_phase(tmp_path: Path) -> None:
    rules = ('phase place(colour: str):\n    let n = [c for c in all_cards if c.colour == colour]\n    log "{n}"\n\n')
    found = name_errors(tmp_path, '    run place("gren")\n', rules)
    assert [at(d) for d in found] == [(7, 15)] and found[0].hint == "did you mean 'green'?"


def test_names_follow_a_value_through_variables_formulas_and_returns(tmp_path: Path) -> None:
    formulas = ("formula first_colour() = all_cards[0].colour\n"
                "formula same(a: str, b: str) = a == b\n")
    body = ('    let c = first_colour()\n    let d = c\n    if d == "bleu" or same(d, "purpel"):\n'
            '        pass\n')
    found = name_errors(tmp_path, body, formulas)
    assert [d.message for d in found] == ["no card has colour 'bleu'", "no card has colour 'purpel'"]


def test_a_record_of_a_table_keeps_each_entry_apart(tmp_path: Path) -> None:
    body = ('    for k in kinds:\n        let r = rule[k]\n        if r.needs == "quai" or r.min == 1:\n'
            '            log "{r.needs}"\n')
    found = name_errors(tmp_path, body)
    assert [d.message for d in found] == ["table rule holds no 'quai'"]


def test_the_initial_value_of_a_field_with_what_the_rules_store(tmp_path: Path) -> None:
    body = ('    if stage == "setup":\n        stage = "scoring"\n    if stage == "scorng":\n        pass\n')
    found = name_errors(tmp_path, body)
    assert [d.message for d in found] == ["stage never holds 'scorng'"]
    assert found[0].hint == "did you mean 'scoring'?"


def test_a_map_field_keys_start_as_its_initial_keys(tmp_path: Path) -> None:
    body = '    piles["wset"] = []\n    log "{piles.west} {piles.est}"\n'
    found = name_errors(tmp_path, body, global_={"stage": ("str", ""),
                                                 "piles": ("map[str, list[int]]", {"west": [], "east": []})})
    assert [d.message for d in found] == ["piles never holds 'est'"]  # a key written to is added


# ------------------------------------------------------------------ what is not reported

def test_texts_the_rules_make_themselves_are_names(tmp_path: Path) -> None:
    # A "pass" option beside the colours, a sentinel kept in a variable, a text returned.
    formulas = 'formula pick(c: card) = c.colour if c.roll > 1 else "none"\n'
    body = ('    let options = ["pass"] + [c.colour for c in all_cards]\n'
            '    let best = ""\n    for c in all_cards:\n        if pick(c) == "none" or c.colour == best:\n'
            '            best = c.colour\n    for o in options:\n        if o == "pass":\n            pass\n')
    assert name_errors(tmp_path, body, formulas) == []


def test_a_text_both_passed_and_tested_for_is_a_value_of_the_rules(tmp_path: Path) -> None:
    formulas = ('formula price(l: str) = 0 if l == "free" else landmark_cost[l]\n')
    assert name_errors(tmp_path, '    log "{price(seats[0].name)}"\n    let p = price("free")\n    log "{p}"\n',
                       formulas) == []


def test_texts_the_pass_cannot_see_leave_a_class_unchecked(tmp_path: Path) -> None:
    # `s.name` is a player's name: the class of `who` holds texts no data lists.
    formulas = "formula is_card(who: str) = len([c for c in all_cards if c.colour == who]) > 0\n"
    body = '    if is_card(seats[0].name) or is_card("Ana"):\n        pass\n'
    assert name_errors(tmp_path, body, formulas) == []


def test_a_declared_class_is_checked_even_with_unseen_texts(tmp_path: Path) -> None:
    formulas = "formula has(p: seat, l: landmark) = l in p.built\n"
    body = '    if has(seats[0], seats[0].name) or has(seats[0], "radio_towre"):\n        pass\n'
    found = name_errors(tmp_path, body, formulas, declared=True)
    assert [d.hint for d in found] == ["did you mean 'radio_tower'?"]


def test_an_attribute_compared_with_a_text_is_reported_once(tmp_path: Path) -> None:
    # The checker's own unknown-value check sees it too: one diagnostic, not two.
    found = name_errors(tmp_path, '    let n = [k for k in nodes if k.zone == "qauy"]\n    log "{n}"\n')
    assert len(found) == 1 and found[0].message == "no board node has zone 'qauy'"


def test_numbers_and_empty_texts_are_not_names(tmp_path: Path) -> None:
    formulas = "formula rolled(k: int) = [c for c in all_cards if c.roll == k]\n"
    body = ('    let cs = [c.colour for c in all_cards]\n    if "" in cs:\n        log "{rolled(9)}"\n')
    assert name_errors(tmp_path, body, formulas) == []


def test_the_names_of_a_decision_are_kept_for_the_scenario_checks(tmp_path: Path) -> None:
    body = ('    choose colour from unique([c.colour for c in all_cards]) by seats[0]\n'
            '    choose who from [seats[0].name, "x"] by seats[0]\n    log "{colour} {who}"\n')
    found, diags = game(tmp_path, "phase main:\n" + body + "    end winners seats\n")
    assert found is not None and errors(diags) == []
    assert found.program.option_names == {"colour": ("blue", "green", "purple", "red")}


# ------------------------------------------------------------------------- the terms

def test_unify_joins_classes_and_keeps_where_a_class_met_names() -> None:
    data = column(["red", "blue"], Source("item", "colour", "card"))
    param = text()
    site = Span("x.rules", 3, 1)
    from ruledsl.diagnostics import Related
    unify(param, data, Related(site, "here"))
    root = param.find()
    assert root is data.find() and root.names is not None and root.names.data == {"red", "blue"}
    assert param.joined() is not None and param.joined().span == site  # type: ignore[union-attr]
    assert data.joined() is None


def test_terms_of_data_follow_its_shape() -> None:
    table = from_data({"small": {"needs": "quay", "min": 1}, "big": {"needs": "town", "min": 2}},
                      Source("values", "rule"))
    keys = table.args[0].find()
    assert keys.names is not None and keys.names.data == {"small", "big"}
    needs = table.args[1].find().parts["needs"].find()
    assert needs.names is not None and needs.names.data == {"quay", "town"}
    assert table.args[1].find().parts["min"].find().shape == "int"
    listed = from_data([["a"], ["b", "c"]], Source("values", "t"))
    inner = element(element(listed) or Term())
    assert inner is not None and inner.find().names == Names(data={"a", "b", "c"}, sources=[Source("values", "t")])


def test_values_of_different_shapes_stay_apart() -> None:
    a, b = text(), Term("int")
    unify(a, b)
    assert a.find() is a and b.find() is b
