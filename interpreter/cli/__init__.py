"""The `cityrules` command: one module per sub-command, each thin."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Sequence

import importlib

from .common import EXIT_ERRORS, EXIT_USAGE

# The sub-commands and their one-line help. A sub-command's module, and everything it imports (the
# loader, the compiler, the YAML and schema libraries...), is loaded only when that command runs,
# so `cityrules --help` and a mistyped command answer at once.
COMMANDS = {
    "validate": "check game folders and report every problem",
    "play": "play in the terminal, humans and bots",
    "simulate": "play many bot games and report the figures",
    "replay": "replay a journal: event log and result",
    "games": "list the shipped games",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser: in full for the sub-command named in `argv` (every one when None)."""
    p = argparse.ArgumentParser(prog="cityrules", description="Rules-as-data city-building board games.")
    sub = p.add_subparsers(dest="command", required=True)
    words = [a for a in (argv or ()) if not a.startswith("-")]
    for name in COMMANDS:
        if argv is None or (words and words[0] == name):
            importlib.import_module(f".{name}", __name__).add_parser(sub)
        else:
            sub.add_parser(name, help=COMMANDS[name])
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    from ruledsl.diagnostics import RuleFileError

    from ..core.decision import IllegalChoice
    from ..core.errors import RuleError
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

