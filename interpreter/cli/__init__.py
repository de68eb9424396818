"""The `cityrules` command: one module per sub-command, each thin."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from importlib import metadata
from typing import Sequence

from ruledsl.diagnostics import RuleFileError
from ruledsl.printable import printable

from ..core.decision import IllegalChoice
from ..core.errors import RuleError
from . import games, new, play, replay, simulate, test, validate
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Parser


def version() -> str:
    """The installed version of cityrules."""
    try:
        return metadata.version("cityrules")
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    p = Parser(
        prog="cityrules", description="Rules-as-data city-building board games: validate, play, simulate, replay, test, new.",
        epilog="Each sub-command explains itself: cityrules play --help", formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"cityrules {version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (validate, play, simulate, replay, games, test, new):
        module.add_parser(sub)
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
    parser = build_parser()
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
