"""`cityrules join`: play a seat (or watch) at a table someone hosts."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
from typing import Any

from ruledsl.printable import printable

from ..play.network.client import Client, left_text, stdin_lines
from ..play.terminal import terminal_console
from . import COMMANDS
from .common import UsageError, sub_parser


def address(text: str) -> tuple[str, int]:
    """HOST:PORT (an IPv6 address in brackets: [::1]:7531)."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"'{printable(text[:60])}' is not HOST:PORT (e.g. localhost:7531), as the host printed it")
    return host, int(port)


def cmd_join(args: argparse.Namespace) -> int:
    """Join the table; the exit status says how it ended (0 the game ended or you left, 1 lost, 2 refused)."""
    if (args.code is None) == (not args.watch):
        raise UsageError("give --code CODE (the line the host printed for your seat), or --watch")
    host, port = address(args.table)

    async def run() -> int:
        lines = stdin_lines(asyncio.get_running_loop())
        width = shutil.get_terminal_size().columns  # the host lays the screens out for this terminal
        console = terminal_console()
        colour = console if console is not None and console.color_system is not None else None
        # Piped input is a script answering in order; on a terminal, what was typed before a
        # question was shown is set aside (client.py).
        return await Client(lines, write=lambda text: print(text, flush=True), width=width,
                            console=colour, type_ahead=not sys.stdin.isatty()).run(host, port, args.code)

    try:
        return asyncio.run(run())
    except KeyboardInterrupt:
        print("\n" + left_text(args.watch), file=sys.stderr)
        return 130


def add_parser(sub: Any) -> None:
    """The `join` sub-command's arguments."""
    p = sub_parser(sub, "join", COMMANDS["join"],
                   "Play your seat at a table started with cityrules host, from your own terminal: you see "
                   "only what your seat may see. Answers are read from the keyboard or piped in. If the "
                   "connection drops, run the same command again: your seat is kept.",
                   ["cityrules join localhost:7531 --code CODE",
                    "cityrules join 192.168.1.20:7531 --watch"])
    p.add_argument("table", metavar="HOST:PORT", help="where the table is, as the host printed it")
    p.add_argument("--code", help="your seat's code, as the host printed it (no default: --code or --watch)")
    p.add_argument("--watch", action="store_true", help="watch as a spectator: public information only (default: play the seat of --code)")
    p.set_defaults(func=cmd_join)
