"""Your own player in the commands: simulate, compare, play and host seat `FILE.py:CLASS`; the same
seeds give the same games with any --jobs; a mistake is one line naming the file, class and decision."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli import main
from interpreter.core.journal import Journal
from net_helpers import Recorder, new_table, random_picker, start_host

PLAYER = '''
import random


class Builder:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, view, options):
        return self.rng.randrange(len(options))


class Stubborn:
    def __init__(self, seed):
        pass

    def choose(self, view, options):
        return len(options)
'''


@pytest.fixture
def player(tmp_path: Path) -> Path:
    path = tmp_path / "Mine.py"
    path.write_text(PLAYER, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def figures(out: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(out)
    for timing in ("seconds", "games_per_second", "run"):
        data.pop(timing, None)
    return data


def test_simulate_gives_the_same_figures_for_the_same_seeds_with_any_jobs(
        player: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bots = f"{player}:Builder,random,random"
    runs = [run(capsys, "simulate", "downtown", "-n", "6", "--players", "3", "--bots", bots, "--rotate",
                "--json", "--no-progress", "--jobs", jobs) for jobs in ("1", "2", "2")]
    assert all(code == 0 for code, _, _ in runs)
    first = figures(runs[0][1])
    assert first["bots"] == [f"{player}:Builder", "random", "random"]
    assert [b["bot"] for b in first["by_bot"]] == [f"{player}:Builder", "random"]
    assert figures(runs[1][1]) == first == figures(runs[2][1])


def test_a_wrong_answer_in_a_worker_is_one_line_naming_the_file_class_and_decision(
        player: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "downtown", "-n", "4", "--players", "3", "--bots",
                         f"random,{player}:Stubborn,random", "--jobs", "2", "--no-progress")
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"cityrules simulate: custom player {player}, class Stubborn: at decision ")
    assert "not an option index" in line and "(seat 1, Ben: '" in line


def test_a_missing_class_stops_the_command_before_any_game(player: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "compare", "downtown", "downtown", "-n", "2", "--bots", f"{player}:builder")
    assert code == 2 and out == ""
    assert err.strip() == (f"cityrules compare: --bots: custom player '{player}:builder': {player} has no class "
                           "'builder' (its classes: Builder, Stubborn)")


def test_compare_seats_it_on_both_sides(player: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "downtown", "downtown", "-n", "4", "--players", "3", "--no-progress",
                       "--bots", f"{player}:Builder")
    assert code == 0 and "Nothing changes significantly." in out


def test_play_seats_it_and_the_journal_keeps_its_name_as_written(
        player: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", "downtown", "--seats", f"{player}:Builder,RANDOM,random", "--seed", "5",
                       "--journal", str(journal))
    assert code == 0 and f"Ana ({player}:Builder)" in out and "Winner(s):" in out
    saved = Journal.load(journal)
    assert saved.agents == [f"{player}:Builder", "random", "random"] and saved.result is not None


def test_play_stops_on_a_wrong_answer_with_the_game_saved(
        player: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.json"
    code, _, err = run(capsys, "play", "downtown", "--seats", f"random,random,{player}:Stubborn", "--seed", "5",
                       "--journal", str(journal))
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith(f"cityrules play: custom player {player}, class Stubborn: at decision ")
    saved = Journal.load(journal)
    assert saved.agents[2] == f"{player}:Stubborn" and saved.result is None


def test_a_seat_kind_that_is_neither_a_bot_nor_a_player_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "downtown", "--seats", "human,mine:Builder,random")
    assert code == 2 and "unknown seat kind 'mine:builder'" in err and "FILE.py:CLASS" in err


def test_a_hosted_table_seats_it(player: Path, tmp_path: Path) -> None:
    spec = f"{player}:Builder"
    table, codes = new_table("downtown", ["human", spec, "random"], tmp_path / "j.json")

    async def play() -> None:
        host, task = await start_host(table, codes)
        ana = Recorder(host.port, codes[0], random_picker(3))
        await ana.connect()
        last = await asyncio.wait_for(ana.play(), 120)
        assert last is not None and last["type"] == "end"
        await asyncio.wait_for(task, 30)

    asyncio.run(play())
    saved = Journal.load(tmp_path / "j.json")
    assert table.over() and saved.agents == ["human", spec, "random"]
    assert any(seat == 1 for seat, _ in saved.choices)


def test_the_figures_table_widens_its_bot_column_for_a_players_path(
        player: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "downtown", "-n", "2", "--players", "3", "--no-progress",
                       "--bots", f"{player}:Builder,random,random")
    rows = [line for line in out.splitlines() if line.split()[:1] in (["seat"], ["Ana"], ["Ben"], ["Chloé"])]
    assert code == 0 and len(rows) == 4
    # The third column (wins) ends at the same place on every row, the header's included.
    ends = {[m.end() for m in re.finditer(r"\S+", row)][2] for row in rows}
    assert len(ends) == 1, rows


def test_report_names_it_on_its_page(player: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "report", "downtown", "-n", "2", "--players", "3", "--no-progress",
                     "--bots", f"{player}:Builder,random,random", "-o", str(tmp_path / "report"))
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert code == 0 and f"{player.name}:Builder" in page
