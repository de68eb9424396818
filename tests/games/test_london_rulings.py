"""London: the points the rulebook leaves open, as shared/rules/RULINGS.md settles them.

Each test drives a position built by tests/london_helpers.py through `engine.pending` /
`engine.apply`, so that the rule files in games/london/ do the work being checked. Seat 0 is the
player; at the start of its turn it takes TURN_CARD from the top of the deck.
"""

from __future__ import annotations

import pytest

from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from london_helpers import (
    SPARE,
    TURN_CARD,
    London,
    State,
    activate,
    activation,
    answer,
    begin_action,
    delta,
    expect,
    numbers,
    options,
    pass_turn,
    pick_card,
    position,
    step_cards,
    take_from_deck,
)


@pytest.fixture(scope="module")
def L() -> London:
    return London(Engine(load_game("london")))


def card_options(L: London, state: State, name: str) -> set[str]:
    """The card ids a decision offers (its option ids end with ':<card id>'; 'none' entries left out)."""
    return {o.rsplit(":", 1)[1] for o in options(L.engine, state, name) if not o.endswith(":none")}


def four_cards(L: London) -> list[str]:
    """Four plain brown money cards that are in no other role in these tests."""
    return ["vintners-a", "haberdashers-a", "fishmongers-a", "billingsgate-market-c"]


# ===================================================== a covered or face-down card is out of play

def coffee_house_then(L: London, placed: str, *, board: tuple[str, ...] = ()) -> State:
    """Seat 0 activates its Coffee House, puts `placed` from the development board on it and
    activates it at once; Whitehall is still to come."""
    e = L.engine
    state = position(L, project=[["coffee-house-a-1"], ["whitehall-c"], [SPARE]])
    L.set_rows(state, top=[placed, *board])
    state = begin_action(e, state, "activate")
    state = activate(L, state, "coffee-house-a-1")
    state = pick_card(e, state, "bought", placed)
    state = answer(e, state, "now", "now:yes")
    assert L.piles(state, 0)[0][0] == "coffee-house-a-1" and L.piles(state, 0)[0][1].lstrip("-") == placed
    return state


def test_whitehall_repeats_the_card_on_the_coffee_house_but_not_the_covered_coffee_house(L: London) -> None:
    # Grand Hotel (+£4, stays face up) now covers the Coffee House: only Grand Hotel may go again,
    # so Whitehall asks nothing (a single legal option is taken without asking).
    e = L.engine
    state = coffee_house_then(L, "grand-hotel-c", board=("vintners-a",))
    before = state
    state = activate(L, state, "whitehall-c")
    expect(e, state, "step")
    assert delta(before, state)["money"] == 4
    assert L.row(state, "top_row") == ["vintners-a"] and L.face_up(state, "vintners-a")
    assert L.piles(state, 0)[0] == ["coffee-house-a-1", "grand-hotel-c"]
    L.check_places(state)


def test_whitehall_has_nothing_to_repeat_when_the_coffee_house_is_covered_and_its_card_flipped(L: London) -> None:
    # Salters (+£4, flips) covers the Coffee House and is face down once activated: neither card is
    # in play, so Whitehall repeats nothing. (Before the ruling, Whitehall ran the covered Coffee
    # House again: Vintners was paid for and activated, yet stayed on the board, face down.)
    e = L.engine
    state = coffee_house_then(L, "salters-a", board=("vintners-a",))
    assert not L.face_up(state, "salters-a")
    before = state
    state = activate(L, state, "whitehall-c")
    expect(e, state, "step")
    assert delta(before, state) == {"money": 0, "prestige": 0, "poverty": 0, "loans": 0}
    assert L.row(state, "top_row") == ["vintners-a"] and L.face_up(state, "vintners-a")
    assert step_cards(L, state) == {SPARE}
    L.check_places(state)


# ================================================================================ University

def start_draw(L: London, project: list[list[str]], deck_top: list[str]) -> State:
    """Seat 0 with this project and these cards on top of the deck, past its loans question."""
    state = position(L, project=project)
    L.set_deck_top(state, deck_top)
    return answer(L.engine, state, "start", "start:go on")


def test_university_puts_the_cards_not_taken_back_on_top_in_the_players_order(L: London) -> None:
    a, b, c, d = four_cards(L)
    e = L.engine
    state = start_draw(L, [["university-of-london-b"]], [a, b, c, d])
    assert card_options(L, state, "peeked") == {a, b, c}
    state = pick_card(e, state, "peeked", b)
    # The two cards left go back: the player says which one ends on top.
    assert card_options(L, state, "back") == {a, c}
    state = pick_card(e, state, "back", c)
    expect(e, state, "action")
    assert L.ids_of(state["global"]["deck"][:4]) == [c, a, d, TURN_CARD]
    assert b in L.hand(state, 0)
    L.check_places(state)


def test_university_order_of_three_when_the_card_comes_from_the_board(L: London) -> None:
    a, b, c, d = four_cards(L)
    e = L.engine
    state = position(L, project=[["university-of-london-b"]])
    L.set_rows(state, top=["grocers-a"])
    L.set_deck_top(state, [a, b, c])
    state = answer(e, state, "start", "start:go on")
    assert card_options(L, state, "peeked") == {a, b, c, "grocers-a"}
    state = pick_card(e, state, "peeked", "grocers-a")
    state = pick_card(e, state, "back", b)
    assert card_options(L, state, "back") == {a, c}
    state = pick_card(e, state, "back", c)
    expect(e, state, "action")
    assert L.ids_of(state["global"]["deck"][:4]) == [b, c, a, TURN_CARD]


