"""The decision API: pending / apply / views, and errors that say who is at fault."""

from __future__ import annotations

import pytest

from interpreter.analysis.simulate import play_bots
from interpreter.core.decision import Decision, GameOver, NotYourTurn, Result, UnknownOption
from interpreter.core.engine import Engine
from interpreter.core.view import HIDDEN, view
from interpreter.load.loader import load_game


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game("downtown"))


def to_decision(engine: Engine, state: dict, name: str) -> tuple[dict, Decision]:
    """Answer with each seat's first option until a decision called `name` is pending."""
    for _ in range(500):
        d = engine.pending(state)
        assert isinstance(d, Decision)
        if d.name == name:
            return state, d
        state = engine.apply(state, d.options(d.seats[0])[0].id, d.seats[0])
    raise AssertionError(f"no decision {name}")


def test_first_decision_is_the_mayors_pile(engine: Engine) -> None:
    state = engine.new_game(4, seed=11)
    d = engine.pending(state)
    assert isinstance(d, Decision)
    assert d.name == "side" and d.seats == (0,) and not d.secret
    assert [o.id for o in d.options(0)] == ["side:west", "side:east"]
    assert "mayor" in d.prompt(0)


def test_votes_are_secret_and_simultaneous(engine: Engine) -> None:
    state, d = to_decision(engine, engine.new_game(4, seed=11), "kind")
    assert d.secret and d.simultaneous and d.seats == (0, 1, 2, 3)
    state = engine.apply(state, d.options(2)[0].id, 2)
    d2 = engine.pending(state)
    assert isinstance(d2, Decision) and d2.seats == (0, 1, 3)
    # Another seat's view says who answered, never what.
    v = view(engine, state, 0)
    assert v["pending"]["answered"] == [2]
    assert set(v["pending"]) == {"waiting_for", "answered", "prompt", "options", "details"}  # (the viewer's own)
    assert "stack" not in v and "answers" not in str(v)
    with pytest.raises(NotYourTurn):
        engine.apply(state, d.options(2)[0].id, 2)


def test_unknown_option_quotes_the_input_and_lists_legal_ones(engine: Engine) -> None:
    state = engine.new_game(4, seed=11)
    with pytest.raises(UnknownOption, match="'side:north'.*side:west"):
        engine.apply(state, "side:north", 0)
    with pytest.raises(NotYourTurn, match="not Ben's choice"):
        engine.apply(state, "side:west", 1)


def test_apply_returns_a_new_state_and_keeps_the_old(engine: Engine) -> None:
    state = engine.new_game(4, seed=11)
    new = engine.apply(state, "side:east", 0)
    assert engine.pending(state).name == "side"  # type: ignore[union-attr]
    assert new is not state and new["decisions"] == 1 and state["decisions"] == 0


def test_finished_game_refuses_choices(engine: Engine) -> None:
    state, record = play_bots(engine, 3, seed=2)
    result = engine.pending(state)
    assert isinstance(result, Result) and result.winners == record.winners
    with pytest.raises(GameOver):
        engine.apply(state, "side:west", 0)


def test_winners_have_the_most_money(engine: Engine) -> None:
    for seed in range(20):
        state, record = play_bots(engine, 4, seed)
        money = state["seat"]["money"]
        assert set(record.winners) == {s for s in range(4) if money[s] == max(money)}


def test_piles_are_hidden_from_every_seat(engine: Engine) -> None:
    state = engine.new_game(5, seed=4)
    assert len(state["global"]["piles"]["west"]) > 0
    for seat in [None, 0, 3]:
        assert view(engine, state, seat)["global"]["piles"] == HIDDEN


def test_seat_count_is_checked(engine: Engine) -> None:
    with pytest.raises(ValueError, match="3 to 6 seats"):
        engine.new_game(2, seed=1)
