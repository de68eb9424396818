"""The static checks of the designer's workbench, round 2, where the gallery (examples/broken) does not
reach: what they must leave alone, their limits, and the hints they give."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.load.base import MAX_DATA_NUMBER
from interpreter.load.loader import check_game
from ruledsl.diagnostics import Diagnostic, copies_hint

ROOT = Path(__file__).resolve().parents[2]
MARKET = ROOT / "examples" / "broken" / "unknown-field-ability"   # Market, with cards and abilities
PENNY = ROOT / "examples" / "broken" / "schema-unknown-key"         # Penny Market, no board


def market(tmp_path: Path, cards: dict[str, str] | None = None, game: dict[str, str] | None = None,
           rules: dict[str, str] | None = None) -> Path:
    """A copy of Market, its mistake fixed, with these replacements made in its files."""
    folder = tmp_path / "market"
    shutil.copytree(MARKET, folder)
    edits = {"cards.yaml": {"s.cash > 0": "s.money > 0", **(cards or {})}, "game.yaml": game or {},
             "market.rules": rules or {}}
    for name, pairs in edits.items():
        text = (folder / name).read_text(encoding="utf-8")
        for old, new in pairs.items():
            assert old in text, (name, old)
            text = text.replace(old, new)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def errors(folder: Path) -> list[Diagnostic]:
    _, diags, _ = check_game(folder)
    return [d for d in diags if d.severity == "error"]


def test_the_fixed_market_is_clean(tmp_path: Path) -> None:
    assert errors(market(tmp_path)) == []


def test_a_flag_named_like_an_ability_is_an_attribute(tmp_path: Path) -> None:
    # London's districts have `must_activate: false` next to the ability on_activate.
    folder = market(tmp_path, cards={"points: 1}": "points: 1, on_bye: false}",
                                     "points: 3}": "points: 3, on_bye: true}"})
    assert errors(folder) == []


def test_a_key_most_items_share_is_no_misspelling(tmp_path: Path) -> None:
    folder = market(tmp_path, cards={"price: 1,": "price: 1, prices: 1,", "price: 2,": "price: 2, prices: 2,"})
    assert errors(folder) == []


def test_a_misspelt_ability_in_block_style_is_reported_at_its_key(tmp_path: Path) -> None:
    folder = market(tmp_path, cards={"    on_buy: |": "    on_by: |"})
    found = errors(folder)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("schema", 9, 5)]
    assert found[0].hint == "did you mean 'on_buy'?"


def test_numbers_of_the_data_are_bounded_at_load(tmp_path: Path) -> None:
    at_limit = market(tmp_path, game={"last_round: 6": f"last_round: 6\n  far: {MAX_DATA_NUMBER}\n  low: -{MAX_DATA_NUMBER}"})
    assert errors(at_limit) == []
    shutil.rmtree(at_limit)
    beyond = market(tmp_path, cards={"price: 4": f"price: {MAX_DATA_NUMBER + 1}"},
                    game={"initial: 3, ledger: true": "initial: -10000000000, ledger: true"})
    found = sorted((d.span.file.rsplit("/", 1)[-1], d.code) for d in errors(beyond))
    assert found == [("cards.yaml", "too-large"), ("game.yaml", "too-large")]


def test_an_if_else_whose_sides_may_be_none_is_no_type_error(tmp_path: Path) -> None:
    folder = market(tmp_path, rules={"    gain 1 to s.money":
                                     "    let first = market[0] if len(market) > 0 else none\n"
                                     "    gain 1 to s.money"})
    assert [d.code for d in errors(folder)] == []


def test_a_table_may_hold_names_far_from_any_attribute_value(tmp_path: Path) -> None:
    # `lantern` is no card's name, but no near miss either: a name for later, not a typo.
    folder = market(tmp_path, game={"last_round: 6": "last_round: 6\n  specials: [Grain, lantern]"},
                    rules={"sum([c.points for c in s.bought])":
                           "sum([c.points for c in s.bought if c.name in specials])"})
    assert errors(folder) == []
    shutil.rmtree(folder)
    folder = market(tmp_path, game={"last_round: 6": "last_round: 6\n  specials: [Grain, Clth]"},
                    rules={"sum([c.points for c in s.bought])":
                           "sum([c.points for c in s.bought if c.name in specials])"})
    found = errors(folder)
    assert [(d.code, d.message, d.hint) for d in found] == [
        ("unknown-value", "table specials holds 'Clth', but no card has name 'Clth'", "did you mean 'Cloth'?")]


def test_a_field_that_only_records_items_is_no_place(tmp_path: Path) -> None:
    folder = market(tmp_path, game={"    round: {type: int, initial: 0}":
                                    "    round: {type: int, initial: 0}\n"
                                    "    seen: {type: \"list[card]\", initial: []}"},
                    rules={"    add c to s.bought": "    add c to s.bought\n    add c to seen"})
    assert errors(folder) == []


def test_a_field_drawn_from_must_be_a_place(tmp_path: Path) -> None:
    folder = market(tmp_path, game={"places: [deck, market, bought]": "places: [market, bought]"})
    found = errors(folder)
    assert [(d.code, d.hint) for d in found] == [("places", "add it: places: [market, bought, deck]")]
    assert found[0].related[0].span.file.endswith("market.rules")


def test_copies_hints_name_the_ids_an_item_line_stands_for() -> None:
    assert copies_hint("grain", ["grain-1", "grain-2", "grain-3", "bank"]) == (
        "'grain' stands for 3 copies, each with its own id: write one of grain-1 to grain-3")
    assert copies_hint("spice", ["spice-1", "spice-2"]) == (
        "'spice' stands for 2 copies, each with its own id: write spice-1 or spice-2")
    assert copies_hint("bank", ["bank", "grain-1"]) is None
    assert copies_hint("grain", ["grain-x", "grainy-1"]) is None
