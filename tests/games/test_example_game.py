"""The example game examples/harbour: it validates cleanly, random games end, and its rules work
as examples/harbour/game.yaml and the .rules files say.

The rule tests build a position by editing the plain-data state while the game waits for the
round's secret offers, then drive the game only through `engine.pending` / `engine.apply`, so that
the rule files do the work being checked.

Board (examples/harbour/board.yaml), the plots the tests use:

    q1 q2 q3 q4     quay (waterfront)
    t1 t2 t3 t4     town
    h1 h2 | h3 h4   hill (a cliff between h2 and h3)

    t2 neighbours q2, t1, t3, h2;  q2 neighbours q1, q3, t2
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter.analysis.simulate import play_bots
from interpreter.core.decision import Decision, Result
from interpreter.core.engine import Engine
from interpreter.core.game import Game
from interpreter.load.loader import check_game

FOLDER = Path(__file__).resolve().parents[2] / "examples" / "harbour"
ANA, BEN, CHLOE = 0, 1, 2


@pytest.fixture(scope="module")
def game() -> Game:
    g, diags, _ = check_game(FOLDER)
    assert g is not None, [d.message for d in diags]
    return g


@pytest.fixture(scope="module")
def engine(game: Game) -> Engine:
    return Engine(game)


# --------------------------------------------------------------------------- helpers

def ship(game: Game, ship_id: str) -> int:
    """How the state stores a ship: its position in ships.yaml, copies counted."""
    return list(game.world.components["ship"].ids).index(ship_id)


def pending_decision(engine: Engine, state: dict[str, Any], name: str) -> Decision:
    d = engine.pending(state)
    assert isinstance(d, Decision), f"expected a '{name}' decision, the game is over"
    assert d.name == name, f"expected a '{name}' decision, got '{d.name}' for seats {d.seats}"
    return d


def answer(engine: Engine, state: dict[str, Any], name: str, answers: dict[int, str]) -> dict[str, Any]:
    """Answer the pending decision `name`: exactly the open seats, each with its option id."""
    d = pending_decision(engine, state, name)
    assert set(d.seats) == set(answers), f"'{name}' asks seats {d.seats}, test answers {sorted(answers)}"
    for seat, option in answers.items():
        assert option in [o.id for o in d.options(seat)], f"{option} not offered to seat {seat}"
        state = engine.apply(state, option, seat=seat)
    return state


def events(state: dict[str, Any], kind: str, since: int = 0) -> list[dict[str, Any]]:
    return [e["data"] for e in state["log"][since:] if e["kind"] == kind]


def at_first_offers(engine: Engine, game: Game, seats: int, *, last_round: bool = False,
                    buildings: dict[str, tuple[str, int]] | None = None,
                    holds: dict[int, list[str]] | None = None,
                    coins: dict[int, int] | None = None, master: int = 0) -> dict[str, Any]:
    """A new game paused at round 1's secret offers, rewritten to the position wanted.

    `buildings` maps plot id -> (kind, owner); `holds` seat -> ship ids; unlisted coins stay 5.
    With `last_round`, every ship still at sea is moved to the town's stores, so this round is the
    last (the game ends when the deck is empty) and the final scoring follows its income.
    """
    state = engine.new_game(seats, seed=1)
    pending_decision(engine, state, "offer")
    g = state["global"]
    g["master"] = master
    taken = {ship(game, i) for ids in (holds or {}).values() for i in ids}
    assert g["docked"] not in taken, "a test ship is the one docked: pick another"
    g["deck"] = [c for c in g["deck"] if c not in taken]
    if last_round:
        g["town_stores"] += g["deck"]
        g["deck"] = []
    for s, ids in (holds or {}).items():
        state["seat"]["hold"][s] = [ship(game, i) for i in ids]
    for plot, (kind, owner) in (buildings or {}).items():
        state["node"]["building"][game.node_index(plot)] = kind
        state["node"]["owner"][game.node_index(plot)] = owner
    for s, n in (coins or {}).items():
        state["seat"]["coins"][s] = n
    return state


def pass_all(engine: Engine, state: dict[str, Any]) -> dict[str, Any]:
    """Every seat offers nothing, then every seat asked to build passes."""
    d = pending_decision(engine, state, "offer")
    state = answer(engine, state, "offer", {s: "offer:0" for s in d.seats})
    while isinstance(d := engine.pending(state), Decision) and d.name == "build":
        state = answer(engine, state, "build", {d.seats[0]: "build:pass:none"})
    return state


def winners(engine: Engine, state: dict[str, Any]) -> list[int]:
    r = engine.pending(state)
    assert isinstance(r, Result), f"the game should be over, pending: {r}"
    return list(r.winners)


# --------------------------------------------------------------------------- the contract

def test_validates_without_errors_or_warnings() -> None:
    game, diags, _ = check_game(FOLDER)
    assert game is not None
    assert [f"{d.span.file}:{d.span.line}: {d.message}" for d in diags] == []
    assert (game.min_seats, game.max_seats) == (2, 4)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_quickly_at_every_seat_count(engine: Engine, seats: int) -> None:
    for seed in range(40):
        state, record = play_bots(engine, seats, seed, max_decisions=1000)
        assert state["result"] is not None, f"seed {seed} did not end in 1000 decisions"
        assert record.winners and all(0 <= w < seats for w in record.winners)
        assert record.decisions < 200
        assert record.rounds is not None and 1 <= record.rounds <= 9


def test_same_seed_same_log(engine: Engine) -> None:
    for seats in (2, 3, 4):
        first, a = play_bots(engine, seats, 11, keep_journal=True)
        second, b = play_bots(engine, seats, 11, keep_journal=True)
        assert first["log"] == second["log"]
        assert a.journal is not None and b.journal is not None
        assert a.journal.dumps() == b.journal.dumps()
    # and the seed matters: another seed shuffles the ships differently
    assert play_bots(engine, 2, 11)[0]["log"] != play_bots(engine, 2, 12)[0]["log"]


# --------------------------------------------------------------------------- the rules

def test_final_scoring_example(engine: Engine, game: Game) -> None:
    # Ana: houses on h1 and h2 (hill: 1 + 1 view each = 4); a shop on t2 next to two houses,
    # h2 (hers) and t1 (Ben's): 2; a warehouse on q1 stores her two best ships, spice 3 +
    # timber 2 = 5 (the fish is lost). Coins: 3 + income (wage 1 + 2 houses + 1 shop) = 7 -> 2.
    # Ana: 4 + 2 + 5 + 2 = 13.
    # Ben: a house on t1 (town): 1; a shop on q2, whose neighbours q1, q3, t2 hold no house: 0;
    # a spice ship but no warehouse: 0. Coins: 8 + (1 + 1 + 1) = 11 -> 3. Ben: 1 + 0 + 0 + 3 = 4.
    state = at_first_offers(
        engine, game, 2, last_round=True,
        buildings={"h1": ("house", ANA), "h2": ("house", ANA), "t2": ("shop", ANA), "q1": ("warehouse", ANA),
                   "t1": ("house", BEN), "q2": ("shop", BEN)},
        holds={ANA: ["spice-2", "timber-1", "fish-1"], BEN: ["timber-2"]},
        coins={ANA: 3, BEN: 8})
    mark = len(state["log"])
    state = pass_all(engine, state)
    assert events(state, "income", mark) == [{"seat": ANA, "coins": 4}, {"seat": BEN, "coins": 3}]
    assert events(state, "score", mark) == [
        {"seat": ANA, "buildings": 6, "cargo": 5, "coins": 2, "fame": 13},
        {"seat": BEN, "buildings": 1, "cargo": 0, "coins": 3, "fame": 4},
    ]
    assert state["seat"]["fame"] == [13, 4]
    assert events(state, "result", mark) == [{"seats": [ANA], "fame": 13, "coins": 7}]
    assert winners(engine, state) == [ANA]


def test_fame_tie_goes_to_coins_then_is_shared(engine: Engine, game: Game) -> None:
    # Three seats, one town house each (1 fame) and no cargo. After income (1 + 1 = 2):
    # Ana 4 coins -> 1, Ben 5 -> 1, Chloé 2 -> 0. Ana and Ben tie on 2 fame; Ben has more coins.
    houses = {"t1": ("house", ANA), "t2": ("house", BEN), "t3": ("house", CHLOE)}
    state = at_first_offers(engine, game, 3, last_round=True, buildings=houses, coins={ANA: 2, BEN: 3, CHLOE: 0})
    mark = len(state["log"])
    state = pass_all(engine, state)  # Chloé, with 0 coins, cannot build: she is not even asked
    assert [e["fame"] for e in events(state, "score", mark)] == [2, 2, 1]
    assert events(state, "result", mark) == [{"seats": [BEN], "fame": 2, "coins": 5}]
    assert winners(engine, state) == [BEN]

    # The same with equal coins: Ana and Ben share the win.
    state = at_first_offers(engine, game, 3, last_round=True, buildings=houses, coins={ANA: 3, BEN: 3, CHLOE: 0})
    state = pass_all(engine, state)
    assert events(state, "result") == [{"seats": [ANA, BEN], "fame": 2, "coins": 5}]
    assert winners(engine, state) == [ANA, BEN]


def test_secret_offers_tie_goes_first_from_the_harbour_master(engine: Engine, game: Game) -> None:
    # Ben is harbour master. Ana and Chloé both offer 2, Ben 1: the tied seats in turn order from
    # Ben are Chloé, then Ana, so Chloé buys the cargo and pays 2; Ana keeps her coins.
    state = at_first_offers(engine, game, 3, master=BEN)
    docked = state["global"]["docked"]
    mark = len(state["log"])
    state = answer(engine, state, "offer", {ANA: "offer:2", BEN: "offer:1", CHLOE: "offer:2"})
    assert events(state, "offer", mark) == [{"seat": ANA, "coins": 2}, {"seat": BEN, "coins": 1},
                                            {"seat": CHLOE, "coins": 2}]
    assert events(state, "tie", mark) == [{"seats": [CHLOE, ANA], "coins": 2, "buyer": CHLOE}]
    assert events(state, "buy", mark) == [{"seat": CHLOE, "ship": game.world.components["ship"].ids[docked],
                                           "coins": 2}]
    assert state["seat"]["hold"] == [[], [], [docked]]
    assert state["seat"]["coins"] == [5, 5, 3]
    assert state["global"]["docked"] is None
    # The master builds first.
    assert pending_decision(engine, state, "build").seats == (BEN,)


def test_no_offer_sends_the_cargo_to_the_town(engine: Engine, game: Game) -> None:
    state = at_first_offers(engine, game, 2)
    docked = state["global"]["docked"]
    state = answer(engine, state, "offer", {ANA: "offer:0", BEN: "offer:0"})
    assert events(state, "buy") == []
    assert events(state, "unsold") == [{"ship": game.world.components["ship"].ids[docked]}]
    assert state["global"]["town_stores"] == [docked]
    assert state["seat"]["coins"] == [5, 5]


def test_where_each_kind_may_be_built(engine: Engine, game: Game) -> None:
    # Warehouses only on the quay, houses only in town and on the hill, shops on quay and town;
    # a seat is offered only what it can pay for (2 coins: houses only).
    state = at_first_offers(engine, game, 2, buildings={"t1": ("house", BEN)}, coins={ANA: 3, BEN: 2})
    state = answer(engine, state, "offer", {ANA: "offer:0", BEN: "offer:0"})
    ana = {o.id for o in pending_decision(engine, state, "build").options(ANA)}
    assert ana == ({"build:pass:none"}
                   | {f"build:house:{p}" for p in ("t2", "t3", "t4", "h1", "h2", "h3", "h4")}
                   | {f"build:shop:{p}" for p in ("q1", "q2", "q3", "q4", "t2", "t3", "t4")}
                   | {f"build:warehouse:{p}" for p in ("q1", "q2", "q3", "q4")})
    state = answer(engine, state, "build", {ANA: "build:warehouse:q3"})
    assert events(state, "build") == [{"seat": ANA, "kind": "warehouse", "plot": "q3", "coins": 3}]
    ben = {o.id for o in pending_decision(engine, state, "build").options(BEN)}
    assert ben == {"build:pass:none"} | {f"build:house:{p}" for p in ("t2", "t3", "t4", "h1", "h2", "h3", "h4")}
