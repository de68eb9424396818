"""Acceptance tests for London (games/london/): the worked examples of the rulebook
(shared/rules/london.fr.txt), the project's rulings (shared/rules/RULINGS.md) and one test per kind
of card ability.

Every test builds its position by editing the plain-data state of a new game paused at seat 0's
first decision (tests/london_helpers.py), then drives the game only through `engine.pending` /
`engine.apply`, so that the rule files do the work being checked.

Conventions: seat 0 is "the player". At the start of its turn it takes the top card of the deck,
which the tests fix to TURN_CARD, so its hand during the action is the hand set plus TURN_CARD.
Not tested here (being written at the same time): Coffee House, Wren, University, Stock Exchange,
Parliament, Schools.
"""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.agents import RandomAgent, bot_seed
from interpreter.core.decision import Decision, Result
from interpreter.core.engine import Engine
from interpreter.core.view import shape, view
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
    engine_seat,
    events,
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


# ------------------------------------------------------------------------------------ helpers

def play_card(L: London, state: State, card: str, spent: str | None = None, pile: int = -1) -> State:
    """During a develop action: play `card`, discarding `spent` (asked only when there is a
    choice), onto a new pile (-1) or pile `pile`."""
    e = L.engine
    state = pick_card(e, state, "play", card)
    d = e.pending(state)
    if isinstance(d, Decision) and d.name == "spent":
        assert spent is not None, f"{card} asks for a discarded card: {options(e, state, 'spent')}"
        state = pick_card(e, state, "spent", spent)
    d = e.pending(state)
    if isinstance(d, Decision) and d.name == "pile":
        state = answer(e, state, "pile", f"pile:{pile}")
    else:
        assert pile == -1, "the pile was not asked"
    if spent is not None:
        assert spent in L.row(state, "top_row") + L.row(state, "bottom_row"), f"{spent} not on the board"
    return state


def draw_three_from_deck(L: London, state: State) -> State:
    """From the start of a turn: take the top card of the deck, then draw three from the deck
    (the development board has cards, so each take is a question); stops at the hand limit."""
    e = L.engine
    state = begin_action(e, state, "draw")
    for _ in range(3):
        state = answer(e, state, "source", "source:deck:none")
    return state


IN_PROGRESS = ("coffee-house", "wren", "university", "stock-exchange", "parliament", "school")


def fillers(L: London, n: int, but: tuple[str, ...] = ()) -> list[str]:
    """n distinct project card ids (no Poor, no Action card, none of the cards whose abilities are
    being written, none of `but`)."""
    ids = [str(i) for i in L.card_ids if L.card_attr(str(i), "kind") == "project"
           and not str(i).startswith(IN_PROGRESS) and str(i) not in but]
    assert len(ids) >= n
    return ids[:n]


def discard_down(L: London, state: State, seat: int = 0) -> tuple[State, list[str]]:
    """Answer the hand-limit questions of `seat` with its first cards; the cards discarded."""
    e = L.engine
    gone = []
    while (d := e.pending(state)) and isinstance(d, Decision) and d.name == "extra" and d.seats == (seat,):
        option = d.options(seat)[0]
        gone.append(option.id.split(":", 1)[1])
        state = e.apply(state, option.id, seat)
    return state, gone


# ========================================================================== the setup

@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup(L: London, seats: int) -> None:
    # 5 money and 6 cards each, no poverty; the deck is A on top of B on top of C; the three
    # start districts for sale, the 17 others in the district deck; seat 0 begins.
    state = L.engine.new_game(seats, seed=3)
    assert state["seat"]["money"] == [5] * seats
    assert state["seat"]["poverty"] == [0] * seats
    assert [len(h) for h in state["seat"]["hand"]] == [6] * seats
    groups = [L.card_attr(c, "group") for c in state["global"]["deck"]]
    assert groups == sorted(groups)
    assert len(state["global"]["deck"]) == 101 - 6 * seats
    assert sorted(L.district_names(state["global"]["offer"])) == ["city", "southwark-bermondsey", "westminster"]
    assert len(state["global"]["district_deck"]) == 17
    assert engine_seat(L.engine, state) == 0
    L.check_places(state)


# =============================================================== 1. the activation examples

def test_activation_example_1(L: London) -> None:
    # "EXEMPLE D'ACTIVATION DE PROJET URBAIN 1": Hospital, West India Docks, Town Houses and
    # Steamboats face up, each on its own pile; districts: Hackney (not on the Thames), City (on
    # the Thames), Southwark & Bermondsey (on the Thames) on top. One loan, 3 poverty.
    e = L.engine
    state = activation(L, [["hospital-b"], ["west-india-docks-b"], ["town-houses-b-1"], ["steamboats-b-1"]],
                       hand=("poor-a-1", "grocers-a"), districts=("hackney", "city", "southwark-bermondsey"),
                       money=5, loans=1, poverty=3)
    assert step_cards(L, state) == {"hospital-b", "west-india-docks-b", "town-houses-b-1", "steamboats-b-1"}
    # The top district's ability is due: no "stop" until it has been used.
    assert "step:stop:none" not in options(e, state, "step")
    assert "step:district ability:none" in options(e, state, "step")
    money: dict[str, int] = {}

    # West India Docks: discard a card (a Poor card), +£7, flip.
    state = activate(L, state, "west-india-docks-b")
    assert set(options(e, state, "given")) == {"given:poor-a-1", "given:grocers-a", f"given:{TURN_CARD}"}
    before = state
    state = answer(e, state, "given", "given:poor-a-1")
    money["West India Docks"] = delta(before, state)["money"]
    assert L.row(state, "top_row") == ["poor-a-1"]
    assert not L.face_up(state, "west-india-docks-b")

    # Town Houses: +1 prestige per face-up blue card: Hospital and Town Houses itself.
    before = state
    state = activate(L, state, "town-houses-b-1")
    assert delta(before, state)["prestige"] == 2
    assert not L.face_up(state, "town-houses-b-1")

    # Hospital right after: Town Houses stays face up, the Hospital flips instead.
    state = activate(L, state, "hospital-b")
    assert L.face_up(state, "town-houses-b-1")
    assert not L.face_up(state, "hospital-b")
    assert state["seat"]["tops"][0][2] == L.card("town-houses-b-1")
    # ... but Town Houses cannot be used again this turn.
    assert step_cards(L, state) == {"steamboats-b-1"}

    # Steamboats: +£2 per district on the Thames (City, Southwark & Bermondsey), flip. The district
    # ability is then the only question left, so it is applied at once (+1 poverty), and so is
    # the end of the activation: the poverty step.
    before = state
    state = activate(L, state, "steamboats-b-1")
    money["Steamboats"] = delta(before, state)["money"]
    assert not L.face_up(state, "steamboats-b-1")

    # Example 2: 4 piles + 1 loan + 2 cards in hand = 7, added to the 4 already there = 11.
    assert L.hand(state, 0) == ["grocers-a", TURN_CARD]
    assert numbers(state)["poverty"] == 3 + 1 + 7 == 11
    assert events(state, "poverty")[-1]["data"]["gained"] == 7
    assert numbers(state)["prestige"] == 2
    assert engine_seat(e, state) == 1, "the turn is over"
    # The rulebook: West India Docks gives 7, Steamboats 2 x 2 = 4, with Southwark & Bermondsey
    # on top (whose ability here is only the poverty). The card reference's "+£1 per money card"
    # for this district contradicts the example, and the example is the acceptance case.
    assert money == {"West India Docks": 7, "Steamboats": 4}


