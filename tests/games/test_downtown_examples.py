"""Acceptance tests: the worked examples of the Downtown rulebook (shared/rules/downtown.fr.txt).

Every test builds its position by editing the plain-data state (plaques, markers, mayor, lobby
tokens, planning piles), then drives the game only through `engine.pending` / `engine.apply`, so
that the rule files in games/downtown/ do the work being checked.

Board used (reconstructed layout, games/downtown/board.yaml), the lots the tests build on:

    lot 1 (rect)   neighbours 2, 5, 7
    lot 2 (square) neighbours 1, 3, 5
    lot 5 (square) neighbours 1, 2, 6, 7
    lot 6 (rect)   neighbours 3, 4, 5, 8
    lot 7 (rect)   neighbours 1, 5, 8, 10
    lot 8 (square) neighbours 6, 7
    lot 23 (square) neighbour 22 only: far from all of the above, used as the "no purchase" park
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game

KINDS = ("housing", "industry", "commerce")
NO_PURCHASE_PARK = 23  # a park here is how a seat buys nothing (rulebook, phase 3)


# --------------------------------------------------------------------------- helpers

@pytest.fixture(scope="module")
def game():
    return load_game("downtown")


@pytest.fixture(scope="module")
def engine(game):
    return Engine(game)


def idx(game, lot: int) -> int:
    """Node index of a lot number."""
    return game.node_index(lot)


def pending_decision(engine: Engine, state: dict, name: str) -> Decision:
    """The pending decision, which must be the one named."""
    d = engine.pending(state)
    assert isinstance(d, Decision), f"expected a '{name}' decision, the game is over: {d}"
    assert d.name == name, f"expected a '{name}' decision, got '{d.name}' for seats {d.seats}"
    return d


def option_ids(engine: Engine, state: dict, seat: int) -> list[str]:
    return [o.id for o in engine.pending(state).options(seat)]


def answer_each(engine: Engine, state: dict, name: str, answers: dict[int, str]) -> dict:
    """Answer the pending decision `name`: exactly the open seats, each with its option id."""
    d = pending_decision(engine, state, name)
    assert set(d.seats) == set(answers), f"'{name}' asks seats {d.seats}, test answers {sorted(answers)}"
    for seat, option in answers.items():
        state = engine.apply(state, option, seat=seat)
    return state


def answer_all(engine: Engine, state: dict, name: str, option: str) -> dict:
    """Answer the pending decision `name` with the same option id for every open seat."""
    d = pending_decision(engine, state, name)
    return answer_each(engine, state, name, {s: option for s in d.seats})


def events_since(state: dict, mark: int, kind: str) -> list[dict]:
    """Log events of one kind written after position `mark` of the log."""
    return [e for e in state["log"][mark:] if e["kind"] == kind]


def advance_to_vote(engine: Engine, game, seats: int, seed: int = 1) -> tuple[dict, int]:
    """A new game advanced to the vote ('kind') on one even, bare west lot.

    The chosen lot is moved to the top of the west pile before the mayor turns it up, so it is the
    only card revealed (even number: no second card). Returns (state, lot number).
    """
    state = engine.new_game(seats, seed=seed)
    plaque = state["node"]["plaque"]
    lot = next(n for n in (6, 8, 4, 2, 10, 12) if plaque[idx(game, n)] is None)
    pile = state["global"]["piles"]["west"]
    pile.remove(idx(game, lot))
    pile.insert(0, idx(game, lot))
    state = answer_each(engine, state, "side", {state["global"]["mayor"]: "side:west"})
    pending_decision(engine, state, "kind")
    assert state["global"]["revealed"] == [idx(game, lot)]
    shape = game.graph.nodes[lot]["shape"]
    for kind in KINDS:  # the example needs all three kinds to be votable on this lot
        assert state["global"]["supply"][kind][shape] > 0
    for seat in range(seats):
        assert option_ids(engine, state, seat) == [f"kind:{k}" for k in KINDS]
    return state, lot


def run_vote(engine: Engine, state: dict, *, mayor: int, votes: dict[int, str],
             lobby_holders: Iterable[int], lobby_uses: Iterable[int]) -> tuple[dict, list[int]]:
    """Play the vote: set mayor and lobby tokens, cast the secret votes, answer the lobby questions.

    Returns the new state and the seats asked 'use_lobby', in the order they were asked.
    """
    holders, uses = set(lobby_holders), set(lobby_uses)
    assert uses <= holders
    state["global"]["mayor"] = mayor
    state["seat"]["lobby"] = [s in holders for s in range(state["seats"])]
    state = answer_each(engine, state, "kind", {s: f"kind:{k}" for s, k in votes.items()})
    asked: list[int] = []
    while True:
        d = engine.pending(state)
        if not (isinstance(d, Decision) and d.name == "use_lobby"):
            return state, asked
        assert len(d.seats) == 1, "lobby use is declared publicly, one seat at a time"
        seat = d.seats[0]
        asked.append(seat)
        state = engine.apply(state, "use_lobby:yes" if seat in uses else "use_lobby:no", seat=seat)


def advance_to_buying(engine: Engine, game, seats: int = 4, seed: int = 1) -> dict:
    """A new game advanced to the buying decision ('target') of the first round."""
    state, _ = advance_to_vote(engine, game, seats, seed)
    state, _ = run_vote(engine, state, mayor=0, votes={s: "housing" for s in range(seats)},
                        lobby_holders=(), lobby_uses=())
    pending_decision(engine, state, "target")
    return state


def build(game, state: dict, plaques: dict[int, str]) -> None:
    """Make the board exactly `plaques` (lot number -> kind); every other lot is bare and unpaid.

    A park always stands on NO_PURCHASE_PARK so that seats can buy nothing.
    """
    n = len(state["node"]["plaque"])
    state["node"]["plaque"] = [None] * n
    state["node"]["markers"] = [[] for _ in range(n)]
    state["node"]["paid"] = [False] * n
    for lot, kind in {NO_PURCHASE_PARK: "park", **plaques}.items():
        state["node"]["plaque"][idx(game, lot)] = kind


def put_markers(game, state: dict, lot: int, owners: list[int]) -> None:
    """Put markers (one per parcel) on a lot, taken from their owners' supplies."""
    state["node"]["markers"][idx(game, lot)] = list(owners)
    for s in owners:
        state["seat"]["markers"][s] -= 1


