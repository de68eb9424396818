"""Stored games of every game replay to the same event log, byte for byte.

The journals and logs in tests/data/golden/ were written by `make goldens` (tests/golden_journals.py).
They pin each game's behaviour: an engine or compiler change must leave every log as it was. Only
a change to a game's own rules may regenerate that game's files, on purpose.
"""

from __future__ import annotations

import pytest

from golden_journals import GOLDEN, Case, cases, digest, engine_for, events_text, load_journal, replayed
from interpreter.agents import RandomAgent, bot_seed
from interpreter.analysis.simulate import play_bots

CASES = cases()


def test_every_case_is_stored() -> None:
    stored = {p.name for p in GOLDEN.iterdir()}
    for case in CASES:
        assert f"{case.name}.journal" in stored, f"missing {case.name}: run make goldens"
        assert f"{case.name}.events.jsonl" in stored
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_journal_replays_to_the_stored_event_log(case: Case) -> None:
    expected = (GOLDEN / f"{case.name}.events.jsonl").read_text(encoding="utf-8")
    actual = events_text(replayed(case))
    assert actual == expected, f"{case.name}: the event log changed (regenerate only if the rules changed)"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bots_play_the_stored_game_again(case: Case) -> None:
    """The simulation path makes the journal's choices and reaches the same final data."""
    journal = load_journal(case)
    state, record = play_bots(engine_for(case), case.seats, case.seed, keep_journal=True)
    assert record.journal is not None
    assert record.journal.choices == journal.choices
    assert state["result"] == journal.result
    final = (GOLDEN / f"{case.name}.events.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    assert digest(state) in final


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_same_game_without_its_event_log(case: Case) -> None:
    """Simulations skip the log; nothing else about the game may change."""
    state, _ = play_bots(engine_for(case), case.seats, case.seed, log=False)
    assert state["log"] == []
    final = (GOLDEN / f"{case.name}.events.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    assert digest(state) in final


@pytest.mark.parametrize("case", CASES[::3], ids=lambda c: c.name)
def test_playouts_from_the_middle_continue_the_stored_game(case: Case) -> None:
    """A paused game handed to bots (`Engine.playout`) goes on exactly as the journal did."""
    engine = engine_for(case)
    journal = load_journal(case)
    expected = (GOLDEN / f"{case.name}.events.jsonl").read_text(encoding="utf-8")
    bots = [RandomAgent(bot_seed(case.seed, s)) for s in range(case.seats)]
    for stop in (0, len(journal.choices) // 3, len(journal.choices) - 1):
        state = engine.new_game(case.seats, case.seed, journal.names)
        for seat, option in journal.choices[:stop]:
            engine.apply_inplace(state, option, seat)
        rest: list[tuple[int, str]] = []
        engine.playout(state, [b.picker for b in bots], journal=rest)
        assert journal.choices[:stop] + rest == journal.choices
        assert events_text(state) == expected