def test_activation_example_2_poverty_count(L: London) -> None:
    # "EXEMPLE D'ACTIVATION DE PROJET URBAIN 2": after the activation, 4 piles, 1 loan, 2 cards
    # in hand, 4 poverty: 7 more, 11 in all. (Here nothing is left to activate.)
    state = position(L, project=[["-hospital-b"], ["-west-india-docks-b"], ["town-houses-b-1", "-steamboats-b-1"],
                                 ["-shops-b-1"]],
                     hand=("grocers-a",), loans=1, poverty=4)
    state = begin_action(L.engine, state, "activate")
    assert numbers(state)["poverty"] == 11
    assert numbers(state)["loans"] == 1


# ===================================================================== 2. the development example

def test_development_example_hospital_by_discarding_a_blue_card(L: London) -> None:
    # "Avec vos cartes bleues, vous pourriez défausser les Jardins de Vauxhall pour construire un
    # Hôpital. Comme celui-ci a un coût additionnel de 2 £, vous devrez payer ce coût avec vos fonds."
    # Vauxhall Gardens is blue, as the example says (RULINGS: the rulebook wins over the reference).
    e = L.engine
    state = position(L, hand=("hospital-b", "vauxhall-gardens-a", "huguenots-a", "vintners-a"), money=5)
    state = begin_action(e, state, "develop")
    # Hospital (blue, with the Gardens), the Gardens (with Hospital), Huguenots (an Action card,
    # needs no discard), Vintners and the turn card (brown, with each other or with Huguenots).
    assert set(options(e, state, "play")) == {"play:Hospital:hospital-b", "play:Vauxhall Gardens:vauxhall-gardens-a",
                                              "play:Huguenots:huguenots-a", "play:Vintners:vintners-a",
                                              f"play:Silk Weaving:{TURN_CARD}"}
    state = pick_card(e, state, "play", "hospital-b")   # the only blue card left: no question
    assert L.piles(state, 0) == [["hospital-b"]]
    assert L.row(state, "top_row") == ["vauxhall-gardens-a"]
    assert numbers(state)["money"] == 5 - 2
    assert state["components"]["card"]["placed_turn"][L.card("hospital-b")] == state["global"]["turn_number"]
    assert state["seat"]["tops"][0] == [L.card("hospital-b")]
    # Huguenots could be discarded to play Vintners (it is brown):
    state = pick_card(e, state, "play", "vintners-a")
    assert set(options(e, state, "spent")) == {"spent:huguenots-a", f"spent:{TURN_CARD}"}


def test_development_example_the_gardens_by_discarding_the_hospital(L: London) -> None:
    # "Vous pouvez aussi économiser votre argent en défaussant l'Hôpital pour jouer les Jardins."
    e = L.engine
    state = position(L, hand=("hospital-b", "vauxhall-gardens-a", "huguenots-a", "vintners-a"), money=5)
    state = begin_action(e, state, "develop")
    state = pick_card(e, state, "play", "vauxhall-gardens-a")
    assert L.piles(state, 0) == [["vauxhall-gardens-a"]]
    assert L.row(state, "top_row") == ["hospital-b"]
    assert numbers(state)["money"] == 5


def test_huguenots_draws_two_cards_and_leaves_the_game(L: London) -> None:
    # "jouer les Huguenots pour utiliser leur Action, afin de conserver les Marchands de vin et
    # piocher deux nouvelles cartes". The Action card needs no discarded card (it is the only
    # brown card here; the turn card, Fleet Street, is the only pink one).
    e = L.engine
    state = position(L, hand=("huguenots-a", "poor-a-1", "hospital-b", "water-works-a-1"))
    L.set_deck_top(state, ["fleet-street-b", "lords-b", "grocers-a"])
    L.set_rows(state, top=["mercers-a"])
    state = answer(e, state, "start", "start:go on")
    state = answer(e, state, "source", "source:deck:none")
    state = answer(e, state, "action", "action:develop")
    assert set(options(e, state, "play")) == {"play:Huguenots:huguenots-a", "play:Hospital:hospital-b",
                                              "play:Water Works:water-works-a-1"}
    state = pick_card(e, state, "play", "huguenots-a")
    # Two cards, each from the deck or the development board.
    assert set(options(e, state, "source")) == {"source:deck:none", "source:board:mercers-a"}
    state = answer(e, state, "source", "source:board:mercers-a")
    state = take_from_deck(e, state)                 # the board is empty: no question
    assert sorted(L.hand(state, 0)) == sorted(["poor-a-1", "hospital-b", "water-works-a-1", "fleet-street-b",
                                               "mercers-a", "lords-b"])
    assert L.row(state, "removed")[-1:] == ["huguenots-a"]
    assert "huguenots-a" not in L.row(state, "top_row") + L.row(state, "bottom_row")
    assert L.piles(state, 0) == []
    L.check_places(state)


def test_a_card_starts_a_pile_or_covers_one_not_placed_this_turn(L: London) -> None:
    # Pile 0: a face-down card from an earlier turn (it may be covered); pile 1: a face-up card.
    e = L.engine
    state = position(L, project=[["-grocers-a"], ["mercers-a"]],
                     hand=("salters-a", "vintners-a", "haberdashers-a", "fishmongers-a", "covent-garden-a"))
    state = begin_action(e, state, "develop")
    # 1st card: a new pile, or on either old pile.
    state = pick_card(e, state, "play", "salters-a")
    state = pick_card(e, state, "spent", "vintners-a")
    assert set(options(e, state, "pile")) == {"pile:-1", "pile:0", "pile:1"}
    state = answer(e, state, "pile", "pile:-1")                     # pile 2, placed this turn
    # 2nd card: pile 2 cannot be covered; covers the face-down card of pile 0.
    state = pick_card(e, state, "play", "haberdashers-a")
    state = pick_card(e, state, "spent", "fishmongers-a")
    assert set(options(e, state, "pile")) == {"pile:-1", "pile:0", "pile:1"}
    state = answer(e, state, "pile", "pile:0")
    # 3rd card: only pile 1 (older) or a new pile.
    state = pick_card(e, state, "play", "covent-garden-a")
    assert set(options(e, state, "pile")) == {"pile:-1", "pile:1"}
    state = answer(e, state, "pile", "pile:1")
    assert L.piles(state, 0) == [["-grocers-a", "haberdashers-a"], ["mercers-a", "covent-garden-a"], ["salters-a"]]
    assert state["seat"]["tops"][0] == L.cards(["haberdashers-a", "covent-garden-a", "salters-a"])
    # Nothing left to play (only "stop", taken at once): the turn is over.
    assert engine_seat(e, state) == 1
    L.check_places(state)


