"""A scripted Downtown player: how a decent person plays, written from the rulebook.

It sees what its seat sees (the view) and reads the board as printed (games/downtown/board.yaml:
the lots, their shapes and which lots share a side). What it does, rule by rule of the rulebook:

- **Planning** (the mayor picks a pile): the side where it has the most parcels on lots still
  waiting for a plaque, so that they get built on.
- **Vote**: the kind that makes its parcels worth most. A parcel pays the number of built
  neighbours, doubled when its lot is well placed (housing: no industry beside it; industry: a
  commerce beside it; commerce: two housing beside it), so it weighs, for the lot voted on and for
  each built neighbour it has parcels on, what each kind does to that lot's value; for the voted lot
  it also counts the parcels it may still buy there.
- **Lobby**: played once, when much rides on a vote (its parcels on that lot or its neighbours), or
  in the last rounds when anything does (an unused token is worth nothing at the end).
- **Buying**: the lot and count with the best expected return: each parcel is worth the lot's value
  per parcel (built neighbours, doubled if well placed; a guess for a lot without plaque), plus the
  bonus if it will be alone or with one other on the lot; the price is paid whatever is placed, a
  lot that fills this round pays now, one that does not is discounted (it may never fill: lots not
  full at the end pay nothing), and in the last round only a lot that it can fill is worth buying.
  When nothing pays for itself it picks a park lot (no purchase).
- **Tie on a vote** (as mayor): the kind it voted for, else the one it scores best.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import yaml

BOARD = Path(__file__).resolve().parents[2] / "games" / "downtown" / "board.yaml"
KINDS = ("housing", "industry", "commerce")
# Prices of 1, 2, 3 parcels on a lot with and without a plaque (the KOSTEN card).
PRICE_BUILT = {1: 3, 2: 7, 3: 12}
PRICE_EMPTY = {1: 2, 2: 5, 3: 9}
LOT = re.compile(r"\blot (\d+)", re.IGNORECASE)


class Board:
    """The printed board: each lot's shape and side, and which lots share a side."""

    def __init__(self, path: Path = BOARD) -> None:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        self.ids: list[int] = [int(n["id"]) for n in data["nodes"]]
        self.index = {lot: i for i, lot in enumerate(self.ids)}
        self.side = [str(n["side"]) for n in data["nodes"]]
        self.shape = [str(n["shape"]) for n in data["nodes"]]
        self.neighbours: list[list[int]] = [[] for _ in self.ids]
        for a, b in data["edges"]:
            i, j = self.index[int(a)], self.index[int(b)]
            self.neighbours[i].append(j)
            self.neighbours[j].append(i)


def well_placed(kind: str | None, around: list[str | None]) -> bool:
    """The rulebook's efficiency: housing without industry beside it, industry beside a commerce,
    commerce beside two housing; parks never."""
    if kind == "housing":
        return "industry" not in around
    if kind == "industry":
        return "commerce" in around
    if kind == "commerce":
        return around.count("housing") >= 2
    return False


