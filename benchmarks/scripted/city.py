"""A scripted City player: plays as a decent person does, from the rulebook, for benchmarks.

It sees only what its seat may see (the `view`, which in City is everything) and the game's
board and tables, and judges every choice with a few rules of thumb:

- a shop is worth what stops in front of it: cells that many moves end on (next to the crossings)
  and, for a department store, every piece that stays in front of it, since it buys again at the
  end of each of its owner's turns;
- the move that counts is the one that puts the black and blue customers in front of your own
  shops (above all your department stores) and the thief in front of somebody else's, never in
  front of yours; a customer standing at your store is left there, a thief standing at it is moved;
- the "1-3" face is used for whichever of the three counts gives the best move;
- shops are bought early, department stores first when there are points enough, and only while
  the game has long enough to run for them to pay back; near the finish points are kept, since
  the first to reach the target wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from interpreter.load.loader import load_game

Options = list[tuple[str, str]]
View = dict[str, Any]
Way = tuple[int, str]  # a street cell (node index) and a heading

OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


@dataclass(frozen=True)
class Board:
    """City's street plan, shops and tables, by node index as the view gives them."""

    ids: tuple[str, ...]
    index: dict[str, int]
    exits: dict[int, tuple[Way, ...]]      # street cell -> (next cell, direction of travel)
    crossing: frozenset[int]
    colour: dict[int, str]
    shop_at: dict[int, int]                # street cell -> the shop in front of it
    front: dict[int, int]                  # shop -> its street cell
    store: frozenset[int]                  # shops that are department stores
    beside: dict[int, tuple[int, ...]]
    value: dict[str, int]                  # points per token of each piece
    faces: tuple[tuple[int, ...], ...]
    buy_price: dict[str, int]
    expand_price: dict[str, int]
    max_tokens: int
    target: int
    traffic: dict[int, float]              # share of all moves that end on each street cell

    def stops(self, cell: int, heading: str, steps: int) -> list[Way]:
        """Where a piece on `cell` facing `heading` may stop after exactly `steps` cells, and its facing."""
        ways = [w for w in self.exits[cell] if w[1] == heading] or self.turns(cell, heading)
        for _ in range(steps - 1):
            ways = list(dict.fromkeys(w for here in ways for w in self.turns(*here)))
        result: list[Way] = []
        for here, h in ways:
            # Stopping on a crossing, the mover turns the piece any way but back.
            facings = [w[1] for w in self.turns(here, h)] if here in self.crossing else [h]
            result += [(here, f) for f in facings if (here, f) not in result]
        return result

    def turns(self, cell: int, heading: str) -> list[Way]:
        """The ways on from `cell` for a piece heading `heading`: any but back."""
        return [w for w in self.exits[cell] if w[1] != OPPOSITE[heading]]

    def kind(self, shop: int) -> str:
        """The price-table key of a shop: "store" or "small"."""
        return "store" if shop in self.store else "small"


@lru_cache(maxsize=1)
def board() -> Board:
    """The board and tables of the shipped game, read once."""
    game = load_game("city")
    graph = game.graph
    ids = tuple(str(n) for n in game.node_ids)
    index = {n: i for i, n in enumerate(ids)}
    attrs = {index[str(n)]: d for n, d in graph.nodes(data=True)}
    exits: dict[int, list[Way]] = {i: [] for i, a in attrs.items() if a.get("kind") == "street"}
    shop_at: dict[int, int] = {}
    beside: dict[int, list[int]] = {i: [] for i, a in attrs.items() if a.get("kind") == "shop"}
    for a, b, d in graph.edges(data=True):
        ia, ib = index[str(a)], index[str(b)]
        if d.get("kind") == "street":
            exits[ia].append((ib, str(d["dir"])))
        elif d.get("kind") == "front":
            shop_at[ia] = ib
        elif d.get("kind") == "beside":
            beside[ia].append(ib)
    t: dict[str, Any] = {name: value for name, (_, value) in game.world.tables.items()}
    b = Board(
        ids, index, {k: tuple(v) for k, v in exits.items()},
        frozenset(i for i, a in attrs.items() if a.get("crossing")),
        {i: str(a.get("colour", "")) for i, a in attrs.items()},
        shop_at, {s: c for c, s in shop_at.items()},
        frozenset(i for i, a in attrs.items() if a.get("kind") == "shop" and a.get("store")),
        {k: tuple(v) for k, v in beside.items()},
        dict(t["value"]), tuple(tuple(f) for f in t["die"]), dict(t["buy_price"]), dict(t["expand_price"]),
        int(t["max_tokens_per_shop"]), int(t["target_score"]), {})
    b.traffic.update(_traffic(b))
    return b


