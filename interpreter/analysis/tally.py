"""What one game tells (GameRecord) and the running totals over many (Tally), mergeable exactly.

A batch is split into slices of seeds; each slice is tallied where it is played and the tallies
are merged in seed order. Counts and sums of whole numbers merge exactly; the slicing depends on
the batch's size only, never on the number of workers, so `--jobs 1`, `--jobs N` and Ray add the
same numbers in the same order and print the same figures, byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .restrict import matches

# Per-game values kept in seed order when asked (compare pairs game i of A with game i of B).
UNFINISHED_SHOWN = 20
# Options per decision is kept in millionths, a whole number, so that its sums merge exactly.
BRANCHING_SCALE = 10**6


@dataclass
class GameRecord:
    """One played game, reduced to the numbers the figures need."""

    seed: int
    bots: tuple[str, ...]
    finished: bool
    winners: tuple[int, ...]
    scores: list[int]
    rounds: int | None
    decisions: int
    options: int                               # legal options summed over the decisions (branching)
    lead_changes: int | None                   # None: the game declares no rounds field
    lead_change_rounds: list[int]
    chosen: list[Counter[str]]                 # per seat: option id -> times chosen
    flows: dict[tuple[str, str], tuple[list[int], list[int]]]   # (field, phase) -> (paid, gained) per seat
    forced: int = 0                            # decisions where a restriction left no option
    starter: int = 0                           # the seat that starts (see batch.starting_seat)


class LeadWatch:
    """Who leads on the score field, looked at once per round (and at the end)."""

    def __init__(self, score_field: str | None, rounds_field: str | None):
        self.score_field = score_field
        self.rounds_field = rounds_field
        self.last_round: Any = None
        self.leader: int | None = None
        self.changes = 0
        self.change_rounds: list[int] = []

    def at_decision(self, state: dict[str, Any]) -> None:
        """Called before each decision: a new round's first decision looks at the scores."""
        if self.rounds_field is None or self.score_field is None:
            return
        r = state["global"][self.rounds_field]
        if r != self.last_round:
            self.last_round = r
            self._look(state["seat"][self.score_field], r)

    def at_end(self, state: dict[str, Any]) -> None:
        """The final scores count as a last look (final scoring may change the lead)."""
        if self.rounds_field is None or self.score_field is None:
            return
        self._look(state["seat"][self.score_field], state["global"][self.rounds_field])

    def _look(self, scores: list[Any], round_no: Any) -> None:
        best = max(scores)
        top = [i for i, s in enumerate(scores) if s == best]
        if len(top) != 1:
            return  # a shared lead changes nothing: the lead changes when a new seat leads alone
        if self.leader is not None and top[0] != self.leader:
            self.changes += 1
            self.change_rounds.append(int(round_no) if isinstance(round_no, int) else 0)
        self.leader = top[0]


def _moments() -> list[float]:
    return [0, 0, 0]


def _add(m: list[float], x: float) -> None:
    m[0] += 1
    m[1] += x
    m[2] += x * x


def _merge_moments(a: list[float], b: list[float]) -> None:
    a[0] += b[0]
    a[1] += b[1]
    a[2] += b[2]


def margin_of(record: GameRecord) -> int | None:
    """The winner's lead over the best other seat (0 when every seat shares the win)."""
    if not record.winners:
        return None
    best = max(record.scores[w] for w in record.winners)
    others = [s for i, s in enumerate(record.scores) if i not in record.winners]
    return best - max(others) if others else 0


def option_keys(option_id: str) -> list[str]:
    """The id and each family it belongs to: `action:buy:shop-3` -> `action:*`, `action:buy:*`, the id."""
    parts = option_id.split(":")
    return [":".join(parts[:i]) + ":*" for i in range(1, len(parts))] + [option_id]


