"""ruledsl.types: writing types, reading them back, and the checks between them."""

from __future__ import annotations

import pytest

from ruledsl.types import (
    ANY,
    BOOL,
    INT,
    NODE,
    NONE,
    SEAT,
    STR,
    Type,
    TypeSyntaxError,
    assignable,
    list_of,
    map_of,
    parse_type,
    type_of_data,
    unify,
)

# ------------------------------------------------------------------ parse_type


@pytest.mark.parametrize("text, expected", [
    ("int", INT),
    ("bool", BOOL),
    ("str", STR),
    ("seat", SEAT),
    ("node", NODE),
    ("int?", INT.or_none()),
    ("list[int]", list_of(INT)),
    ("list[int?]", list_of(INT.or_none())),
    ("list[node]?", list_of(NODE).or_none()),
    ("list[list[seat]]", list_of(list_of(SEAT))),
    ("map[str, int]", map_of(STR, INT)),
    ("map[int,list[seat]]", map_of(INT, list_of(SEAT))),
    ("map[str, map[str, int]]", map_of(STR, map_of(STR, INT))),
    ("map[str, str?]?", map_of(STR, STR.or_none()).or_none()),
    ("  list [ int ] ? ", list_of(INT).or_none()),
])
def test_parse_type_forms(text: str, expected: Type) -> None:
    assert parse_type(text) == expected


@pytest.mark.parametrize("text", [
    "int", "str?", "list[int]", "list[node]?", "map[str, int]", "map[int, list[seat?]]",
    "map[str, map[str, int]]?",
])
def test_str_of_a_parsed_type_reads_back_as_the_same_type(text: str) -> None:
    t = parse_type(text)
    assert str(t) == text
    assert parse_type(str(t)) == t


@pytest.mark.parametrize("text, words", [
    ("", ["ends too early"]),
    ("foo", ["unknown type 'foo'", "int, bool"]),
    ("Int", ["unknown type 'Int'"]),
    ("none", ["unknown type 'none'"]),
    ("any", ["unknown type 'any'"]),
    ("list", ["needs its element type", "list[int]"]),
    ("map", ["map needs key and value types", "map[str, int]"]),
    ("list[]", ["unknown type ']'"]),
    ("list[int", ["missing ']'"]),
    ("list[int]]", ["unexpected ']'"]),
    ("list[int, str]", ["list takes one element type"]),
    ("map[str]", ["key type", "value type"]),
    ("map[bool, int]", ["key type (str or int)"]),
    ("map[seat, int]", ["key type (str or int)"]),
    ("int??", ["unexpected '?'"]),
    ("int x", ["unexpected 'x'"]),
    ("in-t", ["'in-t' is not a type"]),
    ("list<int>", ["is not a type"]),
])
def test_parse_type_rejects_bad_input_with_a_readable_message(text: str, words: list[str]) -> None:
    with pytest.raises(TypeSyntaxError) as info:
        parse_type(text)
    for word in words:
        assert word in str(info.value)


def test_type_syntax_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_type("banana")


# ------------------------------------------------------------- Type helpers


def test_elem_or_none_and_strict() -> None:
    assert list_of(SEAT).elem == SEAT
    assert INT.elem == ANY
    assert map_of(STR, INT).elem == ANY
    assert INT.or_none().nullable and not INT.nullable
    assert INT.or_none().strict() == INT
    assert str(NONE) == "none" and str(ANY) == "any"


# -------------------------------------------------------------- assignable


@pytest.mark.parametrize("target, value", [
    (INT, INT),
    (INT.or_none(), NONE),
    (INT.or_none(), INT),
    (INT, INT.or_none()),          # nullable values flow anywhere; none is checked at run time
    (ANY, STR),
    (STR, ANY),
    (list_of(INT), list_of(INT)),
    (list_of(INT), list_of(NONE)),  # the element type of an empty literal
    (list_of(INT), list_of(ANY)),
    (list_of(INT.or_none()), list_of(INT)),
    (map_of(STR, list_of(INT)), map_of(STR, list_of(INT))),
    (list_of(SEAT).or_none(), NONE),
])
def test_assignable(target: Type, value: Type) -> None:
    assert assignable(target, value)


@pytest.mark.parametrize("target, value", [
    (INT, STR),
    (INT, NONE),                    # none only goes where the type says '?'
    (SEAT, INT),
    (NODE, SEAT),
    (BOOL, INT),
    (list_of(INT), list_of(STR)),
    (list_of(INT), INT),
    (INT, list_of(INT)),
    (list_of(list_of(INT)), list_of(list_of(STR))),
    (map_of(STR, INT), map_of(STR, STR)),
    (map_of(STR, INT), map_of(INT, INT)),
    (map_of(STR, INT), list_of(INT)),
])
def test_not_assignable(target: Type, value: Type) -> None:
    assert not assignable(target, value)


# ------------------------------------------------------------------- unify


@pytest.mark.parametrize("a, b, expected", [
    (INT, INT, INT),
    (INT, NONE, INT.or_none()),
    (NONE, STR, STR.or_none()),
    (INT, INT.or_none(), INT.or_none()),
    (INT, STR, ANY),
    (INT, ANY, ANY),
    (list_of(INT), list_of(INT), list_of(INT)),
    (list_of(INT), list_of(STR), list_of(ANY)),
    (list_of(INT), list_of(INT).or_none(), list_of(INT).or_none()),
    (map_of(STR, INT), map_of(STR, INT.or_none()), map_of(STR, INT.or_none())),
    (list_of(INT), INT, ANY),
])
def test_unify(a: Type, b: Type, expected: Type) -> None:
    assert unify(a, b) == expected
    assert unify(b, a) == expected


def test_unify_result_holds_both_values() -> None:
    for a, b in [(INT, NONE), (list_of(SEAT), list_of(SEAT).or_none()), (STR, BOOL)]:
        u = unify(a, b)
        assert assignable(u, a) and assignable(u, b)


# ------------------------------------------------------------ type_of_data


@pytest.mark.parametrize("value, expected", [
    (None, NONE),
    (True, BOOL),
    (3, INT),
    ("west", STR),
    ([1, 2, 3], list_of(INT)),
    ([], list_of(ANY)),
    ([1, None], list_of(INT.or_none())),
    ([None, 1], list_of(INT.or_none())),
    ([1, "a"], list_of(ANY)),
    ({"a": 1, "b": 2}, map_of(STR, INT)),
    ({3: 3, 4: 3}, map_of(INT, INT)),
    ({}, map_of(STR, ANY)),
    ({"with": [0, 3], "bare": [0, 2]}, map_of(STR, list_of(INT))),
    ({"a": {"x": 1}}, map_of(STR, map_of(STR, INT))),
    (1.5, ANY),
])
def test_type_of_data(value: object, expected: Type) -> None:
    assert type_of_data(value) == expected


def test_type_of_data_of_plain_values_is_not_nullable() -> None:
    # Tables hold no none unless the YAML says so: their element types must not be 'int?'.
    assert str(type_of_data([0, 3, 7])) == "list[int]"
    assert str(type_of_data({"west": "east"})) == "map[str, str]"