def buy(engine: Engine, state: dict, orders: dict[int, tuple[int, int]]) -> dict:
    """Phase 3: seats in `orders` dial (lot, count); every other seat dials the park (no purchase).

    Plays on through placement and payout, up to the next decision.
    """
    seats = range(state["seats"])
    state = answer_each(engine, state, "target",
                        {s: f"target:{orders[s][0] if s in orders else NO_PURCHASE_PARK}" for s in seats})
    d = engine.pending(state)
    if isinstance(d, Decision) and d.name == "parcels":
        state = answer_each(engine, state, "parcels", {s: f"parcels:{orders[s][1]}" for s in d.seats})
    buys = {e["data"]["seat"]: e["data"] for e in state["log"] if e["kind"] == "buy"}
    for s, (lot, n) in orders.items():  # the engine recorded what each seat asked for
        assert buys[s]["lot"] == lot and buys[s]["parcels"] == n, buys[s]
    return state


def payout_round(engine: Engine, game, *, plaques: dict[int, str], lot: int, owners: list[int],
                 buyer: int, seats: int = 4) -> tuple[dict, dict, list[int], list[dict]]:
    """Build `plaques`, put `owners` markers on `lot`, let `buyer` buy the last parcel(s) there.

    Returns (payout event data, {seat: amount} of the 'paid' events, money change per seat,
    all payout events of that round).
    """
    state = advance_to_buying(engine, game, seats)
    build(game, state, plaques)
    put_markers(game, state, lot, owners)
    missing = 4 - len(owners)
    before = list(state["seat"]["money"])
    mark = len(state["log"])
    state = buy(engine, state, {buyer: (lot, missing)})
    payouts = events_since(state, mark, "payout")
    mine = [e["data"] for e in payouts if e["data"]["lot"] == lot]
    assert len(mine) == 1, f"lot {lot} should be paid out exactly once, payouts: {payouts}"
    paid = {e["data"]["seat"]: e["data"]["amount"] for e in events_since(state, mark, "paid")
            if e["data"]["lot"] == lot}
    delta = [after - b for after, b in zip(state["seat"]["money"], before)]
    assert state["node"]["paid"][idx(game, lot)] is True
    assert state["node"]["markers"][idx(game, lot)] == []
    return mine[0], paid, delta, [e["data"] for e in payouts]


