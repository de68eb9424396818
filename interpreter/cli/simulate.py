"""`cityrules simulate`: many bot games and the figures a designer balances by."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..analysis.batch import BatchFailed
from ..analysis.figures import batch_figures
from ..analysis.lineup import strongest_bot
from ..analysis.skill import skill_gap_figure, skill_gap_spec
from ..analysis.text import batch_lines, pct, pct_ci
from .batch_args import (EXIT_INTERRUPTED, add_batch_arguments, batch_failed_message, batch_spec,
                         interrupted_note, play)
from .common import EXIT_ERRORS, EXIT_OK, load_engine


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bot games and their statistics."""
    engine = load_engine(args.game, args.variant)
    g = engine.game
    journals = None
    if args.journals:
        Path(args.journals).mkdir(parents=True, exist_ok=True)
        journals = str(Path(args.journals).resolve())
    spec = batch_spec(args, g, args.restrict, journals)
    try:
        result = play(args, spec, f"{g.name}")
    except BatchFailed as err:
        print(batch_failed_message("simulate", args.game, spec.seats, err.seed, err.report), file=sys.stderr)
        return EXIT_ERRORS
    data = batch_figures(g, result)
    if args.skill_gap and not result.interrupted:
        data["skill_gap"] = _skill_gap(args, spec, g)
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        print("\n".join(batch_lines(data)))
        if "skill_gap" in data:
            print(_skill_gap_line(data["skill_gap"]))
        jobs = data["run"]["jobs"]
        workers = "Ray tasks" if jobs is None else f"{jobs} {'worker' if jobs == 1 else 'workers'}"
        print(f"  wall time: {data['seconds']:.2f} s   ({data['games_per_second']} games/s, {workers})")
        if journals is not None:
            print(f"  journals written to {args.journals}")
    if result.interrupted:
        print(interrupted_note(result), file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _skill_gap(args: argparse.Namespace, spec: Any, game: Any) -> dict[str, Any]:
    """A second batch: the strongest bot against random bots, turned round the seats."""
    strong = strongest_bot()
    gap = skill_gap_spec(spec, strong)
    if gap is None or strong is None:
        return {"bot": None, "note": "needs a bot stronger than random; this build has none"}
    result = play(args, gap, f"{game.name}: {strong} against random")
    return skill_gap_figure(batch_figures(game, result), strong)


def _skill_gap_line(gap: dict[str, Any]) -> str:
    if gap["bot"] is None:
        return f"  Skill gap: not measured ({gap['note']})."
    verdict = ("the game rewards skill" if gap["rewards_skill"] else
               "the stronger bot does worse than its fair share" if gap["below_fair"] else
               "no clear reward for skill at this number of games")
    return (f"  Skill gap: {gap['bot']} against {gap['against']} wins {pct(gap['win_rate'])} "
            f"({pct_ci(gap['win_rate_ci'])}) of its games, fair share {pct(gap['fair_share'])}: {verdict}.")


def add_parser(sub: Any) -> None:
    """The `simulate` sub-command's arguments."""
    s = sub.add_parser("simulate", help="play many bot games and report the figures")
    s.add_argument("game")
    add_batch_arguments(s)
    s.add_argument("--json", action="store_true", help="every figure as JSON")
    s.add_argument("--journals", help="write each game's journal into this folder")
    s.add_argument("--variant", help="simulate a variant of the game")
    s.add_argument("--skill-gap", action="store_true",
                   help="also play the strongest bot against random bots and report its win rate")
    s.set_defaults(func=cmd_simulate)
