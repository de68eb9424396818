"""tune: knobs and targets as written, the search, and the variant written into game.yaml."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.analysis.tune import (
    GameNumbers,
    Knob,
    Trial,
    TuneError,
    add_variant,
    get_value,
    parse_knob,
    parse_target,
    search,
    set_values,
)
from interpreter.cli import main
from interpreter.load.loader import load_game

ROOT = Path(__file__).resolve().parents[2]


def test_knobs_reach_inside_tables() -> None:
    tables = {"prices": {"bare": [0, 2, 5, 9]}, "lobby_weight": 2, "bonus": {1: {"well": 10}}}
    knob = parse_knob("prices.bare.1=1..4")
    assert knob == Knob(("prices", "bare", "1"), 1, 4) and get_value(tables, knob) == 2
    assert get_value(tables, parse_knob("bonus.1.well=5..15")) == 10
    changed = set_values(tables, {knob: 3, parse_knob("lobby_weight=1..3"): 1})
    assert changed == {"prices": {"bare": [0, 3, 5, 9]}, "lobby_weight": 1}
    assert tables["prices"]["bare"][1] == 2          # the game's own tables are left alone
    for bad, message in (("prices.bare.9=1..2", "outside the list"), ("nothing=1..2", "no table"),
                         ("prices=1..2", "not a whole number"), ("prices.bare.1=4..1", "above"),
                         ("prices.bare.1", "TABLE.KEY=LO..HI")):
        with pytest.raises(TuneError, match=message):
            get_value(tables, parse_knob(bad))


def test_targets_measure_their_figures() -> None:
    data = {"win_rate": [0.30, 0.20, 0.25, 0.25], "first_seat_advantage": {"value": 0.0667},
            "rounds": {"quantiles": {"median": 14}}, "margin": {"mean": 3.0}}
    assert parse_target("fair:2").measure(data) == pytest.approx((5.0, 3.0))
    assert parse_target("first-seat:10").measure(data) == pytest.approx((6.67, 0.0))
    assert parse_target("rounds:10..12").measure(data) == (14.0, 2.0)
    assert parse_target("margin:2..6").measure(data) == (3.0, 0.0)
    with pytest.raises(TuneError, match="targets are"):
        parse_target("fun")


def test_variant_is_added_with_the_file_otherwise_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "downtown"
    shutil.copytree(ROOT / "games" / "downtown", folder)
    before = (folder / "game.yaml").read_text()
    add_variant(folder, "cheap", "cheaper lots", {"lobby_weight": 3}, lambda f, n: load_game(str(f), n))
    after = (folder / "game.yaml").read_text()
    assert after.startswith(before.rstrip("\n")) and "# Every number of the game is here" in after
    assert load_game(str(folder), "cheap").variant == "cheap"
    with pytest.raises(TuneError, match="already has a variant 'cheap'"):
        add_variant(folder, "cheap", "again", {"lobby_weight": 1}, lambda f, n: None)
    # A variant the loader refuses is taken back out.
    with pytest.raises(Exception):
        add_variant(folder, "broken", "no such table", {"nothing": 1}, lambda f, n: load_game(str(f), n))
    assert (folder / "game.yaml").read_text() == after


def test_tune_finds_values_and_writes_a_playable_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "downtown"
    shutil.copytree(ROOT / "games" / "downtown", folder)
    code = main(["tune", "--bots", "random", str(folder), "--vary", "max_parcels.4=1..3", "--target", "rounds:10..11",
                 "--trials", "4", "-n", "30", "--jobs", "1", "--players", "4", "--name", "short", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"]["written_to"] == str(folder / "game.yaml")
    assert data["best"]["values"]["max_parcels.4"] in (1, 2, 3)
    assert data["confirmed"]["seeds"]["first"] == 30 and data["confirmed"]["games"] == 30
    assert data["baseline"]["values"] == {"max_parcels.4": 3}
    assert len(data["trials"]) >= 2
    # The best candidate scores no worse than the game's own values on the search's seeds.
    assert data["best"]["loss"] <= data["baseline"]["loss"]
    written = yaml.safe_load((folder / "game.yaml").read_text())["options"]["short"]["values"]
    assert written["max_parcels"][4] == data["best"]["values"]["max_parcels.4"]
    assert written["max_parcels"][3] == 3            # the rest of the table as the game has it
    assert load_game(str(folder), "short").variant == "short"
    assert main(["simulate", "--bots", "random", str(folder), "--variant", "short", "-n", "3", "--jobs", "1"]) == 0


HARBOUR = ROOT / "examples" / "harbour"


def test_knobs_name_items_as_their_file_writes_them_and_initial_values(tmp_path: Path) -> None:
    numbers = GameNumbers(HARBOUR, None)
    fish, coins, wage = parse_knob("fish.value=1..3"), parse_knob("seat.coins=3..8"), parse_knob("wage=1..4")
    assert [numbers.kind(k) for k in (fish, coins, wage)] == ["item", "state", "table"]
    assert numbers.value(fish) == 1 and numbers.value(coins) == 5
    assert numbers.where(fish) == "attribute 'value' of item 'fish' (ships.yaml, all 4 copies)"
    assert numbers.where(coins) == "the initial value of seat field 'coins' (game.yaml)"
    folder = tmp_path / "harbour"
    shutil.copytree(HARBOUR, folder)
    numbers.write(folder, {fish: 3, coins: 7, wage: 9})       # a table is the variant's to give: left alone
    again = GameNumbers(folder, None)
    assert again.value(fish) == 3 and again.value(coins) == 7 and again.value(wage) == numbers.value(wage)
    game = load_game(str(folder))
    assert next(f for f in game.seat_fields if f.name == "coins").initial == 7
    for bad, message in (("fsh.value=1..2", "did you mean 'fish'"), ("fish.name=1..2", "'Fishing smack', not a whole"),
                         ("fish.speed=1..2", "no attribute 'speed'.*value"), ("fish-1.value=1..2", "no table, state scope or item"),
                         ("seat.gold=1..2", "no field 'gold'"), ("fish.value.x=1..2", "write ITEM.ATTRIBUTE")):
        with pytest.raises(TuneError, match=message):
            numbers.value(parse_knob(bad))


def test_a_small_range_is_tried_whole_and_a_large_one_from_its_ends() -> None:
    def evaluate(values: dict[Knob, int]) -> Trial:
        return Trial({k.name: v for k, v in values.items()}, float(sum(values.values())), {})

    knob = parse_knob("x=1..3")
    tried = [t.values["x"] for t in search([knob], 5, 0, evaluate, {knob: 2})]
    assert tried == [2, 1, 3]                     # the game's own value first; each once
    wide = parse_knob("x=1..40")
    tried = [t.values["x"] for t in search([wide], 6, 0, evaluate, {wide: 20})]
    assert tried[:3] == [20, 1, 40] and len(set(tried)) == len(tried) == 6


def test_a_missed_target_says_in_words_what_was_measured_and_how_far_off() -> None:
    data = {"win_rate": [0.30, 0.20, 0.25, 0.25], "first_seat_advantage": {"value": 0.0667},
            "rounds": {"quantiles": {"median": 14}}, "margin": {"mean": 3.0}}
    assert parse_target("fair:2").explain(data) == ("the seat furthest from the average win rate is 5.00 points "
                                                    "from it: 3.00 points too far, which adds 3.00 to the loss")
    assert parse_target("rounds:10..12").explain(data) == ("the median game lasts 14 rounds: 2.00 rounds too many, "
                                                           "which adds 2.00 to the loss")
    assert parse_target("margin:2..6").explain(data) == "winners lead by 3.00 on average"


def test_tune_varies_an_item_and_says_why_it_writes_no_variant(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "harbour"
    shutil.copytree(HARBOUR, folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    code = main(["tune", "--bots", "random", str(folder), "--vary", "fish.value=1..3", "--target", "fair:3",
                 "--trials", "5", "-n", "6", "--jobs", "1", "--players", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "fish.value: attribute 'value' of item 'fish' (ships.yaml, all 4 copies); the game has 1, searched 1..3" in out
    assert "Best values among 3 different candidates" in out and "loss: the sum of how far each target is missed" in out
    assert "Not written as a variant: a variant replaces tables only" in out
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before


def test_a_field_that_starts_from_a_table_is_tuned_through_the_table(tmp_path: Path) -> None:
    folder = tmp_path / "harbour"
    shutil.copytree(HARBOUR, folder)
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("tables:\n", "tables:\n  start_coins: 5\n", 1), encoding="utf-8")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["state"]["seat"]["coins"]["initial"] = "start_coins"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    numbers = GameNumbers(folder, None)
    with pytest.raises(TuneError, match=r"its initial value is table 'start_coins': vary the table \(--vary start_coins="):
        numbers.value(parse_knob("seat.coins=3..8"))
    knob = parse_knob("start_coins=3..8")
    assert numbers.kind(knob) == "table" and numbers.value(knob) == 5
    add_variant(folder, "rich", "more coins", set_values(numbers.tables, {knob: 8}),
                lambda where, name: load_game(str(where), name))
    rich = load_game(str(folder), "rich")
    assert next(f for f in rich.seat_fields if f.name == "coins").initial == 8