# --------------------------------------------------------------------------- 1. votes

def test_vote_example_1_two_housing_beat_mayor_commerce_and_one_industry(engine, game):
    # Two players vote housing, the mayor commerce, another player industry: housing wins.
    state, lot = advance_to_vote(engine, game, 4)
    state, asked = run_vote(engine, state, mayor=1,
                            votes={0: "housing", 1: "commerce", 2: "housing", 3: "industry"},
                            lobby_holders=(), lobby_uses=())
    assert asked == []  # nobody holds a lobby token: nobody is asked
    pending_decision(engine, state, "target")  # no tie-break question either
    assert state["node"]["plaque"][idx(game, lot)] == "housing"


def test_vote_example_2_three_against_three_the_mayor_commerce_wins(engine, game):
    # Three players vote housing, three others including the mayor commerce: commerce wins.
    state, lot = advance_to_vote(engine, game, 6)
    state, asked = run_vote(engine, state, mayor=3,
                            votes={0: "housing", 1: "housing", 2: "housing",
                                   3: "commerce", 4: "commerce", 5: "commerce"},
                            lobby_holders=range(6), lobby_uses=())
    # Everyone still holds a token: all are asked, the mayor first, then clockwise; all decline.
    assert asked == [3, 4, 5, 0, 1, 2]
    assert state["seat"]["lobby"] == [True] * 6  # declining keeps the token
    pending_decision(engine, state, "target")  # the mayor's vote decides: no tie_break question
    assert state["node"]["plaque"][idx(game, lot)] == "commerce"


def test_vote_example_3_mayor_housing_loses_to_two_industry(engine, game):
    # The mayor votes housing, two players vote industry: industry wins.
    state, lot = advance_to_vote(engine, game, 3)
    state, asked = run_vote(engine, state, mayor=0,
                            votes={0: "housing", 1: "industry", 2: "industry"},
                            lobby_holders=(), lobby_uses=())
    pending_decision(engine, state, "target")
    assert state["node"]["plaque"][idx(game, lot)] == "industry"


@pytest.mark.parametrize("pick", ["housing", "commerce"])
def test_vote_example_4_lobby_tie_mayor_chooses_between_tied_kinds_only(engine, game, pick):
    # Two vote housing (one with lobby), two commerce (one with lobby), the mayor industry:
    # 3 against 3, the mayor chooses housing or commerce, never industry.
    state, lot = advance_to_vote(engine, game, 5)
    state, asked = run_vote(engine, state, mayor=2,
                            votes={2: "industry", 3: "housing", 4: "housing", 0: "commerce", 1: "commerce"},
                            lobby_holders=(3, 0), lobby_uses=(3, 0))
    assert asked == [3, 0]  # seat order starting with the mayor (2): 3 comes before 0
    assert state["seat"]["lobby"] == [False, False, False, False, False]
    d = pending_decision(engine, state, "tie_break")
    assert d.seats == (2,)  # the mayor decides
    assert sorted(o.id for o in d.options(2)) == ["tie_break:commerce", "tie_break:housing"]
    state = engine.apply(state, f"tie_break:{pick}", seat=2)
    pending_decision(engine, state, "target")
    assert state["node"]["plaque"][idx(game, lot)] == pick


