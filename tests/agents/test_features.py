"""What the learned value reads of a position (features.py), beyond the fields themselves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import example, given, strategies as st

from bot_helpers import advance, engine
from city_helpers import front_of_shops
from interpreter.agents.features import _sides, _sides_of_rows
from interpreter.agents.value import feature_space, learned_value
from interpreter.core.state import copy_state
from lang_helpers import engine as tiny_engine


def test_a_piece_standing_at_a_seats_shop_counts_for_that_seat_with_its_tokens() -> None:
    """Where the pieces stand beside what each seat owns is what a City position is about (a
    customer parked at a department store pays its owner every turn): the value must see it, from
    the owner's side as its own and from the others' as the best other seat's. The pieces count
    together, and weighted by what each is worth (the `value` table has the pieces as keys), so
    the value learns what a piece standing there means once, not once per piece."""
    eng = engine("city")
    state = advance(eng, eng.new_game(4, 2), "move")
    space = feature_space(eng)
    front = front_of_shops(eng)
    taken = set(state["global"]["at"].values())
    cell, shop = next((c, s) for c, s in front.items() if state["node"]["owner"][s] is None and c not in taken)
    state["node"]["owner"][shop] = 2
    state["node"]["tokens"][shop] = 3
    away = next(c for c in front if c not in taken and c != cell and state["node"]["owner"][front[c]] is None)
    worth = eng.game.world.tables["value"][1]

    def read(seat: int, piece: str, where: int, total: str) -> dict[str, float]:
        state["global"]["at"][piece] = where
        prefix = f"{total}.next:owner.owned.tokens:"
        return {n[len(prefix):]: v for n, v in zip(space.names, space.extract(state, seat)) if n.startswith(prefix)}

    def moved(seat: int, piece: str, total: str) -> dict[str, float]:
        """What the piece's coming from `away` to `cell` adds (other pieces stand at other shops)."""
        before = read(seat, piece, away, total)
        after = read(seat, piece, cell, total)
        read(seat, piece, away, total)
        return {side: after[side] - before[side] for side in after}

    assert moved(2, "black", "at[*]") == {"own": 3.0, "best_other": 0.0, "others": 0.0}
    assert moved(2, "black", "at[*]*value") == {"own": 3.0 * worth["black"], "best_other": 0.0, "others": 0.0}
    assert moved(0, "black", "at[*]")["own"] == 0.0
    assert moved(0, "black", "at[*]")["others"] == 1.0      # 3 tokens among the 3 other seats
    # The thief standing there instead weighs against its owner.
    assert moved(2, "thief", "at[*]*value")["own"] == 3.0 * worth["thief"] < 0
    assert not [n for n in space.names if n.startswith("at[black].") and "owner" in n], "one set for all the pieces"


def test_the_question_being_asked_is_read() -> None:
    """Where in the rules a position stands (which question is open) is a feature: in the middle of
    a loop whose cost is paid when it stops, the value can tell."""
    eng = engine("city")
    space = feature_space(eng)
    state = advance(eng, eng.new_game(4, 2), "move")
    row = dict(zip(space.names, space.extract(state, 0)))
    asked = {n: v for n, v in row.items() if n.startswith("asked=")}
    assert asked["asked=move"] == 1.0 and sum(asked.values()) == 1.0
    later = advance(eng, state, "action")
    assert dict(zip(space.names, space.extract(later, 0)))["asked=action"] == 1.0


def test_lots_in_play_beside_a_seats_markers_count_for_it() -> None:
    """The same reading in another game: the lots being voted on, next to a seat's markers."""
    eng = engine("downtown")
    names = feature_space(eng).names
    assert "revealed.next:markers.owned:own" in names and "revealed.on:markers.owned:own" in names


@given(st.lists(st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False), st.integers(-500, 500)),
                         min_size=2, max_size=10), min_size=1, max_size=3)
       .filter(lambda rows: len({len(r) for r in rows}) == 1),
       st.integers(0, 9))