def test_university_with_parliament_is_one_look_at_three_cards_keeping_up_to_two(L: London) -> None:
    a, b, c, d = four_cards(L)
    e = L.engine
    state = start_draw(L, [["university-of-london-b"], ["parliament-c"]], [a, b, c, d])
    state = answer(e, state, "how_many", "how_many:2")
    assert card_options(L, state, "peeked") == {a, b, c}
    state = pick_card(e, state, "peeked", a)
    # The same look: the fourth card never shows.
    assert card_options(L, state, "peeked") == {b, c}
    state = pick_card(e, state, "peeked", c)
    expect(e, state, "action")
    assert {a, c} <= set(L.hand(state, 0))
    assert L.ids_of(state["global"]["deck"][:3]) == [b, d, TURN_CARD]


def test_parliament_taking_no_card_looks_at_nothing(L: London) -> None:
    a, b, c, d = four_cards(L)
    e = L.engine
    state = start_draw(L, [["university-of-london-b"], ["parliament-c"]], [a, b, c, d])
    state = answer(e, state, "how_many", "how_many:0")
    expect(e, state, "action")
    assert L.ids_of(state["global"]["deck"][:4]) == [a, b, c, d]


# ============================================================================= Stock Exchange

def test_stock_exchange_swap_during_the_activation_once_per_turn(L: London) -> None:
    e = L.engine
    state = position(L, project=[["stock-exchange-b"], ["salters-a"], [SPARE]], hand=("poor-a-1",))
    L.set_rows(state, top=["vintners-a", "grocers-a"])
    state = answer(e, state, "start", "start:go on")
    state = take_from_deck(e, state)                     # no swap question before the action
    state = answer(e, state, "action", "action:activate")
    state = activate(L, state, "salters-a")
    state = answer(e, state, "step", "step:swap:none")   # in the middle of the action
    state = pick_card(e, state, "given", "poor-a-1")
    state = pick_card(e, state, "taken", "vintners-a")
    assert "vintners-a" in L.hand(state, 0) and "poor-a-1" not in L.hand(state, 0)
    assert L.row(state, "top_row") == ["poor-a-1", "grocers-a"]   # in the place of the card taken
    assert "step:swap:none" not in options(e, state, "step")  # once per turn
    L.check_places(state)


def test_stock_exchange_swap_at_the_end_of_a_draw_three(L: London) -> None:
    e = L.engine
    state = position(L, project=[["stock-exchange-b"]], hand=("poor-a-1",))
    L.set_rows(state, top=["grocers-a", "vintners-a"])
    state = answer(e, state, "start", "start:go on")
    state = take_from_deck(e, state)
    assert "action:swap" in options(e, state, "action")  # before the action's first step too
    state = answer(e, state, "action", "action:draw")
    for _ in range(3):
        state = answer(e, state, "source", "source:deck:none")
    # After the last card: the action is still going on, the swap may still be made.
    state = answer(e, state, "swap_now", "swap_now:yes")
    state = pick_card(e, state, "given", "poor-a-1")
    state = pick_card(e, state, "taken", "vintners-a")
    assert L.row(state, "top_row") == ["grocers-a", "poor-a-1"]
    assert "vintners-a" in L.hand(state, 0)
    L.check_places(state)


def test_no_stock_exchange_no_swap(L: London) -> None:
    e = L.engine
    state = position(L, project=[["salters-a"]], hand=("poor-a-1",))
    L.set_rows(state, top=["vintners-a"])
    state = answer(e, state, "start", "start:go on")
    state = take_from_deck(e, state)
    assert "action:swap" not in options(e, state, "action")
    state = answer(e, state, "action", "action:activate")
    assert "step:swap:none" not in options(e, state, "step")


# Vauxhall Gardens is blue: see the development example in test_london_examples.py.


# ============================================================================= Bank of England

def banker_turn(L: London, **numbers1: int) -> State:
    """Seat 1, with a visible Bank of England and these numbers, at the start of its first turn
    (set before its options are made)."""
    state = L.new_game(2)
    L.set_piles(state, 1, [["bank-of-england-b"]])
    L.set_seat(state, 1, **numbers1)
    return pass_turn(L, state)


def test_no_repaying_a_loan_with_a_loan_taken_in_the_same_step(L: London) -> None:
    # With the Bank of England a loan brings £12; 10 + 12 would pay the £15 of a repayment.
    e = L.engine
    state = banker_turn(L, money=10, loans=1)
    assert set(options(e, state, "start")) == {"start:go on", "start:take a loan"}
    state = answer(e, state, "start", "start:take a loan")
    assert numbers(state, 1)["money"] == 22 and numbers(state, 1)["loans"] == 2
    assert set(options(e, state, "start")) == {"start:go on", "start:take a loan"}


def test_no_loan_in_the_step_where_a_loan_was_repaid(L: London) -> None:
    e = L.engine
    state = banker_turn(L, money=31, loans=2)
    state = answer(e, state, "start", "start:repay a loan")
    assert numbers(state, 1)["money"] == 16 and numbers(state, 1)["loans"] == 1
    assert set(options(e, state, "start")) == {"start:go on", "start:repay a loan"}
    # £1 left: "go on" is the only option, taken without asking.
    state = answer(e, state, "start", "start:repay a loan")
    assert numbers(state, 1)["money"] == 1 and numbers(state, 1)["loans"] == 0
    expect(e, take_from_deck(e, state), "action")


def test_a_forced_loan_is_still_taken_during_the_turn(L: London) -> None:
    # The ruling is about the start-of-turn step only: a cost the player cannot pay still brings a loan.
    state = activation(L, [["woolwich-arsenal-a"], [SPARE]], money=3)
    before = state
    state = activate(L, state, "woolwich-arsenal-a")
    assert delta(before, state) == {"money": 10 - 7, "prestige": 5, "poverty": 0, "loans": 1}