def test_vote_example_5_four_all_the_mayor_lobbied_housing_wins(engine, game):
    # Two players incl. the mayor vote housing, each with lobby; three vote industry, one with
    # lobby: 4 against 4, and the mayor voted housing, so housing wins.
    state, lot = advance_to_vote(engine, game, 5)
    mark = len(state["log"])
    state, asked = run_vote(engine, state, mayor=4,
                            votes={4: "housing", 1: "housing", 0: "industry", 2: "industry", 3: "industry"},
                            lobby_holders=(4, 1, 0), lobby_uses=(4, 1, 0))
    assert asked == [4, 0, 1]
    assert [e["data"]["seat"] for e in events_since(state, mark, "lobby")] == [4, 0, 1]
    pending_decision(engine, state, "target")  # no tie_break question: the mayor's kind is tied
    ties = events_since(state, mark, "tie")
    assert len(ties) == 1 and sorted(ties[0]["data"]["kinds"]) == ["housing", "industry"]
    assert state["node"]["plaque"][idx(game, lot)] == "housing"


# --------------------------------------------------------------------------- 2. valuation

# Figure 3 of "Exemples de lots bien placés et mal placés", built on lots 1, 2, 5, 7:
# commerce 5 touches housing 1 (rect) and housing 2 (square) and industry 7;
# industry 7 touches commerce 5; housing 1 touches industry 7; housing 2 touches no industry.
FIG3 = {5: "commerce", 1: "housing", 2: "housing", 7: "industry"}
# Figure 1 "P L I" on lots 6 - 8 - 7 (lot 8 touches exactly lots 6 and 7).
FIG1 = {6: "park", 8: "housing", 7: "industry"}
# Figure 2 on the triangle 1 - 2 - 5: housing 1, industry 2, commerce 5 (each touches the other two).
FIG2 = {1: "housing", 2: "industry", 5: "commerce"}

VALUATIONS = [
    # id, layout, scored lot, built neighbours, well placed, value per marker
    ("counting_housing_2_neighbours_not_well_placed_is_2", FIG1, 8, 2, False, 2),
    ("counting_industry_2_neighbours_well_placed_is_4", FIG3, 7, 2, True, 4),
    ("counting_commerce_3_neighbours_well_placed_is_6", FIG3, 5, 3, True, 6),
    ("fig1_PLI_industry_without_commerce_not_well_placed", FIG1, 7, 1, False, 1),
    ("fig1_PLI_housing_next_to_industry_not_well_placed", FIG1, 8, 2, False, 2),
    ("fig2_industry_well_placed_by_commerce", FIG2, 2, 2, True, 4),
    ("fig2_commerce_with_one_housing_not_well_placed", FIG2, 5, 2, False, 2),
    ("fig2_housing_next_to_industry_not_well_placed", FIG2, 1, 2, False, 2),
    ("fig3_industry_well_placed_by_commerce", FIG3, 7, 2, True, 4),
    ("fig3_commerce_well_placed_by_two_housing", FIG3, 5, 3, True, 6),
    ("fig3_rect_housing_next_to_industry_not_well_placed", FIG3, 1, 3, False, 3),
    ("fig3_square_housing_without_industry_well_placed", FIG3, 2, 2, True, 4),
]


@pytest.mark.parametrize("layout, lot, neighbours, well, value",
                         [v[1:] for v in VALUATIONS], ids=[v[0] for v in VALUATIONS])