class Planner:
    """A decent Downtown player (see the module's docstring)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.board = Board()
        self.voted: dict[int, str] = {}      # lot -> the kind it voted for
        self.stakes: dict[int, float] = {}   # lot -> how much its vote there matters to it
        self.planned_count = 1               # parcels it meant to buy when it chose a lot

    # ------------------------------------------------------------------ reading the view
    def choose(self, view: dict[str, Any], options: list[tuple[str, str]]) -> int:
        """The index of its answer among `options`."""
        family = options[0][0].split(":", 1)[0]
        prompt = str((view.get("pending") or {}).get("prompt", ""))
        handler = {"side": self._side, "kind": self._vote, "use_lobby": self._lobby, "target": self._target,
                   "parcels": self._parcels, "tie_break": self._tie}.get(family)
        if handler is None:
            return self.rng.randrange(len(options))
        return handler(view, options, prompt)

    def _lot_in(self, prompt: str) -> int | None:
        found = LOT.search(prompt)
        return self.board.index.get(int(found.group(1))) if found else None

    @staticmethod
    def _plaques(view: dict[str, Any]) -> list[str | None]:
        return [p if isinstance(p, str) and p in (*KINDS, "park") else None for p in view["node"]["plaque"]]

    @staticmethod
    def _mine(view: dict[str, Any], lot: int) -> int:
        return sum(1 for owner in view["node"]["markers"][lot] if owner == view["seat"])

    def value_per_parcel(self, lot: int, plaques: list[str | None]) -> int:
        """What one parcel on the lot pays, the board as it is: built neighbours, doubled if well placed."""
        around = [plaques[n] for n in self.board.neighbours[lot]]
        base = sum(1 for p in around if p is not None)
        return base * (2 if well_placed(plaques[lot], around) else 1)

    # ------------------------------------------------------------------ planning
    def _side(self, view: dict[str, Any], options: list[tuple[str, str]], prompt: str) -> int:
        plaques = self._plaques(view)
        weight: dict[str, float] = {}
        for lot in range(len(plaques)):
            if plaques[lot] is None:
                side = self.board.side[lot]
                weight[side] = weight.get(side, 0.0) + self._mine(view, lot) + 0.01
        scores = [weight.get(label, 0.0) for _, label in options]
        best = max(scores)
        return self.rng.choice([k for k, s in enumerate(scores) if s == best])

    # ------------------------------------------------------------------ vote and lobby
    def kind_scores(self, view: dict[str, Any], lot: int, kinds: list[str]) -> dict[str, float]:
        """How much each kind on `lot` is worth to this seat: its parcels' values after the vote."""
        plaques = self._plaques(view)
        paid = view["node"]["paid"]
        markers = view["node"]["markers"]
        scores: dict[str, float] = {}
        for kind in kinds:
            board = list(plaques)
            board[lot] = kind
            total = 0.0
            for x in [lot, *self.board.neighbours[lot]]:
                if board[x] in (None, "park") or paid[x]:
                    continue
                mine = self._mine(view, x)
                weight = float(mine)
                if x == lot:
                    weight += 0.5 * max(0, 4 - len(markers[x]))  # parcels it may still buy there
                total += weight * self.value_per_parcel(x, board)
            scores[kind] = total
        return scores

    def _vote(self, view: dict[str, Any], options: list[tuple[str, str]], prompt: str) -> int:
        lot = self._lot_in(prompt)
        kinds = [option_id.split(":", 1)[1] for option_id, _ in options]
        if lot is None:
            return self.rng.randrange(len(options))
        scores = self.kind_scores(view, lot, kinds)
        best = max(scores.values())
        pick = self.rng.choice([k for k, kind in enumerate(kinds) if scores[kind] == best])
        others = [s for kind, s in scores.items() if kind != kinds[pick]]
        self.voted[self.board.ids[lot]] = kinds[pick]
        self.stakes[self.board.ids[lot]] = best - (sum(others) / len(others) if others else best)
        return pick

    def _lobby(self, view: dict[str, Any], options: list[tuple[str, str]], prompt: str) -> int:
        lot = self._lot_in(prompt)
        stake = self.stakes.get(self.board.ids[lot], 0.0) if lot is not None else 0.0
        unbuilt = sum(1 for p in self._plaques(view) if p is None)
        use = stake >= 8 or (unbuilt <= 4 and stake > 0) or (unbuilt <= 1)
        wanted = "use_lobby:yes" if use else "use_lobby:no"
        ids = [option_id for option_id, _ in options]
        return ids.index(wanted) if wanted in ids else 0

    def _tie(self, view: dict[str, Any], options: list[tuple[str, str]], prompt: str) -> int:
        lot = self._lot_in(prompt)
        kinds = [option_id.split(":", 1)[1] for option_id, _ in options]
        if lot is not None and self.voted.get(self.board.ids[lot]) in kinds:
            return kinds.index(self.voted[self.board.ids[lot]])
        if lot is None:
            return 0
        scores = self.kind_scores(view, lot, kinds)
        return max(range(len(kinds)), key=lambda k: scores[kinds[k]])

    # ------------------------------------------------------------------ buying
    def offers(self, view: dict[str, Any], lot: int) -> list[tuple[float, int]]:
        """(expected gain, count) for each count of parcels it could buy on the lot."""
        me = view["seat"]
        players = len(view["names"])
        plaques = self._plaques(view)
        placed = view["node"]["markers"][lot]
        free = 4 - len(placed)
        money = view["seats"]["money"][me]
        supply = view["seats"]["markers"][me]
        most = 3 if players <= 4 else 2
        built = plaques[lot] is not None
        prices = PRICE_BUILT if built else PRICE_EMPTY
        unbuilt = sum(1 for p in plaques if p is None)
        last_round = unbuilt == 0
        mine = sum(1 for o in placed if o == me)
        owners = set(placed)
        if built:
            value = float(self.value_per_parcel(lot, plaques))
            well = well_placed(plaques[lot], [plaques[n] for n in self.board.neighbours[lot]])
            # Unbuilt neighbours may still be built before the lot pays.
            value += 0.4 * sum(1 for n in self.board.neighbours[lot] if plaques[n] is None) * (2 if well else 1)
        else:
            around = [plaques[n] for n in self.board.neighbours[lot]]
            base = sum(1 for p in around if p is not None)
            value = 1.4 * (base + 0.4 * around.count(None))  # its kind is yet to be voted: halfway to doubled
            well = True
        found: list[tuple[float, int]] = []
        for count in range(1, most + 1):
            if count > free or count > supply or prices[count] > money:
                break
            fills = len(placed) + count == 4
            if last_round and not fills:
                continue
            # Others may choose the lot too: the fewer free places, the likelier some are lost.
            placing = 1.0 if free - count >= 2 else 0.8
            alone = owners <= {me}
            bonus = 0.0
            if fills and alone:
                bonus = 10.0 if well else 5.0
            elif fills and len(owners - {me}) == 1:
                bonus = 2.0 if well else 1.0
            if fills and built:
                gain = placing * ((mine + count) * value + bonus) - 0.5 * mine * value
            else:
                # Not full after this round: it pays only if it fills later, less likely as the lots run out.
                later = min(1.0, unbuilt / 8) * (0.85 if built else 0.7)
                gain = placing * later * (count * value + (bonus or (3.0 if alone else 0.0)))
            found.append((gain - prices[count], count))
        return found

    def _target(self, view: dict[str, Any], options: list[tuple[str, str]], prompt: str) -> int:
        plaques = self._plaques(view)
        best: tuple[float, int, int] | None = None   # (gain, count, option index)
        passes: list[int] = []
        for k, (option_id, _) in enumerate(options):
            lot = self.board.index.get(int(option_id.split(":", 1)[1]))
            if lot is None:
                continue
            if plaques[lot] == "park":
                passes.append(k)
                continue
            for gain, count in self.offers(view, lot):
                key = (gain, count, k)
                if best is None or (gain, -count) > (best[0], -best[1]) or \
                        (gain == best[0] and count == best[1] and self.rng.random() < 0.5):
                    best = key
        if best is not None and (best[0] > 0 or not passes):
            self.planned_count = best[1]
            return best[2]
        self.planned_count = 1
        return self.rng.choice(passes) if passes else self.rng.randrange(len(options))

    def _parcels(self, view: dict[str, Any], options: list[tuple[str, str]], prompt: str) -> int:
        counts = [int(option_id.split(":", 1)[1]) for option_id, _ in options]
        fitting = [k for k, c in enumerate(counts) if c <= self.planned_count]
        return max(fitting, key=lambda k: counts[k]) if fitting else min(range(len(counts)), key=lambda k: counts[k])