def test_cards_placed_this_turn_can_be_covered_next_turn(L: London) -> None:
    e = L.engine
    state = position(L, hand=("salters-a", "vintners-a", "haberdashers-a", "fishmongers-a"))
    state = begin_action(e, state, "develop")
    state = play_card(L, state, "salters-a", spent="vintners-a")
    state = answer(e, state, "play", "play:stop:none")
    state = pass_turn(L, state)                                   # seat 1
    L.set_deck_top(state, ["grocers-a"])
    state = begin_action(e, state, "develop")
    state = pick_card(e, state, "play", "haberdashers-a")
    state = pick_card(e, state, "spent", "fishmongers-a")
    assert set(options(e, state, "pile")) == {"pile:-1", "pile:0"}


def test_poor_cards_are_never_played_nor_discarded_to_play_a_card(L: London) -> None:
    e = L.engine
    # Poor cards and one card of each other colour: nothing can be played, no develop action.
    state = position(L, hand=("poor-a-1", "poor-b-1", "poor-c-1", "hospital-b", "fleet-street-b"))
    state = answer(e, state, "start", "start:go on")
    assert "action:develop" not in options(e, state, "action")      # Silk Weaving is alone in brown too
    # With two brown cards, only they can be played, and only with each other.
    state = position(L, hand=("poor-a-1", "poor-b-1", "grocers-a", "hospital-b"))
    state = begin_action(e, state, "develop")
    assert set(options(e, state, "play")) == {"play:Grocers:grocers-a", f"play:Silk Weaving:{TURN_CARD}"}
    state = pick_card(e, state, "play", "grocers-a")               # the only other brown card: no question
    assert L.row(state, "top_row") == [TURN_CARD]
    assert sorted(L.hand(state, 0)) == ["hospital-b", "poor-a-1", "poor-b-1"]


def test_the_extra_cost_forces_a_loan_when_money_is_short(L: London) -> None:
    e = L.engine
    state = position(L, hand=("hospital-b", "water-works-a-1"), money=1)
    state = begin_action(e, state, "develop")
    state = pick_card(e, state, "play", "hospital-b")
    assert numbers(state)["loans"] == 1
    assert numbers(state)["money"] == 1 + 10 - 2


# ==================================================================== 3. buying a district

def test_purchase_example(L: London) -> None:
    # "EXEMPLE D'UN ACHAT DE TERRAIN": Hammersmith, Lewisham, Southwark & Bermondsey for sale.
    e = L.engine
    state = position(L, districts=("city",), money=3, poverty=2, prestige=4)
    L.set_offer(state, ["hammersmith", "lewisham", "southwark-bermondsey"])
    L.set_deck_top(state, [TURN_CARD, "grocers-a", "salters-a", "vintners-a"])
    state["global"]["district_deck"].remove(L.district("greenwich"))
    state["global"]["district_deck"].insert(0, L.district("greenwich"))
    L.set_rows(state, top=["mercers-a"])
    state = answer(e, state, "start", "start:go on")
    state = answer(e, state, "source", "source:deck:none")
    state = answer(e, state, "action", "action:district")
    assert set(options(e, state, "bought")) == {"bought:hammersmith", "bought:lewisham", "bought:southwark-bermondsey"}
    state = answer(e, state, "bought", "bought:lewisham")
    # Cost 3 paid; placed on top; replaced in the offer by the district deck's top card.
    assert numbers(state)["money"] == 0 and numbers(state)["loans"] == 0
    assert L.district_names(state["seat"]["districts"][0]) == ["city", "lewisham"]
    assert sorted(L.district_names(state["global"]["offer"])) == ["greenwich", "hammersmith", "southwark-bermondsey"]
    assert L.district("greenwich") not in state["global"]["district_deck"]
    # Immediate gains: draw 3 (deck or development board, each time), 0 prestige, 5 poverty
    # discarded but only 2 held: 0, never below.
    for _ in range(3):
        assert set(options(e, state, "source")) >= {"source:deck:none"}
        state = answer(e, state, "source", "source:deck:none")
    assert sorted(L.hand(state, 0)) == sorted([TURN_CARD, "grocers-a", "salters-a", "vintners-a"])
    assert numbers(state)["poverty"] == 0
    assert numbers(state)["prestige"] == 4
    assert engine_seat(e, state) == 1
    L.check_places(state)


def test_buying_a_district_too_dear_takes_loans_and_gives_its_gains(L: London) -> None:
    # Hammersmith costs 6 with £2: one loan (2 + 10 - 6 = 6). Gains: draw 2, +2 prestige, -1 poverty.
    e = L.engine
    state = position(L, money=2, poverty=3)
    L.set_offer(state, ["hammersmith", "lewisham", "southwark-bermondsey"])
    L.set_rows(state, top=["mercers-a"])
    state = answer(e, state, "start", "start:go on")
    state = answer(e, state, "source", "source:deck:none")
    state = answer(e, state, "action", "action:district")
    state = answer(e, state, "bought", "bought:hammersmith")
    state = answer(e, state, "source", "source:board:mercers-a")
    state = take_from_deck(e, state)
    assert numbers(state) == {"money": 6, "prestige": 2, "poverty": 2, "loans": 1}
    assert L.district_names(state["seat"]["districts"][0]) == ["hammersmith"]
    assert len(L.hand(state, 0)) == 1 + 2 and "mercers-a" in L.hand(state, 0)
    assert len(state["global"]["offer"]) == 3


# ================================================================= 4, 5, 6. final scoring

def score(L: London, seats: int, **setup: dict[str, Any]) -> State:
    """Play a game whose deck and development board are empty to its end: every seat takes nothing
    and chooses "draw three" (which draws nothing); then the final scoring.

    setup: seat0=..., seat1=...: money/prestige/poverty/loans, and `hand`, `project`, `districts`.
    Unnamed seats have nothing (0 everything, empty hand). Returns the final state.
    """
    state = L.new_game(seats)
    L.set_rows(state)
    for s in range(seats):
        L.set_hand(state, s, [])
    for s in range(seats):
        spec = dict(setup.get(f"seat{s}", {}))
        L.set_hand(state, s, spec.pop("hand", ()))
        L.set_piles(state, s, spec.pop("project", ()))
        L.set_districts(state, s, spec.pop("districts", ()))
        L.set_seat(state, s, **{"money": 0, "prestige": 0, "poverty": 0, "loans": 0, **spec})
    L.set_deck(state, [])
    L.check_places(state)
    e = L.engine
    for s in range(seats):
        assert engine_seat(e, state) == s
        state = answer(e, state, "start", "start:go on")
        state = answer(e, state, "action", "action:draw")
    assert isinstance(e.pending(state), Result), "the game did not end after one last turn each"
    return state


def final(L: London, state: State) -> tuple[list[int], list[int], tuple[int, ...]]:
    """(prestige, poverty, winners) at the end."""
    r = L.engine.result(state)
    return r.scores["prestige"], r.scores["poverty"], r.winners


@pytest.mark.parametrize("poverty, lost", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 3), (5, 5), (9, 13), (10, 15),
                                           (11, 18), (13, 24)])
