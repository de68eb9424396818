"""The yardstick: Downtown written by hand in plain Python, with uniformly random bots.

Same rules as games/downtown (the same shipped board, tables, order of options and seeded
generator), and the same bots as `cityrules simulate` (each pick drawn from the bot's seed and
the number of decisions so far, single-option choices taken without asking). So for a seed it
plays exactly the game the interpreter plays, which `tests/benchmarks/test_yardstick.py` checks;
its only job is to tell how far the interpreter is from a program written for one game.
No event log: nobody reads one in a simulation.
"""

from __future__ import annotations

from pathlib import Path

import yaml

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.core.rng import next_u64, seed_state, shuffle

BOARD = Path(__file__).resolve().parent.parent / "games" / "downtown" / "board.yaml"
_MASK = (1 << 64) - 1

SIDES = ("west", "east")
OTHER_SIDE = {"west": "east", "east": "west"}
SETUP_CARDS_PER_SIDE = 3
SETUP_KINDS = ("park", "park", "park", "housing", "commerce", "industry")
VOTABLE = ("housing", "industry", "commerce")
LOBBY_WEIGHT = 2
PARCELS_PER_LOT = 4
PRICE_WITH_PLAQUE = (0, 3, 7, 12)
PRICE_BARE = (0, 2, 5, 9)
MAX_PARCELS = {3: 3, 4: 3, 5: 2, 6: 2}
WELL_PLACED_RULE = {"housing": ("industry", 0, 0), "industry": ("commerce", 1, 99),
                    "commerce": ("housing", 2, 99)}
VALUE_WELL, VALUE_POOR = 2, 1
BONUS = {1: (10, 5), 2: (2, 1)}


class Board:
    """Lots in board-file order: ids, shapes, sides and neighbours (by lot index)."""

    def __init__(self) -> None:
        data = yaml.safe_load(BOARD.read_text(encoding="utf-8"))
        nodes = data["nodes"]
        index = {n["id"]: i for i, n in enumerate(nodes)}
        self.ids = [n["id"] for n in nodes]
        self.shape = [n["shape"] for n in nodes]
        self.side = [n["side"] for n in nodes]
        neighbours: list[set[int]] = [set() for _ in nodes]
        for a, b in data["edges"]:
            neighbours[index[a]].add(index[b])
            neighbours[index[b]].add(index[a])
        self.neighbours = [tuple(sorted(n)) for n in neighbours]