def _traffic(b: Board) -> dict[int, float]:
    """How often a move ends on each street cell, if pieces wandered at random (power iteration)."""
    states = [(c, h) for c in b.exits for h in OPPOSITE]
    share = {s: 1 / len(states) for s in states}
    for _ in range(60):
        nxt = {s: 0.0 for s in states}
        for s, p in share.items():
            if p == 0:
                continue
            for face in b.faces:
                ends = [w for steps in face for w in b.stops(s[0], s[1], steps)]
                for w in ends:
                    nxt[w] += p / len(b.faces) / len(ends) if ends else 0.0
                if not ends:
                    nxt[s] += p / len(b.faces)
        share = nxt
    cells = {c: 0.0 for c in b.exits}
    for (c, _), p in share.items():
        cells[c] += p
    return cells


class Table:
    """The position as the deciding seat sees it."""

    def __init__(self, view: View):
        self.b = board()
        self.me: int = view["seat"]
        self.n = len(view["names"])
        self.score: list[int] = list(view["seats"]["score"])
        self.tokens_left: list[int] = list(view["seats"]["tokens"])
        g = view["global"]
        self.at: dict[str, int | None] = dict(g["at"])
        self.facing: dict[str, str | None] = dict(g["facing"])
        self.has_moved: dict[str, bool] = dict(g["has_moved"])
        self.round: int = g["round"]
        self.owner: list[int | None] = list(view["node"]["owner"])
        self.tokens: list[int] = list(view["node"]["tokens"])
        self.prompt = str((view.get("pending") or {}).get("prompt", ""))
        leader = max(self.score)
        # Moves left in the game, roughly: the leader gains about half a point per move of the table.
        self.moves_left = max(0.0, (self.b.target - leader) * 1.8)

    def shop_of(self, cell: int | None) -> int | None:
        """The shop in front of a street cell, if any."""
        return None if cell is None else self.b.shop_at.get(cell)

    def weight(self, seat: int) -> float:
        """How much an opponent's point counts against us: more for the leader, most near the finish."""
        if seat == self.me:
            return -1.0
        others = [self.score[s] for s in range(self.n) if s != self.me]
        w = 0.35 + (0.35 if self.score[seat] == max(others) else 0.0)
        if self.score[seat] >= self.b.target - 10:
            w += 0.5
        return w

    def gain(self, seat: int, points: int) -> float:
        """What `points` more for `seat` is worth to us (negative for an opponent)."""
        if seat == self.me:
            if self.score[seat] + points >= self.b.target:
                return 1000.0
            return float(points)
        if points > 0 and self.score[seat] + points >= self.b.target:
            return -1000.0
        return -self.weight(seat) * points

    def visit(self, piece: str, cell: int | None) -> tuple[int | None, int]:
        """Who a piece's stop on `cell` pays (or robs) and how much: (seat, points)."""
        shop = self.shop_of(cell)
        if shop is None or self.owner[shop] is None:
            return None, 0
        owner = self.owner[shop]
        points = self.b.value[piece] * self.tokens[shop]
        if points < 0:
            points = -min(-points, self.score[owner or 0])
        return owner, points

    def free(self, cell: int, moving: str) -> bool:
        """Whether `cell` is free for the piece `moving` to stop on."""
        return all(c != cell for p, c in self.at.items() if p != moving)