def test_poverty_table(L: London, poverty: int, lost: int) -> None:
    # Seat 1 has no poverty, so nothing is subtracted from seat 0's.
    state = score(L, 2, seat0={"prestige": 30, "poverty": poverty}, seat1={"prestige": 0})
    prestige, left, _ = final(L, state)
    assert left == [poverty, 0]
    assert prestige == [30 - lost, 0]


def test_the_least_poverty_is_subtracted_from_everyone(L: London) -> None:
    # 4, 6 and 15 poverty: seat 0 gives all back, the others as much: 0, 2, 11 -> lose 0, 1, 18.
    state = score(L, 3, seat0={"prestige": 20, "poverty": 4}, seat1={"prestige": 20, "poverty": 6},
                  seat2={"prestige": 20, "poverty": 15})
    prestige, left, winners = final(L, state)
    assert left == [0, 2, 11]
    assert prestige == [20, 19, 2]
    assert winners == (0,)


def test_cards_in_hand_become_poverty_at_the_end(L: London) -> None:
    # 3 cards in hand: 3 poverty (the other seat has 1 card: 1); then 3 - 1 = 2 -> -1 prestige.
    state = score(L, 2, seat0={"prestige": 10, "hand": ("grocers-a", "poor-a-1", "hospital-b")},
                  seat1={"prestige": 10, "hand": ("salters-a",)})
    prestige, left, _ = final(L, state)
    assert left == [2, 0]
    assert prestige == [9, 10]
    assert state["seat"]["hand"] == [[], []]
    assert {"grocers-a", "poor-a-1", "hospital-b", "salters-a"} <= set(L.row(state, "removed"))


def test_end_prestige_of_every_city_card_counts_covered_and_face_down(L: London) -> None:
    # Hospital 3 (covered), West India Docks 2 (face down), Buckingham Palace 7 (top), Lord's 1.
    state = score(L, 2, seat0={"project": [["hospital-b", "-west-india-docks-b", "buckingham-palace-b"], ["lords-b"]]})
    prestige, _, _ = final(L, state)
    assert prestige == [3 + 2 + 7 + 1, 0]


@pytest.mark.parametrize("money, loans, gained", [
    (0, 0, 0), (2, 0, 0), (3, 0, 1), (29, 0, 9),     # 1 prestige per £3
    (15, 1, 0), (20, 1, 1),                          # repay 15 per loan first
    (14, 1, 4 - 7),                                  # cannot repay: the £14 count, -7 for the loan
    (40, 2, 3), (44, 3, 4 - 7),                      # as many loans as possible
])
def test_loans_repaid_at_the_end_then_money_then_unpaid_loans(L: London, money: int, loans: int, gained: int) -> None:
    state = score(L, 2, seat0={"prestige": 20, "money": money, "loans": loans})
    prestige, _, _ = final(L, state)
    assert prestige[0] == 20 + gained


def test_tie_break_least_poverty(L: London) -> None:
    # Seat 2 has no poverty; seats 0 and 1 keep 1 and 2 poverty (both -1): equal prestige.
    state = score(L, 3, seat0={"prestige": 10, "poverty": 2}, seat1={"prestige": 10, "poverty": 1},
                  seat2={"prestige": 0, "poverty": 0})
    prestige, left, winners = final(L, state)
    assert prestige[:2] == [9, 9] and left[:2] == [2, 1]
    assert winners == (1,)


def test_tie_break_most_districts(L: London) -> None:
    state = score(L, 2, seat0={"prestige": 10, "districts": ("hackney",)},
                  seat1={"prestige": 10, "districts": ("lewisham", "deptford")})
    prestige, left, winners = final(L, state)
    assert prestige == [10, 10] and left == [0, 0]
    assert winners == (1,)


def test_tie_break_most_city_card_prestige(L: London) -> None:
    # Seat 0: 10 + Hospital 3 = 13; seat 1: 11 + British Museum 2 = 13; one district each.
    state = score(L, 2, seat0={"prestige": 10, "project": [["hospital-b"]], "districts": ("hackney",)},
                  seat1={"prestige": 11, "project": [["british-museum-b"]], "districts": ("lewisham",)})
    prestige, left, winners = final(L, state)
    assert prestige == [13, 13] and left == [0, 0]
    assert winners == (0,)


def test_full_tie_gives_several_winners(L: London) -> None:
    state = score(L, 3, seat0={"prestige": 12, "project": [["hospital-b"]], "districts": ("hackney",)},
                  seat1={"prestige": 12, "project": [["hospital-a"]], "districts": ("lewisham",)},
                  seat2={"prestige": 11, "project": [["albert-hall-c"]], "districts": ("deptford",)})
    prestige, _, winners = final(L, state)
    assert prestige == [15, 15, 14]
    assert winners == (0, 1)


def test_most_prestige_wins_before_any_tie_break(L: London) -> None:
    state = score(L, 2, seat0={"prestige": 11, "poverty": 2, "districts": ("hackney",)},
                  seat1={"prestige": 9, "districts": ("lewisham", "deptford")})
    prestige, _, winners = final(L, state)
    assert prestige == [10, 9]
    assert winners == (0,)


# ============================================================================ 6. loans

def seat1_turn(L: London, **numbers1: int) -> State:
    """Seat 1 at the start of its first turn, with these numbers (set before its options are made)."""
    state = L.new_game(2)
    L.set_seat(state, 1, **numbers1)
    return pass_turn(L, state)


def test_repaying_a_loan_at_the_start_of_a_turn(L: London) -> None:
    e = L.engine
    state = seat1_turn(L, money=31, loans=3)
    assert set(options(e, state, "start")) == {"start:go on", "start:take a loan", "start:repay a loan"}
    state = answer(e, state, "start", "start:repay a loan")
    assert numbers(state, 1)["money"] == 16 and numbers(state, 1)["loans"] == 2
    state = answer(e, state, "start", "start:repay a loan")
    # £1 < £15, and no loan in the step where a loan was repaid (RULINGS, Bank of England):
    # "go on" is the only option left, taken without asking.
    assert numbers(state, 1)["money"] == 1 and numbers(state, 1)["loans"] == 1
    state = take_from_deck(e, state)
    expect(e, state, "action")


@pytest.mark.parametrize("money, loans, offered", [(15, 1, True), (14, 1, False), (40, 0, False)])
def test_repaying_needs_15_and_a_loan(L: London, money: int, loans: int, offered: bool) -> None:
    state = seat1_turn(L, money=money, loans=loans)
    assert ("start:repay a loan" in options(L.engine, state, "start")) is offered


def test_repaying_only_at_the_start_of_the_turn(L: London) -> None:
    # Money earned during the activation cannot repay the loan before the next turn (example 2).
    e = L.engine
    state = activation(L, [["east-india-company-a"], [SPARE]], hand=("poor-a-1",), money=5, loans=1)
    state = activate(L, state, "east-india-company-a")
    state = pick_card(e, state, "given", "poor-a-1")
    assert numbers(state)["money"] == 17
    state = answer(e, state, "step", "step:stop:none")
    assert numbers(state)["loans"] == 1
    assert engine_seat(e, state) == 1
    assert "start:repay a loan" not in options(e, state, "start")  # seat 1's turn: it has no loan


