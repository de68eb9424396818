"""`cityrules compare`: two versions of a game on the same seeds, metric by metric."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ruledsl.printable import printable

from ..analysis.batch import BatchFailed
from ..analysis.compare import compare_results
from ..core.game import Game
from . import COMMANDS
from .batch_args import EXIT_INTERRUPTED, add_batch_arguments, batch_failed_message, batch_spec, interrupted_note, play
from .common import EXIT_ERRORS, EXIT_OK, load_engine, sub_parser


def sides(args: argparse.Namespace) -> tuple[tuple[str, str | None], tuple[str, str | None]]:
    """(game, variant) of A and of B from `A [B] [--variant X [--variant Y]]`."""
    games: list[str] = args.games
    variants: list[str] = args.variant or []
    if len(games) > 2 or len(variants) > 2:
        raise ValueError("compare: give at most two games and at most two --variant")
    if len(games) == 1:
        if len(variants) == 2:
            return (games[0], variants[0]), (games[0], variants[1])
        if len(variants) == 1:
            return (games[0], None), (games[0], variants[0])
        if args.restrict:
            return (games[0], None), (games[0], None)
        raise ValueError("compare: give two games, or one game with --variant or --restrict for B")
    if len(variants) == 1:
        raise ValueError("compare A B: give --variant twice (A's, then B's), or not at all")
    return (games[0], variants[0] if variants else None), (games[1], variants[1] if variants else None)


def cmd_compare(args: argparse.Namespace) -> int:
    """Play A and B on the same seeds and report every metric's difference."""
    (ga, va), (gb, vb) = sides(args)
    game_a, game_b = load_engine(ga, va).game, load_engine(gb, vb).game
    spec_a = batch_spec(args, game_a, None, keep_games=True)
    spec_b = batch_spec(args, game_b, args.restrict, keep_games=True)
    if spec_a.seats != spec_b.seats:
        raise ValueError(f"compare: A and B have no number of players in common with --players {args.players}")
    results = []
    for label, game, spec, arg in (("A", game_a, spec_a, ga), ("B", game_b, spec_b, gb)):
        try:
            result = play(args, spec, f"{label}: {game.name}")
        except BatchFailed as err:
            print(batch_failed_message("simulate", arg, spec.seats, err.seed, err.report), file=sys.stderr)
            return EXIT_ERRORS
        results.append(result)
        if result.interrupted:
            break
    if len(results) < 2:
        print(interrupted_note(results[0]) + "; B was not played, nothing to compare", file=sys.stderr)
        return EXIT_INTERRUPTED
    data = compare_results(game_a, results[0], game_b, results[1])
    if args.report:
        from ..analysis.figures import batch_figures
        from ..analysis.report import write_compare_report

        page = write_compare_report(args.report, data, batch_figures(game_a, results[0]),
                                    batch_figures(game_b, results[1]))
        print(f"report written to {page}", file=sys.stderr)
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        print("\n".join(compare_lines(data, game_a, game_b)))
    if data["interrupted"]:
        print(interrupted_note(results[1]), file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _side_text(game: Game, side: dict[str, Any]) -> str:
    text = game.title + (f", variant {side['variant']}" if side["variant"] else "")
    if side["restrictions"]:
        text += ", restricted " + " ".join(side["restrictions"])
    return printable(f"{text} ({side['folder']})")


def compare_lines(data: dict[str, Any], game_a: Game, game_b: Game) -> list[str]:
    """The comparison as text: one line per metric, the significant ones marked."""
    lines = [f"A: {_side_text(game_a, data['a'])}", f"B: {_side_text(game_b, data['b'])}",
             f"{data['games']} games each on the same seeds, {data['seats']} players; {data['correction']}.",
             f"  {'metric':<30} {'A':>9} {'B':>9} {'B - A':>9} {'95 % CI':>19}"]
    for m in data["metrics"]:
        scale = 100.0 if m["name"].startswith(("win:", "first_seat", "shared", "finished")) else 1.0

        def f(x: float | None) -> str:
            return "-" if x is None else f"{x * scale:.1f}"
        ci = "-" if m["ci"] is None else f"{m['ci'][0] * scale:+.1f} to {m['ci'][1] * scale:+.1f}"
        mark = " *" if m["significant"] else ""
        lines.append(printable(f"  {m['label']:<30} {f(m['a']):>9} {f(m['b']):>9} {f(m['difference']):>9} "
                               f"{ci:>19}{mark}"))
    found = [m["verdict"] for m in data["metrics"] if m["significant"]]
    lines.append("Rates are in percent, differences of rates in points; * significant.")
    if found:
        lines.append("Significant changes: " + "; ".join(printable(v) for v in found) + ".")
    else:
        lines.append("Nothing changes significantly.")
    return lines


def add_parser(sub: Any) -> None:
    """The `compare` sub-command's arguments."""
    s = sub_parser(sub, "compare", COMMANDS["compare"],
                   "A and B are two game folders or names; or one game with --variant (B is that variant) or two "
                   "--variant (A's, then B's); or one game with --restrict (B is restricted, A plays freely). Both "
                   "play the same seeds; every figure comes with B - A, a paired 95 % interval and a verdict. "
                   "'Significant' is corrected for the number of figures (Holm, 5 % family-wise).",
                   ["cityrules compare FOLDER_A FOLDER_B -n 2000",
                    "cityrules compare GAME --variant NAME --json",
                    "cityrules compare GAME --restrict 0:use_lobby:yes --report lobby/"])
    s.add_argument("games", nargs="+", metavar="GAME", help="A, then B (or one game)")
    s.add_argument("--variant", action="append", metavar="NAME",
                   help="a variant: once for B, twice for A then B (default: the plain games)")
    add_batch_arguments(s)
    s.add_argument("--json", action="store_true",
                   help='print {"metrics": [{"name", "a", "b", "difference", "ci", "significant"}...]} and what A '
                        "and B were (default: a table)")
    s.add_argument("--report", metavar="DIR", help="also write a side-by-side HTML report into DIR (default: none)")
    s.set_defaults(func=cmd_compare)
