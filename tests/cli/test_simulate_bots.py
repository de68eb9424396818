"""`cityrules simulate --bots`: a line-up of bots, its figures, and mistakes in its arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_json_keeps_win_rates_and_adds_the_line_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "examples/harbour", "-n", "4", "--players", "3", "--json",
                       "--bots", "mcts:builder,greedy,random", "--bot-budget", "20")
    data = json.loads(out)
    assert code == 0 and data["bots"] == ["mcts:builder", "greedy", "random"]
    assert len(data["win_rate"]) == 3 and data["games"] == 4
    assert abs(sum(data["win_rate"]) - (4 + data["shared_wins"]) / 4) < 1.0


def test_one_name_seats_every_seat_and_the_table_names_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "examples/harbour", "-n", "2", "--players", "2", "--bots", "greedy")
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["Ana"], ["Ben"])]
    assert [row[:2] for row in rows] == [["Ana", "greedy"], ["Ben", "greedy"]]


def test_journals_of_a_line_up_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path
    code, _, _ = run(capsys, "simulate", "examples/harbour", "-n", "1", "--players", "2", "--bots", "mcts,random",
                     "--bot-budget", "10", "--journals", str(folder))
    assert code == 0
    (journal,) = folder.glob("*.json")
    data = json.loads(journal.read_text(encoding="utf-8"))
    assert data["agents"] == ["mcts", "random"]
    code, out, _ = run(capsys, "replay", str(journal))
    assert code == 0 and "Winner(s):" in out


@pytest.mark.parametrize("args,message", [
    (["--bots", "mcts,clever"], "unknown bot 'clever'"),
    (["--bots", "mcts:nobody"], "has no bot profile 'nobody'"),
    (["--bots", "mcts,random"], "2 bots for 3 seats"),
    (["--bots", "mcts", "--bot-budget", "0"], "argument --bot-budget: 0 is too small"),
    (["--bots", "mcts", "--think", "-1"], "argument --think: '-1' is not a positive number of seconds"),
    (["--bots", "mcts", "--think", "nan"], "argument --think: 'nan' is not a positive number of seconds"),
])
def test_mistakes_are_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    try:
        code, _, err = run(capsys, "simulate", "examples/harbour", "-n", "1", "--players", "3", *args)
    except SystemExit as stop:   # argparse's own checks
        code, err = int(str(stop.code)), capsys.readouterr().err
    assert code == 2 and message in err


def _untrained_copy(tmp_path: Path) -> Path:
    import shutil

    from interpreter.agents.value import FILE_NAME
    from interpreter.load.games import resolve_game

    folder = tmp_path / "harbour"
    shutil.copytree(resolve_game("examples/harbour"), folder)
    (folder / FILE_NAME).unlink(missing_ok=True)
    return folder


def test_the_default_bots_are_the_trained_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "examples/harbour", "-n", "2", "--players", "2", "--json")
    assert code == 0 and json.loads(out)["bots"] == ["bot", "bot"]
    assert "random" not in err


def test_a_game_without_trained_bots_is_refused_with_how_to_train(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = _untrained_copy(tmp_path)
    code, out, err = run(capsys, "simulate", str(folder), "-n", "2", "--players", "2")
    assert code == 2 and not out
    assert "cityrules train" in err and "default of --bots" in err and "--bots greedy" in err
    code, _, _ = run(capsys, "simulate", str(folder), "-n", "1", "--players", "2", "--bots", "greedy")
    assert code == 0


def test_every_seat_random_says_so_with_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "examples/harbour", "-n", "2", "--players", "2", "--bots", "random")
    assert code == 0 and "note: every seat is a random bot" in out
    code, out, _ = run(capsys, "simulate", "examples/harbour", "-n", "2", "--players", "2", "--bots", "random,greedy",
                       "--json")
    assert code == 0 and json.loads(out)["warning"] is None


def test_the_search_budget_help_names_the_budget_mcts_uses(capsys: pytest.CaptureFixture[str]) -> None:
    # The help once said 300 while mcts searched 64 iterations: it now reads the bot's own default.
    from interpreter.agents.mcts import DEFAULT_BUDGET

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"mcts iterations per decision (default: {DEFAULT_BUDGET})" in help_text