def test_lloyds_forces_a_loan_on_an_opponent_who_cannot_pay(L: London) -> None:
    e = L.engine
    state = L.new_game(3)
    L.set_piles(state, 0, [["lloyds-of-london-b"], [SPARE]])
    L.set_deck_top(state, [TURN_CARD])
    L.set_seat(state, 0, money=0)
    L.set_seat(state, 1, money=1)
    L.set_seat(state, 2, money=5)
    state = begin_action(e, state, "activate")
    before = state
    state = activate(L, state, "lloyds-of-london-b")
    assert delta(before, state, 0) == {"money": 4, "prestige": 0, "poverty": 0, "loans": 0}
    assert delta(before, state, 1) == {"money": 10 - 2, "prestige": 0, "poverty": 0, "loans": 1}
    assert delta(before, state, 2) == {"money": -2, "prestige": 0, "poverty": 0, "loans": 0}
    assert not L.face_up(state, "lloyds-of-london-b")


# ==================================================================== 7. the development board

@pytest.mark.parametrize("seats, columns", [(2, 3), (3, 4), (4, 5)])
def test_development_board_overflow(L: London, seats: int, columns: int) -> None:
    # The upper row full, the lower row one short. Seat 0 (9 cards) takes one card, draws three:
    # 13 cards, 4 to discard at the end of the turn.
    board = fillers(L, 2 * columns - 1)
    hand = fillers(L, 9, but=tuple(board) + (TURN_CARD,))
    state = L.new_game(seats)
    L.set_hand(state, 0, hand)
    L.set_rows(state, top=board[:columns], bottom=board[columns:])
    L.set_deck_top(state, [TURN_CARD])
    state = draw_three_from_deck(L, state)
    state, gone = discard_down(L, state)
    assert len(gone) == 4
    first, second, third, fourth = gone
    # 1st discard: the last space of the lower row. 2nd: the board is full: the lower row leaves
    # the game, the upper row moves down, the card starts the upper row. Then the upper row fills.
    assert L.row(state, "removed")[-columns:] == board[columns:] + [first]
    assert L.row(state, "bottom_row") == board[:columns]
    assert L.row(state, "top_row") == [second, third, fourth]
    assert len(L.hand(state, 0)) == 9
    L.check_places(state)


def test_discards_fill_the_upper_row_first(L: London) -> None:
    # Brixton Prison puts 3 cards on an empty board (2 players: 3 columns), then a hand-limit
    # discard goes to the lower row.
    e = L.engine
    state = activation(L, [["brixton-prison-b"], [SPARE]], hand=("grocers-a", "salters-a", "vintners-a"))
    state = activate(L, state, "brixton-prison-b")
    for card in ("grocers-a", "salters-a", "vintners-a"):
        state = pick_card(e, state, "jailed", card)
    assert L.row(state, "top_row") == ["grocers-a", "salters-a", "vintners-a"]
    assert L.row(state, "bottom_row") == []


# ======================================================================= 8. card abilities

@pytest.mark.parametrize("card, poverty, change, face_up", [
    ("covent-garden-a", 0, {"money": 5, "prestige": 2, "poverty": 0}, False),
    ("water-works-a-1", 3, {"money": 0, "prestige": 0, "poverty": -2}, False),
    ("water-works-a-1", 1, {"money": 0, "prestige": 0, "poverty": -1}, False),   # never below 0
    ("kew-gardens-b", 2, {"money": 0, "prestige": 0, "poverty": -1}, True),
    ("leather-industry-b-1", 0, {"money": 7, "prestige": 0, "poverty": 1}, False),
    ("grand-hotel-c", 0, {"money": 4, "prestige": 0, "poverty": 0}, True),
    ("regent-street-b", 2, {"money": 3, "prestige": 2, "poverty": -1}, False),
])
def test_plain_numbers(L: London, card: str, poverty: int, change: dict[str, int], face_up: bool) -> None:
    state = activation(L, [[card], [SPARE]], poverty=poverty)
    before = state
    state = activate(L, state, card)
    assert delta(before, state) == {**change, "loans": 0}
    assert L.face_up(state, card) is face_up
    # Each card at most once per turn, flipped or not.
    assert step_cards(L, state) == {SPARE}


def test_activation_cost_money(L: London) -> None:
    # Woolwich Arsenal: pay £7, +5 prestige, flip.
    state = activation(L, [["woolwich-arsenal-a"], [SPARE]], money=8)
    before = state
    state = activate(L, state, "woolwich-arsenal-a")
    assert delta(before, state) == {"money": -7, "prestige": 5, "poverty": 0, "loans": 0}
    assert not L.face_up(state, "woolwich-arsenal-a")
    # Street Lights: pay £4, +1 prestige, -2 poverty, stays face up. With £3: a loan.
    state = activation(L, [["street-lights-b-1"], [SPARE]], money=3, poverty=5)
    before = state
    state = activate(L, state, "street-lights-b-1")
    assert delta(before, state) == {"money": 10 - 4, "prestige": 1, "poverty": -2, "loans": 1}
    assert L.face_up(state, "street-lights-b-1")


def test_activation_cost_discard_any_card(L: London) -> None:
    e = L.engine
    state = activation(L, [["east-india-company-a"], [SPARE]], hand=("poor-a-1", "hospital-b"))
    before = state
    state = activate(L, state, "east-india-company-a")
    assert set(options(e, state, "given")) == {"given:poor-a-1", "given:hospital-b", f"given:{TURN_CARD}"}
    state = answer(e, state, "given", "given:hospital-b")
    assert delta(before, state) == {"money": 12, "prestige": 0, "poverty": 0, "loans": 0}
    assert L.row(state, "top_row") == ["hospital-b"]
    assert sorted(L.hand(state, 0)) == sorted(["poor-a-1", TURN_CARD])


def test_activation_cost_discard_needs_a_card_in_hand(L: London) -> None:
    # With an empty hand (the turn card taken is then discarded by Brixton Prison), East India
    # Company cannot be activated.
    e = L.engine
    state = activation(L, [["east-india-company-a"], ["brixton-prison-b"], [SPARE]])
    state = activate(L, state, "brixton-prison-b")
    state = pick_card(e, state, "jailed", TURN_CARD)          # the last card: no further question
    assert L.hand(state, 0) == []
    assert step_cards(L, state) == {SPARE}


def test_activation_cost_discard_a_blue_card(L: London) -> None:
    e = L.engine
    state = activation(L, [["great-exhibition-c"], [SPARE]], hand=("hospital-b", "water-works-a-1", "grocers-a"))
    before = state
    state = activate(L, state, "great-exhibition-c")
    assert set(options(e, state, "given_blue")) == {"given_blue:hospital-b", "given_blue:water-works-a-1"}
    state = answer(e, state, "given_blue", "given_blue:water-works-a-1")
    assert delta(before, state) == {"money": 0, "prestige": 5, "poverty": 0, "loans": 0}
    assert L.row(state, "top_row") == ["water-works-a-1"]
    # Without a blue card in hand it cannot be activated.
    state = activation(L, [["great-exhibition-c"], [SPARE]], hand=("grocers-a", "poor-a-1"))
    assert step_cards(L, state) == {SPARE}


