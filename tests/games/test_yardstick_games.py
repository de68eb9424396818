"""The yardstick games of the benchmarks (benchmarks/games/): they keep validating, passing their
scenarios and playing to the end as the language changes, and keep a value trained on their rules.

They are not shipped games: `make bench` measures the bots' cost on them (benchmarks/bench_acquire.py
on Acquire, issue 25), so a yardstick that stopped loading, or whose trained value no longer fits
its rules, would silently stop measuring anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents.value import learned_value
from interpreter.analysis.simulate import play_bots
from interpreter.core.engine import Engine
from interpreter.load.loader import check_game
from workbench_helpers import ROOT, run

ACQUIRE = ROOT / "benchmarks" / "games" / "acquire"
YARDSTICKS = {"acquire": ACQUIRE}


def _engine(folder: Path) -> Engine:
    game, diags, _ = check_game(folder)
    assert game is not None, [d.message for d in diags]
    return Engine(game)


@pytest.mark.parametrize("name", sorted(YARDSTICKS))
def test_validates_with_no_diagnostics(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`cityrules validate`, its trial games and the scenario files included: not even a warning."""
    game, diags, _ = check_game(YARDSTICKS[name])
    assert game is not None
    assert [f"{d.span.file}:{d.span.line}: {d.message}" for d in diags] == []
    code, out, _ = run(capsys, "validate", str(YARDSTICKS[name]))
    assert code == 0 and "ok (0 error(s), 0 warning(s)" in out, out


@pytest.mark.parametrize("name", sorted(YARDSTICKS))
def test_scenarios_pass(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "test", str(YARDSTICKS[name]))
    assert code == 0 and "FAILED" not in out and err == "", out + err


@pytest.mark.parametrize("name", sorted(YARDSTICKS))
def test_the_value_is_trained_on_the_current_rules(name: str) -> None:
    """Else `bot` cannot be seated and the bench stops: run `cityrules train` on the folder again."""
    engine = _engine(YARDSTICKS[name])
    value = learned_value(engine)
    state = engine.new_game(engine.game.min_seats, 3)
    assert 0.0 < value.value(state, 0) < 1.0


@pytest.mark.parametrize("seed", [0, 1])
def test_acquire_random_games_end_with_chains_founded_and_merged(seed: int) -> None:
    """Two seeded games of four random seats: they end, chains are founded and merged, money moves."""
    state, record = play_bots(_engine(ACQUIRE), 4, seed, max_decisions=2000)
    assert state["result"] is not None, f"seed {seed} did not end in 2000 decisions"
    assert record.winners and all(0 <= w < 4 for w in record.winners)
    kinds = [event["kind"] for event in state["log"]]
    assert kinds.count("found") >= 2 and "merger" in kinds and "bonus" in kinds and "dispose" in kinds
    assert "declare" in kinds or "stuck" in kinds
    money = state["seat"]["money"]
    assert money != [6000] * 4 and all(m >= 0 for m in money)
    assert max(money) == state["seat"]["money"][record.winners[0]]
    # Every tile is in exactly one place: on the board, in a hand, in the pool or discarded.
    placed = sum(state["node"]["placed"])
    held = sum(len(hand) for hand in state["seat"]["hand"])
    assert placed + held + len(state["global"]["pool"]) + len(state["global"]["discarded"]) == 108
