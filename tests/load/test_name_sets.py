"""Sets of names declared in game.yaml (`names:`): a type of text for fields and parameters, and
the data said to hold them checked where it is written; scenario files checked against them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lang_helpers import check, errors
from ruledsl.diagnostics import Diagnostic
from workbench_helpers import ROOT, game_copy, place, run, scenarios

CARDS = "items:\n  - {id: bakery, colour: green}\n  - {id: cafe, colour: red}\n  - {id: stadium, colour: purpel}\n"
LANDMARKS = ["station", "mall", "park", "tower"]
RULES = "phase main:\n    end winners seats\n"


def load(folder: Path, names: Any, rules: str = RULES, **kw: Any) -> tuple[Any, list[Diagnostic]]:
    extra = {"names": names, "components": {"card": {"file": "cards.yaml", "collection": "all_cards"}},
             **kw.pop("extra", {})}
    return check(folder, rules, extra=extra, other_files={"cards.yaml": CARDS}, **kw)


def where(folder: Path, d: Diagnostic) -> tuple[str, int, int]:
    return Path(d.span.file).name, d.span.line, d.span.column


def test_a_set_of_names_is_a_type_of_text_for_fields_and_parameters(tmp_path: Path) -> None:
    rules = ("formula has(s: seat, l: landmark) = l in s.built\n\n"
             "phase main:\n    if not has(seats[0], \"park\"):\n        add \"park\" to seats[0].built\n"
             "    log \"{seats[0].built} {first}\"\n    end winners seats\n")
    game, diags = load(tmp_path, {"landmark": LANDMARKS}, rules, seat={"built": ("list[landmark]", [])},
                       global_={"first": ("landmark?", "station")})
    assert errors(diags) == [] and game is not None
    assert str(game.world.seat_fields["built"].type) == "list[str]"  # to every other check, a text
    assert game.world.seat_fields["built"].type.args[0].names == "landmark"


def test_the_long_form_declares_the_tables_and_attributes_that_hold_names(tmp_path: Path) -> None:
    names = {"landmark": {"values": LANDMARKS, "tables": ["price", "start"], "description": "four to build"},
             "colour": {"values": ["red", "green", "blue", "purple"], "attributes": ["card.colour"]}}
    _, diags = load(tmp_path, names, tables={"price": {"station": 4, "mal": 10}, "start": ["station", "towr"]})
    found = {(where(tmp_path, d), d.message, d.hint) for d in errors(diags)}
    assert found == {
        (("game.yaml", 13, 5), "'mal' is not one of the names of 'landmark'", "did you mean 'mall'?"),
        (("game.yaml", 16, 5), "'towr' is not one of the names of 'landmark'", "did you mean 'tower'?"),
        (("cards.yaml", 4, 27), "'purpel' is not one of the names of 'colour'", "did you mean 'purple'?"),
    }, diags


def test_a_field_starts_with_names_of_its_set(tmp_path: Path) -> None:
    _, diags = load(tmp_path, {"landmark": LANDMARKS}, seat={"built": ("list[landmark]", ["station", "mal"])})
    assert [(d.code, d.message, d.hint) for d in errors(diags)] == [
        ("unknown-value", "'mal' is not one of the names of 'landmark'", "did you mean 'mall'?")]


@pytest.mark.parametrize("names, code, message", [
    ({"str": ["a"]}, "reserved-word", "'str' is a built-in type and cannot name a set of names"),
    ({"card": ["a"]}, "reserved-word", "'card' is a component kind and cannot name a set of names"),
    ({"landmark": ["park", "mall", "park"]}, "duplicate", "'park' is listed twice in 'landmark'"),
    ({"landmark": {"values": LANDMARKS, "tables": ["prices"]}}, "unknown-name", "'prices' is not a table"),
    ({"landmark": {"values": LANDMARKS, "attributes": ["card.color"]}}, "unknown-field",
     "cards have no attribute 'color'"),
    ({"landmark": {"values": LANDMARKS, "attributes": ["crad.colour"]}}, "unknown-name",
     "'crad' is neither node nor a component kind"),
    ({"landmark": {"values": LANDMARKS, "attributes": ["colour"]}}, "schema", None),
    ({"landmark": "station, mall"}, "schema", None),
    ({"Landmark": LANDMARKS}, "schema", None),
])
def test_mistakes_in_a_declaration(tmp_path: Path, names: Any, code: str, message: str | None) -> None:
    _, diags = load(tmp_path, names, tables={"price": {"station": 4}})
    errs = errors(diags)
    assert [d.code for d in errs] == [code], errs
    assert message is None or errs[0].message == message


def test_a_misspelt_set_in_a_type_is_an_unknown_type(tmp_path: Path) -> None:
    _, diags = load(tmp_path, {"landmark": LANDMARKS}, seat={"built": ("list[landmrk]", [])})
    assert [d.code for d in errors(diags)] == ["type"] and "unknown type 'landmrk'" in errors(diags)[0].message


# ------------------------------------------------------------------------- scenario files

def test_scenario_option_ids_are_checked_against_the_names_of_their_options(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path, ROOT / "games" / "downtown")
    path = scenarios(folder, """\
    defaults: {seats: 3}
    scenarios:
      - name: a vote for a kind nobody can vote for
        steps:
          - auto: kind
          - play: {Ana: kind:housng, Ben: kind:industry, Chloé: kind:commerce}
    """)
    code, out, _ = run(capsys, "validate", str(folder))
    assert code == 1
    assert (f"{place(path, 'kind:housng')}: error[unknown-value]: 'kind:housng' is never offered: the options of "
            "'kind' are among kind:commerce, kind:housing, kind:industry, kind:not zoned, kind:park (did you mean 'kind:housing'?)"
            ) in out
    assert out.count("error[") == 1


def test_scenario_values_of_declared_fields_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = "phase main:\n    choose l from [\"station\", \"mall\"] by seats[0]\n    add l to seats[0].built\n" \
            "    end winners seats\n"
    game, diags = load(tmp_path, {"landmark": LANDMARKS}, rules, seat={"built": ("list[landmark]", [])})
    assert errors(diags) == [] and game is not None
    path = scenarios(tmp_path, """\
    scenarios:
      - name: built
        set: {Ana.built: [park, towr]}
        steps:
          - play: l:mall
          - expect: {fields: {Ana.built: [park, tower, mall]}}
    """)
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert code == 1
    assert (f"{place(path, 'towr')}: error[unknown-value]: 'towr' is not one of the names of 'landmark' "
            "(did you mean 'tower'?)") in out
