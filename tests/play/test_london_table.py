"""London at the table: every option says its consequences before it is chosen (loans included),
`score` projects each seat's end from what the asking seat may see, `explain` covers poverty, and
what players read agrees with itself and holds no designer's notes.

Positions are built with tests/london_helpers.py and driven through the engine, so that the
game's files do the work being checked.
"""

from __future__ import annotations

import re
import pytest

from interpreter.agents import RandomAgent, bot_seed
from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from interpreter.core.view import view
from interpreter.load.loader import load_game
from interpreter.play.info import info
from interpreter.play.screen import Screens
from london_helpers import London, State, activation, begin_action, position

LOAN = "takes 1 loan: +£10 now; repay £15 or lose 7 prestige at the end"


@pytest.fixture(scope="module")
def L() -> London:
    return London(Engine(load_game("london")))


def details(engine: Engine, state: State) -> dict[str, str]:
    """The pending question's options: id -> detail, as the player reads them."""
    d = engine.pending(state)
    assert isinstance(d, Decision)
    return {o.id: o.detail for o in d.options(d.seats[0])}


# ===================================================== 1. options say the loans they take

def test_a_district_the_money_cannot_pay_says_the_loan_it_takes(L: London) -> None:
    state = begin_action(L.engine, position(L, money=5), "district")
    offer = details(L.engine, state)
    assert offer["bought:city"].endswith("; " + LOAN)
    assert "loan" not in offer["bought:southwark-bermondsey"]  # £5: the money is enough


def test_a_card_whose_extra_cost_the_money_cannot_pay_says_the_loan_it_takes(L: London) -> None:
    state = begin_action(L.engine, position(L, money=5, hand=("st-pauls-a", "water-works-a-1", "vintners-a",
                                                              "haberdashers-a")), "develop")
    offer = details(L.engine, state)
    [st_pauls] = [d for o, d in offer.items() if o.endswith(":st-pauls-a")]
    [vintners] = [d for o, d in offer.items() if o.endswith(":vintners-a")]
    assert "+£10 extra" in st_pauls and st_pauls.endswith(LOAN)
    assert "loan" not in vintners


def test_two_loans_say_how_many_and_what_each_costs(L: London) -> None:
    state = begin_action(L.engine, position(L, money=0, hand=("st-pauls-a", "water-works-a-1")), "develop")
    [st_pauls] = [d for o, d in details(L.engine, state).items() if o.endswith(":st-pauls-a")]
    assert "takes 1 loan" in st_pauls  # £10 from £0: one loan of £10 is enough
    state = begin_action(L.engine, position(L, money=0, project=[["school-a-brown"]],
                                            hand=("st-pauls-a", "vintners-a")), "develop")
    # No blue card left to discard: the School's £1 fee comes on top of the £10.
    [st_pauls] = [d for o, d in details(L.engine, state).items() if o.endswith(":st-pauls-a")]
    assert st_pauls.endswith("takes 2 loans: +£20 now; repay £15 each or lose 7 prestige each at the end")


def test_an_activation_cost_the_money_cannot_pay_says_the_loan_it_takes(L: London) -> None:
    state = activation(L, [["woolwich-arsenal-a"], ["mercers-a"]], money=3)
    offer = details(L.engine, state)
    [woolwich] = [d for o, d in offer.items() if o.endswith(":woolwich-arsenal-a")]
    [mercers] = [d for o, d in offer.items() if o.endswith(":mercers-a")]
    assert woolwich.startswith("activation: £7; +5 prestige") and woolwich.endswith(LOAN)
    assert mercers.startswith("activation: free; gives £5") and "loan" not in mercers


def _loans_said(detail: str) -> int:
    found = re.search(r"takes (\d+) loans?:", detail)
    return int(found.group(1)) if found else 0


def test_what_a_district_or_an_activation_says_it_borrows_is_what_it_borrows() -> None:
    """Over seeded games: every district bought and card activated takes exactly the loans its option
    said, and an option that says none takes none."""
    engine = Engine(load_game("london"))
    checked = 0
    for seed in (1, 2, 3):
        state = engine.new_game(3, seed)
        bots = [RandomAgent(bot_seed(seed, i)) for i in range(3)]
        while state["result"] is None and state["decisions"] < 400:
            d = engine.pending(state)
            assert isinstance(d, Decision)
            seat = engine.first_open_seat(state)
            pick = bots[seat].pick(engine, state, seat)
            option = d.options(seat)[pick]
            loans = state["seat"]["loans"][seat]
            engine.apply_index(state, seat, pick)
            if d.name == "bought" or (d.name == "step" and option.id.count(":") >= 2
                                      and not option.id.endswith(":none")):
                said = _loans_said(option.detail)
                # A Huguenots activation may make the others borrow, never the activating seat.
                assert state["seat"]["loans"][seat] - loans == said, (seed, option.id, option.detail)
                checked += 1
    assert checked > 10


# ===================================================== 4. the info and the hand agree

def test_info_says_the_activation_as_the_hand_does(L: London) -> None:
    engine = L.engine
    state = L.new_game(2)
    screens = Screens(engine, strict=True)
    text = "\n".join(line.plain for line in info(screens, view(engine, state, 0), "Coffee House"))
    assert "activation: free" in text and "activation: none" not in text
    assert text.startswith("Coffee House (brown, activation: free;")

