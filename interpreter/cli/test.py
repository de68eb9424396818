"""`cityrules test`: play the scenarios of game folders (GAME/tests/*.yaml) and report what failed."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ruledsl.diagnostics import render
from ruledsl.printable import printable

from ..load.loader import resolve_game, shipped_games
from ..workbench.suite import display_path, run_folder
from . import COMMANDS
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, sub_parser


def cmd_test(args: argparse.Namespace) -> int:
    """Play every scenario of each game; print each failure where validate would print a problem."""
    worst = EXIT_OK
    for target in args.games or shipped_games():
        started = time.perf_counter()
        try:
            folder = resolve_game(target)
        except FileNotFoundError as err:
            print(printable(f"{target}: {err}"), file=sys.stderr)
            worst = max(worst, EXIT_USAGE)
            continue
        report = run_folder(folder, args.k)
        for problem in report.problems:
            print(printable(render(problem, report.sources.get(problem.span.file)), newlines=True))
        for outcome in report.outcomes:
            if outcome.passed:
                if outcome.known:
                    reason = outcome.scenario.known_failure.value if outcome.scenario.known_failure else ""
                    print(printable(f"known   {outcome.scenario.file}: {outcome.scenario.name} ({reason})"))
                    for failure in outcome.known if args.verbose else ():
                        print(printable(report.render(failure), newlines=True))
                elif args.verbose:
                    print(printable(f"ok      {outcome.scenario.file}: {outcome.scenario.name}"))
                continue
            print(printable(f"FAILED  {outcome.scenario.file}: {outcome.scenario.name}"))
            for failure in outcome.failures:
                print(printable(report.render(failure), newlines=True))
        failed = sum(1 for o in report.outcomes if not o.passed)
        known = sum(1 for o in report.outcomes if o.known)
        ms = (time.perf_counter() - started) * 1000
        where = target
        if not report.outcomes and not report.problems:
            print(printable(f"{where}: no scenarios (write them in {display_path(folder / 'tests')}/*.yaml)"))
        else:
            status = "ok" if report.ok else "FAILED"
            also = f", {known} known failure(s)" if known else ""
            print(printable(f"{where}: {status} ({len(report.outcomes) - failed - known} passed, {failed} failed{also}, "
                            f"{len(report.problems)} problem(s) in the files, {ms:.0f} ms)"))
        if not report.ok:
            worst = max(worst, EXIT_ERRORS)
    return worst


def add_parser(sub: Any) -> None:
    """The `test` sub-command's arguments."""
    t = sub_parser(sub, "test", COMMANDS["test"],
                   "Play the scenarios written in each game folder's tests/*.yaml (a position, fixed dice, "
                   "choices) and check the events, fields, options and winners they expect. Exit status: 0 all "
                   "pass, 1 failures, 2 usage problems.",
                   ["cityrules test                     # every shipped game",
                    "cityrules test examples/harbour -v",
                    "cityrules test GAME -k vote         # GAME: a folder, or a name from cityrules games"])
    t.add_argument("games", nargs="*", metavar="GAME",
                   help="game folders or shipped game names (default: every shipped game)")
    t.add_argument("-k", metavar="TEXT", help="only the scenarios whose name contains TEXT (default: all)")
    t.add_argument("-v", "--verbose", action="store_true",
                   help="also list the scenarios that pass (default: only failures and the summary)")
    t.set_defaults(func=cmd_test)