class CityPlayer:
    """Scripted City player: `choose(view, options)` gives the index of the chosen option."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: View, options: Options) -> int:
        """The index in `options` of this seat's choice, from what the seat sees."""
        if len(options) == 1:
            return 0
        t = Table(view)
        kind = options[0][0].split(":", 1)[0]
        decide = getattr(self, "_" + kind, None)
        if decide is None:
            return self.rng.randrange(len(options))
        scores = [float(decide(t, oid.split(":")[1:])) for oid, _ in options]
        return max(range(len(options)), key=lambda k: (scores[k], -k))

    # ------------------------------------------------------------ moving
    def _move(self, t: Table, parts: list[str]) -> float:
        piece, cell, facing = parts[0], t.b.index[parts[1]], parts[2]
        value = 0.0
        seat, points = t.visit(piece, cell)
        if seat is not None:
            value += t.gain(seat, points)
        # Our department stores make every piece we did not move act again now.
        moved_from = t.at[piece]
        for other, where in t.at.items():
            if other == piece or where is None:
                continue
            shop = t.shop_of(where)
            if shop in t.b.store and t.owner[shop] == t.me and (t.round > 1 or t.has_moved[other]):
                _, pts = t.visit(other, where)
                value += t.gain(t.me, pts) if pts >= 0 else pts
        value += self._standing(t, piece, cell) - self._standing(t, piece, moved_from)
        value += self._threat(t, piece, cell, facing) - self._threat(t, piece, moved_from, t.facing[piece])
        return value

    def _standing(self, t: Table, piece: str, cell: int | None) -> float:
        """What a piece left standing on `cell` is worth to us: at a store it acts again every turn of its owner."""
        shop = t.shop_of(cell)
        if shop is None or shop not in t.b.store or t.owner[shop] is None:
            return 0.0
        owner = t.owner[shop]
        points = t.b.value[piece] * t.tokens[shop]
        # The owner keeps a customer there and moves a thief away, if the others leave it.
        stays = 0.7 if points > 0 else 0.5
        if owner == t.me:
            return stays * points
        return -stays * t.weight(owner or 0) * points

    def _threat(self, t: Table, piece: str, cell: int | None, facing: str | None) -> float:
        """Where the next movers may take this piece: a thief near our shops, a customer near theirs."""
        if cell is None or facing is None:
            return 0.0
        value = 0.0
        for face in t.b.faces:
            stops = [w for steps in face for w in t.b.stops(cell, facing, steps) if t.free(w[0], piece)]
            if not stops:
                continue
            worst = 0.0
            for stop, _ in stops:
                seat, points = t.visit(piece, stop)
                if seat == t.me and points < 0:
                    worst = min(worst, float(points))
                elif seat is not None and seat != t.me and points > 0:
                    worst = min(worst, -t.weight(seat) * points)
            value += worst / len(t.b.faces)
        return 0.5 * value

    # ------------------------------------------------------------ buying
    def _action(self, t: Table, parts: list[str]) -> float:
        if parts[0] == "done":
            return 0.0
        shop = t.b.index[parts[1]]
        kind = t.b.kind(shop)
        price = (t.b.buy_price if parts[0] == "buy" else t.b.expand_price)[kind]
        if t.score[t.me] >= t.b.target - 8:
            return -1.0  # near the finish every point counts towards it
        return self._earning(t, shop) - price

    def _earning(self, t: Table, shop: int) -> float:
        """What one more token on `shop` should earn before the game ends."""
        cell = t.b.front[shop]
        # Moves end in front of a shop at about its share of traffic, and more often when we move.
        per_move = t.b.traffic[cell] * 2.5
        if shop in t.b.store:
            per_move *= 1.8
        value = per_move * t.moves_left
        for piece, where in t.at.items():
            if where == cell and shop in t.b.store:
                value += 0.6 * t.b.value[piece]
        return value

    def _sold(self, t: Table, parts: list[str]) -> float:
        shop = t.b.index[parts[0]]
        return -self._earning(t, shop) * t.tokens[shop]

    # ------------------------------------------------------------ setup
    def _piece(self, t: Table, parts: list[str]) -> float:
        # The best customers go down first, on the cells in front of the department stores.
        return float(t.b.value[parts[0]])

    def _spot(self, t: Table, parts: list[str]) -> float:
        cell = t.b.index[parts[0]]
        # The prompt names the piece being placed ("Place the black piece: ...").
        words = t.prompt.split()
        piece = words[2] if len(words) > 2 and words[2] in t.b.value else "thief"
        shop = t.shop_of(cell)
        store = shop in t.b.store
        if t.b.value.get(piece, 0) < 0:
            return -t.b.traffic[cell] - (1.0 if store else 0.0)
        return t.b.traffic[cell] + (1.0 if store else 0.0)

    # The placement is asked as a cell, then a way to face (the facing matters less than the cell).
    _cell = _spot

    def _shop(self, t: Table, parts: list[str]) -> float:
        shop = t.b.index[parts[0]]
        cell = t.b.front[shop]
        value = t.b.traffic[cell] * 40 * (1.8 if shop in t.b.store else 1.0)
        for piece, where in t.at.items():
            if where == cell:
                value += t.b.value[piece] * (1.5 if shop in t.b.store else 0.3)
        # Shops side by side: a stronger position (and a chain in the advanced rules).
        value += 0.5 * sum(1 for o in t.b.beside.get(shop, ()) if t.owner[o] == t.me)
        return value
