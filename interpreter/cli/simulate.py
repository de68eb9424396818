"""`cityrules simulate`: many bot games and the figures a designer balances by."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..analysis.batch import BatchFailed
from ..analysis.figures import batch_figures
from ..analysis.lineup import strongest_bot
from ..analysis.skill import skill_gap_figure, skill_gap_spec
from ..analysis.text import batch_lines, pct, pct_ci
from . import COMMANDS
from .batch_args import EXIT_INTERRUPTED, add_batch_arguments, batch_failed_message, batch_spec, interrupted_note, play
from .common import EXIT_ERRORS, EXIT_OK, UsageError, load_engine, sub_parser


def _journals_folder(text: str) -> Path:
    """`--journals DIR`: a folder that exists or can be made, checked before any game is played."""
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--journals {printable(text)}: this is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"--journals {printable(text)}: cannot make this folder ({err.strerror})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--journals {printable(text)}: this folder is not writable")
    return folder


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bot games and their statistics."""
    engine = load_engine(args.game, args.variant)
    g = engine.game
    journals = str(_journals_folder(args.journals).resolve()) if args.journals else None
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
            print(printable(f"  journals written to {args.journals}"))
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
    s = sub_parser(sub, "simulate", COMMANDS["simulate"],
                   "Play seeded bot games (seeds SEED, SEED+1, ...) and report what a designer balances by, each "
                   "rate and mean with its 95 % interval: win rates, shared wins, first-seat advantage, scores and "
                   "margins, game length, lead changes, options per decision, per-option win rates, money by "
                   "phase, and unfinished games. A game that reaches the cap is reported as unfinished, never as "
                   "a win. See docs/balance.md.",
                   ["cityrules simulate GAME -n 1000 --players 4    # GAME: see cityrules games",
                    "cityrules simulate examples/harbour -n 500 --players 3 --cap 5000",
                    "cityrules simulate GAME -n 20 --variant NAME --json --journals /tmp/games",
                    "cityrules simulate GAME -n 2000 --restrict 0:use_lobby:yes --jobs 2",
                    "cityrules simulate GAME -n 10000 --backend ray --address auto"])
    s.add_argument("game", metavar="GAME", help="a shipped game's name (see: cityrules games) or a game folder")
    add_batch_arguments(s)
    s.add_argument("--json", action="store_true", help="print every figure as one JSON object (default: text)")
    s.add_argument("--journals", metavar="DIR",
                   help="write each game's journal into this folder, for replay (default: none written)")
    s.add_argument("--variant", metavar="NAME",
                   help="simulate a variant of the game, as listed by cityrules games (default: the plain game)")
    s.add_argument("--skill-gap", action="store_true",
                   help="also play the strongest bot against random bots, turned round the seats, and report its "
                        "win rate (default: not played)")
    s.set_defaults(func=cmd_simulate)
