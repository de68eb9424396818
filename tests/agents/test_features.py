"""What the learned value reads of a position (features.py), beyond the fields themselves."""

from __future__ import annotations

from bot_helpers import advance, engine
from interpreter.agents.value import feature_space


def _front_of_shops(eng: object) -> dict[int, int]:
    """Street cell -> the shop in front of it, by node index (from City's board data)."""
    game = eng.game  # type: ignore[attr-defined]
    index = {node: i for i, node in enumerate(game.node_ids)}
    return {index[a]: index[b] for a, b, d in game.graph.edges(data=True) if d.get("kind") == "front"}


def test_a_piece_standing_at_a_seats_shop_counts_for_that_seat_with_its_tokens() -> None:
    """Where the pieces stand beside what each seat owns is what a City position is about (a
    customer parked at a department store pays its owner every turn): the value must see it, from
    the owner's side as its own and from the others' as the best other seat's."""
    eng = engine("city")
    state = advance(eng, eng.new_game(4, 2), "move")
    space = feature_space(eng)
    front = _front_of_shops(eng)
    cell, shop = next((c, s) for c, s in front.items() if state["node"]["owner"][s] is None)
    state["node"]["owner"][shop] = 2
    state["node"]["tokens"][shop] = 3
    taken = set(state["global"]["at"].values())
    away = next(c for c in front if c not in taken and c != cell and state["node"]["owner"][front[c]] is None)

    def read(seat: int, where: int) -> dict[str, float]:
        state["global"]["at"]["black"] = where
        names = space.names
        row = space.extract(state, seat)
        return {n: v for n, v in zip(names, row) if n.startswith("at[black].next:owner.owned.tokens:")}

    assert read(2, cell) == {"at[black].next:owner.owned.tokens:own": 3.0,
                             "at[black].next:owner.owned.tokens:best_other": 0.0,
                             "at[black].next:owner.owned.tokens:others": 0.0}
    assert read(0, cell)["at[black].next:owner.owned.tokens:best_other"] == 3.0
    assert read(0, cell)["at[black].next:owner.owned.tokens:own"] == 0.0
    assert all(v == 0.0 for v in read(2, away).values()), "a piece away from every owned shop counts for nobody"


def test_lots_in_play_beside_a_seats_markers_count_for_it() -> None:
    """The same reading in another game: the lots being voted on, next to a seat's markers."""
    eng = engine("downtown")
    names = feature_space(eng).names
    assert "revealed.next:markers.owned:own" in names and "revealed.on:markers.owned:own" in names