def test_valuation_examples(engine, game, layout, lot, neighbours, well, value):
    # "Exemple de comptage des valeurs" and "Exemples de lots bien placés et mal placés":
    # seat 0 holds 3 parcels, seat 1 buys the 4th for 3 (built lot); both get value x markers
    # plus the two-owner bonus (2 if well placed, 1 if not).
    payout, paid, delta, _ = payout_round(engine, game, plaques=layout, lot=lot, owners=[0, 0, 0], buyer=1)
    assert payout["kind"] == layout[lot]
    assert payout["neighbours"] == neighbours
    assert payout["well_placed"] is well
    assert payout["value"] == value
    bonus = 2 if well else 1
    assert payout["bonus"] == bonus
    assert paid == {0: 3 * value + bonus, 1: value + bonus}
    assert delta == [3 * value + bonus, value + bonus - 3, 0, 0]


def test_fig1_park_is_never_scored_but_counts_as_neighbour(engine, game):
    # "P L I": the park is not concerned; yet it is one of the housing's 2 built neighbours.
    state = advance_to_buying(engine, game)
    build(game, state, FIG1)
    put_markers(game, state, 6, [2, 2, 3, 3])  # even a park carrying four markers pays nothing
    put_markers(game, state, 8, [0, 0, 0])
    mark = len(state["log"])
    state = buy(engine, state, {1: (8, 1)})
    payouts = [e["data"] for e in events_since(state, mark, "payout")]
    assert [p["lot"] for p in payouts] == [8]
    assert payouts[0]["neighbours"] == 2  # park 6 + industry 7
    assert state["node"]["paid"][idx(game, 6)] is False
    assert state["node"]["markers"][idx(game, 6)] == [2, 2, 3, 3]


def test_valuation_diagonal_lot_is_not_a_neighbour(engine, game):
    # Lots touching only by a corner do not count: lot 8 (cell r2c2) and lot 5 (r1c1) are diagonal.
    layout = {6: "park", 8: "housing", 7: "park", 5: "industry"}
    assert not game.graph.has_edge(5, 8)
    payout, paid, _, _ = payout_round(engine, game, plaques=layout, lot=8, owners=[0, 0, 0], buyer=1)
    assert payout["neighbours"] == 2 and payout["well_placed"] is True and payout["value"] == 4


# --------------------------------------------------------------------------- 3. bonus

# Housing on lot 8 between park 6 and commerce 7: well placed, 2 neighbours -> 4 per marker.
WELL = {6: "park", 8: "housing", 7: "commerce"}
# Housing on lot 8 between park 6 and industry 7: not well placed -> 2 per marker.
POOR = {6: "park", 8: "housing", 7: "industry"}


def test_bonus_example_A_and_B_on_well_placed_lot_get_2_each(engine, game):
    # A and B are on a well placed lot: each gets a bonus of 2 (once, not per marker).
    payout, paid, delta, _ = payout_round(engine, game, plaques=WELL, lot=8, owners=[0, 0, 0], buyer=1)
    assert payout["value"] == 4 and payout["bonus"] == 2
    assert paid == {0: 4 * 3 + 2, 1: 4 * 1 + 2}  # A: 14, not 3 x (4 + 2) = 18
    assert delta == [14, 6 - 3, 0, 0]


def test_bonus_example_A_alone_on_well_placed_lot_gets_10(engine, game):
    # A alone on a well placed lot: a bonus of 10 (RULINGS: 10/5 alone, not the misprinted 2).
    payout, paid, delta, _ = payout_round(engine, game, plaques=WELL, lot=8, owners=[0, 0, 0], buyer=0)
    assert payout["bonus"] == 10 and payout["owners"] == [0]
    assert paid == {0: 4 * 4 + 10}  # once, not 4 x 10
    assert delta == [26 - 3, 0, 0, 0]


def test_bonus_A_alone_on_badly_placed_lot_gets_5(engine, game):
    # (Bonus table, RULINGS) one player alone on a lot that is not well placed: 5.
    payout, paid, delta, _ = payout_round(engine, game, plaques=POOR, lot=8, owners=[2, 2, 2], buyer=2)
    assert payout["bonus"] == 5
    assert paid == {2: 2 * 4 + 5}
    assert delta == [0, 0, 13 - 3, 0]


