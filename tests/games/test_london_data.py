"""The London data (games/london/cards.yaml and districts.yaml): the reconstructed 2nd-edition city
cards and district cards, checked against the shared card reference (london-cards.md)."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from interpreter.load.loader import check_game
from interpreter.load.schema_check import check_schema
from interpreter.load.yamlsource import load_yaml

LONDON = Path(__file__).resolve().parents[2] / "games" / "london"

CARD_ATTRS = {
    "name": str, "colour": str, "group": str, "kind": str, "play_cost": int, "prestige": int,
    "activation": str, "activation_cost": int, "money": int, "prestige_now": int, "poverty": int,
    "flip": bool, "ability": str, "loan_bonus": int, "needs_spend": bool, "spend_any_colour": bool, "peek": int,
    "extra_draws": int, "may_swap": bool,
}
# Abilities are rules code, present only on the items that have them.
CARD_CODE = {"on_activate", "on_place"}
DISTRICT_CODE = {"on_activate"}
DISTRICT_ATTRS = {
    "name": str, "bank": str, "thames": bool, "cost": int, "draw": int, "prestige_now": int,
    "poverty_discard": int, "start": bool, "ability": str, "must_activate": bool, "money_bonus": int,
    "play_cost_discount": int, "hand_limit_bonus": int,
}


def load(name: str) -> dict[str, Any]:
    data, positions, diags = load_yaml(LONDON / name, name)
    assert diags == []
    assert check_schema(data, positions, "components", name) == []
    assert isinstance(data, dict)
    return data


def expand(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies become separate items, named as the loader names them."""
    out = []
    for item in items:
        copies = item.get("copies", 1)
        for n in range(1, copies + 1):
            out.append({**item, "id": item["id"] if copies == 1 else f"{item['id']}-{n}"})
    return out


@pytest.fixture(scope="module")
def cards() -> dict[str, Any]:
    return load("cards.yaml")


@pytest.fixture(scope="module")
def districts() -> dict[str, Any]:
    return load("districts.yaml")


def by_id(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in data["items"]}


def test_both_files_say_they_are_reconstructions(cards: dict[str, Any], districts: dict[str, Any]) -> None:
    for data in (cards, districts):
        assert data["reconstructed"] is True
        assert "2nd-edition" in data["note"] and "london-cards.md" in data["note"]


@pytest.mark.parametrize("name,attrs", [("cards.yaml", CARD_ATTRS), ("districts.yaml", DISTRICT_ATTRS)])
def test_every_item_has_every_attribute_with_one_type(name: str, attrs: dict[str, type]) -> None:
    items = load(name)["items"]
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids)) and all(isinstance(i, str) for i in ids)
    for item in items:
        assert set(item) - {"id", "copies"} - CARD_CODE - DISTRICT_CODE == set(attrs), item["id"]
        for key, kind in attrs.items():
            assert type(item[key]) is kind, (item["id"], key)  # exact: a bool is not an int here
        assert type(item.get("copies", 1)) is int and item.get("copies", 1) >= 1


def test_deck_totals(cards: dict[str, Any]) -> None:
    deck = expand(cards["items"])
    assert len(deck) == 101
    assert len({c["id"] for c in deck}) == 101
    assert Counter(c["group"] for c in deck) == {"A": 25, "B": 49, "C": 27}
    # The reference has 49 brown and 24 blue; Vauxhall Gardens is blue by the rulebook (RULINGS).
    assert Counter(c["colour"] for c in deck) == {"brown": 48, "blue": 25, "pink": 17, "grey": 11}
    assert Counter(c["kind"] for c in deck) == {"project": 86, "poor": 11, "action": 4}
    assert Counter(c["group"] for c in deck if c["kind"] == "poor") == {"A": 2, "B": 4, "C": 5}
    assert Counter(c["name"] for c in deck if c["kind"] == "action") == {
        "Wren": 1, "Huguenots": 1, "Jewish Refugees": 2}
    assert not any(c["name"] == "Underground" for c in deck)


def test_attribute_values_are_consistent(cards: dict[str, Any]) -> None:
    for c in cards["items"]:
        assert c["colour"] in {"blue", "brown", "pink", "grey"} and c["group"] in {"A", "B", "C"}
        assert c["activation"] in {"free", "money", "discard", "discard_blue", "never"}
        assert (c["activation_cost"] > 0) == (c["activation"] == "money"), c["id"]
        assert (c["colour"] == "grey") == (c["kind"] == "poor"), c["id"]
        if c["kind"] != "project":
            assert c["activation"] == "never" and c["ability"] != "", c["id"]
            assert (c["play_cost"], c["prestige"], c["money"], c["prestige_now"], c["poverty"], c["flip"]) == (
                0, 0, 0, 0, 0, False)
        if c["activation"] == "never":
            assert (c["money"], c["prestige_now"], c["poverty"], c["flip"]) == (0, 0, 0, False), c["id"]


