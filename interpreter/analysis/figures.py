"""The figures of a batch as plain data (`--json`, the text report and the HTML report read this).

Every rate comes with a Wilson 95 % interval and every mean with a Student's t 95 % interval
(`*_ci` beside the value). Nothing here depends on how the batch was played (processes, Ray);
timings live under `run` and in `seconds`/`games_per_second` only.
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

from ..core.game import Game
from ..core.state import default_names
from .lineup import all_random
from .parallel import BatchResult
from .statistics import Moments, quantiles, wilson
from .tally import BRANCHING_SCALE, Tally


def tool_version() -> str:
    """The installed cityrules version."""
    try:
        return metadata.version("cityrules")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def _ci(ci: tuple[float, float] | None, digits: int = 4) -> list[float] | None:
    return None if ci is None else [round(ci[0], digits), round(ci[1], digits)]


def _moments(m: list[float]) -> Moments:
    return Moments(int(m[0]), m[1], m[2])


def mean_figure(m: list[float], histogram: dict[int, int] | None = None, scale: int = 1) -> dict[str, Any]:
    """Mean with its t interval, and the distribution's quantiles and histogram when given."""
    mo = _moments(m)
    ci = mo.interval()
    out: dict[str, Any] = {"mean": _r(mo.mean / scale if mo.mean is not None else None),
                           "ci": _ci((ci[0] / scale, ci[1] / scale) if ci else None), "n": mo.n}
    if histogram is not None:
        out["quantiles"] = quantiles(histogram)
        out["histogram"] = {str(k): histogram[k] for k in sorted(histogram)}
    return out


def rate_figure(successes: int, trials: int) -> dict[str, Any]:
    """A rate with its Wilson interval."""
    return {"rate": _r(successes / trials if trials else None), "ci": _ci(wilson(successes, trials)),
            "count": successes, "of": trials}


# Said with the figures of a batch in which every seat answered at random.
RANDOM_ONLY = ("every seat is a random bot: these figures say how the rules play at random, not how people "
               "play them (the default, --bots bot, plays the game's trained bots)")


OPTIONS_NOTE = ("associations, not causes: the seats that chose an option won so often, which may be because "
                "they were winning already; restricted play (--restrict, cityrules probe) measures an effect")


def batch_figures(game: Game, result: BatchResult) -> dict[str, Any]:
    """Every figure of a batch, as JSON-ready data."""
    spec, t = result.spec, result.tally
    k = spec.seats
    n = t.games
    win_rate = [w / n if n else 0.0 for w in t.wins]
    shared = sum(c for w, c in t.winners_per_game.items() if w > 1)
    first = _moments(t.first_seat)
    first_ci = first.interval()
    scale = 1 / (k - 1) if k > 1 else 1.0
    data: dict[str, Any] = {
        "tool": "cityrules", "version": tool_version(),
        "game": game.name, "title": game.title, "variant": game.variant,
        "seats": k, "names": default_names(k), "bots": list(spec.bots), "rotate": spec.rotate,
        "warning": RANDOM_ONLY if all_random(spec.bots) else None,
        "seeds": {"first": spec.first_seed, "last": spec.first_seed + spec.games - 1, "asked": spec.games,
                  "played": [list(r) for r in result.seed_ranges]},
        "cap": spec.cap, "restrictions": [r.text for r in spec.restrictions], "interrupted": result.interrupted,
        "games": n, "finished": t.finished, "unfinished": n - t.finished,
        "unfinished_rate": rate_figure(n - t.finished, n), "unfinished_seeds": t.unfinished_seeds,
        "wins": t.wins, "win_rate": [_r(w) for w in win_rate],
        "win_rate_ci": [_ci(wilson(w, n)) for w in t.wins],
        "win_rate_total": _r(sum(win_rate)),
        "shared_wins": shared, "shared_win_rate": rate_figure(shared, n),
        "winners_per_game": {str(w): t.winners_per_game[w] for w in sorted(t.winners_per_game)},
        "first_seat_advantage": {
            "value": _r(first.mean * scale if first.mean is not None else None),
            # A few games give a t-interval wider than the figure can ever be: a win-rate difference.
            "ci": _ci((max(-1.0, first_ci[0] * scale), min(1.0, first_ci[1] * scale)) if first_ci else None),
            "n": first.n,
            # Which seat started each game: the first to decide alone, where the rules put or drew it.
            "starters": [t.starters.get(s, 0) for s in range(k)]},
        "score_field": game.score_field,
        "mean_score": [_r(_moments(m).mean) for m in t.scores],
        "mean_score_ci": [_ci(_moments(m).interval()) for m in t.scores],
        "score": [mean_figure(t.scores[s], t.score_hist[s]) for s in range(k)],
        "margin": mean_figure(t.margin, t.margin_hist),
        "rounds_field": game.rounds_field,
        "mean_rounds": _r(_moments(t.rounds).mean) if game.rounds_field else None,
        "mean_rounds_ci": _ci(_moments(t.rounds).interval()) if game.rounds_field else None,
        "rounds": mean_figure(t.rounds, t.rounds_hist) if game.rounds_field else None,
        "mean_decisions": _r(_moments(t.decisions).mean),
        "mean_decisions_ci": _ci(_moments(t.decisions).interval()),
        "decisions": mean_figure(t.decisions, t.decisions_hist),
        "decisions_per_round": _decisions_per_round(t),
        "options_per_decision": mean_figure(t.branching, scale=BRANCHING_SCALE),
        "lead_changes": _lead_figure(t) if game.rounds_field and game.score_field else None,
        "options": _option_figures(t, t.options),
        "options_note": OPTIONS_NOTE,
        "option_patterns": _option_figures(t, t.patterns),
        "economy": _economy_figures(t),
        "by_bot": _bot_figures(t),
        "restricted": {"forced_decisions": t.forced, "games": t.forced_games} if spec.restrictions else None,
        "seconds": round(result.seconds, 3),
        "games_per_second": round(n / result.seconds, 1) if result.seconds > 0 else None,
        "run": {"jobs": result.jobs, "backend": result.backend},
    }
    return data