def test_bonus_example_A_and_B_on_badly_placed_lot_get_1_each(engine, game):
    # A and B are on a lot that is not well placed: each gets a bonus of 1.
    payout, paid, delta, _ = payout_round(engine, game, plaques=POOR, lot=8, owners=[3, 3], buyer=2)
    assert payout["value"] == 2 and payout["bonus"] == 1 and payout["well_placed"] is False
    assert paid == {3: 2 * 2 + 1, 2: 2 * 2 + 1}
    assert delta == [0, 0, 5 - 7, 5]  # seat 2 paid 7 for two parcels on a built lot


def test_bonus_example_A_B_and_C_get_no_bonus(engine, game):
    # A, B and C are on a lot: three players, no bonus at all.
    payout, paid, delta, _ = payout_round(engine, game, plaques=WELL, lot=8, owners=[0, 0, 1], buyer=2)
    assert payout["bonus"] == 0
    assert paid == {0: 8, 1: 4, 2: 4}
    assert delta == [8, 4, 4 - 3, 0]


# --------------------------------------------------------------------------- 4. prices

def test_price_examples(engine, game):
    # 2 parcels on a bare lot cost 5; 3 on a built lot cost 12; 1 on a built lot costs 3.
    state = advance_to_buying(engine, game)
    build(game, state, {1: "housing", 5: "commerce"})
    before = list(state["seat"]["money"])
    mark = len(state["log"])
    state = buy(engine, state, {0: (3, 2), 1: (1, 3), 2: (5, 1)})
    prices = {e["data"]["seat"]: e["data"]["price"] for e in events_since(state, mark, "buy")}
    assert prices == {0: 5, 1: 12, 2: 3}
    assert [b - a for b, a in zip(before, state["seat"]["money"])] == [5, 12, 3, 0]
    assert state["node"]["markers"][idx(game, 3)] == [0, 0]
    assert state["node"]["markers"][idx(game, 1)] == [1, 1, 1]
    assert state["node"]["markers"][idx(game, 5)] == [2]
    assert state["seat"]["markers"] == [13, 12, 14, 15]


def test_price_of_a_lot_zoned_this_round_is_the_built_price(engine, game):
    # The lot voted in phase 2 already carries its plaque when the dials are revealed.
    state, lot = advance_to_vote(engine, game, 4)
    build(game, state, {})  # the revealed lot stays bare until the vote
    state, _ = run_vote(engine, state, mayor=0, votes={s: "commerce" for s in range(4)},
                        lobby_holders=(), lobby_uses=())
    before = state["seat"]["money"][1]
    state = buy(engine, state, {1: (lot, 2)})
    assert before - state["seat"]["money"][1] == 7


def test_five_players_buy_at_most_two_parcels(engine, game):
    # With 5 or 6 players one may buy only up to two parcels a round.
    state = advance_to_buying(engine, game, seats=5)
    build(game, state, {})
    state = answer_each(engine, state, "target",
                        {s: f"target:{3 if s == 0 else NO_PURCHASE_PARK}" for s in range(5)})
    d = pending_decision(engine, state, "parcels")
    assert d.seats == (0,)
    assert [o.id for o in d.options(0)] == ["parcels:1", "parcels:2"]


def test_pay_for_full_count_even_when_lot_fills_up(engine, game):
    # "Un joueur est obligé de payer pour l'ensemble des parcelles...": the mayor wants 2 parcels on
    # a bare lot with one parcel left and gets 1; the next player wants 1 and gets none; both pay.
    state = advance_to_buying(engine, game)
    build(game, state, {})
    put_markers(game, state, 4, [3, 3, 3])
    before = list(state["seat"]["money"])
    mark = len(state["log"])
    state = buy(engine, state, {0: (4, 2), 1: (4, 1)})
    assert [b - a for b, a in zip(before, state["seat"]["money"])] == [5, 2, 0, 0]
    assert state["node"]["markers"][idx(game, 4)] == [3, 3, 3, 0]
    lost = {e["data"]["seat"]: e["data"]["lost"] for e in events_since(state, mark, "lot_full")}
    assert lost == {0: 1, 1: 1}
    assert state["seat"]["markers"][:2] == [14, 15]  # markers not placed stay in the supply
    # Four markers on a lot without plaque: no payout, they stay until the plaque comes.
    assert events_since(state, mark, "payout") == []
    assert state["node"]["paid"][idx(game, 4)] is False


