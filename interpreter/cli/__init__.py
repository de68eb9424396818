"""The `cityrules` command: one module per sub-command, each thin."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from typing import Any, Sequence

from ruledsl.printable import printable

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Parser

# The sub-commands and their one-line summaries, in the order --help lists them. A sub-command's
# module, and everything it imports (the loader, the compiler, the YAML and schema libraries...),
# is loaded only when that command runs, so `cityrules --help` and a mistyped command answer at once.
COMMANDS = {
    "validate": "check game folders and report every problem",
    "play": "play in the terminal, humans and bots",
    "host": "keep a game for players at their own terminals (a networked table)",
    "join": "play your seat, or watch, at a table someone hosts",
    "simulate": "play many bot games and report the figures, with intervals",
    "compare": "play two versions of a game on the same seeds and compare every figure",
    "report": "play a batch and write an HTML report with plots",
    "probe": "restrict a seat over every option family and rank what each restriction does to its win rate",
    "tune": "search a game's numbers for a balance target and write the best as a variant",
    "train": "teach the game's bots by self-play (writes bots.trained.json beside the rules)",
    "replay": "replay a journal: event log and result",
    "games": "list the shipped games",
    "test": "play the scenarios in a game's tests folder and check what they expect",
    "new": "write a small commented game folder to start a new game from",
    "lsp": "run the language server for editors (stdio; see docs/editors.md)",
    "schema": "write the JSON Schemas of the game's YAML files (for editors)",
}


def version() -> str:
    """The installed version of cityrules."""
    from importlib import metadata

    try:
        return metadata.version("cityrules")
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


class _Version(argparse.Action):
    """--version, reading the installed version only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"cityrules {version()}")  # on stdout, as argparse's own version action does
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser: in full for the sub-command named in `argv` (for every one when None)."""
    p = Parser(
        prog="cityrules", description="Rules-as-data city-building board games: validate, play, simulate, compare, report, "
                                    "probe, tune, replay, test, new, lsp, schema.",
        epilog="Each sub-command explains itself: cityrules play --help", formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action=_Version, nargs=0, help="show the program's version number and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    words = [a for a in (argv or ()) if not a.startswith("-")]
    for name, summary in COMMANDS.items():
        if argv is None or (words and words[0] == name):
            importlib.import_module(f".{name}", __name__).add_parser(sub)
        else:
            sub.add_parser(name, help=summary)
    return p


def _quiet_stdout() -> None:
    """After the reader of our output went away: send what is still buffered nowhere, silently."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    from ruledsl.diagnostics import RuleFileError  # (loaded once a sub-command is chosen)

    from ..core.decision import IllegalChoice
    from ..core.errors import RuleError

    command = "cityrules"
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit:
            if sys.stdout is not None:
                sys.stdout.flush()  # --help and --version: a closed pipe shows here, not at exit
            raise
        command = f"cityrules {args.command}"
        code: int = args.func(args)
        if sys.stdout is not None:
            sys.stdout.flush()
        return code
    except BrokenPipeError:
        # `cityrules games | head -1`: the reader has all it wanted; that is not an error.
        _quiet_stdout()
        return EXIT_OK
    except RuleFileError as err:
        print(err.report(), file=sys.stderr)
        return EXIT_ERRORS
    except RuleError as err:
        print(err.report(), file=sys.stderr)
        return EXIT_ERRORS
    except (FileNotFoundError, ValueError, IllegalChoice) as err:
        print(f"{command}: {printable(str(err))}", file=sys.stderr)
        return EXIT_USAGE
    except ChildProcessError as err:
        # A batch whose worker processes kept dying (core/workers.py: WorkerDied).
        print(f"{command}: {printable(str(err))}", file=sys.stderr)
        return EXIT_ERRORS
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def entry() -> None:
    """The console script: `main`, then a quick exit.

    Loading a game leaves many objects alive until the process ends; freezing them spares the
    garbage collector a pass over all of them at shutdown, which took longer than validating.
    """
    status = main()
    gc.freeze()
    sys.exit(status)