def test_fleet_street_a_player_of_your_choice_takes_2_poverty(L: London) -> None:
    e = L.engine
    state = L.new_game(3)
    L.set_piles(state, 0, [["fleet-street-b"], [SPARE]])
    L.set_deck_top(state, [TURN_CARD])
    state = begin_action(e, state, "activate")
    before = state
    state = activate(L, state, "fleet-street-b")
    assert {"victim:1", "victim:2"} <= set(options(e, state, "victim"))
    state = answer(e, state, "victim", "victim:2")
    assert delta(before, state, 0) == {"money": 5, "prestige": 0, "poverty": 0, "loans": 0}
    assert delta(before, state, 1)["poverty"] == 0
    assert delta(before, state, 2)["poverty"] == 2


@pytest.mark.parametrize("poverty", [2, 0])
def test_police_force_gives_one_poverty_to_a_player_of_your_choice(L: London, poverty: int) -> None:
    e = L.engine
    state = L.new_game(3)
    L.set_piles(state, 0, [["police-force-b"], [SPARE]])
    L.set_deck_top(state, [TURN_CARD])
    L.set_seat(state, 0, poverty=poverty)
    state = begin_action(e, state, "activate")
    before = state
    state = activate(L, state, "police-force-b")
    if poverty:
        assert set(options(e, state, "receiver")) == {"receiver:1", "receiver:2"}
        state = answer(e, state, "receiver", "receiver:1")
    else:
        expect(e, state, "step")     # no poverty to give: nobody is asked
    moved = 1 if poverty else 0
    assert delta(before, state, 0) == {"money": 0, "prestige": 2, "poverty": -moved, "loans": 0}
    assert delta(before, state, 1)["poverty"] == moved
    assert delta(before, state, 2)["poverty"] == 0


def test_fire_brigade_every_other_player_pays_1_per_district(L: London) -> None:
    e = L.engine
    state = L.new_game(3)
    L.set_piles(state, 0, [["fire-brigade-b"], [SPARE]])
    L.set_districts(state, 0, ["city"])
    L.set_districts(state, 1, ["lewisham", "deptford", "hackney"])
    L.set_districts(state, 2, ["westminster"])
    L.set_deck_top(state, [TURN_CARD])
    L.set_seat(state, 1, money=2)
    L.set_seat(state, 2, money=5)
    state = begin_action(e, state, "activate")
    before = state
    state = activate(L, state, "fire-brigade-b")
    assert delta(before, state, 0) == {"money": 0, "prestige": 2, "poverty": 0, "loans": 0}
    assert delta(before, state, 1) == {"money": 10 - 3, "prestige": 0, "poverty": 0, "loans": 1}
    assert delta(before, state, 2) == {"money": -1, "prestige": 0, "poverty": 0, "loans": 0}


def test_brixton_prison_up_to_3_cards_one_poverty_each(L: London) -> None:
    e = L.engine
    state = activation(L, [["brixton-prison-b"], [SPARE]], hand=("poor-a-1", "grocers-a", "poor-b-1", "salters-a"),
                       poverty=5)
    before = state
    state = activate(L, state, "brixton-prison-b")
    assert "jailed:stop:none" in options(e, state, "jailed")
    for card in ("poor-a-1", "grocers-a", "poor-b-1"):
        state = pick_card(e, state, "jailed", card)
    # Three cards at most: no fourth question.
    expect(e, state, "step")
    assert delta(before, state) == {"money": 0, "prestige": 0, "poverty": -3, "loans": 0}
    assert sorted(L.hand(state, 0)) == sorted(["salters-a", TURN_CARD])
    assert L.row(state, "top_row") == ["poor-a-1", "grocers-a", "poor-b-1"]
    assert not L.face_up(state, "brixton-prison-b")


def test_millbank_prison_one_poverty_and_one_prestige_per_card(L: London) -> None:
    e = L.engine
    state = activation(L, [["millbank-prison-b"], [SPARE]], hand=("poor-a-1", "grocers-a", "salters-a"), poverty=1)
    before = state
    state = activate(L, state, "millbank-prison-b")
    state = pick_card(e, state, "jailed", "poor-a-1")
    state = pick_card(e, state, "jailed", "grocers-a")
    state = answer(e, state, "jailed", "jailed:stop:none")
    assert delta(before, state) == {"money": 0, "prestige": 2, "poverty": -1, "loans": 0}   # never below 0
    assert sorted(L.hand(state, 0)) == sorted(["salters-a", TURN_CARD])


def test_workhouse_poor_cards_only_one_pound_and_one_poverty_each(L: London) -> None:
    e = L.engine
    state = activation(L, [["workhouse-c"], [SPARE]], hand=("poor-a-1", "grocers-a", "poor-b-1"), poverty=4)
    before = state
    state = activate(L, state, "workhouse-c")
    assert set(options(e, state, "pauper")) == {"pauper:stop:none", "pauper:Poor (Paupers):poor-a-1",
                                                "pauper:Poor (Paupers):poor-b-1"}
    state = pick_card(e, state, "pauper", "poor-a-1")
    state = pick_card(e, state, "pauper", "poor-b-1")
    # No Poor card left: no more questions.
    expect(e, state, "step")
    assert delta(before, state) == {"money": 2, "prestige": 0, "poverty": -2, "loans": 0}
    assert sorted(L.hand(state, 0)) == sorted(["grocers-a", TURN_CARD])
    assert L.row(state, "top_row") == ["poor-a-1", "poor-b-1"]


def test_shops_store_one_pound_per_card_placed_and_give_it_when_activated(L: London) -> None:
    # 2 players. Shops (b-1) face up; Shops (c-1) face down: it stores nothing.
    e = L.engine
    state = position(L, project=[["shops-b-1"], ["-shops-c-1"]],
                     hand=("grocers-a", "salters-a", "shops-b-2", "haberdashers-a", "vintners-a"), poverty=3)
    state = begin_action(e, state, "develop")
    state = play_card(L, state, "grocers-a", spent="salters-a")
    assert state["components"]["card"]["stored"][L.card("shops-b-1")] == 1
    state = play_card(L, state, "shops-b-2", spent="haberdashers-a")      # not on itself
    state = play_card(L, state, "vintners-a", spent=TURN_CARD)           # now on both
    stored = state["components"]["card"]["stored"]
    assert [stored[L.card(c)] for c in ("shops-b-1", "shops-b-2", "shops-c-1")] == [3, 1, 0]
    # The hand is empty: the turn is over. Seat 1 places a card: seat 0's Shops store nothing.
    assert engine_seat(e, state) == 1
    L.set_hand(state, 1, ["fishmongers-a", "mercers-a"])
    L.set_deck_top(state, ["albert-hall-c"])
    state = begin_action(e, state, "develop")
    state = play_card(L, state, "fishmongers-a", spent="mercers-a")
    assert L.piles(state, 1) == [["fishmongers-a"]]
    assert state["components"]["card"]["stored"][L.card("shops-b-1")] == 3
    # Seat 0 activates the Shops: +2 prestige, -1 poverty and the £3 stored, then flips.
    L.set_deck_top(state, ["nelsons-column-b"])
    state = begin_action(e, state, "activate")
    before = state
    state = activate(L, state, "shops-b-1")
    assert delta(before, state) == {"money": 3, "prestige": 2, "poverty": -1, "loans": 0}
    assert state["components"]["card"]["stored"][L.card("shops-b-1")] == 0
    assert not L.face_up(state, "shops-b-1")