# --------------------------------------------------------------------------- 5. placement order

def test_markers_placed_one_at_a_time_mayor_first_then_clockwise(engine, game):
    # The mayor places first, then the others clockwise, one marker each, round after round,
    # until all are placed or the lot is full.
    state = advance_to_buying(engine, game)
    build(game, state, {})
    state["global"]["mayor"] = 2
    mark = len(state["log"])
    state = buy(engine, state, {2: (3, 1), 3: (3, 2), 0: (3, 2)})
    # Round 1: seats 2, 3, 0 (seat 1 buys nothing); round 2: seat 3; the lot is then full for seat 0.
    assert state["node"]["markers"][idx(game, 3)] == [2, 3, 0, 3]
    lost = {e["data"]["seat"]: e["data"]["lost"] for e in events_since(state, mark, "lot_full")}
    assert lost == {0: 1}


def test_markers_all_placed_when_there_is_room(engine, game):
    # Counts smaller than the room left: every marker bought is placed, alternating by seat order.
    state = advance_to_buying(engine, game)
    build(game, state, {})
    state["global"]["mayor"] = 3
    mark = len(state["log"])
    state = buy(engine, state, {1: (4, 2), 3: (4, 1), 0: (6, 3)})
    assert state["node"]["markers"][idx(game, 4)] == [3, 1, 1]
    assert state["node"]["markers"][idx(game, 6)] == [0, 0, 0]
    assert events_since(state, mark, "lot_full") == []


# --------------------------------------------------------------------------- payout conditions

def test_four_markers_on_bare_lot_wait_for_the_plaque_then_pay(engine, game):
    # Four markers on a lot without plaque stay there; once the lot is zoned it is paid that round.
    state, lot = advance_to_vote(engine, game, 4)
    first, second = sorted(game.graph[lot])[:2]
    build(game, state, {first: "park", second: "commerce"})  # housing here: 2 neighbours, well placed
    put_markers(game, state, lot, [0, 1, 0, 1])
    before = list(state["seat"]["money"])
    mark = len(state["log"])
    state, _ = run_vote(engine, state, mayor=0, votes={s: "housing" for s in range(4)},
                        lobby_holders=(), lobby_uses=())
    assert state["node"]["markers"][idx(game, lot)] == [0, 1, 0, 1]  # moved onto the plaque
    state = buy(engine, state, {})
    payouts = [e["data"] for e in events_since(state, mark, "payout")]
    assert [(p["lot"], p["value"], p["bonus"]) for p in payouts] == [(lot, 4, 2)]
    assert [a - b for a, b in zip(state["seat"]["money"], before)] == [10, 10, 0, 0]
    assert state["seat"]["markers"] == [15, 15, 15, 15]  # markers went back to their owners


def test_paid_lot_can_no_longer_be_bought(engine, game):
    # Once valued and paid, a lot is covered by its window: nobody may buy parcels there again.
    state, _ = advance_to_vote(engine, game, 4)
    state["node"]["plaque"][idx(game, 1)] = "housing"
    state["node"]["paid"][idx(game, 1)] = True
    state, _ = run_vote(engine, state, mayor=0, votes={s: "housing" for s in range(4)},
                        lobby_holders=(), lobby_uses=())
    d = pending_decision(engine, state, "target")
    for seat in d.seats:
        ids = [o.id for o in d.options(seat)]
        assert "target:1" not in ids and "target:2" in ids
