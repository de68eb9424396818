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
from interpreter.core.state import copy_state
from interpreter.core.view import view
from interpreter.load.loader import load_game
from interpreter.play import explain as X
from interpreter.play.info import info
from interpreter.play.scores import score_lines
from interpreter.play.screen import Screens
from london_helpers import (
    SPARE,
    London,
    State,
    activation,
    answer,
    begin_action,
    pass_turn,
    pick_card,
    position,
    take_from_deck,
)

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



# ===================================================== 2. score projects the end; explain covers poverty

def _score(engine: Engine, state: State, seat: int | None) -> str:
    return "\n".join(line.plain for line in score_lines(engine, state, seat, Screens(engine, strict=True)))


def _projection_position(L: London) -> State:
    """Two seats. Ana: 2 prestige, £20, 2 loans, 3 poverty, 2 cards in hand, St Paul's (6 prestige at
    the end) face up and the Mercers face down. Ben: 1 poverty, 1 card in hand, no project."""
    state = position(L, project=[["st-pauls-a"], ["-mercers-a"]], hand=("vintners-a", "grocers-a"),
                     prestige=2, money=20, loans=2, poverty=3)
    L.set_hand(state, 1, ["salters-a"])
    L.set_seat(state, 1, poverty=1, money=4)
    L.check_places(state)
    return state


def test_score_shows_each_seat_s_end_if_the_game_ended_now_part_by_part(L: London) -> None:
    text = _score(L.engine, _projection_position(L), 0)
    ana = text[text.index("  Ana "):text.index("  Ben ")]
    assert "prestige 2  poverty 3  loans 2" in ana
    # £20 repays one loan (£15), £5 left is 1 prestige; the other loan costs 7; poverty 3 + 2 cards
    # = 5 against Ben's 1 + 1 = 2: 3 above the least, 2 prestige lost.
    for part in ("+2  prestige so far", "+6  cards in the project", "+1  £5 left after repaying 1 loan(s)",
                 "-7  1 of 2 loan(s) not repaid", "-2  poverty 3 + 2 for the cards in hand = 5, 3 above the least (2)",
                 "=0  if the game ended now"):
        assert part in ana, (part, ana)
    ben = text[text.index("  Ben "):]
    assert "+1  £4 left (£3 a prestige)" in ben and "+0  no loans" in ben and "=1  if the game ended now" in ben


def test_score_projects_another_seat_only_from_what_the_asker_may_see(L: London) -> None:
    state = _projection_position(L)
    text = _score(L.engine, state, 1)
    ana = text[text.index("  Ana "):text.index("  Ben ")]
    # Ben sees St Paul's on top, not what is under the face-down card: it is counted as unknown.
    assert "+6  face-up top cards (1 covered or face-down card(s) unseen)" in ana
    # Twin states differing only in what Ben may not see (Ana's hand, her face-down card) read the same.
    twin = copy_state(state)
    L.set_hand(twin, 0, ["haberdashers-a", "east-india-company-a"])
    L.set_piles(twin, 0, [["st-pauls-a"], ["-great-fire-monument-a"]])
    L.check_places(twin)
    assert _score(L.engine, twin, 1) == text
    assert _score(L.engine, twin, None) == _score(L.engine, state, None)
    assert _score(L.engine, twin, 0) != _score(L.engine, state, 0)  # Ana herself sees the 4 prestige more


def test_explain_covers_the_poverty_an_activation_brings(L: London) -> None:
    engine = L.engine
    state = activation(L, [["mercers-a"], ["vintners-a"]], loans=1)
    before = [X.mark(engine.game, state)]
    state = engine.apply(state, "step:stop:none", 0)
    text = "\n".join(line.plain for line in X.explain(engine, state, before, 0, Screens(engine, strict=True)))
    # 2 piles, 1 loan and the hand (the one card taken this turn).
    assert "Ana gains 4 poverty (2 piles, 1 loans, 1 for the hand)" in text
    assert "poverty: Ana 0 → 4 (+4)" in text
    assert re.search(r"If the game ended now: Ana -?\d+, Ben -?\d+", text)


def test_a_card_the_coffee_house_places_says_what_activating_it_now_borrows(L: London) -> None:
    engine = L.engine
    state = activation(L, [["coffee-house-a-1"], [SPARE]], money=3)
    L.set_rows(state, top=["woolwich-arsenal-a"])
    L.check_places(state)
    state = pick_card(engine, state, "step", "coffee-house-a-1")
    state = pick_card(engine, state, "bought", "woolwich-arsenal-a")
    offer = details(engine, state)
    assert offer["now:yes"] == "activation: £7; +5 prestige, turns face down; " + LOAN
    assert "loan" not in offer["now:no"]


def test_the_action_question_says_a_district_takes_a_loan_when_none_is_affordable(L: London) -> None:
    state = position(L, money=2)
    L.set_offer(state, ["city", "westminster", "hammersmith"])
    L.check_places(state)
    state = take_from_deck(L.engine, answer(L.engine, state, "start", "start:go on"))
    district = details(L.engine, state)["action:district"]
    assert district == "buy a district (cheapest £6; you have £2); " + LOAN


def test_giving_poverty_says_where_each_seat_s_poverty_goes(L: London) -> None:
    state = activation(L, [["fleet-street-b"], [SPARE]], poverty=1)
    L.set_seat(state, 1, poverty=4)
    state = pick_card(L.engine, state, "step", "fleet-street-b")
    offer = details(L.engine, state)
    assert sorted(offer.values()) == ["poverty 1 → 3", "poverty 4 → 6"]


def test_the_start_of_the_turn_says_what_a_loan_and_a_repayment_do(L: London) -> None:
    # The options of the turn's first question are made when it is asked: seat 0's next turn.
    state = pass_turn(L, pass_turn(L, position(L, money=20, loans=2)))
    offer = details(L.engine, state)
    assert offer["start:take a loan"] == ("+£10 now; repay £15 later, or lose 7 prestige at the end; "
                                          "+1 poverty at each activation until then")
    assert offer["start:repay a loan"] == "pay £15: £5 and 1 loan(s) left"