@dataclass
class Tally:
    """Totals over any number of games of one batch (one game's seats and bots)."""

    seats: int
    games: int = 0
    finished: int = 0
    unfinished_seeds: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    winners_per_game: Counter[int] = field(default_factory=Counter)
    scores: list[list[float]] = field(default_factory=list)          # per seat: n, sum, squares
    score_hist: list[Counter[int]] = field(default_factory=list)
    margin: list[float] = field(default_factory=_moments)
    margin_hist: Counter[int] = field(default_factory=Counter)
    first_seat: list[float] = field(default_factory=_moments)       # (k-1)*wins of the starter - the others'
    starters: Counter[int] = field(default_factory=Counter)         # seat -> games it started
    rounds: list[float] = field(default_factory=_moments)
    rounds_hist: Counter[int] = field(default_factory=Counter)
    decisions: list[float] = field(default_factory=_moments)
    decisions_hist: Counter[int] = field(default_factory=Counter)
    options_total: int = 0
    branching: list[float] = field(default_factory=_moments)        # per game: options per decision (scaled)
    lead: list[float] = field(default_factory=_moments)
    lead_hist: Counter[int] = field(default_factory=Counter)
    lead_by_round: Counter[int] = field(default_factory=Counter)
    rounds_reached: Counter[int] = field(default_factory=Counter)
    # option key -> [times chosen, seat-games that chose it, wins among those seat-games]
    options: dict[str, list[int]] = field(default_factory=dict)
    # (field, phase) -> per seat: [paid sum, paid squares, gained sum, gained squares] over games
    economy: dict[tuple[str, str], list[list[int]]] = field(default_factory=dict)
    # bot name -> [seat-games, wins]
    bots: dict[str, list[int]] = field(default_factory=dict)
    forced: int = 0
    forced_games: int = 0
    per_game: dict[str, list[float]] | None = None
    # --option PATTERN: glob pattern -> [times chosen, seat-games that chose a match, wins among those]
    patterns: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.seats
            self.scores = [_moments() for _ in range(self.seats)]
            self.score_hist = [Counter() for _ in range(self.seats)]

    def count_patterns(self, patterns: tuple[str, ...]) -> None:
        """Also count the options whose id matches each of these glob patterns."""
        self.patterns = {p: [0, 0, 0] for p in patterns}

    def keep_games(self) -> None:
        """Also keep each game's values in seed order (for paired comparisons)."""
        self.per_game = {}

    # ---------------------------------------------------------------- adding
    def add(self, r: GameRecord) -> None:
        """Count one game."""
        k = self.seats
        self.games += 1
        won = [1 if s in r.winners else 0 for s in range(k)]
        if r.finished:
            self.finished += 1
            self.winners_per_game[len(r.winners)] += 1
        elif len(self.unfinished_seeds) < UNFINISHED_SHOWN:
            self.unfinished_seeds.append(r.seed)
        for s in range(k):
            self.wins[s] += won[s]
            _add(self.scores[s], r.scores[s])
            self.score_hist[s][r.scores[s]] += 1
        margin = margin_of(r)
        if margin is not None:
            _add(self.margin, margin)
            self.margin_hist[margin] += 1
        self.starters[r.starter] += 1
        first = (k - 1) * won[r.starter] - (sum(won) - won[r.starter]) if r.finished and k > 1 else None
        if first is not None:
            _add(self.first_seat, first)
        if r.rounds is not None:
            _add(self.rounds, r.rounds)
            self.rounds_hist[r.rounds] += 1
            for i in range(1, r.rounds + 1):
                self.rounds_reached[i] += 1
        _add(self.decisions, r.decisions)
        self.decisions_hist[r.decisions] += 1
        self.options_total += r.options
        if r.decisions:
            _add(self.branching, r.options * BRANCHING_SCALE // r.decisions)
        if r.lead_changes is not None:
            _add(self.lead, r.lead_changes)
            self.lead_hist[r.lead_changes] += 1
            for i in r.lead_change_rounds:
                self.lead_by_round[i] += 1
        self._add_options(r, won)
        self._add_economy(r)
        for s, name in enumerate(r.bots):
            b = self.bots.setdefault(name, [0, 0])
            b[0] += 1
            b[1] += won[s]
        if r.forced:
            self.forced += r.forced
            self.forced_games += 1
        if self.per_game is not None:
            for name, value in self._game_values(r, won, margin, first).items():
                self.per_game.setdefault(name, []).append(value)

    def _add_options(self, r: GameRecord, won: list[int]) -> None:
        options = self.options
        for s, chosen in enumerate(r.chosen):
            seen: set[str] = set()
            for oid, times in chosen.items():
                for key in option_keys(oid):
                    entry = options.get(key)
                    if entry is None:
                        entry = options[key] = [0, 0, 0]
                    entry[0] += times
                    if key not in seen:
                        seen.add(key)
                        entry[1] += 1
                        entry[2] += won[s]
            for pattern, counts in self.patterns.items():
                times = sum(t for oid, t in chosen.items() if matches(pattern, oid))
                if times:
                    counts[0] += times
                    counts[1] += 1
                    counts[2] += won[s]

    def _add_economy(self, r: GameRecord) -> None:
        for key, (paid, gained) in r.flows.items():
            rows = self.economy.get(key)
            if rows is None:
                rows = self.economy[key] = [[0, 0, 0, 0] for _ in range(self.seats)]
            for s in range(self.seats):
                row = rows[s]
                row[0] += paid[s]
                row[1] += paid[s] * paid[s]
                row[2] += gained[s]
                row[3] += gained[s] * gained[s]

    def _game_values(self, r: GameRecord, won: list[int], margin: int | None, first: int | None
                     ) -> dict[str, float]:
        """The per-game values a paired comparison uses; NaN where a game has none (unfinished...)."""
        nan = float("nan")
        out: dict[str, float] = {"seed": r.seed, "finished": 1 if r.finished else 0, "decisions": r.decisions}
        for s in range(self.seats):
            out[f"win:{s}"] = won[s]
            out[f"score:{s}"] = r.scores[s]
        out["shared"] = 1 if len(r.winners) > 1 else 0
        out["rounds"] = nan if r.rounds is None else r.rounds
        out["margin"] = nan if margin is None else margin
        out["first_seat"] = nan if first is None else first / (self.seats - 1)
        out["lead_changes"] = nan if r.lead_changes is None else r.lead_changes
        out["branching"] = r.options / r.decisions if r.decisions else nan
        return out

    # ---------------------------------------------------------------- merging
    def merge(self, other: "Tally") -> None:
        """Add another tally of later seeds of the same batch."""
        self.games += other.games
        self.finished += other.finished
        room = UNFINISHED_SHOWN - len(self.unfinished_seeds)
        self.unfinished_seeds.extend(other.unfinished_seeds[:max(0, room)])
        self.winners_per_game.update(other.winners_per_game)
        for s in range(self.seats):
            self.wins[s] += other.wins[s]
            _merge_moments(self.scores[s], other.scores[s])
            self.score_hist[s].update(other.score_hist[s])
        for name in ("margin", "first_seat", "rounds", "decisions", "branching", "lead"):
            _merge_moments(getattr(self, name), getattr(other, name))
        for name in ("margin_hist", "rounds_hist", "decisions_hist", "lead_hist", "lead_by_round", "rounds_reached"):
            getattr(self, name).update(getattr(other, name))
        self.options_total += other.options_total
        for key, entry in other.options.items():
            mine = self.options.setdefault(key, [0, 0, 0])
            for i in range(3):
                mine[i] += entry[i]
        for key2, rows in other.economy.items():
            mine_rows = self.economy.setdefault(key2, [[0, 0, 0, 0] for _ in range(self.seats)])
            for s in range(self.seats):
                for i in range(4):
                    mine_rows[s][i] += rows[s][i]
        for name, (games, wins) in other.bots.items():
            b = self.bots.setdefault(name, [0, 0])
            b[0] += games
            b[1] += wins
        self.forced += other.forced
        self.starters.update(other.starters)
        self.forced_games += other.forced_games
        for pattern, counts in other.patterns.items():
            mine_counts = self.patterns.setdefault(pattern, [0, 0, 0])
            for i in range(3):
                mine_counts[i] += counts[i]
        if self.per_game is not None and other.per_game is not None:
            for name, values in other.per_game.items():
                self.per_game.setdefault(name, []).extend(values)