class Game:
    """One game of Downtown between random bots."""

    def __init__(self, board: Board, seats: int, seed: int):
        self.board = board
        self.n = seats
        self.rng = seed_state(seed)
        self.bots = [seed_state(seed * 7919 + s * 104729 + 1) for s in range(seats)]
        self.decisions = 0
        self.money = [30] * seats
        self.markers = [15] * seats
        self.lobby = [True] * seats
        self.mayor = 0
        self.round = 0
        lots = len(board.ids)
        self.plaque: list[str | None] = [None] * lots
        self.lot_markers: list[list[int]] = [[] for _ in range(lots)]
        self.paid = [False] * lots
        self.piles: dict[str, list[int]] = {"west": [], "east": []}
        self.supply = {"park": {"square": 3, "rect": 3}, "housing": {"square": 4, "rect": 4},
                       "industry": {"square": 4, "rect": 4}, "commerce": {"square": 4, "rect": 4}}

    def pick(self, seat: int, options: list[object]) -> object:
        """A bot's answer: a single option is taken; otherwise a seeded uniform pick."""
        if len(options) == 1:
            return options[0]
        bits = next_u64(self.bots[seat] ^ (self.decisions * 0x2545F4914F6CDD1D & _MASK))[1]
        self.decisions += 1
        return options[bits % len(options)]

    def play(self) -> list[int]:
        """Play to the end; the winners."""
        self.setup()
        while True:
            self.round += 1
            revealed = self.planning()
            for lot in revealed:
                self.vote(lot)
            last_round = all(p is not None for p in self.plaque)
            self.buying()
            self.payout()
            if last_round:
                best = max(self.money)
                return [s for s in range(self.n) if self.money[s] == best]
            self.mayor = (self.mayor + 1) % self.n

    def setup(self) -> None:
        for side in SIDES:
            pile = [lot for lot in range(len(self.board.ids)) if self.board.side[lot] == side]
            self.rng = shuffle(self.rng, pile)
            self.piles[side] = pile
        starters = []
        for side in SIDES:
            for _ in range(SETUP_CARDS_PER_SIDE):
                starters.append(self.piles[side].pop(0))
        self.rng = shuffle(self.rng, starters)
        for lot, kind in zip(starters, SETUP_KINDS):
            self.place(lot, kind)

    def place(self, lot: int, kind: str) -> None:
        self.plaque[lot] = kind
        self.supply[kind][self.board.shape[lot]] -= 1

    def planning(self) -> list[int]:
        open_sides = [side for side in SIDES if self.piles[side]]
        if not open_sides:
            return []
        side = self.pick(self.mayor, open_sides)
        first = self.piles[side].pop(0)
        revealed = [first]
        other = self.piles[OTHER_SIDE[side]]  # type: ignore[index]
        if self.board.ids[first] % 2 == 1 and other:
            revealed.append(other.pop(0))
        return revealed

    def vote(self, lot: int) -> None:
        shape = self.board.shape[lot]
        open_kinds = [k for k in VOTABLE if self.supply[k][shape] > 0]
        kind = [self.pick(s, open_kinds) for s in range(self.n)]
        boosted = [False] * self.n
        for s in self.turn_order():
            if self.lobby[s] and self.pick(s, [False, True]):
                self.lobby[s] = False
                boosted[s] = True
        votes = {k: 0 for k in open_kinds}
        for s in range(self.n):
            votes[kind[s]] += LOBBY_WEIGHT if boosted[s] else 1  # type: ignore[index]
        best = max(votes.values())
        tied = [k for k in open_kinds if votes[k] == best]
        winner = tied[0]
        if len(tied) > 1:
            winner = kind[self.mayor] if kind[self.mayor] in tied else self.pick(self.mayor, tied)  # type: ignore[assignment]
        self.place(lot, winner)

    def turn_order(self) -> list[int]:
        return list(range(self.mayor, self.n)) + list(range(self.mayor))

    def price(self, lot: int, parcels: int) -> int:
        return (PRICE_WITH_PLAQUE if self.plaque[lot] is not None else PRICE_BARE)[parcels]

    def buying(self) -> None:
        most = MAX_PARCELS[self.n]
        lots = range(len(self.board.ids))
        targets = []
        for s in range(self.n):
            money, markers = self.money[s], self.markers[s]
            options = [lot for lot in lots if not self.paid[lot] and (
                self.plaque[lot] == "park" or (self.price(lot, 1) <= money and markers > 0))]
            targets.append(self.pick(s, options))
        parcels = [0] * self.n
        for s in range(self.n):
            target = targets[s]
            if self.plaque[target] != "park":  # type: ignore[index]
                parcels[s] = self.pick(s, [n for n in range(1, most + 1)  # type: ignore[assignment]
                                           if self.price(target, n) <= self.money[s] and n <= self.markers[s]])  # type: ignore[arg-type]
        for s in range(self.n):
            if parcels[s]:
                self.money[s] -= self.price(targets[s], parcels[s])  # type: ignore[arg-type]
        left = parcels
        while any(left):
            for s in self.turn_order():
                if left[s] > 0:
                    markers = self.lot_markers[targets[s]]  # type: ignore[index]
                    if len(markers) < PARCELS_PER_LOT:
                        markers.append(s)
                        self.markers[s] -= 1
                        left[s] -= 1
                    else:
                        left[s] = 0

    def well_placed(self, lot: int) -> bool:
        neighbour, low, high = WELL_PLACED_RULE[self.plaque[lot]]  # type: ignore[index]
        n = sum(1 for m in self.board.neighbours[lot] if self.plaque[m] == neighbour)
        return low <= n <= high

    def payout(self) -> None:
        for lot in range(len(self.board.ids)):
            markers = self.lot_markers[lot]
            if self.plaque[lot] in (None, "park") or self.paid[lot] or len(markers) != PARCELS_PER_LOT:
                continue
            well = self.well_placed(lot)
            built = sum(1 for m in self.board.neighbours[lot] if self.plaque[m] is not None)
            value = built * (VALUE_WELL if well else VALUE_POOR)
            owners = list(dict.fromkeys(markers))
            extra = BONUS[len(owners)][0 if well else 1] if len(owners) in BONUS else 0
            for s in owners:
                mine = markers.count(s)
                self.money[s] += value * mine + extra
                self.markers[s] += mine
            self.lot_markers[lot] = []
            self.paid[lot] = True


def play(board: Board, seats: int, seed: int) -> tuple[Game, list[int]]:
    """One finished game and its winners."""
    game = Game(board, seats, seed)
    return game, game.play()
