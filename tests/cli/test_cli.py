"""The cityrules command, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.load.loader import load_game

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_validate_clean_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(ROOT / "games" / "downtown"))
    assert code == 0 and "ok (0 error(s), 0 warning(s)" in out


def test_validate_plays_a_few_games_unless_told_not_to(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A game that validates clean and never ends: found by the games validate plays by default.
    _tiny(tmp_path, "phase main:\n    while true:\n        choose x from [1, 2] by seats[0]\n"
                    "        log \"{x}\"\n    end winners seats\n")
    code, out, _ = run(capsys, "validate", "--fuzz-cap", "100", str(tmp_path))
    assert code == 1 and ("main.rules:3:9: error[no-end]: the game did not end within 100 decisions: it was "
                          "still asking this choice (2 seats, seed 0)") in out
    assert "choose x from [1, 2]" in out  # shown at the choice the endless loop keeps asking
    assert "FAILED (1 error(s), 0 warning(s), 1 game(s) played," in out
    code, out, _ = run(capsys, "validate", "--no-play", str(tmp_path))
    assert code == 0 and "ok (0 error(s), 0 warning(s), " in out and "played" not in out


def test_validate_reports_errors_with_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "game.yaml").write_text(
        "name: tiny\ntitle: Tiny\nseats: {min: 2, max: 2}\nrules: [main.rules]\nstart: main\n"
        "state:\n  seat:\n    score: {type: int, initial: 0}\n", encoding="utf-8")
    (tmp_path / "main.rules").write_text(
        "phase main:\n    run zonning\n    end winners [s for s in seats if s.scor > 0]\n\nphase zoning:\n    pass\n",
        encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert code == 1
    assert "main.rules:2:9: error[unknown-phase]: no phase called 'zonning' (did you mean 'zoning'?)" in out
    assert "main.rules:3:" in out and "did you mean 'score'?" in out
    code, out, _ = run(capsys, "validate", "--format", "json", str(tmp_path))
    records = json.loads(out)
    assert {r["code"] for r in records} >= {"unknown-phase", "unknown-field"}
    assert all({"file", "line", "column", "end_line", "end_column", "severity", "code", "message", "hint"} <= set(r)
               for r in records)


def test_validate_unknown_path_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "validate", "no-such-game")
    assert code == 2 and "no game 'no-such-game'" in err


def test_simulate_reports_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "20", "--players", "4", "--seed", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 20 and data["unfinished"] == 0
    assert sum(data["wins"]) >= 20
    assert 8 < data["mean_rounds"] < 16
    assert data["games_per_second"] > 0


def test_simulate_journals_replay_identically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "3", "--players", "5", "--journals", str(tmp_path))
    assert code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    journal = json.loads(files[1].read_text())
    code, out, _ = run(capsys, "replay", str(files[1]), "--json")
    events = [json.loads(line) for line in out.splitlines()]
    last = events[-1]
    assert {k: v for k, v in last.items() if k != "seats"} == {"kind": "result", **journal["result"]}
    assert [set(s) for s in last["seats"]] == [{"name", "money"}] * 5     # Downtown's summary: money
    payouts = [e for e in events if e["kind"] == "payout"]
    assert payouts and all({"lot", "value", "bonus", "well_placed"} <= set(e["data"]) for e in payouts)
    # The same journal replays to the same text log twice over.
    _, first, _ = run(capsys, "replay", str(files[1]))
    _, second, _ = run(capsys, "replay", str(files[1]))
    assert first == second and "Winner(s):" in first


def test_play_from_standard_input_and_resume(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    cli = [sys.executable, "-m", "interpreter.cli", "play", "downtown", "--seed", "3",
           "--seats", "human,bot,bot", "--journal", str(journal)]
    # A typo, help, then two answers; end of input saves the game.
    first = subprocess.run(cli, input="banana\nhelp\n1\n1\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert first.returncode == 0, first.stderr
    assert "'banana' is not one of the options" in first.stdout
    assert "Resume with:  cityrules play --resume" in first.stdout
    saved = json.loads(journal.read_text())
    assert saved["agents"] == ["human", "bot", "bot"]
    made = len(saved["choices"])
    assert made >= 2
    resumed = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "--resume", str(journal)],
                             input="1\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    again = json.loads(journal.read_text())
    assert again["choices"][:made] == saved["choices"] and len(again["choices"]) > made


def _tiny(folder: Path, rules: str) -> None:
    (folder / "game.yaml").write_text(
        "name: tiny\ntitle: Tiny\nseats: {min: 2, max: 2}\nrules: [main.rules]\nstart: main\n"
        "state:\n  global:\n    pile: {type: \"list[int]\", initial: [1, 2]}\n", encoding="utf-8")
    (folder / "main.rules").write_text(rules, encoding="utf-8")


def test_fuzz_reports_a_runtime_error_with_the_seed_and_the_command(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # Drawing three times from a pile of two fails whatever the choices are.
    _tiny(tmp_path, "phase main:\n    for i in range(3):\n        choose x from [1, 2] by seats[0]\n"
                    "        draw c from pile\n        log \"{x} {c}\"\n    end winners seats\n")
    code, out, _ = run(capsys, "validate", "--fuzz", "2", str(tmp_path))
    assert code == 1
    assert "main.rules:4:9: error[runtime]: draw from an empty list (2 seats, seed 0)" in out
    assert f"reproduce: cityrules simulate {tmp_path} -n 1 --players 2 --seed 0" in out


def test_fuzz_reports_games_that_never_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _tiny(tmp_path, "phase main:\n    while true:\n        choose x from [1, 2] by seats[0]\n        log \"{x}\"\n"
                    "    end winners seats\n")
    code, out, _ = run(capsys, "validate", "--fuzz", "1", "--fuzz-cap", "50", "--format", "json", str(tmp_path))
    records = json.loads(out)
    assert code == 1 and [r["code"] for r in records] == ["no-end"]
    assert "did not end within 50 decisions" in records[0]["message"] and "--cap 50" in records[0]["hint"]


def test_fuzz_of_the_shipped_games_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", "--fuzz", "1", "downtown", "city", "london")
    assert code == 0, out
    for name in ("downtown", "city", "london"):
        g = load_game(name)
        games = (g.max_seats - g.min_seats + 1) * (1 + len(g.variants))  # every seat count of every variant
        assert f"{name}: ok (0 error(s), 0 warning(s), {games} game(s) played," in out
