"""`cityrules new`: the folder it writes validates without a warning, plays (bots and a human at
the terminal), simulates and passes its own scenario; it never writes over anything."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from interpreter.workbench.scaffold import ScaffoldError, game_name, write_game
from workbench_helpers import run


@pytest.fixture
def new_game(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "new", "orchard")
    assert code == 0 and err == ""
    assert out.startswith("Wrote a new game in orchard. Try it:\n  cityrules validate orchard\n")
    return tmp_path / "orchard"


def test_it_validates_without_a_warning(new_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", "--strict", "--fuzz", "5", "orchard")
    assert code == 0, out
    assert "orchard: ok (0 error(s), 0 warning(s)" in out and "game(s) played" in out
    assert sorted(p.relative_to(new_game).as_posix() for p in new_game.rglob("*") if p.is_file()) == [
        "game.rules", "game.yaml", "tests/first.yaml"]


def test_it_passes_its_own_scenario(new_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "test", "orchard", "-v")
    assert code == 0, out
    assert "ok      orchard/tests/first.yaml: Buying a point costs 3 coins; working earns 2" in out
    assert "orchard: ok (1 passed, 0 failed" in out


def test_it_simulates(new_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--bots", "random", "orchard", "-n", "40", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["games"] == 40 and report["unfinished"] == 0 and report["mean_rounds"] == 5


def test_it_plays_with_bots_and_with_a_human_at_the_terminal(new_game: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, _ = run(capsys, "play", "orchard", "--seats", "bot,bot,bot", "--seed", "4", "--journal", "bots.json")
    assert code == 0
    assert json.loads(Path("bots.json").read_text(encoding="utf-8"))["result"] is not None
    # A human who always answers "work" (an option's label), against a bot.
    monkeypatch.setattr("sys.stdin", io.StringIO("work\n" * 20))
    code, out, _ = run(capsys, "play", "orchard", "--seats", "human,bot", "--seed", "4", "--journal", "human.json")
    assert code == 0, out
    journal = json.loads(Path("human.json").read_text(encoding="utf-8"))
    assert journal["result"] is not None
    assert [c for s, c in journal["choices"] if s == 0] and all(c == "action:work" for s, c in journal["choices"] if s == 0)


def test_it_never_writes_over_a_folder_that_has_files(new_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (new_game / "game.rules").read_text(encoding="utf-8")
    (new_game / "game.rules").write_text(before + "# mine\n", encoding="utf-8")
    code, _, err = run(capsys, "new", "orchard")
    assert code == 2 and "orchard already exists and is not empty: nothing was written" in err
    assert (new_game / "game.rules").read_text(encoding="utf-8").endswith("# mine\n")


@pytest.mark.parametrize("folder, name", [("orchard", "orchard"), ("My Game", "my-game"), ("cafe_2", "cafe-2"),
                                          ("Été Royal", "ete-royal")])
def test_the_name_comes_from_the_folder(folder: str, name: str) -> None:
    assert game_name(Path(folder)) == name


@pytest.mark.parametrize("folder", ["9 lives", "---", "日本"])
def test_a_folder_that_cannot_name_a_game_is_refused(folder: str, tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError):
        write_game(tmp_path / folder)
    assert not (tmp_path / folder).exists()


def test_a_title_of_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "new", str(tmp_path / "night-market"), "--title", "Night Market: the Game")
    assert code == 0
    assert 'title: "Night Market: the Game"' in (tmp_path / "night-market" / "game.yaml").read_text(encoding="utf-8")
    code, out, _ = run(capsys, "validate", "--strict", str(tmp_path / "night-market"))
    assert code == 0, out
