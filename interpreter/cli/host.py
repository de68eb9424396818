"""`cityrules host`: keep a game for players who join from their own terminals."""

from __future__ import annotations

import argparse
import asyncio
import secrets
import socket
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..core.decision import DEFAULT_CAP
from ..core.engine import Engine
from ..core.journal import Journal
from ..core.savefile import FileLock, check_target, remove_stale_temps
from ..core.state import default_names
from ..load.loader import game_ref
from ..play.network.codes import codes_path, load_codes, new_codes, save_codes
from ..play.network.host import Host
from ..play.network.table import Table
from ..play.saved import new_session_file
from . import COMMANDS
from .common import EXIT_OK, UsageError, load_engine, seat_names, sessions_dir, sub_parser, whole
from .play import _seat_list, resume

DEFAULT_PORT = 7531


def say(text: str) -> None:
    """A line on the host's terminal, at once (players wait for the join lines)."""
    print(printable(text, newlines=True), flush=True)


def _start(args: argparse.Namespace) -> tuple[Engine, Journal, list[str], Path, list[str | None]]:
    engine = load_engine(args.game, args.variant)
    g = engine.game
    kinds = _seat_list(args.seats, engine)
    _need_a_human(kinds)     # before the session's files are made: a refused table leaves none
    names = seat_names(args.names, len(kinds)) if args.names is not None else default_names(len(kinds))
    # The seed is the host's secret: it rebuilds every hidden card. Shown here only once the game is over.
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    journal = Journal(game_ref(g), len(kinds), seed, names, kinds, variant=args.variant)
    codes = new_codes(kinds)
    if args.journal:
        path = Path(args.journal)
        check_target(path)
        check_target(codes_path(path))
        journal.save(path, new=True)
    else:
        path = new_session_file(sessions_dir(), g.name, journal)
    save_codes(codes_path(path), codes)
    say(f"{g.title}. Seats: " + ", ".join(f"{n} ({k})" for n, k in zip(names, kinds)))
    return engine, journal, kinds, path, codes


def _need_a_human(kinds: list[str]) -> None:
    if "human" not in kinds:
        raise UsageError("a table needs at least one human seat (for bots only: cityrules simulate)")


def _resume(args: argparse.Namespace) -> tuple[Engine, Journal, list[str], Path, list[str | None]]:
    if args.game or args.seats is not None or args.names is not None or args.seed is not None \
            or args.journal or args.variant:
        raise UsageError("--resume takes the game, seats, names, seed and variant from the journal: give none of them")
    engine, journal, kinds, path = resume(args)
    return engine, journal, kinds, path, load_codes(codes_path(path), kinds)


def _address(bind: str) -> str:
    """The address players type: the bound one, or this machine's name when bound to every interface."""
    return socket.gethostname() if bind in ("0.0.0.0", "::", "") else bind


def cmd_host(args: argparse.Namespace) -> int:
    """Serve the table until the game ends; resumable from its journal and codes."""
    if args.resume is None and not args.game:
        raise UsageError("name a game (see: cityrules games), or --resume FILE")
    if args.resume is None and args.seats is None:
        raise UsageError("--seats is needed: e.g. --seats human,human,bot (each human joins from a terminal)")
    engine, journal, kinds, path, codes = _resume(args) if args.resume is not None else _start(args)
    _need_a_human(kinds)
    lock = FileLock(path).acquire()
    try:
        remove_stale_temps(path)
        table = Table(engine, journal, kinds, path, args.cap)
        host = Host(table, codes, say=say)

        def ready(port: int) -> None:
            where = f"{_address(args.bind)}:{port}"
            say(f"The table is open on {where} (saved after every choice in {path}).")
            say("Give each player their own line, privately: the code is their seat's secret.")
            for name, code in zip(journal.names, codes):
                if code is not None:
                    say(f"  {name}:  cityrules join {where} --code {code}")
            say(f"Spectators:  cityrules join {where} --watch")

        try:
            asyncio.run(host.serve(args.bind, args.port, ready))
        except OSError as err:
            raise UsageError(f"cannot open the table on {args.bind}:{args.port}: {err.strerror or err}") from None
        except KeyboardInterrupt:
            table.save()
            say(f"\nStopped and saved. Resume with:  cityrules host --resume {path} --port {host.port or args.port}")
            return 130
    finally:
        lock.release()
    _report(table, path, host.port)
    return EXIT_OK


def _report(table: Table, path: Path, port: int) -> None:
    if not table.over():
        say(f"\nThe game did not end within {table.cap} decisions: stopped, unfinished, and saved.\n"
            f"Resume with:  cityrules host --resume {path} --port {port} --cap {table.cap * 2}")
        return
    result = table.engine.result(table.state)
    say("\nGame over.")
    for fname, values in result.scores.items():
        say(f"  {fname}: " + ", ".join(f"{table.names[i]} {x}" for i, x in enumerate(values)))
    say("  Winner(s): " + ", ".join(table.names[i] for i in result.winners))
    say(f"Seed: {table.journal.seed}.  Journal: {path}  (replay it with: cityrules replay {path})")


def add_parser(sub: Any) -> None:
    """The `host` sub-command's arguments."""
    p = sub_parser(sub, "host", COMMANDS["host"],
                   "Keep a game for players at their own terminals: the host holds the state, the seed and "
                   "the journal, prints one join line per human seat, and plays the bots' seats. Each player "
                   "sees only their own seat. Meant for a trusted network (see docs/network.md). A killed "
                   "host continues with --resume, and the players join again with the same lines.",
                   ["cityrules host GAME --seats human,human,bot",
                    "cityrules host examples/harbour --seats human,human --names Ana,Ben --bind 0.0.0.0 --port 7600",
                    "cityrules host --resume FILE --port 7600"])
    p.add_argument("game", nargs="?", help="a shipped game's name (see: cityrules games) or a game folder; not with --resume")
    p.add_argument("--seats", metavar="KINDS",
                   help="who sits at each seat, comma-separated: human (joins with a code) or a bot "
                        "(bot, mcts, greedy, random, NAME:PROFILE, or your own player FILE.py:CLASS), e.g. human,human,bot "
                        "(no default: needed for a new table)")
    p.add_argument("--port", type=whole(0, "a port number"), default=DEFAULT_PORT,
                   help=f"the TCP port to listen on (default: {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                   help="the address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0 for "
                        "every network interface: a trusted network only)")
    p.add_argument("--seed", type=whole(what="the seed, a whole number"),
                   help="deal this game (default: a secret random seed, shown on the host when the game is over)")
    p.add_argument("--names", metavar="NAMES",
                   help="comma-separated seat names, one per seat, all different (default: Ana,Ben,Chloé,...)")
    p.add_argument("--journal", metavar="FILE",
                   help="save the game in this new file (never replaced); the seat codes go beside it in "
                        "FILE.codes (default: a new file in the sessions folder, as cityrules play)")
    p.add_argument("--resume", metavar="FILE",
                   help="continue a hosted game from its journal, with the same seat codes (read from FILE.codes) "
                        "(default: start a new table)")
    p.add_argument("--variant", metavar="NAME",
                   help="play a variant of the game, as listed by cityrules games (default: the plain game)")
    p.add_argument("--cap", type=whole(1, "a number of decisions"), default=DEFAULT_CAP, metavar="D",
                   help=f"stop a game that has not ended after D decisions, saved (default: {DEFAULT_CAP})")
    p.set_defaults(func=cmd_host)


