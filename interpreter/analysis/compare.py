"""Compare two batches played on the same seeds (common random numbers), metric by metric.

Game i of A and game i of B share a seed, so their shuffles start alike and their figures are
paired: every per-game metric's difference gets a paired t interval (valid whatever the
correlation, and narrower the more the pairing helps). "Significant" is decided with Holm's
correction over all the metrics of the comparison (family-wise error 5 %), so that comparing
two identical games does not turn up a 'significant' change one time in twenty per metric.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.game import Game
from ..core.state import default_names
from .parallel import BatchResult
from .statistics import Difference, holm, paired_difference

FAMILY_ALPHA = 0.05


@dataclass(frozen=True)
class Metric:
    """A per-game value the comparison measures: its key in the tallies and how it is shown."""

    key: str
    name: str
    percent: bool          # a rate, shown in points


def metrics_for(seats: int, score_a: str | None, score_b: str | None) -> list[Metric]:
    """The metrics compared, in the order they are shown."""
    names = default_names(seats)
    score = score_a if score_a == score_b else "score"
    out = [Metric(f"win:{s}", f"{names[s]}'s win rate", True) for s in range(seats)]
    out.append(Metric("first_seat", "first-seat advantage", True))
    out.append(Metric("shared", "shared-win rate", True))
    out += [Metric(f"score:{s}", f"{names[s]}'s final {score or 'score'}", False) for s in range(seats)]
    out += [Metric("margin", "winning margin", False), Metric("rounds", "rounds per game", False),
            Metric("decisions", "decisions per game", False), Metric("lead_changes", "lead changes per game", False),
            Metric("branching", "options per decision", False), Metric("finished", "finished-game rate", True)]
    return out


def _mean(values: list[float]) -> float | None:
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else None


def _paired(a: list[float], b: list[float]) -> Difference | None:
    pairs = [(x, y) for x, y in zip(a, b) if not (math.isnan(x) or math.isnan(y))]
    diffs = [y - x for x, y in pairs]
    return paired_difference(len(diffs), sum(diffs), sum(d * d for d in diffs))


def verdict(metric: Metric, diff: Difference | None, significant: bool) -> str:
    """The change in plain words: "Ana's win rate falls by 6.0 points, ±3.1"."""
    if diff is None:
        return f"{metric.name}: not measured"
    scale, unit = (100.0, " points") if metric.percent else (1.0, "")
    size = abs(diff.estimate) * scale
    half = (diff.interval[1] - diff.interval[0]) / 2 * scale
    if significant:
        way = "rises" if diff.estimate > 0 else "falls"
        return f"{metric.name} {way} by {size:.1f}{unit}, ±{half:.1f}"
    if diff.interval[0] == diff.interval[1] == 0:
        return f"{metric.name}: the same in every game"
    if diff.interval[0] > 0 or diff.interval[1] < 0:
        return (f"{metric.name}: {diff.estimate * scale:+.1f}{unit}, ±{half:.1f}, not significant once "
                "corrected for the number of metrics")
    return f"{metric.name}: no clear change ({diff.estimate * scale:+.1f}{unit}, ±{half:.1f})"


def side(game: Game, result: BatchResult) -> dict[str, Any]:
    """What one side of the comparison was."""
    return {"game": game.name, "folder": str(game.folder), "variant": game.variant,
            "restrictions": [r.text for r in result.spec.restrictions], "games": result.tally.games}


def compare_results(game_a: Game, a: BatchResult, game_b: Game, b: BatchResult) -> dict[str, Any]:
    """Every metric of A and B with B - A, its 95 % interval, and whether it is significant (Holm)."""
    pa, pb = a.tally.per_game or {}, b.tally.per_game or {}
    # Pair game i of A with the game of B that has its seed (an interrupted side may lack some).
    where_b = {int(seed): i for i, seed in enumerate(pb.get("seed", []))}
    pairs = [(i, where_b[int(seed)]) for i, seed in enumerate(pa.get("seed", [])) if int(seed) in where_b]
    n = len(pairs)
    metrics = metrics_for(a.spec.seats, game_a.score_field, game_b.score_field)
    rows: list[tuple[Metric, float | None, float | None, Difference | None]] = []
    for m in metrics:
        va = [pa[m.key][i] for i, _ in pairs] if m.key in pa else []
        vb = [pb[m.key][j] for _, j in pairs] if m.key in pb else []
        rows.append((m, _mean(va), _mean(vb), _paired(va, vb)))
    tested = [i for i, r in enumerate(rows) if r[3] is not None]
    rejected = holm([rows[i][3].p for i in tested], FAMILY_ALPHA)  # type: ignore[union-attr]
    significant = {i: rej for i, rej in zip(tested, rejected)}
    out = []
    for i, (m, ma, mb, d) in enumerate(rows):
        sig = significant.get(i, False)
        out.append({"name": m.key, "label": m.name, "a": _round(ma), "b": _round(mb),
                    "difference": _round(d.estimate if d else None),
                    "ci": [_round(d.interval[0]), _round(d.interval[1])] if d else None,
                    "p": _round(d.p, 6) if d else None, "method": d.method if d else None,
                    "significant": sig, "verdict": verdict(m, d, sig)})
    played = [list(r) for r in a.seed_ranges] if a.seed_ranges == b.seed_ranges else None  # None: see 'games'
    return {"a": side(game_a, a), "b": side(game_b, b), "games": n, "seats": a.spec.seats,
            "bots": list(a.spec.bots), "seeds": played, "interrupted": a.interrupted or b.interrupted,
            "correction": f"Holm over {len(tested)} metrics, family-wise error {FAMILY_ALPHA:.0%}; intervals are "
                          "plain 95 % paired t intervals",
            "metrics": out}


def _round(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)
