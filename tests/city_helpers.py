"""Shared helpers for the City tests (tests/test_city_examples.py, tests/test_city_moves.py, and the
bots' tests of City's features and evaluation).

A position is built in three steps:

1. `to_last_claim` plays the setup through the engine (pieces, placements and claims, first option
   each time) and stops at the very last claim, the answer that starts the first turn and rolls its die;
2. `arrange` rewrites that state (it is plain data): every piece's cell and facing, every shop's
   owner and tokens, scores, round, `has_moved`; every shop not listed is unowned;
3. `start` forces the die (it sets the generator so that the next rolls give the wanted faces) and
   answers the last claim with a chosen "spare" shop, which the last claimer then owns with 1 token.

From there the game is driven only through `engine.pending` / `engine.apply`.

Seats: the first mover is the seat after the last claimer. Seven placements then four claims per
seat, so with 2 or 3 seats the last claimer is seat 0 and the first mover seat 1; with 5 seats the
last claimer is seat 1 and the first mover seat 2.
"""

from __future__ import annotations

from typing import Any

from interpreter.core import rng
from interpreter.core.decision import Decision, Result
from interpreter.core.engine import Engine

PIECES = ("black", "blue_1", "blue_2", "brown_1", "brown_2", "brown_3", "thief")
FACES = (1, 2, 3, 4, 5, "1-3")  # the die, in the order of game.yaml's `die` table
TOKENS_PER_SEAT = 12
SPARE = "shop-r6c3"  # default shop taken by the last claim (a small shop on the lower cross street)

Placement = dict[str, tuple[str, str]]


def face_index(face: int | str) -> int:
    return FACES.index(face)


def rng_giving(*faces: int | str) -> int:
    """A generator state whose next rolls of the six-faced die give `faces`, in order."""
    wanted = [face_index(f) for f in faces]
    for k in range(1_000_000):
        candidate = rng.seed_state(k)
        s = candidate
        for w in wanted:
            s, x = rng.below(s, 6)
            if x != w:
                break
        else:
            return candidate
    raise AssertionError(f"no generator state found for faces {faces}")


def pending_decision(engine: Engine, state: dict[str, Any], name: str) -> Decision:
    d = engine.pending(state)
    assert isinstance(d, Decision), f"expected a '{name}' decision, the game is over: {d}"
    assert d.name == name, f"expected a '{name}' decision, got '{d.name}' for seats {d.seats}: {d.prompts}"
    return d


def to_last_claim(engine: Engine, seats: int, seed: int = 1, keep: str = SPARE) -> dict[str, Any]:
    """A new game played through the setup up to (not including) the last claim; the shop `keep`
    is left unclaimed so that the last claim can take it."""
    state = engine.new_game(seats, seed=seed)
    claims = 4 * seats
    while True:
        d = engine.pending(state)
        assert isinstance(d, Decision), d
        done = sum(1 for e in state["log"] if e["kind"] == "claim")
        if d.name == "shop" and done == claims - 1:
            return state
        assert d.name in ("piece", "cell", "way", "shop"), d.name
        seat = d.seats[0]
        option = next(o.id for o in d.options(seat) if o.id != f"shop:{keep}")
        state = engine.apply(state, option, seat)


def arrange(game: Any, state: dict[str, Any], pieces: Placement, *,
            shops: dict[str, tuple[int, int]] | None = None, scores: dict[int, int] | None = None,
            round: int = 1, moved: tuple[str, ...] = ()) -> None:
    """Rewrite the position in place. `pieces` must give every piece (cell, facing);
    `shops` maps shop id -> (owner seat, tokens); unlisted shops are unowned; unlisted scores 0."""
    assert set(pieces) == set(PIECES), f"give every piece a cell: {sorted(pieces)}"
    cells = [cell for cell, _ in pieces.values()]
    assert len(set(cells)) == len(cells), f"two pieces on one cell: {cells}"
    g = state["global"]
    g["at"] = {p: game.node_index(pieces[p][0]) for p in PIECES}
    g["facing"] = {p: pieces[p][1] for p in PIECES}
    g["has_moved"] = {p: p in moved for p in PIECES}
    g["round"] = round
    n = len(state["node"]["owner"])
    state["node"]["owner"] = [None] * n
    state["node"]["tokens"] = [0] * n
    seats = state["seats"]
    supply = [TOKENS_PER_SEAT] * seats
    for shop, (owner, tokens) in (shops or {}).items():
        assert shop.startswith("shop-"), shop
        i = game.node_index(shop)
        state["node"]["owner"][i] = owner
        state["node"]["tokens"][i] = tokens
        supply[owner] -= tokens
    state["seat"]["tokens"] = supply
    state["seat"]["score"] = [(scores or {}).get(s, 0) for s in range(seats)]


def start(engine: Engine, state: dict[str, Any], *faces: int | str, spare: str = SPARE) -> dict[str, Any]:
    """Force the next rolls to `faces` and answer the last claim with `spare` (starts the first turn)."""
    d = pending_decision(engine, state, "shop")
    assert f"shop:{spare}" in [o.id for o in d.options(d.seats[0])], f"{spare} cannot be claimed"
    state["rng"] = rng_giving(*faces)
    return engine.apply(state, f"shop:{spare}", d.seats[0])


def move_ids(engine: Engine, state: dict[str, Any], mover: int | None = None) -> list[str]:
    """The ids of the pending 'move' decision (for its one seat)."""
    d = pending_decision(engine, state, "move")
    assert len(d.seats) == 1
    if mover is not None:
        assert d.seats == (mover,), f"expected seat {mover} to move, asked: {d.seats}"
    return [o.id for o in d.options(d.seats[0])]


def answer(engine: Engine, state: dict[str, Any], name: str, option: str, seat: int | None = None) -> dict[str, Any]:
    """Answer the pending decision `name` (which must offer `option`)."""
    d = pending_decision(engine, state, name)
    assert len(d.seats) == 1
    if seat is not None:
        assert d.seats == (seat,), f"'{name}' asks seats {d.seats}, expected {seat}"
    ids = [o.id for o in d.options(d.seats[0])]
    assert option in ids, f"'{option}' is not offered; offered: {ids}"
    return engine.apply(state, option, d.seats[0])


def events(state: dict[str, Any], kind: str, since: int = 0) -> list[dict[str, Any]]:
    """Data of the log events of one kind written from position `since` on."""
    return [e["data"] for e in state["log"][since:] if e["kind"] == kind]


def result(engine: Engine, state: dict[str, Any]) -> Result:
    r = engine.pending(state)
    assert isinstance(r, Result), f"the game should be over, pending: {r}"
    return r


def front_of_shops(engine: Engine) -> dict[int, int]:
    """Street cell -> the shop in front of it, by node index (from City's board data)."""
    game = engine.game
    index = {node: i for i, node in enumerate(game.node_ids)}
    return {index[a]: index[b] for a, b, d in game.graph.edges(data=True) if d.get("kind") == "front"}
