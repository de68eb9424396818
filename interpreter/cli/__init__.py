"""The `cityrules` command: one module per sub-command, each thin."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Sequence

from ruledsl.diagnostics import RuleFileError

from ..core.decision import IllegalChoice
from ..core.errors import RuleError
from . import games, lsp, new, play, replay, schema, simulate, test, validate
from .common import EXIT_ERRORS, EXIT_USAGE


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    p = argparse.ArgumentParser(prog="cityrules", description="Rules-as-data city-building board games.")
    sub = p.add_subparsers(dest="command", required=True)
    for module in (validate, play, simulate, replay, games, test, new, lsp, schema):
        module.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except RuleFileError as err:
        print(err.report(), file=sys.stderr)
        return EXIT_ERRORS
    except RuleError as err:
        print(err.report(), file=sys.stderr)
        return EXIT_ERRORS
    except (FileNotFoundError, ValueError, IllegalChoice) as err:
        print(f"cityrules {args.command}: {err}", file=sys.stderr)
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