@pytest.mark.parametrize("covered, amount", [(False, 12), (True, 10)])
def test_bank_of_england_loans_pay_12(L: London, covered: bool, amount: int) -> None:
    pile = ["bank-of-england-b", "grocers-a"] if covered else ["bank-of-england-b"]
    state = position(L, project=[pile], money=0)
    state = answer(L.engine, state, "start", "start:take a loan")
    assert numbers(state)["money"] == amount
    assert numbers(state)["loans"] == 1


def test_bank_of_england_on_a_forced_loan(L: London) -> None:
    # Seat 1 has a visible Bank of England and £0 when seat 0's Lloyds asks for £2: 12 - 2.
    e = L.engine
    state = L.new_game(2)
    L.set_piles(state, 0, [["lloyds-of-london-b"], [SPARE]])
    L.set_piles(state, 1, [["bank-of-england-b"]])
    L.set_deck_top(state, [TURN_CARD])
    L.set_seat(state, 1, money=0)
    state = begin_action(e, state, "activate")
    state = activate(L, state, "lloyds-of-london-b")
    assert numbers(state, 1)["money"] == 10
    assert numbers(state, 1)["loans"] == 1


@pytest.mark.parametrize("districts, limit", [(("hampstead",), 10), (("hampstead", "westminster"), 9), ((), 9)])
def test_hampstead_hand_limit_10(L: London, districts: tuple[str, ...], limit: int) -> None:
    hand = fillers(L, 10, but=(TURN_CARD,))
    state = position(L, hand=tuple(hand), districts=districts)
    state = begin_action(L.engine, state, "draw")       # 11 + 3 = 14 cards
    state, gone = discard_down(L, state)
    assert len(gone) == 14 - limit
    assert len(L.hand(state, 0)) == limit
    assert engine_seat(L.engine, state) == 1


@pytest.mark.parametrize("districts, paid", [(("islington-stoke-newington",), 1), (("westminster",), 2),
                                             (("islington-stoke-newington", "westminster"), 2)])
def test_islington_extra_cost_1_less(L: London, districts: tuple[str, ...], paid: int) -> None:
    # Hospital costs £2 more to play; Lord's nothing (never below 0).
    e = L.engine
    state = position(L, hand=("hospital-b", "water-works-a-1", "lords-b", "water-works-a-2"),
                     districts=districts, money=5)
    state = begin_action(e, state, "develop")
    state = play_card(L, state, "hospital-b", spent="water-works-a-1")
    assert numbers(state)["money"] == 5 - paid
    state = play_card(L, state, "lords-b", spent="water-works-a-2")
    assert numbers(state)["money"] == 5 - paid


@pytest.mark.parametrize("use_pub", [True, False])
def test_public_houses_the_hand_adds_no_poverty(L: London, use_pub: bool) -> None:
    e = L.engine
    state = activation(L, [["public-houses-c"], [SPARE]], hand=("grocers-a", "poor-a-1", "salters-a"), loans=1,
                       poverty=0)
    if use_pub:
        state = activate(L, state, "public-houses-c")
    state = answer(e, state, "step", "step:stop:none")
    hand = 0 if use_pub else 4
    assert numbers(state)["poverty"] == 2 + 1 + hand     # 2 piles, 1 loan
    assert L.face_up(state, "public-houses-c")
    # The next activation counts the hand again.
    state = pass_turn(L, state)
    L.set_deck_top(state, ["albert-hall-c"])
    before = state
    state = begin_action(e, state, "activate")
    state = answer(e, state, "step", "step:stop:none")
    assert delta(before, state)["poverty"] == 2 + 1 + 5


def test_whitehall_activates_again_for_free_a_card_activated_this_turn(L: London) -> None:
    # East India Company (discard a card, +£12, flips), Grand Hotel (+£4) and British Museum (+1
    # prestige) activated, then Whitehall: Grand Hotel again. East India Company, face down since
    # its activation, is out of play (RULINGS), as are Mercers (covered) and Fishmongers (face down).
    e = L.engine
    state = activation(L, [["east-india-company-a"], ["grand-hotel-c"], ["british-museum-b"],
                           ["mercers-a", "whitehall-c"], ["-fishmongers-a"], [SPARE]], hand=("poor-a-1", "grocers-a"))
    state = activate(L, state, "east-india-company-a")
    state = pick_card(e, state, "given", "poor-a-1")
    state = activate(L, state, "grand-hotel-c")
    state = activate(L, state, "british-museum-b")
    before = state
    state = activate(L, state, "whitehall-c")
    assert set(options(e, state, "repeat")) == {"repeat:grand-hotel-c", "repeat:british-museum-b"}
    state = answer(e, state, "repeat", "repeat:grand-hotel-c")
    expect(e, state, "step")
    assert delta(before, state) == {"money": 4, "prestige": 0, "poverty": 0, "loans": 0}
    assert sorted(L.hand(state, 0)) == sorted(["grocers-a", TURN_CARD])
    assert not L.face_up(state, "whitehall-c")
    assert step_cards(L, state) == {SPARE}


def test_whitehall_with_nothing_activated_before_does_nothing_more(L: London) -> None:
    state = activation(L, [["whitehall-c"], [SPARE]])
    before = state
    state = activate(L, state, "whitehall-c")
    expect(L.engine, state, "step")
    assert delta(before, state) == {"money": 0, "prestige": 0, "poverty": 0, "loans": 0}


def test_hospital_keeps_the_card_face_up_for_a_later_turn(L: London) -> None:
    e = L.engine
    state = activation(L, [["hospital-a"], ["covent-garden-a"], [SPARE]])
    state = activate(L, state, "covent-garden-a")
    assert not L.face_up(state, "covent-garden-a")
    state = activate(L, state, "hospital-a")
    assert L.face_up(state, "covent-garden-a") and not L.face_up(state, "hospital-a")
    assert step_cards(L, state) == {SPARE}                         # not again this turn
    state = answer(e, state, "step", "step:stop:none")
    state = pass_turn(L, state)                                    # seat 1
    L.set_deck_top(state, ["albert-hall-c"])
    state = begin_action(e, state, "activate")
    assert step_cards(L, state) == {"covent-garden-a", SPARE}       # a later turn: yes
    before = state
    state = activate(L, state, "covent-garden-a")
    assert delta(before, state)["money"] == 5


def test_hospital_activated_first_only_flips_itself(L: London) -> None:
    state = activation(L, [["hospital-a"], ["covent-garden-a"], [SPARE]])
    state = activate(L, state, "hospital-a")
    assert not L.face_up(state, "hospital-a")
    assert L.face_up(state, "covent-garden-a")
    assert step_cards(L, state) == {"covent-garden-a", SPARE}