@pytest.mark.parametrize("cid,expected", [
    ("west-india-docks-b", {"name": "West India Docks", "colour": "brown", "group": "B", "activation": "discard",
                            "money": 7, "flip": True, "prestige": 2, "play_cost": 0}),
    ("town-houses-b", {"play_cost": 4, "flip": True, "copies": 2, "activation": "free"}),
    ("woolwich-arsenal-a", {"colour": "pink", "activation": "money", "activation_cost": 7, "prestige_now": 5,
                            "money": 0}),
    ("sewers-c", {"copies": 3, "poverty": -3, "play_cost": 4, "flip": True}),
    ("parliament-c", {"activation": "never", "prestige": 5, "play_cost": 9, "colour": "pink"}),
    ("hospital-a", {"copies": 1, "play_cost": 2, "prestige": 3}),
    ("hospital-b", {"copies": 1, "play_cost": 2, "prestige": 3}),
    ("train-station-c", {"copies": 2, "activation": "discard", "poverty": -1, "prestige": 3}),
    ("great-exhibition-c", {"activation": "discard_blue", "prestige_now": 5, "play_cost": 3}),
    ("street-lights-b", {"activation": "money", "activation_cost": 4, "prestige_now": 1, "poverty": -2,
                         "flip": False}),
    ("leather-industry-b", {"money": 7, "poverty": 1, "copies": 2}),
    ("school-a-blue", {"name": "School", "colour": "blue", "activation": "never"}),
    ("school-a-brown", {"name": "School", "colour": "brown", "activation": "never"}),
    ("school-c", {"activation": "free", "poverty": -1, "flip": False}),
    ("wren-a", {"kind": "action", "colour": "blue", "copies": 1}),
    ("vauxhall-gardens-a", {"colour": "blue", "money": 2, "prestige_now": 2, "poverty": -1, "flip": True}),
    ("jewish-refugees-c", {"kind": "action", "colour": "brown", "copies": 2}),
    ("poor-c", {"kind": "poor", "copies": 5, "activation": "never"}),
])
def test_rows_match_the_reference(cards: dict[str, Any], cid: str, expected: dict[str, Any]) -> None:
    card = by_id(cards)[cid]
    assert {k: card.get(k, 1) for k in expected} == expected


def test_abilities_carry_the_second_edition_changes(cards: dict[str, Any]) -> None:
    items = by_id(cards)
    assert "face-up blue card" in items["town-houses-b"]["ability"]
    for cid in ("omnibus-b", "steamboats-b", "fire-brigade-b", "train-station-c"):
        assert "district card" in items[cid]["ability"] and "covered" in items[cid]["ability"], cid
    assert not any("borough" in c["ability"] for c in cards["items"])
    assert items["west-india-docks-b"]["ability"] == "" and items["sewers-c"]["ability"] == ""


def test_districts(districts: dict[str, Any]) -> None:
    items = districts["items"]
    assert len(items) == 20
    assert {d["id"] for d in items if d["start"]} == {"city", "westminster", "southwark-bermondsey"}
    assert Counter(d["bank"] for d in items) == {"north": 12, "south": 8}
    d = by_id(districts)
    assert d["lewisham"]["poverty_discard"] == 5 and d["lewisham"]["bank"] == "south"
    sb = d["southwark-bermondsey"]
    assert (sb["name"], sb["bank"], sb["thames"], sb["cost"]) == ("Southwark & Bermondsey", "south", True, 5)
    assert "take 1 poverty" in sb["ability"]
    assert "take 2 poverty" in d["wandsworth"]["ability"]
    assert d["hammersmith"] == {"id": "hammersmith", "name": "Hammersmith", "bank": "north", "thames": True,
                                "cost": 6, "draw": 2, "prestige_now": 2, "poverty_discard": 1, "start": False,
                                "ability": "", "must_activate": False, "money_bonus": 0, "play_cost_discount": 0,
                                "hand_limit_bonus": 0}
    assert sum(1 for x in items if x["ability"]) == 7
    for x in items:  # the 2nd edition: the north gives more prestige, the south discards more poverty
        assert x["poverty_discard"] == (1 if x["bank"] == "north" else 5 if x["id"] == "lewisham" else 3)


def test_the_loader_reads_both_files_as_components(tmp_path: Path) -> None:
    """A throwaway game using the two files: the real loader expands copies and types every attribute."""
    for name in ("cards.yaml", "districts.yaml"):
        shutil.copy(LONDON / name, tmp_path / name)
    (tmp_path / "game.yaml").write_text(
        "name: londondata\ntitle: London data\nseats: {min: 2, max: 4}\nrules: [main.rules]\nstart: main\n"
        "components:\n  card: {file: cards.yaml, collection: all_cards}\n"
        "  district: {file: districts.yaml, collection: all_districts}\n"
        "state:\n  seat:\n    money: {type: int, initial: 5}\n", encoding="utf-8")
    (tmp_path / "main.rules").write_text("phase main:\n    end winners seats\n", encoding="utf-8")
    game, diags, _ = check_game(tmp_path)
    assert [d for d in diags if d.severity == "error"] == [] and game is not None
    card = game.world.components["card"]
    assert len(card.ids) == 101 and "poor-c-5" in card.ids and "west-india-docks-b" in card.ids
    assert card.attr_values["money"][card.ids.index("west-india-docks-b")] == 7
    assert len(game.world.components["district"].ids) == 20


def test_abilities_are_written_where_the_reference_has_them(cards: dict[str, Any], districts: dict[str, Any]) -> None:
    c = by_id(cards)
    assert "you.prestige += count(" in c["town-houses-b"]["on_activate"]
    assert c["shops-b"]["on_place"].strip() == "this.stored += 1"
    assert c["bank-of-england-b"]["loan_bonus"] == 2
    d = by_id(districts)
    assert {x["id"] for x in districts["items"] if x.get("on_activate")} == {
        "southwark-bermondsey", "wandsworth", "kensington", "fulham-chelsea", "greenwich"}
    assert all(x["must_activate"] == ("on_activate" in x) for x in districts["items"])
    # The rulebook's activation example overrules the reference's +£1 for Southwark & Bermondsey.
    assert d["southwark-bermondsey"]["money_bonus"] == 0 and d["hampstead"]["hand_limit_bonus"] == 1
    assert d["islington-stoke-newington"]["play_cost_discount"] == 1
