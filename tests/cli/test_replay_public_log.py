"""replay --json: an observer rebuilds every public number from the public record alone, and sees nothing hidden."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.load.loader import load_game


def public_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, players: int) -> list[dict]:
    assert main(["simulate", "--bots", "random", game, "-n", "1", "--players", str(players), "--seed", "3",
                 "--journals", str(tmp_path)]) == 0
    capsys.readouterr()
    (journal,) = tmp_path.glob("*.json")
    assert main(["replay", str(journal), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_an_observer_rebuilds_money_and_prestige_from_the_public_log(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    lines = public_record(tmp_path, capsys, "london", 3)
    start = next(line for line in lines if line["kind"] == "fields")
    seen = {name: list(values) for name, values in start["seat"].items()}
    for line in lines:
        if line["kind"] == "field" and line["seat"] is not None:
            assert seen[line["field"]][line["seat"]] == line["was"]   # no change happens unlogged
            seen[line["field"]][line["seat"]] = line["value"]
    result = lines[-1]
    assert result["kind"] == "result" and result["winners"]
    for i, seat in enumerate(result["seats"]):
        assert {"money", "prestige"} <= set(seat)
        assert (seen["money"][i], seen["prestige"][i]) == (seat["money"], seat["prestige"])
    assert any(line["kind"] == "field" and line["field"] == "prestige" for line in lines)


@pytest.mark.parametrize("game, players", [("london", 3), ("downtown", 4)])
def test_no_hidden_field_reaches_the_public_log(game: str, players: int, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    g = load_game(game)
    hidden = {f.name for f in (*g.seat_fields, *g.global_fields) if f.visible != "all"}
    assert hidden     # London's hands and deck, Downtown's planning piles
    lines = public_record(tmp_path, capsys, game, players)
    named = {line["field"] for line in lines if line["kind"] == "field"}
    start = next(line for line in lines if line["kind"] == "fields")
    named |= set(start["seat"]) | set(start["global"])
    named |= {key for seat in lines[-1]["seats"] for key in seat} - {"name"}
    assert named and not named & hidden