@pytest.mark.parametrize("card, districts, money", [
    ("omnibus-b-1", ("hackney", "lewisham", "deptford"), 3),          # +£1 per district owned
    ("steamboats-b-1", ("hackney", "lewisham", "deptford"), 2),       # +£2 per district on the Thames
    ("train-station-c-1", ("hackney", "lewisham", "st-pancras"), 4),  # +£2 per district north
])
def test_money_counted_from_the_districts(L: London, card: str, districts: tuple[str, ...], money: int) -> None:
    state = activation(L, [[card], [SPARE]], hand=("poor-a-1",), districts=districts)
    before = state
    state = activate(L, state, card)
    d = L.engine.pending(state)
    if isinstance(d, Decision) and d.name == "given":              # Train Station: discard a card
        state = pick_card(L.engine, state, "given", "poor-a-1")
    assert delta(before, state)["money"] == money


def test_bridge_and_tower_bridge_count_visible_brown_cards(L: London) -> None:
    # Brown face-up tops: Grocers, Salters (Mercers is covered, Vintners face down) = 2.
    project = [["mercers-a", "grocers-a"], ["salters-a"], ["-vintners-a"], ["bridge-b-1"], ["tower-bridge-c"], [SPARE]]
    state = activation(L, project)
    before = state
    state = activate(L, state, "bridge-b-1")
    assert delta(before, state)["money"] == 2
    before = state
    state = activate(L, state, "tower-bridge-c")
    assert delta(before, state)["money"] == 2


def test_town_houses_counts_face_up_blue_cards_only(L: London) -> None:
    # Blue: Town Houses, Lord's (tops, face up) = 2; Hospital face down, Water Works covered: no.
    project = [["town-houses-b-2"], [SPARE], ["-hospital-b"], ["water-works-a-1", "grocers-a"]]
    state = activation(L, project)
    before = state
    state = activate(L, state, "town-houses-b-2")
    assert delta(before, state)["prestige"] == 2


@pytest.mark.parametrize("district, change", [
    ("kensington", {"prestige": 1}),
    ("fulham-chelsea", {"poverty": -1}),
    ("wandsworth", {"poverty": 2}),
    ("greenwich", {"money": 2}),
])
def test_district_activation_abilities_are_mandatory(L: London, district: str, change: dict[str, int]) -> None:
    e = L.engine
    state = activation(L, [[SPARE]], districts=("hackney", district), poverty=3)
    assert options(e, state, "step") == [f"step:Lord's:{SPARE}", "step:district ability:none"]
    before = state
    state = answer(e, state, "step", "step:district ability:none")
    expect(e, state, "step")
    assert delta(before, state) == {"money": 0, "prestige": 0, "poverty": 0, "loans": 0, **change}
    # A covered district's ability is not due.
    state = activation(L, [[SPARE]], districts=(district, "hackney"), poverty=3)
    assert "step:stop:none" in options(e, state, "step")
    assert "step:district ability:none" not in options(e, state, "step")


# ===================================================================== 9. the end of the game

@pytest.mark.parametrize("deck, emptied_by, last_turns", [(1, 0, [1, 2]), (5, 1, [2, 0])])
def test_empty_deck_every_other_player_has_one_last_turn(L: London, deck: int, emptied_by: int,
                                                         last_turns: list[int]) -> None:
    # 3 players, empty hands and board; every turn: take a card, draw three. With 1 card, seat 0
    # empties the deck; with 5, seat 0 takes 4 and seat 1 the last one.
    e = L.engine
    state = L.new_game(3)
    L.set_rows(state)
    for s in range(3):
        L.set_hand(state, s, [])
    L.set_deck(state, fillers(L, deck))
    turns = []
    while isinstance(e.pending(state), Decision):
        seat = engine_seat(e, state)
        turns.append(seat)
        assert len(turns) <= 10
        state = answer(e, state, "start", "start:go on")
        state = answer(e, state, "action", "action:draw")
    assert turns == list(range(emptied_by + 1)) + last_turns
    assert state["global"]["deck"] == []
    assert isinstance(e.pending(state), Result)
    assert events(state, "final") != []


def test_the_game_goes_on_while_the_deck_has_cards(L: London) -> None:
    e = L.engine
    state = L.new_game(2)
    L.set_rows(state)
    for s in range(2):
        L.set_hand(state, s, [])
    L.set_deck(state, fillers(L, 9))
    for seat in (0, 1, 0):            # 4 + 4 + 1 cards
        assert engine_seat(e, state) == seat
        state = answer(e, state, "start", "start:go on")
        state = answer(e, state, "action", "action:draw")
    assert engine_seat(e, state) == 1  # seat 0 emptied the deck: seat 1's last turn
    state = answer(e, state, "start", "start:go on")
    state = answer(e, state, "action", "action:draw")
    assert isinstance(e.pending(state), Result)


# ================================================================== 10. hidden information

def public_names(L: London, state: State) -> set[str]:
    """Names of the cards anyone can see: development board, out of the game, piles' tops."""
    g = state["global"]
    cards = g["top_row"] + g["bottom_row"] + g["removed"]
    for s in range(state["seats"]):
        cards += [c for pile in state["seat"]["piles"][s] for c in pile]
    return {L.name(c) for c in cards}


@pytest.mark.parametrize("seats, seed", [(2, 5), (3, 6), (4, 7), (4, 8)])
def test_no_seat_sees_another_seats_hand(L: London, seats: int, seed: int) -> None:
    # Whole games of random bots: after every answer, each seat's view and the log lines it can
    # read. A card taken from the deck by another seat may be named only once it is public.
    e = L.engine
    bots = [RandomAgent(bot_seed(seed, s)) for s in range(seats)]
    state = e.new_game(seats, seed)
    seen_log = [0] * seats
    secret_draws = 0
    while state["result"] is None:
        assert state["decisions"] < 10_000, "the game does not end"
        seat = e.first_open_seat(state)
        before = state
        state = e.apply(state, e.option_id(state, seat, bots[seat].pick(e, state, seat)), seat)
        # Cards that went from the deck to a hand in this step, and whose name nothing shows.
        drawn = {s: [c for c in state["seat"]["hand"][s] if c in before["global"]["deck"]] for s in range(seats)}
        shown = public_names(L, before) | public_names(L, state)
        for viewer in range(seats):
            v = view(e, state, viewer)
            # Only sizes show (RULINGS: deck, hand and pile sizes are public), never a card.
            assert v["global"]["deck"] == shape(state["global"]["deck"])
            for other in range(seats):
                if other != viewer:
                    assert v["seats"]["hand"][other] == shape(state["seat"]["hand"][other])
                    assert v["seats"]["piles"][other] == shape(state["seat"]["piles"][other])
            assert v["seats"]["hand"][viewer] == state["seat"]["hand"][viewer]
            if v["pending"] is not None and viewer not in v["pending"]["waiting_for"]:
                assert "options" not in v["pending"] and "prompt" not in v["pending"]
            secret = {L.name(c) for s in range(seats) if s != viewer for c in drawn[s]} - shown
            secret_draws += len(secret)
            for line in v["log"][seen_log[viewer]:]:
                for name in secret:
                    assert name not in line, f"seat {viewer} reads '{line}': {name} was drawn by another seat"
            seen_log[viewer] = len(v["log"])
    assert secret_draws > 0, "the game never drew a card that stayed hidden: nothing was checked"