# Eight seats: numpy then adds in 8 running sums, not in order (a plain sum differs in the last digit).
@example(rows=[[None, None, None, None, None, 256343.0, 1.959963984540054, 255]], seat=0)
def test_the_evaluations_sides_read_from_lists_are_numpys_to_the_bit(rows: list[list[float | None]], seat: int) -> None:
    # A value that reads the declared evaluations alone takes each seat's own, best other and others'
    # mean from a row or two without numpy (a fifth of a London decision): the same numbers.
    seat %= len(rows[0])
    fast = _sides_of_rows(rows, seat)
    slow = _sides(np.array(rows, dtype=float), seat)
    assert fast == slow         # (0.0 and -0.0 alike: numpy's max may keep either)
    assert all(type(v) is float for v in fast)


def test_a_list_counts_what_it_holds_also_when_it_holds_tuples(tmp_path: Path) -> None:
    # A tuple is held as a list: a list of pairs counts their values, as any nested list does, and a
    # list of numbers its numbers, its empty places left out.
    eng = tiny_engine(tmp_path, "phase main:\n    end winners seats\n", seat={
        "pairs": ("list[tuple[int, int]]", [[1, 2], [3, 4]]), "marks": ("list[int?]", [1, None, 3])})
    space = feature_space(eng)
    row = dict(zip(space.names, space.extract(eng.new_game(2, 1), 0)))
    assert row["pairs.count:own"] == 4.0
    assert row["marks.count:own"] == 2.0


def test_what_a_lot_carries_is_read_again_when_it_changes() -> None:
    # What the lots carry is kept by the content of their columns: a lot built since, or the same
    # content in another state, reads as a space that never saw either would read it.
    eng = engine("downtown")
    space = learned_value(eng).space          # with the kinds of lot its training saw
    state = eng.new_game(4, 3)
    for lot in range(3):
        state["node"]["markers"][lot] = [0, 1]
    before = space.extract(state, 0)
    built = copy_state(state)
    built["node"]["plaque"][1] = "industry"
    after = dict(zip(space.names, space.extract(built, 0)))
    assert after["markers.owned.plaque=industry:own"] == 1.0
    assert list(after.values()) == feature_space(eng, space.vocab).extract(built, 0) != before
    assert space.extract(copy_state(state), 0) == before == feature_space(eng, space.vocab).extract(state, 0)


def test_public_numbers_read_every_field_and_map_entry_from_each_seats_side(tmp_path: Path) -> None:
    # The public numbers are read by one compiled function (shared beginnings of paths walked once):
    # each entry of a map of maps is its own number, a seat-valued field is read from each seat's
    # side, and every seat's row agrees with the row read for that seat alone.
    eng = tiny_engine(tmp_path, "phase main:\n    end winners seats\n", global_={
        "supply": ("map[str, map[str, int]]", {"red": {"big": 3, "small": 1}, "blue": {"big": 0, "small": 7}}),
        "round": ("int", 4), "mayor": ("seat", 0), "pile": ("list[int]", [5, 6, 7])})
    space = feature_space(eng)
    state = eng.new_game(3, 1)
    state["global"]["mayor"] = 2
    rows = [dict(zip(space.names, space.extract(state, seat))) for seat in range(3)]
    assert rows[0]["supply[red][big]"] == 3.0 and rows[0]["supply[blue][small]"] == 7.0
    assert rows[0]["supply[red][small]"] == 1.0 and rows[0]["supply[blue][big]"] == 0.0
    assert rows[0]["round"] == 4.0 and rows[0]["pile.count"] == 3.0
    assert [row["mayor=own"] for row in rows] == [0.0, 0.0, 1.0]
    assert [row["mayor.after"] for row in rows] == [2 / 3, 1 / 3, 0.0]
    assert space.extract_all(state) == [space.extract(state, seat) for seat in range(3)]
