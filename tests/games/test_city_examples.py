"""Acceptance tests: the worked examples and the scoring, buying and end rules of City
(shared/rules/city.fr.txt, shared/rules/RULINGS.md section "City"), basic and advanced.

Every test builds its position by editing the plain-data state (pieces, facings, shop owners and
tokens, scores, round), forces the die, then drives the game only through `engine.pending` /
`engine.apply`, so that the rule files in games/city/ do the work being checked (see
tests/city_helpers.py). With 3 seats, seat 1 is the mover ("the player"), seat 2 the opponent;
seat 0 made the last setup claim and owns the spare shop shop-r6c3 (1 token), which no test uses.

Board (reconstructed, games/city/board.yaml): department stores stand in front of the red cells
r0c0, r0c3, r0c6, r4c0, r4c6, r8c0, r8c3, r8c6; every other street cell except r4c3 has a small
shop in front, named "shop-<cell>".
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from city_helpers import (
    SPARE,
    Placement,
    answer,
    arrange,
    events,
    move_ids,
    pending_decision,
    result,
    start,
    to_last_claim,
)
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game

ME, OPP = 1, 2          # 3 seats: seat 1 moves first; seat 2 is the opponent
STORES = [f"shop-{c}" for c in ("r0c0", "r0c3", "r0c6", "r4c0", "r4c6", "r8c0", "r8c3", "r8c6")]

# Pieces not used by a test stand here, in the lower ring, away from every shop a test uses.
DEFAULT: Placement = {
    "black": ("r3c0", "north"),
    "blue_1": ("r5c0", "south"),
    "brown_2": ("r6c0", "south"),
    "brown_3": ("r7c0", "south"),
    "blue_2": ("r8c2", "west"),
    "brown_1": ("r8c4", "east"),
    "thief": ("r5c6", "south"),
}


def layout(**pieces: tuple[str, str]) -> Placement:
    return {**DEFAULT, **pieces}


@pytest.fixture(scope="module")
def game() -> Any:
    return load_game("city")


@pytest.fixture(scope="module")
def engine(game: Any) -> Engine:
    return Engine(game)


@pytest.fixture(scope="module")
def advanced() -> Any:
    return load_game("city", "advanced")


@pytest.fixture(scope="module")
def adv_engine(advanced: Any) -> Engine:
    return Engine(advanced)


_BASES: dict[tuple[int, int], dict[str, Any]] = {}


def fresh(engine: Engine, seats: int = 3) -> dict[str, Any]:
    """A copy of a game of `seats` played up to its last setup claim."""
    key = (id(engine), seats)
    if key not in _BASES:
        _BASES[key] = to_last_claim(engine, seats)
    return copy.deepcopy(_BASES[key])


def play(engine: Engine, game: Any, pieces: Placement, move: str, *, faces: tuple[int | str, ...] = (2,),
         seats: int = 3, shops: dict[str, tuple[int, int]] | None = None, scores: dict[int, int] | None = None,
         round: int = 1, moved: tuple[str, ...] = ()) -> tuple[dict[str, Any], int]:
    """Build the position, roll `faces[0]` for the first mover and make `move`.
    Returns the state after the move (and everything it triggers) and the log mark before the turn."""
    state = fresh(engine, seats)
    arrange(game, state, pieces, shops=shops, scores=scores, round=round, moved=moved)
    mark = len(state["log"])
    state = start(engine, state, *faces)
    first = 7 % seats
    state = answer(engine, state, "move", move, seat=first)
    return state, mark


def score(state: dict[str, Any], seat: int) -> int:
    return int(state["seat"]["score"][seat])


def owner_tokens(game: Any, state: dict[str, Any], shop: str) -> tuple[int | None, int]:
    i = game.node_index(shop)
    return state["node"]["owner"][i], state["node"]["tokens"][i]


def action_ids(engine: Engine, state: dict[str, Any], seat: int = ME) -> set[str]:
    d = pending_decision(engine, state, "action")
    assert d.seats == (seat,)
    return {o.id for o in d.options(seat)}


# ================================================================ "Actions effectuées" examples

def test_example_blue_moved_to_own_shop_and_black_on_own_store_scores_5(engine: Engine, game: Any) -> None:
    # The player moves a blue customer in front of one of his shops (1 token); the black customer
    # already stands on a red cell in front of one of his department stores (1 token): +5 (2 + 3).
    # blue_1 r1c6 south, rolls 2: r2c6, r3c6 -> shop-r3c6. black on the red corner r0c0.
    state, mark = play(engine, game, layout(black=("r0c0", "east"), blue_1=("r1c6", "south")),
                       "move:blue_1:r3c6:south",
                       shops={"shop-r3c6": (ME, 1), "shop-r0c0": (ME, 1)}, round=2)
    assert score(state, ME) == 5
    assert events(state, "visit", mark) == [
        {"seat": ME, "piece": "blue_1", "shop": "shop-r3c6", "points": 2},
        {"seat": ME, "piece": "black", "shop": "shop-r0c0", "points": 3},
    ]
    assert events(state, "store_again", mark) == [{"seat": ME, "piece": "black", "shop": "shop-r0c0"}]
    assert [score(state, s) for s in (0, OPP)] == [0, 0]
    action_ids(engine, state)  # the turn goes on with buying (5 points to spend)


def test_example_thief_on_opponent_shop_costs_him_2(engine: Engine, game: Any) -> None:
    # The player moves the thief in front of an opponent's shop (1 token): the opponent goes back 2.
    state, mark = play(engine, game, layout(thief=("r1c6", "south")), "move:thief:r3c6:south",
                       shops={"shop-r3c6": (OPP, 1)}, scores={ME: 10, OPP: 5})
    assert score(state, OPP) == 3
    assert score(state, ME) == 10
    assert events(state, "theft", mark) == [{"seat": OPP, "piece": "thief", "shop": "shop-r3c6", "loss": 2}]
    assert events(state, "visit", mark) == []
    action_ids(engine, state)


# ============================================================ "Achat et agrandissement" examples

def test_example_brown_to_opponent_blue_on_own_store_with_2_tokens(engine: Engine, game: Any) -> None:
    # The player moves a brown customer in front of an opponent's shop (1 token); a blue customer
    # already stands on the red cell of the player's department store with 2 tokens:
    # the player +4 (2 x 2), the opponent +1.
    # brown_1 r1c6 south, 2 -> r3c6; blue_1 on the red T-junction r4c0 (shop-r4c0).
    state, mark = play(engine, game, layout(brown_1=("r1c6", "south"), blue_1=("r4c0", "north")),
                       "move:brown_1:r3c6:south",
                       shops={"shop-r3c6": (OPP, 1), "shop-r4c0": (ME, 2)}, round=2)
    assert score(state, ME) == 4
    assert score(state, OPP) == 1
    assert events(state, "visit", mark) == [
        {"seat": OPP, "piece": "brown_1", "shop": "shop-r3c6", "points": 1},
        {"seat": ME, "piece": "blue_1", "shop": "shop-r4c0", "points": 4},
    ]
    assert events(state, "store_again", mark) == [{"seat": ME, "piece": "blue_1", "shop": "shop-r4c0"}]


def test_example_thief_to_opponent_3_tokens_brown_on_own_store_with_4_tokens(engine: Engine, game: Any) -> None:
    # The player moves the thief in front of an opponent's shop with 3 tokens; a brown customer
    # stands on the red cell of the player's store with 4 tokens: player +4, opponent -6.
    # thief r1c6 south, 2 -> r3c6; brown_1 on the red corner r8c6 (shop-r8c6).
    state, mark = play(engine, game, layout(thief=("r1c6", "south"), brown_1=("r8c6", "north")),
                       "move:thief:r3c6:south",
                       shops={"shop-r3c6": (OPP, 3), "shop-r8c6": (ME, 4)}, scores={OPP: 10}, round=2)
    assert score(state, ME) == 4
    assert score(state, OPP) == 4
    assert events(state, "theft", mark) == [{"seat": OPP, "piece": "thief", "shop": "shop-r3c6", "loss": 6}]
    assert events(state, "visit", mark) == [{"seat": ME, "piece": "brown_1", "shop": "shop-r8c6", "points": 4}]
    assert events(state, "store_again", mark) == [{"seat": ME, "piece": "brown_1", "shop": "shop-r8c6"}]


# ====================================================================== score floor, stores again

@pytest.mark.parametrize("before, tokens, taken", [(1, 1, 1), (3, 3, 3), (0, 2, 0), (2, 1, 2)])
def test_theft_never_takes_a_score_below_zero(engine: Engine, game: Any, before: int, tokens: int, taken: int) -> None:
    # "le marqueur ... ne peut pas reculer au-delà de la case de départ": the loss is what is left.
    state, mark = play(engine, game, layout(thief=("r1c6", "south")), "move:thief:r3c6:south",
                       shops={"shop-r3c6": (OPP, tokens)}, scores={ME: 10, OPP: before})
    assert score(state, OPP) == before - taken
    assert score(state, OPP) >= 0
    assert events(state, "theft", mark) == [{"seat": OPP, "piece": "thief", "shop": "shop-r3c6", "loss": taken}]
    assert state["seat"]["score"][ME] == 10


def test_store_does_not_act_again_for_a_piece_its_owner_moved_there_this_turn(engine: Engine, game: Any) -> None:
    # black r0c4 east, 2 -> r0c6, the player's own store: it buys once (+3), not twice.
    # brown_1 was already on the player's other store r0c0: it acts again (+1).
    # blue_1 stands on the OPPONENT's store r4c0: nothing at the end of the player's turn.
    state, mark = play(engine, game,
                       layout(black=("r0c4", "east"), brown_1=("r0c0", "east"), blue_1=("r4c0", "north")),
                       "move:black:r0c6:east",
                       shops={"shop-r0c6": (ME, 1), "shop-r0c0": (ME, 1), "shop-r4c0": (OPP, 1)}, round=2)
    assert events(state, "visit", mark) == [
        {"seat": ME, "piece": "black", "shop": "shop-r0c6", "points": 3},
        {"seat": ME, "piece": "brown_1", "shop": "shop-r0c0", "points": 1},
    ]
    assert events(state, "store_again", mark) == [{"seat": ME, "piece": "brown_1", "shop": "shop-r0c0"}]
    assert score(state, ME) == 4
    assert score(state, OPP) == 0


@pytest.mark.parametrize("round, moved, points", [
    (1, (), 2),             # setup piece, round 1: black does not act again
    (1, ("black",), 5),     # round 1 but black has moved since setup: it acts again
    (2, (), 5),             # from round 2 on, a setup piece acts again too
])
def test_setup_pieces_on_red_cells_act_again_from_round_2(engine: Engine, game: Any, round: int,
                                                          moved: tuple[str, ...], points: int) -> None:
    state, mark = play(engine, game, layout(black=("r0c0", "east"), blue_1=("r1c6", "south")),
                       "move:blue_1:r3c6:south",
                       shops={"shop-r3c6": (ME, 1), "shop-r0c0": (ME, 1)}, round=round, moved=moved)
    assert score(state, ME) == points
    assert len(events(state, "store_again", mark)) == (1 if points == 5 else 0)


def test_setup_piece_on_red_cell_played_through_two_rounds(engine: Engine, game: Any) -> None:
    # 2 seats: seat 1 moves first (round 1), then seat 0, then seat 1 again (round 2).
    # brown_1 was put on the red corner r0c0 at setup and never moves; seat 1 owns shop-r0c0.
    seats = 2
    state = fresh(engine, seats)
    arrange(game, state, layout(brown_1=("r0c0", "east"), black=("r1c6", "south")),
            shops={"shop-r0c0": (1, 1)})
    state = start(engine, state, 2, 2, 2, 2)
    assert state["global"]["round"] == 1
    state = answer(engine, state, "move", "move:black:r3c6:south", seat=1)     # r2c6, r3c6: unowned
    assert events(state, "store_again") == [] and score(state, 1) == 0
    assert state["global"]["round"] == 1
    state = answer(engine, state, "move", "move:blue_2:r8c0:west", seat=0)     # r8c1, r8c0: unowned
    assert state["global"]["round"] == 2
    mark = len(state["log"])
    state = answer(engine, state, "move", "move:brown_3:r8c1:east", seat=1)    # passes blue_2 on r8c0
    assert events(state, "store_again", mark) == [{"seat": 1, "piece": "brown_1", "shop": "shop-r0c0"}]
    assert events(state, "visit", mark) == [{"seat": 1, "piece": "brown_1", "shop": "shop-r0c0", "points": 1}]
    assert score(state, 1) == 1
    move_ids(engine, state, mover=0)  # 1 point buys nothing: seat 0's turn


# ================================================================================ buying, expanding

def test_buy_and_expand_prices_and_one_store_per_turn(engine: Engine, game: Any) -> None:
    # Seat 1 has 20 points, shop-r2c0 (small, 4 tokens) and shop-r4c6 (store, 1 token), 7 tokens
    # left. black r1c6 -> r3c6 (unowned shop): no points this turn.
    state, _ = play(engine, game, layout(black=("r1c6", "south")), "move:black:r3c6:south",
                    shops={"shop-r2c0": (ME, 4), "shop-r4c6": (ME, 1)}, scores={ME: 20})
    shops = [n for n in game.node_ids if str(n).startswith("shop-")]
    assert len(shops) == 38
    free = [s for s in shops if s not in ("shop-r2c0", "shop-r4c6", SPARE)]
    assert action_ids(engine, state) == ({"action:done:none"} | {f"action:buy:{s}" for s in free}
                                         | {"action:expand:shop-r2c0", "action:expand:shop-r4c6"})
    assert state["seat"]["tokens"][ME] == 7
    # buy a small shop: 3
    state = answer(engine, state, "action", "action:buy:shop-r0c1", seat=ME)
    assert score(state, ME) == 17 and state["seat"]["tokens"][ME] == 6
    assert owner_tokens(game, state, "shop-r0c1") == (ME, 1)
    assert {f"action:buy:{s}" for s in STORES if s != "shop-r4c6"} <= action_ids(engine, state)
    # buy a department store: 5; then no other store may be bought this turn
    state = answer(engine, state, "action", "action:buy:shop-r0c3", seat=ME)
    assert score(state, ME) == 12 and state["seat"]["tokens"][ME] == 5
    assert owner_tokens(game, state, "shop-r0c3") == (ME, 1)
    offered = action_ids(engine, state)
    assert not {f"action:buy:{s}" for s in STORES} & offered, "a second department store in one turn"
    assert "action:buy:shop-r0c2" in offered and "action:expand:shop-r0c3" in offered
    # expand a small shop: 2 per token; the 5th token is the last one
    state = answer(engine, state, "action", "action:expand:shop-r2c0", seat=ME)
    assert score(state, ME) == 10 and state["seat"]["tokens"][ME] == 4
    assert owner_tokens(game, state, "shop-r2c0") == (ME, 5)
    assert "action:expand:shop-r2c0" not in action_ids(engine, state)
    # expand a store: 3 per token
    state = answer(engine, state, "action", "action:expand:shop-r4c6", seat=ME)
    assert score(state, ME) == 7 and state["seat"]["tokens"][ME] == 3
    assert owner_tokens(game, state, "shop-r4c6") == (ME, 2)
    state = answer(engine, state, "action", "action:expand:shop-r0c1", seat=ME)
    assert score(state, ME) == 5 and owner_tokens(game, state, "shop-r0c1") == (ME, 2)
    assert [(e["shop"], e["price"]) for e in events(state, "buy")] == [("shop-r0c1", 3), ("shop-r0c3", 5)]
    assert [(e["shop"], e["price"], e["tokens"]) for e in events(state, "expand")] == [
        ("shop-r2c0", 2, 5), ("shop-r4c6", 3, 2), ("shop-r0c1", 2, 2)]
    state = answer(engine, state, "action", "action:done:none", seat=ME)
    assert score(state, ME) == 5


def test_what_a_score_can_pay_for(engine: Engine, game: Any) -> None:
    # 4 points: small shops (3) yes, department stores (5) no; expanding small (2) and store (3) yes.
    state, _ = play(engine, game, layout(black=("r1c6", "south")), "move:black:r3c6:south",
                    shops={"shop-r2c0": (ME, 1), "shop-r4c6": (ME, 1)}, scores={ME: 4})
    shops = [n for n in game.node_ids if str(n).startswith("shop-")]
    small_free = [s for s in shops if s not in STORES and s not in ("shop-r2c0", SPARE)]
    assert len(small_free) == 28
    assert action_ids(engine, state) == ({"action:done:none"} | {f"action:buy:{s}" for s in small_free}
                                         | {"action:expand:shop-r2c0", "action:expand:shop-r4c6"})
    # 3 spent: 1 point left buys nothing, "done" is the only option and the turn ends by itself
    state = answer(engine, state, "action", "action:expand:shop-r4c6", seat=ME)
    assert score(state, ME) == 1
    move_ids(engine, state, mover=OPP)


def test_no_tokens_left_no_purchase_and_5_tokens_at_most(engine: Engine, game: Any) -> None:
    # 11 tokens on the board (5 + 5 + 1): 1 left in supply. The two 5-token shops cannot grow.
    state, _ = play(engine, game, layout(black=("r1c6", "south")), "move:black:r3c6:south",
                    shops={"shop-r1c0": (ME, 5), "shop-r2c0": (ME, 5), "shop-r3c0": (ME, 1)}, scores={ME: 20})
    assert state["seat"]["tokens"][ME] == 1
    offered = action_ids(engine, state)
    assert {i for i in offered if i.startswith("action:expand:")} == {"action:expand:shop-r3c0"}
    state = answer(engine, state, "action", "action:buy:shop-r0c1", seat=ME)
    assert state["seat"]["tokens"][ME] == 0 and score(state, ME) == 17
    move_ids(engine, state, mover=OPP)  # nothing more can be bought or expanded: the turn is over


def test_store_limit_is_per_turn(engine: Engine, game: Any) -> None:
    # 2 seats. Seat 1 buys a store in its first turn; in its next turn stores are offered again.
    state = fresh(engine, 2)
    arrange(game, state, layout(black=("r1c6", "south")), scores={1: 20})
    state = start(engine, state, 2, 2, 2)
    state = answer(engine, state, "move", "move:black:r3c6:south", seat=1)
    state = answer(engine, state, "action", "action:buy:shop-r0c0", seat=1)
    assert not {f"action:buy:{s}" for s in STORES} & action_ids(engine, state, 1)
    state = answer(engine, state, "action", "action:done:none", seat=1)
    state = answer(engine, state, "move", "move:blue_2:r8c0:west", seat=0)      # seat 0: 0 points
    state = answer(engine, state, "move", "move:brown_3:r8c1:east", seat=1)
    assert score(state, 1) == 15
    assert {f"action:buy:{s}" for s in STORES if s != "shop-r0c0"} <= action_ids(engine, state, 1)


# ========================================================================================= the end

def test_reaching_35_ends_the_game_at_once(engine: Engine, game: Any) -> None:
    # Seat 1 at 33, black to its own shop-r3c6 (1 token): 36. brown_1 on seat 1's store r0c0 would
    # act again at the end of the turn, but the game is already over.
    state, mark = play(engine, game, layout(black=("r1c6", "south"), brown_1=("r0c0", "east")),
                       "move:black:r3c6:south",
                       shops={"shop-r3c6": (ME, 1), "shop-r0c0": (ME, 1)}, scores={ME: 33}, round=2)
    r = result(engine, state)
    assert r.winners == (ME,)
    assert r.scores["score"][ME] == 36
    assert events(state, "won", mark) == [{"seat": ME, "score": 36}]
    assert events(state, "store_again", mark) == []


def test_the_owner_who_reaches_35_wins_even_when_another_seat_moved(engine: Engine, game: Any) -> None:
    # Seat 1 moves blue_1 to seat 2's shop with 2 tokens; seat 2 had 31: 35 exactly, seat 2 wins.
    state, _ = play(engine, game, layout(blue_1=("r1c6", "south")), "move:blue_1:r3c6:south",
                    shops={"shop-r3c6": (OPP, 2)}, scores={OPP: 31, ME: 20})
    assert result(engine, state).winners == (OPP,)


def test_34_points_do_not_end_the_game(engine: Engine, game: Any) -> None:
    state, _ = play(engine, game, layout(black=("r1c6", "south")), "move:black:r3c6:south",
                    shops={"shop-r3c6": (ME, 1)}, scores={ME: 31})
    assert score(state, ME) == 34
    action_ids(engine, state)


def test_reaching_35_through_a_store_acting_again(engine: Engine, game: Any) -> None:
    state, _ = play(engine, game, layout(black=("r1c6", "south"), brown_1=("r0c0", "east")),
                    "move:black:r3c6:south", shops={"shop-r0c0": (ME, 1)}, scores={ME: 34}, round=2)
    assert result(engine, state).winners == (ME,)


# =============================================================================== no legal move

def test_a_seat_with_no_legal_move_passes(engine: Engine, game: Any) -> None:
    # Seven pieces jammed round the top T-junction r0c3, each facing an occupied cell:
    #   brown_3 r0c1 E -> r0c2 (brown_1)     brown_1 r0c2 E -> r0c3 (black)
    #   black   r0c3 S -> r1c3 (blue_1); r0c3's other streets lead to r0c4 / r0c2, occupied too
    #   blue_1  r1c3 N -> r0c3 (black)       thief   r2c3 N -> r1c3 (blue_1)
    #   blue_2  r0c4 W -> r0c3 (black)       brown_2 r0c5 W -> r0c4 (blue_2)
    # A 1: no piece can move, seat 1 passes. A 2: still none (every 2-cell move ends on an
    # occupied cell: r0c3, r1c3, r0c2, r0c4, r2c3 ...), seat 2 passes. A 5: seat 0 must move.
    jam = {"brown_3": ("r0c1", "east"), "brown_1": ("r0c2", "east"), "black": ("r0c3", "south"),
           "blue_1": ("r1c3", "north"), "thief": ("r2c3", "north"), "blue_2": ("r0c4", "west"),
           "brown_2": ("r0c5", "west")}
    state = fresh(engine)
    arrange(game, state, jam, shops={"shop-r0c2": (ME, 1)}, scores={ME: 0})
    mark = len(state["log"])
    at_before = dict(state["global"]["at"])
    state = start(engine, state, 1, 2, 5)
    assert events(state, "no_move", mark) == [{"seat": ME, "face": [1]}, {"seat": OPP, "face": [2]}]
    assert events(state, "move", mark) == [] and events(state, "visit", mark) == []
    assert state["global"]["at"] == at_before
    assert len(move_ids(engine, state, mover=0)) >= 2


# ============================================================================ advanced: the end

@pytest.mark.parametrize("before, over", [(33, False), (66, False), (67, True), (68, True)])
def test_advanced_game_goes_on_past_35_and_ends_at_70(adv_engine: Engine, advanced: Any, before: int,
                                                      over: bool) -> None:
    # Twice round the track: black to seat 1's own 1-token shop, +3.
    state, _ = play(adv_engine, advanced, layout(black=("r1c6", "south")), "move:black:r3c6:south",
                    shops={"shop-r3c6": (ME, 1)}, scores={ME: before})
    if over:
        r = result(adv_engine, state)
        assert r.winners == (ME,) and r.scores["score"][ME] == before + 3
    else:
        assert score(state, ME) == before + 3
        action_ids(adv_engine, state)


# ===================================================================== advanced: forced sales

SIX_SHOPS = {"shop-r3c6": (OPP, 3), "shop-r0c0": (OPP, 1), "shop-r1c0": (OPP, 1), "shop-r2c0": (OPP, 2),
             "shop-r8c5": (OPP, 1), "shop-r7c6": (OPP, 1)}


def test_advanced_forced_sales_at_half_price_never_below_4_shops(adv_engine: Engine, advanced: Any) -> None:
    # The thief robs seat 2's shop-r3c6 (3 tokens): 6 to pay, seat 2 has 0 points and 6 shops.
    # Sell the store shop-r0c0: (5 + 1) // 2 = 3 -> 3 points, 5 shops; still short: sell the small
    # shop-r2c0: (3 + 1) // 2 = 2 -> 5 points, 4 shops: no more sales. The thief takes the 5 left.
    tokens_before = 12 - sum(t for _, t in SIX_SHOPS.values())
    state, mark = play(adv_engine, advanced, layout(thief=("r1c6", "south")), "move:thief:r3c6:south",
                       shops=SIX_SHOPS, scores={ME: 10, OPP: 0})
    d = pending_decision(adv_engine, state, "sold")
    assert d.seats == (OPP,)
    assert {o.id for o in d.options(OPP)} == {f"sold:{s}" for s in SIX_SHOPS}
    state = adv_engine.apply(state, "sold:shop-r0c0", OPP)
    assert score(state, OPP) == 3
    d = pending_decision(adv_engine, state, "sold")
    assert {o.id for o in d.options(OPP)} == {f"sold:{s}" for s in SIX_SHOPS if s != "shop-r0c0"}
    state = adv_engine.apply(state, "sold:shop-r2c0", OPP)
    assert events(state, "sale", mark) == [{"seat": OPP, "shop": "shop-r0c0", "price": 3},
                                           {"seat": OPP, "shop": "shop-r2c0", "price": 2}]
    assert events(state, "theft", mark) == [{"seat": OPP, "piece": "thief", "shop": "shop-r3c6", "loss": 5}]
    assert score(state, OPP) == 0
    assert owner_tokens(advanced, state, "shop-r0c0") == (None, 0)
    assert owner_tokens(advanced, state, "shop-r2c0") == (None, 0)
    assert sum(1 for o in state["node"]["owner"] if o == OPP) == 4
    assert state["seat"]["tokens"][OPP] == tokens_before + 1 + 2
    action_ids(adv_engine, state)  # back to seat 1's buying


@pytest.mark.parametrize("opp_score, shops, loss", [
    (6, SIX_SHOPS, 6),                                                          # the score covers it
    (1, {s: v for s, v in SIX_SHOPS.items() if s in ("shop-r3c6", "shop-r0c0", "shop-r1c0", "shop-r2c0")}, 1),
])
def test_advanced_no_forced_sale_when_covered_or_at_4_shops(adv_engine: Engine, advanced: Any, opp_score: int,
                                                          shops: dict[str, tuple[int, int]], loss: int) -> None:
    state, mark = play(adv_engine, advanced, layout(thief=("r1c6", "south")), "move:thief:r3c6:south",
                       shops=shops, scores={ME: 10, OPP: opp_score})
    action_ids(adv_engine, state)  # no "sold" question: straight on to seat 1's buying
    assert events(state, "sale", mark) == []
    assert events(state, "theft", mark)[0]["loss"] == loss
    assert score(state, OPP) == 0


def test_basic_rules_have_no_forced_sales(engine: Engine, game: Any) -> None:
    state, mark = play(engine, game, layout(thief=("r1c6", "south")), "move:thief:r3c6:south",
                       shops=SIX_SHOPS, scores={ME: 10, OPP: 0})
    action_ids(engine, state)
    assert events(state, "sale", mark) == []
    assert events(state, "theft", mark)[0]["loss"] == 0
    assert sum(1 for o in state["node"]["owner"] if o == OPP) == 6


# =========================================================================== advanced: chains

# shop-r0c0 (corner store) is beside shop-r0c1 and shop-r1c0; shop-r0c1 beside shop-r0c2;
# shop-r1c0 beside shop-r2c0: five shops side by side.
CHAIN5 = ("shop-r0c0", "shop-r0c1", "shop-r0c2", "shop-r1c0", "shop-r2c0")
# brown_1 r0c4 west, 2: r0c3 (T, passed), then west to r0c2 -> shop-r0c2.
TO_R0C2 = (layout(brown_1=("r0c4", "west")), "move:brown_1:r0c2:west")


@pytest.mark.parametrize("variant, seats, chain, owner, points", [
    ("advanced", 3, CHAIN5, 2, 2),        # 5 side by side: +1
    ("advanced", 3, CHAIN5[:4], 2, 1),    # 4 are not a chain with 3 seats
    ("basic", 3, CHAIN5, 2, 1),           # no chains in the basic rules
    ("advanced", 5, CHAIN5[:4], 3, 2),    # with 5 seats 4 make a chain
    ("advanced", 5, CHAIN5[:3], 3, 1),    # ... but not 3 (r0c0, r0c1, r0c2)
    # r0c1 r0c2 r0c3 r0c4 r0c5 front five consecutive cells, but the store shop-r0c3 stands on the
    # north side of the street (outside the ring): it is beside neither shop-r0c2 nor shop-r0c4.
    ("advanced", 3, ("shop-r0c1", "shop-r0c2", "shop-r0c3", "shop-r0c4", "shop-r0c5"), 2, 1),
    # The shops whose buildings meet at a block's corner touch (RULINGS): shop-r0c1 and shop-r1c0
    # meet at block cell [1, 1], so five shops round that corner are a chain without the store.
    ("advanced", 3, ("shop-r0c2", "shop-r0c1", "shop-r1c0", "shop-r2c0", "shop-r3c0"), 2, 2),
    ("advanced", 3, ("shop-r0c2", "shop-r0c1", "shop-r1c0", "shop-r2c0"), 2, 1),
])
def test_chain_bonus(engine: Engine, game: Any, adv_engine: Engine, advanced: Any, variant: str, seats: int,
                     chain: tuple[str, ...], owner: int, points: int) -> None:
    eng, g = (adv_engine, advanced) if variant == "advanced" else (engine, game)
    mover = 7 % seats
    assert owner != mover and owner != 6 % seats
    pieces, move = TO_R0C2
    state, mark = play(eng, g, pieces, move, seats=seats, shops={s: (owner, 1) for s in chain},
                       scores={mover: 10})
    assert events(state, "visit", mark) == [{"seat": owner, "piece": "brown_1", "shop": "shop-r0c2", "points": points}]
    assert score(state, owner) == points


def test_chain_gives_no_bonus_to_a_theft(adv_engine: Engine, advanced: Any) -> None:
    state, mark = play(adv_engine, advanced, layout(thief=("r0c4", "west")), "move:thief:r0c2:west",
                       shops={s: (OPP, 1) for s in CHAIN5}, scores={ME: 10, OPP: 10})
    assert events(state, "theft", mark) == [{"seat": OPP, "piece": "thief", "shop": "shop-r0c2", "loss": 2}]
    assert score(state, OPP) == 8
