"""City's evaluation for the bots (games/city/bots.rules): what it says the next move may bring."""

from __future__ import annotations

from typing import Any

from bot_helpers import advance, engine
from city_helpers import front_of_shops


def _formulas(eng: Any, state: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    runtime = eng.runtime
    runtime.bind(state)
    return runtime, {name: f for name, (f, *_) in eng.program.formulas.items()}


def test_the_reach_it_counts_holds_every_stop_the_rules_allow() -> None:
    """The evaluation counts the lots in front of the thief's and the customers' next stops, from the
    board alone: every move the rules offer, for every face of the die, that ends in front of a lot
    must end in front of one it counts, or the bot would leave a shop open to a thief it does not
    see coming."""
    eng = engine("city")
    die = eng.game.world.tables["die"][1]
    checked = 0
    for seed in range(4):
        state = advance(eng, eng.new_game(4, seed), "move", skip=seed)
        runtime, f = _formulas(eng, state)
        for face in die:
            for piece, cell, _ in f["moves"](runtime, list(face)):
                lot = f["front_shop"](runtime, cell)
                if lot is not None:
                    assert lot in f["lots_in_reach"](runtime, piece), (seed, face, piece, cell)
                    checked += 1
    assert checked > 50


def test_a_thief_within_reach_of_a_seats_shop_lowers_its_position() -> None:
    """The same position with a seat's shop of 3 tokens where the thief can stop next, or a shop of
    the same kind where it cannot (and no customer's reach differs): the seat is worse placed in the
    first, by what the thief could rob."""
    eng = engine("city")
    state = advance(eng, eng.new_game(4, 2), "move")
    runtime, f = _formulas(eng, state)
    graph, ids = eng.game.graph, eng.game.node_ids
    front = front_of_shops(eng)
    kind = {shop: (graph.nodes[ids[shop]].get("store"), graph.nodes[ids[cell]].get("crossing")) for cell, shop in front.items()}
    reach = set(f["lots_in_reach"](runtime, "thief"))
    taken = set(state["global"]["at"].values())

    def read(shop: int) -> tuple[float, float, float]:
        state["node"]["owner"][shop], state["node"]["tokens"][shop] = 1, 3
        runtime, f = _formulas(eng, state)
        found = (float(f["thief_threat"](runtime)[1]), float(f["customer_reach"](runtime)[1]), float(f["position"](runtime)[1]))
        state["node"]["owner"][shop], state["node"]["tokens"][shop] = None, 0
        return found

    free = [(cell, shop) for cell, shop in front.items() if state["node"]["owner"][shop] is None and cell not in taken]
    found = {shop: read(shop) for _, shop in free}
    pairs = [(a, b) for _, a in free if a in reach for _, b in free
             if b not in reach and kind[a] == kind[b] and found[a][1] == found[b][1]]
    assert pairs, "a shop within the thief's reach and a like one out of it"
    near, far = pairs[0]
    assert found[near][0] == 3 * 2 and found[far][0] == 0
    assert found[near][2] < found[far][2]