def timing_free(data: dict[str, Any]) -> dict[str, Any]:
    """The figures without the timings and run settings: equal for --jobs 1, --jobs N and Ray."""
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second", "run")}


def _decisions_per_round(t: Tally) -> float | None:
    rounds = _moments(t.rounds).mean
    decisions = _moments(t.decisions).mean
    return _r(decisions / rounds) if rounds and decisions is not None else None


def _lead_figure(t: Tally) -> dict[str, Any]:
    out = mean_figure(t.lead, t.lead_hist)
    out["by_round"] = {str(r): _r(t.lead_by_round[r] / t.rounds_reached[r]) for r in sorted(t.rounds_reached)
                       if t.rounds_reached[r]}
    return out


def _option_figures(t: Tally, counts: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Per option id, family or pattern: how often chosen, and the win rate of the seats that chose it."""
    seat_games = t.games * t.seats
    total_wins = sum(t.wins)
    out = []
    for key in sorted(counts):
        times, chose, won = counts[key]
        others, others_won = seat_games - chose, total_wins - won
        out.append({
            "id": key, "chosen": times, "per_game": _r(times / t.games if t.games else None),
            "seat_games": chose, "win_rate": _r(won / chose if chose else None), "win_rate_ci": _ci(wilson(won, chose)),
            "win_rate_without": _r(others_won / others if others else None),
            "win_rate_without_ci": _ci(wilson(others_won, others)),
        })
    return out


def _economy_figures(t: Tally) -> list[dict[str, Any]]:
    """Per ledger field, phase and seat: mean paid and gained per game, with intervals."""
    out = []
    for (fld, phase) in sorted(t.economy):
        rows = t.economy[(fld, phase)]
        for s, (paid, paid_sq, gained, gained_sq) in enumerate(rows):
            p, g = Moments(t.games, paid, paid_sq), Moments(t.games, gained, gained_sq)
            out.append({"field": fld, "phase": phase, "seat": s,
                        "paid": _r(p.mean), "paid_ci": _ci(p.interval()),
                        "gained": _r(g.mean), "gained_ci": _ci(g.interval())})
    return out


def _bot_figures(t: Tally) -> list[dict[str, Any]]:
    """Per bot: its share of the wins of the seat-games it played (the skill gap reads this)."""
    out = []
    for name in sorted(t.bots):
        games, wins = t.bots[name]
        out.append({"bot": name, "seat_games": games, "wins": wins, "win_rate": _r(wins / games if games else None),
                    "win_rate_ci": _ci(wilson(wins, games)), "fair_share": _r(1 / t.seats)})
    return out
