"""What every sub-command shares: exit codes, argument checks, help layout, loading a game, where sessions go."""

from __future__ import annotations

import argparse
import os
import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn

from ruledsl.printable import printable

if TYPE_CHECKING:
    from ..core.engine import Engine

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
MAX_NAME = 40
_WHOLE = re.compile(r"-?[0-9]{1,18}")


class UsageError(ValueError):
    """A command-line argument that cannot work; reported on one line with exit status 2."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples in each sub-command's epilog as written."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors take one line, with where to read more."""

    def error(self, message: str) -> NoReturn:
        """Print `cityrules CMD: MESSAGE (see: cityrules CMD --help)` and exit with status 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: {printable(message)} (see: {self.prog} --help)\n")


def sub_parser(sub: Any, name: str, summary: str, description: str, examples: list[str]) -> argparse.ArgumentParser:
    """A sub-command's parser with its description and an `examples:` section under the options."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=textwrap.fill(description, 88), formatter_class=HelpFormatter,
        epilog="examples:\n" + "\n".join(f"  {e}" for e in examples))
    return parser


def whole(low: int | None = None, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: a whole number in ASCII digits, at least `low` (the message says which)."""
    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"'{printable(text[:30])}' is not {what}")
        value = int(text)
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small: {what}, at least {low}")
        return value
    return parse


def seat_names(text: str, seats: int) -> list[str]:
    """`--names`: one name per seat, each non-empty, printable, at most MAX_NAME long, all different."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != seats:
        raise UsageError(f"--names gives {len(names)} name(s) for {seats} seats")
    for name in names:
        if not name:
            raise UsageError("--names holds an empty name")
        if len(name) > MAX_NAME:
            raise UsageError(f"--names: '{printable(name[:MAX_NAME])}...' is longer than {MAX_NAME} characters")
        if printable(name) != name:
            raise UsageError(f"--names: '{printable(name)}' holds control characters")
    lowered = [n.lower() for n in names]
    twice = next((n for n in names if lowered.count(n.lower()) > 1), None)
    if twice is not None:
        raise UsageError(f"--names gives two seats the name '{twice}': each seat needs its own name")
    return names


def sessions_dir() -> Path:
    """Where play sessions are saved by default."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cityrules" / "sessions"


def load_engine(name: str, variant: str | None = None) -> "Engine":
    """An engine for a shipped game's name or a game folder; an unknown variant is a usage error."""
    from ..core.engine import Engine  # (loaded when needed: see COMMANDS in __init__.py)
    from ..load.loader import load_game

    if variant is None:
        return Engine(load_game(name))
    plain = load_game(name)
    if variant not in plain.variants:
        choices = ", ".join(plain.variants) or "none: this game has no variants"
        raise UsageError(f"{plain.title} has no variant '{printable(variant)}' (choices: {choices})")
    return Engine(load_game(name, variant))


def seconds(text: str) -> float:
    """An argument that is a positive number of seconds (`--think`)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"'{printable(text[:30])}' is not a positive number of seconds")
    return value
