"""`cityrules play`: a terminal session, humans and bots at one table."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..agents import AGENTS, STRONG_BOT, CustomPlayerError, UnknownBot, ValueAgent, check_bot, is_custom, normal_name
from ..core.decision import DEFAULT_CAP
from ..core.engine import Engine
from ..core.journal import Journal
from ..core.savefile import check_target
from ..core.state import default_names
from ..load.loader import game_ref, resolve_game
from ..play.overview import overview
from ..play.saved import latest_unfinished, new_session_file, saved_sessions
from ..play.session import Seat, Session
from ..play.terminal import LineReader, terminal_console
from . import COMMANDS
from .common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    load_engine,
    seat_names,
    sessions_dir,
    sub_parser,
    whole,
)


def _check_kinds(kinds: list[str], engine: Engine, where: str) -> None:
    """Each seat is human or a bot the game can seat (a profile must be one of the game's)."""
    for kind in kinds:
        if kind == "human":
            continue
        if not is_custom(kind) and kind.partition(":")[0] not in AGENTS:
            raise UsageError(f"{where}unknown seat kind '{printable(kind)}': use human or a bot "
                             f"({', '.join(AGENTS)}, NAME:PROFILE with one of the game's bot profiles, or your "
                             "own player FILE.py:CLASS), e.g. --seats human,mcts,greedy")
        try:
            check_bot(kind, engine.game)
        except (UnknownBot, CustomPlayerError) as err:
            raise UsageError(f"{where}{err}") from None


def _seat_list(text: str, engine: Engine) -> list[str]:
    kinds = [normal_name(k) for k in text.split(",")]
    _check_kinds(kinds, engine, "")
    g = engine.game
    if not g.min_seats <= len(kinds) <= g.max_seats:
        raise UsageError(f"{g.title} is for {g.min_seats} to {g.max_seats} seats, --seats lists {len(kinds)}")
    return kinds


def _terminal_ready(kinds: list[str]) -> None:
    """A human seat needs input and output: say so now rather than fail at the first prompt."""
    if "human" not in kinds:
        return
    if sys.stdin is None or sys.stdin.closed:
        raise UsageError("standard input is closed: a human seat needs a keyboard (or --seats with bots only)")
    if sys.stdout is None or sys.stdout.closed:
        raise UsageError("standard output is closed: a human seat needs a screen (or --seats with bots only)")


def _untrained_note(engine: Engine, kinds: list[str]) -> None:
    """Bots of a game without a value trained on its rules judge by its declared evaluation: say so."""
    learned = {"bot", STRONG_BOT}
    if any(k.partition(":")[0] in learned for k in kinds) and not ValueAgent(0).judges(engine):
        print(printable(f"(The bots have no trained value for these rules and judge by the game's own evaluation: "
                        f"`cityrules train {engine.game.folder}` teaches them.)"))


def list_saved() -> int:
    """`play --resume` alone: the saved sessions, newest first."""
    folder = sessions_dir()
    found = saved_sessions(folder)
    if not found:
        print(f"No saved sessions in {folder}.")
        return EXIT_OK
    print(f"Saved sessions in {folder}, newest first:")
    for saved in found:
        print("  " + printable(saved.describe()))
    print("Resume one with:  cityrules play --resume FILE   (or --resume latest for the newest unfinished)")
    return EXIT_OK


def resume(args: argparse.Namespace) -> tuple[Engine, Journal, list[str], Path]:
    """The game, journal, seat kinds and file of a session to resume."""
    if args.resume == "latest":
        saved = latest_unfinished(sessions_dir())
        if saved is None or saved.journal is None:
            raise UsageError(f"no unfinished session in {sessions_dir()} to resume")
        path, journal = saved.path, saved.journal
    else:
        path = Path(args.resume)
        journal = Journal.load(path)
    kinds = journal.agents or ["human"] + ["bot"] * (journal.seats - 1)
    folder = resolve_game(journal.game).resolve()
    engine = load_engine(journal.game, journal.variant)
    _check_kinds(kinds, engine, printable(f"{path}: the journal's seats: "))
    variant = f", variant {journal.variant}" if journal.variant else ""
    print(printable(f"Resuming {path}: the game in {folder}{variant}, {len(journal.choices)} choice(s) made."))
    return engine, journal, kinds, path


def start(args: argparse.Namespace) -> tuple[Engine, Journal, list[str], Path]:
    """A new session: its game, journal (saved at once under a name no session uses), seat kinds and file."""
    engine = load_engine(args.game, args.variant)
    g = engine.game
    default = ",".join(["human"] + [STRONG_BOT] * (max(g.min_seats, min(4, g.max_seats)) - 1))
    kinds = _seat_list(args.seats if args.seats is not None else default, engine)
    names = seat_names(args.names, len(kinds)) if args.names is not None else default_names(len(kinds))
    _terminal_ready(kinds)
    # A seed the players did not choose rebuilds every hidden card and bot answer: it comes from the
    # system's secure source and is shown only once the game is over.
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    journal = Journal(game_ref(g), len(kinds), seed, names, kinds, variant=args.variant)
    if args.journal:
        path = Path(args.journal)
        check_target(path)
        journal.save(path, new=True)
    else:
        path = new_session_file(sessions_dir(), g.name, journal)
    told = f", seed {seed}" if args.seed is not None else ""
    print(printable(f"{g.title}{told}. Seats: " + ", ".join(f"{n} ({k})" for n, k in zip(names, kinds))))
    if g.reconstructed_board:
        print("(The board layout is a reconstruction: see the game's board.yaml.)")
    _untrained_note(engine, kinds)
    print("Type 'help' at any prompt. The game is saved after every choice, in:")
    print(printable(f"  {path}"))
    # A new player meets the whole game once before its first question ('rules all' shows it again).
    print()
    console = terminal_console()
    for line in overview(g, min(console.width if console is not None else 80, 100)):
        print(line.plain)
    return engine, journal, kinds, path


def cmd_play(args: argparse.Namespace) -> int:
    """A terminal session; resumable from its journal."""
    if args.resume == "":
        return list_saved()
    if args.resume is not None:
        if args.game or args.seats is not None or args.names is not None or args.seed is not None \
                or args.journal or args.variant:
            raise UsageError("--resume takes the game, seats, names, seed and variant from the journal: "
                             "give none of them")
        engine, journal, kinds, path = resume(args)
        _terminal_ready(kinds)
        from ..play.watch import check_resume  # (loaded when needed: see COMMANDS in __init__.py)

        checked = check_resume(engine, journal, kinds, path)
        if checked is None:
            print(printable(f"Nothing was changed: {path} is as it was."))
            return EXIT_ERRORS
        journal, path = checked
    elif not args.game:
        print("cityrules play: name a game (see: cityrules games), or --resume FILE", file=sys.stderr)
        return EXIT_USAGE
    else:
        engine, journal, kinds, path = start(args)
    seats = [Seat(k, n) for k, n in zip(kinds, journal.names)]
    if args.watch:
        from ..play.watch import Watched

        Watched(engine, journal, seats, path, resolve_game(journal.game).resolve(), args.cap).run()
    else:
        Session(engine, journal, seats, path, cap=args.cap, read=LineReader(), console=terminal_console()).run()
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `play` sub-command's arguments."""
    pl = sub_parser(sub, "play", COMMANDS["play"],
                    "Play a game in the terminal. Every choice is saved at once in a journal, so a session "
                    "that is closed, interrupted (Ctrl-C, Ctrl-D, 'quit') or killed continues with --resume.",
                    ["cityrules play GAME                # you against bots; GAME: see cityrules games",
                     "cityrules play examples/harbour --seats human,human,bot --names Ana,Ben,Cy",
                     "cityrules play examples/harbour --seats human,mcts:builder,greedy",
                     "cityrules play GAME --variant NAME --seed 7",
                     "cityrules play --resume           # list the saved sessions, newest first",
                     "cityrules play --resume latest",
                     "cityrules play examples/harbour --watch   # edit the rules while you play"])
    pl.add_argument("game", nargs="?",
                    help="a shipped game's name (see: cityrules games) or a game folder; not with --resume")
    pl.add_argument("--seats", metavar="KINDS",
                    help="who sits at each seat, comma-separated: human, or a bot: bot (the default bot, mcts), "
                         "mcts, greedy, random, NAME:PROFILE for one of the game's bot profiles, or your own player "
                         "FILE.py:CLASS or package.module:CLASS (see docs/bots.md) (default: you "
                         "and bots, 4 seats where the game allows, e.g. human,bot,bot,bot); several humans share "
                         "the screen in turn")
    pl.add_argument("--seed", type=whole(what="the seed, a whole number"),
                    help="deal this game (default: a secret random seed, shown when the game is over)")
    pl.add_argument("--names", metavar="NAMES",
                    help="comma-separated seat names, one per seat, all different (default: Ana,Ben,Chloé,...)")
    pl.add_argument("--journal", metavar="FILE",
                    help="save the game in this new file; an existing file is never replaced (default: a new "
                         "file GAME-DATE-TIME.json in $XDG_STATE_HOME/cityrules/sessions, "
                         "~/.local/state/cityrules/sessions when unset)")
    pl.add_argument("--resume", nargs="?", const="", metavar="FILE",
                    help="continue a saved game from its journal; 'latest' for the newest unfinished one; "
                         "alone, list the saved sessions (default: start a new game)")
    pl.add_argument("--variant", metavar="NAME",
                    help="play a variant of the game, as listed by cityrules games (default: the plain game)")
    pl.add_argument("--cap", type=whole(1, "a number of decisions"), default=DEFAULT_CAP, metavar="D",
                    help=f"stop a game that has not ended after D decisions, saved and reported unfinished "
                         f"(default: {DEFAULT_CAP})")
    pl.add_argument("--watch", action="store_true",
                    help="follow the game folder while playing: when a rule or data file is saved, check it and, "
                         "if clean, replay the game onto the new rules and go on from the same point; a choice "
                         "the new rules refuse is reported, with an offer to go on from there in a new file "
                         "(default: the rules are read once)")
    pl.set_defaults(func=cmd_play)
