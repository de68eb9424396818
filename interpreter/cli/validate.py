"""`cityrules validate`: check game folders and report every problem."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ruledsl.diagnostics import render

from ..analysis.simulate import play_bots
from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.game import Game
from ..load.loader import check_game, resolve_game
from ..workbench.check import check_folder
from ..workbench.suite import display_path
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, sub_parser, whole


def cmd_validate(args: argparse.Namespace) -> int:
    """Check game folders; print every diagnostic."""
    worst = EXIT_OK
    records: list[dict[str, Any]] = []
    for target in args.paths:
        started = time.perf_counter()
        try:
            folder = resolve_game(target)
        except FileNotFoundError as err:
            print(f"{target}: {err}", file=sys.stderr)
            worst = max(worst, EXIT_USAGE)
            continue
        game, diags, sources = check_game(folder)
        for variant in game.variants if game else ():
            _, more, more_sources = check_game(folder, variant)
            sources.update(more_sources)
            diags += [d for d in more if d not in diags]
        scenario_diags, scenario_sources = check_folder(folder, game, display_path)
        diags += scenario_diags
        sources.update(scenario_sources)
        errors = [d for d in diags if d.severity == "error" or args.strict]
        warnings = [d for d in diags if d not in errors]
        if args.format == "json":
            records.extend({**d.as_dict(), "severity": "error" if d in errors else d.severity} for d in diags)
        else:
            for d in diags:
                print(render(d, sources.get(d.span.file), sources))
            ms = (time.perf_counter() - started) * 1000
            status = "ok" if not errors else "FAILED"
            print(f"{target}: {status} ({len(errors)} error(s), {len(warnings)} warning(s), {ms:.0f} ms)")
        if errors:
            worst = max(worst, EXIT_ERRORS)
        elif game is not None and args.fuzz:
            found = fuzz(game, target, args.fuzz, args.fuzz_cap)
            if args.format == "json":
                records.extend(found)
            else:
                for record in found:
                    print(f"{record['file']}:{record['line']}:{record['column']}: error[{record['code']}]: "
                          f"{record['message']}\n    reproduce: {record['hint']}")
                print(f"{target}: fuzzed {args.fuzz} game(s) at each of {game.min_seats}-{game.max_seats} seats: "
                      + ("no problem" if not found else f"{len(found)} problem(s)"))
            if found:
                worst = max(worst, EXIT_ERRORS)
    if args.format == "json":
        print(json.dumps(records, ensure_ascii=False, indent=1))
    return worst


def fuzz(game: Game, target: str, games: int, cap: int) -> list[dict[str, Any]]:
    """Seeded random games at every seat count: runtime rule errors and games that never end."""
    engine = Engine(game)
    found: list[dict[str, Any]] = []
    for seats in range(game.min_seats, game.max_seats + 1):
        for seed in range(games):
            reproduce = f"cityrules simulate {target} -n 1 --players {seats} --seed {seed}"
            where = {"file": f"{target}/game.yaml", "line": 1, "column": 1, "end_line": 1, "end_column": 1}
            try:
                state, _ = play_bots(engine, seats, seed, max_decisions=cap)
            except RuleError as err:
                if err.span is not None:
                    where = {"file": err.span.file, "line": err.span.line, "column": err.span.column,
                             "end_line": err.span.end_line, "end_column": err.span.end_column}
                found.append({**where, "severity": "error", "code": "runtime",
                              "message": f"{err.message} ({seats} seats, seed {seed})", "hint": reproduce})
                continue
            if state["result"] is None:
                found.append({**where, "severity": "error", "code": "no-end",
                              "message": f"the game did not end within {cap} decisions ({seats} seats, seed {seed})",
                              "hint": reproduce + f" --cap {cap}"})
    return found


def add_parser(sub: Any) -> None:
    """The `validate` sub-command's arguments."""
    v = sub_parser(sub, "validate", "check game folders and report every problem",
                   "Check every file of each game: YAML, schema, board, rules (names, types, arity). Each "
                   "problem is reported with its file, line and column. Exit status: 0 clean, 1 errors, "
                   "2 usage problems.",
                   ["cityrules validate examples/harbour",
                    "cityrules validate GAME --strict     # GAME: a folder, or a name from cityrules games",
                    "cityrules validate examples/harbour --format json",
                    "cityrules validate GAME --fuzz 20"])
    v.add_argument("paths", nargs="+", metavar="GAME", help="game folders or shipped game names (see: cityrules games)")
    v.add_argument("--format", choices=["text", "json"], default="text",
                   help="text lines, or one JSON array of every diagnostic (default: text)")
    v.add_argument("--strict", action="store_true", help="treat warnings as errors (default: off)")
    v.add_argument("--fuzz", type=whole(0, "a number of games"), default=0, metavar="N",
                   help="then play N seeded random games at every seat count and report runtime problems "
                        "(default: 0, none)")
    v.add_argument("--fuzz-cap", type=whole(1, "a number of decisions"), default=20_000, metavar="D",
                   help="decisions after which a fuzzed game counts as never ending (default: 20000)")
    v.set_defaults(func=cmd_validate)
