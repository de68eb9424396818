"""`cityrules test` over the shipped games and examples/harbour: what CI runs, and the rulebooks'
worked examples that must exist as scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.workbench.check import scenario_files
from interpreter.workbench.scenario import read_file
from workbench_helpers import ROOT, run

GAMES = {"downtown": ROOT / "games" / "downtown", "london": ROOT / "games" / "london",
         "city": ROOT / "games" / "city", "examples/harbour": ROOT / "examples" / "harbour"}

# Each worked example of the rulebooks (shared/rules/*.txt), by the start of its scenario's name.
RULEBOOK_EXAMPLES = {
    "downtown": ["Example 1:", "Example 2:", "Example 3:", "Example 4:", "Example 5:",
                 "Counting: a housing", "Counting: an industry", "Counting: a commerce",
                 "Figure 1:", "Figure 2:", "Figure 3:", "Bonus: A and B on a well", "Bonus: A alone",
                 "Bonus: A and B on a lot that is not", "Bonus: A, B and C", "Prices:",
                 "Everyone pays for the parcels asked for"],
    "london": ["Development example:", "Purchase example:", "Activation example 1:", "Activation example 2:",
               "Poverty:", "Cards in hand become poverty", "Loans are repaid", "Tie-break:"],
    "city": ["Example: a blue customer", "Example: the thief at an opponent's shop",
             "Example: a brown customer", "Example: the thief to an opponent's 3-token shop"],
}


def names(folder: Path) -> list[str]:
    found = []
    for path in scenario_files(folder):
        scenarios, problems, _ = read_file(path, str(path))
        assert not problems, problems
        found += [s.name for s in scenarios]
    return found


def test_every_shipped_game_and_harbour_pass_their_scenarios(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "test", *GAMES)
    assert code == 0, out + err
    for game in GAMES:
        assert f"\n{game}: ok (" in "\n" + out, out
    assert "FAILED" not in out and err == ""


def test_without_arguments_it_tests_every_shipped_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "test")
    assert code == 0, out
    assert [line.split(":")[0] for line in out.splitlines() if ": ok (" in line] == ["city", "downtown", "london"]


@pytest.mark.parametrize("game", sorted(RULEBOOK_EXAMPLES))
def test_each_rulebook_example_is_a_scenario(game: str) -> None:
    written = names(GAMES[game])
    missing = [e for e in RULEBOOK_EXAMPLES[game] if not any(n.startswith(e) for n in written)]
    assert not missing, f"{game}: no scenario for {missing}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_validate_checks_the_scenarios_of_every_game_clean(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(GAMES[game]))
    assert code == 0 and "ok (0 error(s), 0 warning(s)" in out, out
