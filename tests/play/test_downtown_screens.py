"""Downtown as a new player reads it: the purchase list says what its numbers are and fits a 120×40
screen with the board, and the end says each seat's money in sentences that add up."""

from __future__ import annotations

from typing import Any

from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from interpreter.core.state import copy_state
from interpreter.play.frame import as_text, end_lines, seat_screen
from interpreter.play.screen import Screens, fitted
from play_screens_helpers import engine_of, positions


def _purchases(engine: Engine, seats: int, seed: int) -> list[tuple[dict[str, Any], Decision]]:
    """Copies of the states of a bot game at each purchase question, with the question."""
    found = []
    for state in positions(engine, seats, seed):
        d = engine.pending(state)
        if isinstance(d, Decision) and d.name == "target" and engine.first_open_seat(state) == d.seats[0]:
            found.append((copy_state(state), d))
    return found


def _asked(engine: Engine, state: dict[str, Any]) -> Decision:
    d = engine.pending(state)
    assert isinstance(d, Decision)
    return d


def test_each_lot_offered_says_what_is_left_its_prices_and_what_it_pays_per_marker() -> None:
    engine = engine_of("downtown")
    state, d = _purchases(engine, 4, 3)[3]
    seat = d.seats[0]
    assert "(costs: price of 1/2/3 parcels; pays: per marker if complete now; park: no purchase)" in d.prompts[seat]
    details = {o.label: o.detail for o in d.options(seat)}
    zoned = engine.game.node_index("13")
    assert state["node"]["plaque"][zoned] == "industry"
    assert details["13"].startswith("industry: 4 of 4 left, costs 3/7/12, pays ")
    assert details["13"].endswith("/marker")
    assert details["1"] == "not zoned: 4 of 4 left, costs 2/5/9"
    assert details["4"] == "park: no purchase"


def test_a_full_lot_says_parcels_bought_there_are_lost() -> None:
    engine = engine_of("downtown")
    state, d = _purchases(engine, 4, 3)[3]
    lot = engine.game.node_index("2")
    state["node"]["markers"][lot] = [0, 1, 1, 2]
    assert next(o.detail for o in _asked(engine, state).options(d.seats[0]) if o.label == "2") == "not zoned: FULL, parcels bought here are lost"
    state["node"]["markers"][lot] = [1]
    assert next(o.detail for o in _asked(engine, state).options(d.seats[0]) if o.label == "2") == "not zoned: 3 of 4 left, costs 2/5/9"


def test_the_purchase_screen_keeps_the_board_on_a_120_by_40_terminal() -> None:
    engine = engine_of("downtown")
    screens = Screens(engine, strict=True)
    for seats in (3, 4, 5):  # (6 seats: 41 lines, the heading scrolls off, the board stays)
        for state, d in _purchases(engine, seats, 7)[:6]:
            # (as the session prints it: a line too long for the terminal cut under itself)
            text = as_text(fitted(seat_screen(engine, state, d.seats[0], 120, None, screens), 120), 120)
            lines = text.splitlines()
            assert lines[0].startswith("── Downtown")   # the board's heading is on screen ...
            assert len(lines) <= 40, (seats, len(lines))  # ... with the whole question under it
            assert max(len(line) for line in lines) <= 120


def test_the_end_gives_each_seats_money_in_sentences_that_add_up() -> None:
    engine = engine_of("downtown")
    *_, state = positions(engine, 3, 1)
    assert state["result"] is not None
    text = as_text(end_lines(engine, state, Screens(engine, strict=True)), 80)
    assert "money at the start" in text and "paid for parcels over the game" in text
    assert " · " not in text     # no raw event lines
    lines = text.splitlines()
    for seat, name in enumerate(state["names"]):
        head = lines.index(f"  {name}: {state['seat']['money'][seat]} money")
        parts = []
        for line in lines[head + 1:]:
            if line.strip().startswith("="):
                break
            parts.append(int(line.split()[0]))
        assert sum(parts) == state["seat"]["money"][seat]
    assert any("paid" in line and "for each of" in line and "marker(s)" in line for line in lines)
