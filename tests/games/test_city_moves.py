"""Perft-style tests of City's movement rules (games/city/moves.rules on games/city/board.yaml).

For fixed positions and each die face, the EXACT set of "move" option ids is compared with a set
counted by hand on the plan of shared/reference/boards.md (section "City"):

    col:  0 1 2 3 4 5 6
    r0:   R g g R g g R        crossings (a moving piece may turn, never back):
    r1:   g . . g . . g            r0c3, r8c3, r4c0, r4c6 (T-junctions), r4c3 (central crossing)
    r2:   g . . g . . g        corners r0c0, r0c6, r8c0, r8c6: the piece follows the bend
    r3:   g . . g . . g
    r4:   R g g X g g R
    r5:   g . . g . . g
    r6:   g . . g . . g
    r7:   g . . g . . g
    r8:   R g g R g g R

Rules counted (city.fr.txt "Déplacement", RULINGS.md City): a piece moves exactly N cells along its
facing ('nez'); it turns only when it passes or reaches a crossing, never back; at a corner it
follows the bend; it may pass occupied cells but not stop on one; when it stops ON a crossing the
mover picks its new facing among that crossing's streets except back the way it came ("doit
immédiatement orienter le nez ... ensuite, celui-ci ne pourra changer d'orientation que lorsqu'il
arrivera à un nouveau croisement"), so a piece standing on a crossing leaves along its facing;
elsewhere its facing is the direction of its last step (at a corner: the step into the corner).
The face "1-3" offers the moves of 1, 2 and 3 together. Option ids: "move:<piece>:<cell>:<facing>".

Every other piece moves too, so the six pieces not under test are parked in the lower ring where
their own moves are few and counted once (PARKED below) and nothing the tests do reaches them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from city_helpers import FACES, PIECES, Placement, arrange, move_ids, pending_decision, start, to_last_claim
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game


@pytest.fixture(scope="module")
def game() -> Any:
    return load_game("city")


@pytest.fixture(scope="module")
def engine(game: Any) -> Engine:
    return Engine(game)


@pytest.fixture(scope="module")
def base(engine: Engine) -> dict[str, Any]:
    """3 seats, setup played up to the last claim (copied by every test)."""
    return to_last_claim(engine, 3)


# ----------------------------------------------------------------------------------------- parking
#
# Lower-left ring run  r5c0 -> r6c0 -> r7c0 -> r8c0 (corner) -> r8c1 -> r8c2 -> r8c3 (T)
# Lower-right ring run r8c4 -> r8c5 -> r8c6 (corner) -> r7c6 -> r6c6 -> r5c6 -> r4c6 (T)
#
#   blue_1  r5c0 south     brown_2 r6c0 south     brown_3 r7c0 south     blue_2 r8c2 west
#   brown_1 r8c4 east      thief   r5c6 south
#
# Occupied: r5c0 r6c0 r7c0 r8c2 r8c4 r5c6. Hand count, step by step (x = occupied, cannot stop):
#   blue_1  r5c0 S: 1 r6c0 x | 2 r7c0 x | 3 r8c0 (south) | 4 r8c1 (east) | 5 r8c2 x
#   brown_2 r6c0 S: 1 r7c0 x | 2 r8c0 (south) | 3 r8c1 (east) | 4 r8c2 x
#                   | 5 r8c3: T reached heading east, exits north/east (west is back) -> 2
#   brown_3 r7c0 S: 1 r8c0 (south) | 2 r8c1 (east) | 3 r8c2 x | 4 r8c3 north, r8c3 east -> 2
#                   | 5 from r8c3: north r7c3 ok, east r8c4 x (brown_1) -> 1
#   blue_2  r8c2 W: 1 r8c1 (west) | 2 r8c0 (west) | 3 r7c0 x | 4 r6c0 x | 5 r5c0 x
#   brown_1 r8c4 E: 1 r8c5 (east) | 2 r8c6 (east) | 3 r7c6 (north) | 4 r6c6 (north) | 5 r5c6 x
#   thief   r5c6 S: 1 r6c6 (south) | 2 r7c6 (south) | 3 r8c6 (south) | 4 r8c5 (west) | 5 r8c4 x
# Totals: face 1: 4, face 2: 5, face 3: 4, face 4: 5, face 5: 3.

PARK: Placement = {
    "blue_1": ("r5c0", "south"),
    "brown_2": ("r6c0", "south"),
    "brown_3": ("r7c0", "south"),
    "blue_2": ("r8c2", "west"),
    "brown_1": ("r8c4", "east"),
    "thief": ("r5c6", "south"),
}

PARKED: dict[int, set[str]] = {
    1: {"move:brown_3:r8c0:south", "move:blue_2:r8c1:west", "move:brown_1:r8c5:east",
        "move:thief:r6c6:south"},
    2: {"move:brown_2:r8c0:south", "move:brown_3:r8c1:east", "move:blue_2:r8c0:west",
        "move:brown_1:r8c6:east", "move:thief:r7c6:south"},
    3: {"move:blue_1:r8c0:south", "move:brown_2:r8c1:east", "move:brown_1:r7c6:north",
        "move:thief:r8c6:south"},
    4: {"move:blue_1:r8c1:east", "move:brown_3:r8c3:north", "move:brown_3:r8c3:east",
        "move:brown_1:r6c6:north", "move:thief:r8c5:west"},
    5: {"move:brown_2:r8c3:north", "move:brown_2:r8c3:east", "move:brown_3:r7c3:north"},
}

# Only the four lower-left pieces parked (brown_1 and thief used as blockers elsewhere): r8c4 is
# then free, so brown_3 also gets r8c4 (east) on a 5 (r7c0 r8c0 r8c1 r8c2 r8c3 r8c4).
PARK_LEFT: Placement = {p: PARK[p] for p in ("blue_1", "brown_2", "brown_3", "blue_2")}
PARKED_LEFT: dict[int, set[str]] = {
    1: {"move:brown_3:r8c0:south", "move:blue_2:r8c1:west"},
    2: {"move:brown_2:r8c0:south", "move:brown_3:r8c1:east", "move:blue_2:r8c0:west"},
    3: {"move:blue_1:r8c0:south", "move:brown_2:r8c1:east"},
    4: {"move:blue_1:r8c1:east", "move:brown_3:r8c3:north", "move:brown_3:r8c3:east"},
    5: {"move:brown_2:r8c3:north", "move:brown_2:r8c3:east", "move:brown_3:r7c3:north",
        "move:brown_3:r8c4:east"},
}


def ids(piece: str, *stops: str) -> set[str]:
    """'r0c5:east', ... -> {'move:<piece>:r0c5:east', ...}"""
    return {f"move:{piece}:{s}" for s in stops}


def offered(engine: Engine, base: dict[str, Any], game: Any, pieces: Placement, face: int | str) -> list[str]:
    """The move ids offered to the first mover (seat 1) after rolling `face` in this position."""
    state = copy.deepcopy(base)
    arrange(game, state, pieces)
    state = start(engine, state, face)
    return move_ids(engine, state, mover=1)


def with_choice(table: dict[int, set[str]]) -> dict[int | str, set[str]]:
    """The face '1-3' offers the moves of 1, 2 and 3 together (the hand lists are simply joined)."""
    full: dict[int | str, set[str]] = {face: moves for face, moves in table.items()}
    full["1-3"] = table[1] | table[2] | table[3]
    return full


def check_all_faces(engine: Engine, base: dict[str, Any], game: Any, pieces: Placement,
                    tested: dict[int, set[str]], parked: dict[int, set[str]],
                    counts: dict[int, int]) -> None:
    """Exact option set = tested pieces' hand list + parked pieces' hand list, for every face;
    `counts` is the hand count of the tested pieces alone (guards the hand lists themselves)."""
    for k, n in counts.items():
        assert len(tested[k]) == n, f"hand list for face {k} has {len(tested[k])} entries, counted {n}"
    expected = with_choice({f: tested[f] | parked[f] for f in (1, 2, 3, 4, 5)})
    for face in FACES:
        got = offered(engine, base, game, pieces, face)
        assert len(got) == len(set(got)), f"face {face}: duplicate options {got}"
        missing = expected[face] - set(got)
        extra = set(got) - expected[face]
        assert not missing and not extra, (f"face {face}: {len(got)} options, expected {len(expected[face])}; "
                                           f"missing {sorted(missing)}, unexpected {sorted(extra)}")


# ------------------------------------------------------------------------------ the parking alone

def test_parked_pieces_alone(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black far from the parking, stopped on a straight run going nowhere near it:
    # black r1c0 north: 1 r0c0 (corner, north) | 2 r0c1 east | 3 r0c2 east
    #   | 4 r0c3: T reached heading east -> facing south or east (2) | 5 r1c3 south, r0c4 east (2)
    pieces = {"black": ("r1c0", "north"), **PARK}
    black = {1: ids("black", "r0c0:north"), 2: ids("black", "r0c1:east"), 3: ids("black", "r0c2:east"),
             4: ids("black", "r0c3:south", "r0c3:east"), 5: ids("black", "r1c3:south", "r0c4:east")}
    check_all_faces(engine, base, game, pieces, black, PARKED, {1: 1, 2: 1, 3: 1, 4: 2, 5: 2})


# --------------------------------------------------------------------------------- ring: straight

def test_straight_ring_cell_then_the_corner(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black r0c4 facing east, top ring run r0c4 r0c5 r0c6(corner) then down the right side:
    #   1 r0c5 (east) | 2 r0c6 corner, reached going east -> facing east | 3 r1c6 (south, the bend)
    #   | 4 r2c6 (south) | 5 r3c6 (south). One option per face; "1-3": 3.
    pieces = {"black": ("r0c4", "east"), **PARK}
    black = {1: ids("black", "r0c5:east"), 2: ids("black", "r0c6:east"), 3: ids("black", "r1c6:south"),
             4: ids("black", "r2c6:south"), 5: ids("black", "r3c6:south")}
    check_all_faces(engine, base, game, pieces, black, PARKED, {1: 1, 2: 1, 3: 1, 4: 1, 5: 1})


def test_straight_ring_run_into_a_t_junction(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black r2c0 facing north: 1 r1c0 (north) | 2 r0c0 corner reached going north (north)
    #   | 3 r0c1 (east, after the bend) | 4 r0c2 (east)
    #   | 5 r0c3: stops on the T reached heading east; its streets: south r1c3, east r0c4, west r0c2
    #     (back) -> r0c3 facing south or east: 2.
    pieces = {"black": ("r2c0", "north"), **PARK}
    black = {1: ids("black", "r1c0:north"), 2: ids("black", "r0c0:north"), 3: ids("black", "r0c1:east"),
             4: ids("black", "r0c2:east"), 5: ids("black", "r0c3:south", "r0c3:east")}
    check_all_faces(engine, base, game, pieces, black, PARKED, {1: 1, 2: 1, 3: 1, 4: 1, 5: 2})


# ----------------------------------------------------------------------------------- ring: corner

@pytest.mark.parametrize("facing", ["east", "south"])
def test_on_a_ring_corner_follows_the_bend(engine: Engine, base: dict[str, Any], game: Any, facing: str) -> None:
    # black on the corner r0c6; "east" is the facing it keeps after arriving there along the top
    # row, "south" the one it may get when placed there. Either way it can only go down the right
    # side (going back west is forbidden):
    #   1 r1c6 | 2 r2c6 | 3 r3c6 (all south)
    #   | 4 r4c6: T reached heading south; streets north r3c6 (back), south r5c6, west r4c5
    #     -> r4c6 facing south or west: 2 (stopping is allowed although r5c6 holds the thief)
    #   | 5 from r4c6: south r5c6 x (thief), west r4c5 ok (facing west) -> 1
    pieces = {"black": ("r0c6", facing), **PARK}
    black = {1: ids("black", "r1c6:south"), 2: ids("black", "r2c6:south"), 3: ids("black", "r3c6:south"),
             4: ids("black", "r4c6:south", "r4c6:west"), 5: ids("black", "r4c5:west")}
    check_all_faces(engine, base, game, pieces, black, PARKED, {1: 1, 2: 1, 3: 1, 4: 2, 5: 1})


# ----------------------------------------------------------------------------- T-junction (r0c3)

def test_approaching_the_top_t_junction(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black r0c1 facing east: 1 r0c2 (east)
    #   | 2 r0c3: stops on the T reached heading east -> facing south or east (not west): 2
    #   | 3 passes r0c3: r1c3 (south) or r0c4 (east): 2 | 4 r2c3 S, r0c5 E: 2 | 5 r3c3 S, r0c6 E: 2
    #   "1-3": 1 + 2 + 2 = 5.
    pieces = {"black": ("r0c1", "east"), **PARK}
    black = {1: ids("black", "r0c2:east"), 2: ids("black", "r0c3:south", "r0c3:east"),
             3: ids("black", "r1c3:south", "r0c4:east"), 4: ids("black", "r2c3:south", "r0c5:east"),
             5: ids("black", "r3c3:south", "r0c6:east")}
    check_all_faces(engine, base, game, pieces, black, PARKED, {1: 1, 2: 2, 3: 2, 4: 2, 5: 2})


STANDING_ON_R0C3 = {
    # The facing was chosen when the piece stopped there; it now leaves along it, no other way.
    # south: down column 3: 1 r1c3 | 2 r2c3 | 3 r3c3 (south)
    #   | 4 r4c3: central crossing reached heading south; streets N (back), S, E, W -> 3
    #   | 5 r5c3 (south), r4c4 (east), r4c2 (west) -> 3
    "south": {1: ids("black", "r1c3:south"), 2: ids("black", "r2c3:south"), 3: ids("black", "r3c3:south"),
              4: ids("black", "r4c3:south", "r4c3:east", "r4c3:west"),
              5: ids("black", "r5c3:south", "r4c4:east", "r4c2:west")},
    # east: 1 r0c4 | 2 r0c5 | 3 r0c6 (corner, east) | 4 r1c6 (south) | 5 r2c6 (south)
    "east": {1: ids("black", "r0c4:east"), 2: ids("black", "r0c5:east"), 3: ids("black", "r0c6:east"),
             4: ids("black", "r1c6:south"), 5: ids("black", "r2c6:south")},
    # west: 1 r0c2 | 2 r0c1 | 3 r0c0 (corner, west) | 4 r1c0 (south) | 5 r2c0 (south)
    "west": {1: ids("black", "r0c2:west"), 2: ids("black", "r0c1:west"), 3: ids("black", "r0c0:west"),
             4: ids("black", "r1c0:south"), 5: ids("black", "r2c0:south")},
}


@pytest.mark.parametrize("facing", ["south", "east", "west"])
def test_standing_on_the_top_t_junction_leaves_along_its_facing(engine: Engine, base: dict[str, Any],
                                                                game: Any, facing: str) -> None:
    pieces = {"black": ("r0c3", facing), **PARK}
    counts = {1: 1, 2: 1, 3: 1, 4: 3, 5: 3} if facing == "south" else {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
    check_all_faces(engine, base, game, pieces, STANDING_ON_R0C3[facing], PARKED, counts)


# ------------------------------------------------------------------------ central crossing (r4c3)

STANDING_ON_R4C3 = {
    # north: 1 r3c3 | 2 r2c3 | 3 r1c3 (north)
    #   | 4 r0c3: T reached heading north; streets south (back), east r0c4, west r0c2 -> 2
    #   | 5 r0c4 (east), r0c2 (west) -> 2
    "north": ({1: ids("black", "r3c3:north"), 2: ids("black", "r2c3:north"), 3: ids("black", "r1c3:north"),
               4: ids("black", "r0c3:east", "r0c3:west"), 5: ids("black", "r0c4:east", "r0c2:west")},
              {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}),
    # south: 1 r5c3 | 2 r6c3 | 3 r7c3 (south)
    #   | 4 r8c3: T reached heading south; streets north (back), east r8c4, west r8c2 -> 2
    #   | 5 r8c4 x (brown_1), r8c2 x (blue_2): both destinations occupied -> 0
    "south": ({1: ids("black", "r5c3:south"), 2: ids("black", "r6c3:south"), 3: ids("black", "r7c3:south"),
               4: ids("black", "r8c3:east", "r8c3:west"), 5: set()},
              {1: 1, 2: 1, 3: 1, 4: 2, 5: 0}),
    # east: 1 r4c4 | 2 r4c5 (east)
    #   | 3 r4c6: T reached heading east; streets north r3c6, south r5c6, west (back) -> 2
    #   | 4 r3c6 (north); r5c6 x (thief) -> 1 | 5 r2c6 (north); r6c6 (south, passing the thief) -> 2
    "east": ({1: ids("black", "r4c4:east"), 2: ids("black", "r4c5:east"),
              3: ids("black", "r4c6:north", "r4c6:south"), 4: ids("black", "r3c6:north"),
              5: ids("black", "r2c6:north", "r6c6:south")},
             {1: 1, 2: 1, 3: 2, 4: 1, 5: 2}),
}


@pytest.mark.parametrize("facing", ["north", "south", "east"])
def test_standing_on_the_central_crossing_leaves_along_its_facing(engine: Engine, base: dict[str, Any],
                                                                  game: Any, facing: str) -> None:
    pieces = {"black": ("r4c3", facing), **PARK}
    tested, counts = STANDING_ON_R4C3[facing]
    check_all_faces(engine, base, game, pieces, tested, PARKED, counts)


def test_approaching_the_central_crossing(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black r4c1 facing east: 1 r4c2 (east)
    #   | 2 r4c3: central crossing reached heading east; streets N, S, E (W is back) -> 3
    #   | 3 r3c3 N, r5c3 S, r4c4 E -> 3 | 4 r2c3 N, r6c3 S, r4c5 E -> 3
    #   | 5 r1c3 N, r7c3 S, and r4c6: T reached heading east, facing north or south -> 4
    #   "1-3": 1 + 3 + 3 = 7
    pieces = {"black": ("r4c1", "east"), **PARK}
    black = {1: ids("black", "r4c2:east"), 2: ids("black", "r4c3:north", "r4c3:south", "r4c3:east"),
             3: ids("black", "r3c3:north", "r5c3:south", "r4c4:east"),
             4: ids("black", "r2c3:north", "r6c3:south", "r4c5:east"),
             5: ids("black", "r1c3:north", "r7c3:south", "r4c6:north", "r4c6:south")}
    check_all_faces(engine, base, game, pieces, black, PARKED, {1: 1, 2: 3, 3: 3, 4: 3, 5: 4})


def test_through_the_central_crossing_onto_two_t_junctions(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black r2c3 facing south: 1 r3c3 (south)
    #   | 2 r4c3 reached heading south: facing S, E or W -> 3
    #   | 3 r5c3 S, r4c4 E, r4c2 W -> 3 | 4 r6c3 S, r4c5 E, r4c1 W -> 3
    #   | 5 r7c3 S; r4c6 (T reached heading east: north r3c6 or south r5c6) -> 2;
    #     r4c0 (T reached heading west: north r3c0 or south r5c0) -> 2; total 5
    #   (stopping on r4c0 facing south toward blue_1 on r5c0 is allowed)
    pieces = {"black": ("r2c3", "south"), **PARK}
    black = {1: ids("black", "r3c3:south"), 2: ids("black", "r4c3:south", "r4c3:east", "r4c3:west"),
             3: ids("black", "r5c3:south", "r4c4:east", "r4c2:west"),
             4: ids("black", "r6c3:south", "r4c5:east", "r4c1:west"),
             5: ids("black", "r7c3:south", "r4c6:north", "r4c6:south", "r4c0:north", "r4c0:south")}
    check_all_faces(engine, base, game, pieces, black, PARKED, {1: 1, 2: 3, 3: 3, 4: 3, 5: 5})


# ------------------------------------------------------------------- blocked cells, passing pieces

def test_blocked_destinations_and_passing_over_pieces(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black r0c1 east; brown_1 on r1c3 facing south (just below the T); thief on r0c5 facing east.
    # black: 1 r0c2 E | 2 r0c3 S or E (2)
    #   | 3 r1c3 x (brown_1), r0c4 E -> 1
    #   | 4 r2c3 S (passing brown_1) ok; r0c5 x (thief) -> 1
    #   | 5 r3c3 S ok; r0c6 E (passing the thief) ok -> 2
    # brown_1 r1c3 S: 1 r2c3 | 2 r3c3 | 3 r4c3 facing S/E/W (3) | 4 r5c3 S, r4c4 E, r4c2 W (3)
    #   | 5 r6c3 S, r4c5 E, r4c1 W (3)
    # thief r0c5 E: 1 r0c6 (east) | 2 r1c6 S | 3 r2c6 S | 4 r3c6 S
    #   | 5 r4c6: T reached heading south, facing south (r5c6 is free here) or west -> 2
    pieces = {"black": ("r0c1", "east"), "brown_1": ("r1c3", "south"), "thief": ("r0c5", "east"), **PARK_LEFT}
    tested = {
        1: ids("black", "r0c2:east") | ids("brown_1", "r2c3:south") | ids("thief", "r0c6:east"),
        2: ids("black", "r0c3:south", "r0c3:east") | ids("brown_1", "r3c3:south") | ids("thief", "r1c6:south"),
        3: ids("black", "r0c4:east") | ids("brown_1", "r4c3:south", "r4c3:east", "r4c3:west")
        | ids("thief", "r2c6:south"),
        4: ids("black", "r2c3:south") | ids("brown_1", "r5c3:south", "r4c4:east", "r4c2:west")
        | ids("thief", "r3c6:south"),
        5: ids("black", "r3c3:south", "r0c6:east") | ids("brown_1", "r6c3:south", "r4c5:east", "r4c1:west")
        | ids("thief", "r4c6:south", "r4c6:west"),
    }
    check_all_faces(engine, base, game, pieces, tested, PARKED_LEFT,
                    {1: 3, 2: 4, 3: 5, 4: 5, 5: 7})


def test_passing_two_pieces_in_a_row(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # black r0c4 east, brown_1 r0c5 east, thief r0c6 (corner) east (as after arriving there): a queue
    # round the corner.
    # black: 1 r0c5 x | 2 r0c6 x | 3 r1c6 S (passes both) | 4 r2c6 S | 5 r3c6 S
    # brown_1: 1 r0c6 x (thief) | 2 r1c6 S | 3 r2c6 S | 4 r3c6 S
    #   | 5 r4c6: T reached heading south, facing south or west -> 2
    # thief: 1 r1c6 | 2 r2c6 | 3 r3c6 (south) | 4 r4c6 facing south or west (2)
    #   | 5 r5c6 S (free here), r4c5 W -> 2
    pieces = {"black": ("r0c4", "east"), "brown_1": ("r0c5", "east"), "thief": ("r0c6", "east"), **PARK_LEFT}
    tested = {
        1: ids("thief", "r1c6:south"),
        2: ids("brown_1", "r1c6:south") | ids("thief", "r2c6:south"),
        3: ids("black", "r1c6:south") | ids("brown_1", "r2c6:south") | ids("thief", "r3c6:south"),
        4: ids("black", "r2c6:south") | ids("brown_1", "r3c6:south") | ids("thief", "r4c6:south", "r4c6:west"),
        5: ids("black", "r3c6:south") | ids("brown_1", "r4c6:south", "r4c6:west")
        | ids("thief", "r5c6:south", "r4c5:west"),
    }
    check_all_faces(engine, base, game, pieces, tested, PARKED_LEFT, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5})


def test_cannot_stop_on_an_occupied_crossing_but_may_pass_it(engine: Engine, base: dict[str, Any],
                                                             game: Any) -> None:
    # brown_1 stands ON the T r0c3 (facing west). Only black's, the thief's and the parked pieces'
    # options are checked here (brown_1's own, from a crossing, are the subject of the
    # "standing on the T-junction" tests above).
    # black r0c1 east: 1 r0c2 E | 2 r0c3 x | 3 r1c3 S, r0c4 E (passing brown_1) -> 2
    #   | 4 r2c3 S, r0c5 E -> 2 | 5 r3c3 S, r0c6 E -> 2
    # thief r2c6 north: 1 r1c6 N | 2 r0c6 (corner, north) | 3 r0c5 W | 4 r0c4 W | 5 r0c3 x -> 0
    pieces = {"black": ("r0c1", "east"), "brown_1": ("r0c3", "west"), "thief": ("r2c6", "north"), **PARK_LEFT}
    tested = {
        1: ids("black", "r0c2:east") | ids("thief", "r1c6:north"),
        2: ids("thief", "r0c6:north"),
        3: ids("black", "r1c3:south", "r0c4:east") | ids("thief", "r0c5:west"),
        4: ids("black", "r2c3:south", "r0c5:east") | ids("thief", "r0c4:west"),
        5: ids("black", "r3c3:south", "r0c6:east"),
    }
    expected = with_choice({f: tested[f] | PARKED_LEFT[f] for f in (1, 2, 3, 4, 5)})
    for face in FACES:
        got = [i for i in offered(engine, base, game, pieces, face) if not i.startswith("move:brown_1:")]
        assert len(got) == len(set(got))
        assert set(got) == expected[face], (f"face {face}: missing {sorted(expected[face] - set(got))}, "
                                            f"unexpected {sorted(set(got) - expected[face])}")


# --------------------------------------------------------------------------------- setup counts

def test_placement_and_claim_counts(engine: Engine, game: Any) -> None:
    # Each placer first chooses which of the pieces left to place (RULINGS), then a cell: every
    # free grey or red street cell, 38 (the central crossing r4c3 takes no piece), then a facing:
    # each street leaving the cell (3 at the four T-junctions, 2 elsewhere, corners included).
    state = engine.new_game(3, seed=5)
    assert len(pending_decision(engine, state, "piece").options(0)) == 7
    state = engine.apply(state, "piece:black", 0)
    d = pending_decision(engine, state, "cell")
    assert d.seats == (0,)
    assert len(d.options(0)) == 38
    assert "cell:r4c3" not in {o.id for o in d.options(0)}
    state = engine.apply(state, "cell:r0c0", 0)
    assert {o.id for o in pending_decision(engine, state, "way").options(0)} == {"way:east", "way:south"}
    state = engine.apply(state, "way:east", 0)
    # r0c0 taken: 37 cells left, then 36, ...; r0c3 is a T-junction with three ways out.
    assert len(pending_decision(engine, state, "piece").options(1)) == 6
    state = engine.apply(state, "piece:blue_1", 1)
    assert len(pending_decision(engine, state, "cell").options(1)) == 37
    state = engine.apply(state, "cell:r0c3", 1)
    assert len(pending_decision(engine, state, "way").options(1)) == 3
    state = engine.apply(state, "way:south", 1)
    state = engine.apply(state, "piece:blue_2", 2)
    assert len(pending_decision(engine, state, "cell").options(2)) == 36
    state = engine.apply(state, "cell:r1c0", 2)
    state = engine.apply(state, "way:north", 2)
    for seat, piece, cell, way in ((0, "brown_1", "r8c6", "west"), (1, "brown_2", "r8c3", "east"),
                                   (2, "brown_3", "r4c6", "west")):
        state = engine.apply(state, f"piece:{piece}", seat)
        state = engine.apply(state, f"cell:{cell}", seat)
        state = engine.apply(state, f"way:{way}", seat)
    # The thief is the last piece: seat 0 is not asked which piece.
    state = engine.apply(state, "cell:r4c1", 0)
    state = engine.apply(state, "way:east", 0)
    assert [game.node_ids[state["global"]["at"][p]] for p in PIECES] == [
        "r0c0", "r0c3", "r1c0", "r8c6", "r8c3", "r4c6", "r4c1"]
    # Claims start with the seat after the last placer (seat 0 placed the 7th piece): seat 1.
    # 38 shops (8 department stores + 30 small shops) are free.
    d = pending_decision(engine, state, "shop")
    assert d.seats == (1,)
    assert len(d.options(1)) == 38
    state = engine.apply(state, "shop:shop-r0c0", 1)       # seat 1 takes a store
    assert len(pending_decision(engine, state, "shop").options(2)) == 37
    state = engine.apply(state, "shop:shop-r0c1", 2)       # small
    assert len(pending_decision(engine, state, "shop").options(0)) == 36
    state = engine.apply(state, "shop:shop-r0c2", 0)       # small
    # Seat 1 again: 35 free shops, but it already has its department store: the 7 free stores
    # are not offered -> 28 small shops.
    d = pending_decision(engine, state, "shop")
    assert d.seats == (1,)
    assert len(d.options(1)) == 28
    stores = {f"shop:shop-{c}" for c in ("r0c0", "r0c3", "r0c6", "r4c0", "r4c6", "r8c0", "r8c3", "r8c6")}
    assert not stores & {o.id for o in d.options(1)}


def test_facing_chosen_on_a_crossing_binds_the_next_move(engine: Engine, base: dict[str, Any], game: Any) -> None:
    # Played through the engine: seat 1 rolls 2 and stops black on the T r0c3 (from r0c1 facing
    # east: r0c2, r0c3), choosing to face south. Seat 2 then rolls 1: black may only go on south,
    # to r1c3 (not back west, and not east: its nose points south).
    state = copy.deepcopy(base)
    arrange(game, state, {"black": ("r0c1", "east"), **PARK})
    state = start(engine, state, 2, 1)
    assert set(ids("black", "r0c3:south", "r0c3:east")) <= set(move_ids(engine, state, mover=1))
    state = engine.apply(state, "move:black:r0c3:south", 1)
    assert game.node_ids[state["global"]["at"]["black"]] == "r0c3"
    assert state["global"]["facing"]["black"] == "south"
    got = move_ids(engine, state, mover=2)  # seat 1 had 0 points: nothing to buy, its turn ended
    assert sorted(i for i in got if i.startswith("move:black:")) == ["move:black:r1c3:south"]
    assert set(got) == ids("black", "r1c3:south") | PARKED[1]
