"""The `cityrules` command: validate, play, simulate, replay."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from ruledsl.diagnostics import RuleFileError, render

from .decision import IllegalChoice
from .engine import Engine
from .errors import RuleError
from .journal import Journal, replay
from .loader import check_game, game_ref, load_game, resolve_game, shipped_games
from .session import Seat, Session
from .game import Game
from .simulate import play_bots, simulate
from .state import default_names

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def _sessions_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cityrules" / "sessions"


def _load(name: str, variant: str | None = None) -> Engine:
    return Engine(load_game(name, variant))


# ------------------------------------------------------------------ validate
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
        errors = [d for d in diags if d.severity == "error" or args.strict]
        warnings = [d for d in diags if d not in errors]
        if args.format == "json":
            records.extend({**d.as_dict(), "severity": "error" if d in errors else d.severity} for d in diags)
        else:
            for d in diags:
                print(render(d, sources.get(d.span.file)))
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


# ---------------------------------------------------------------------- play
def _seat_list(text: str, engine: Engine) -> list[str]:
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if k not in ("human", "bot")]
    if bad:
        raise ValueError(f"unknown seat kind '{bad[0]}': use human or bot, e.g. --seats human,bot,bot")
    g = engine.game
    if not g.min_seats <= len(kinds) <= g.max_seats:
        raise ValueError(f"{g.title} is for {g.min_seats} to {g.max_seats} seats, --seats lists {len(kinds)}")
    return kinds


def cmd_play(args: argparse.Namespace) -> int:
    """A terminal session; resumable from its journal."""
    if args.resume:
        journal = Journal.load(Path(args.resume))
        engine = _load(journal.game, journal.variant)
        kinds = journal.agents or ["human"] + ["bot"] * (journal.seats - 1)
        save = Path(args.resume)
    else:
        if not args.game:
            print("play: name a game (see: cityrules games) or --resume FILE", file=sys.stderr)
            return EXIT_USAGE
        engine = _load(args.game, args.variant)
        g = engine.game
        default = ",".join(["human"] + ["bot"] * (max(g.min_seats, min(4, g.max_seats)) - 1))
        kinds = _seat_list(args.seats or default, engine)
        seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
        names = [n.strip() for n in args.names.split(",")] if args.names else default_names(len(kinds))
        if len(names) != len(kinds):
            print(f"play: --names gives {len(names)} names for {len(kinds)} seats", file=sys.stderr)
            return EXIT_USAGE
        journal = Journal(game_ref(g), len(kinds), seed, names, kinds, variant=args.variant)
        save = Path(args.journal) if args.journal else _sessions_dir() / f"{g.name}-seed{seed}.json"
        print(f"{g.title}, seed {seed}. Seats: " + ", ".join(f"{n} ({k})" for n, k in zip(names, kinds)))
        if g.reconstructed_board:
            print("(The board layout is a reconstruction: see the game's board.yaml.)")
        print("Type 'help' at any prompt. The game is saved after every choice.")
    seats = [Seat(k, n) for k, n in zip(kinds, journal.names)]
    Session(engine, journal, seats, save).run()
    return EXIT_OK


# ------------------------------------------------------------------ simulate
def cmd_simulate(args: argparse.Namespace) -> int:
    """Bot games and their statistics."""
    engine = _load(args.game, args.variant)
    g = engine.game
    seats = args.players or max(g.min_seats, min(4, g.max_seats))
    if not g.min_seats <= seats <= g.max_seats:
        print(f"simulate: {g.title} is for {g.min_seats} to {g.max_seats} players, not {seats}", file=sys.stderr)
        return EXIT_USAGE
    report = simulate(engine, args.n, seats, args.seed, Path(args.journals) if args.journals else None,
                      args.cap)
    data = report.as_dict()
    if args.json:
        print(json.dumps(data, indent=1))
        return EXIT_OK
    names = default_names(seats)
    score = g.score_field or "score"
    variant = f", variant {g.variant}" if g.variant else ""
    print(f"{g.title}{variant}: {data['games']} games, {seats} players, seeds {args.seed}..{args.seed + args.n - 1}")
    print(f"  {'seat':<8} {'wins':>6} {'win rate':>9} {'mean ' + score:>12}")
    for i in range(seats):
        print(f"  {names[i]:<8} {data['wins'][i]:>6} {data['win_rate'][i]:>9.1%} {data['mean_score'][i]:>12.1f}")
    capped = f" (stopped at the cap of {args.cap} decisions; not counted as wins)" if args.cap else ""
    print(f"  shared wins: {data['shared_wins']}   unfinished: {data['unfinished']}{capped}")
    if data["mean_rounds"] is not None:
        print(f"  rounds per game: {data['mean_rounds']:.2f}")
    print(f"  decisions per game: {data['mean_decisions']:.1f}")
    print(f"  wall time: {data['seconds']:.2f} s   ({data['games_per_second']} games/s)")
    if args.journals:
        print(f"  journals written to {args.journals}")
    return EXIT_OK


# -------------------------------------------------------------------- replay
def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a journal and print its event log and result."""
    journal = Journal.load(Path(args.file))
    engine = _load(args.game or journal.game, journal.variant)
    state = replay(engine, journal)
    if journal.result is not None and state["result"] != journal.result:
        print(f"replay: the result differs from the one recorded ({journal.result} vs {state['result']})",
              file=sys.stderr)
        return EXIT_ERRORS
    if args.json:
        for event in state["log"]:
            if event["to"] is None:
                print(json.dumps({"kind": event["kind"], "seats": event["seats"], "data": event["data"],
                                  "text": event["text"]}, ensure_ascii=False))
        print(json.dumps({"kind": "result", **(state["result"] or {"winners": None})}))
        return EXIT_OK
    for event in state["log"]:
        if event["to"] is None:
            print(event["text"])
    if state["result"] is None:
        print(f"(the journal stops before the end, after {len(journal.choices)} choices)")
    else:
        result = engine.result(state)
        for fname, values in result.scores.items():
            print(f"{fname}: " + ", ".join(f"{journal.names[i]} {v}" for i, v in enumerate(values)))
        print("Winner(s): " + ", ".join(journal.names[i] for i in result.winners))
    return EXIT_OK


def cmd_games(args: argparse.Namespace) -> int:
    """List the shipped games."""
    for name in shipped_games():
        g = load_game(name)
        print(f"{name:<12} {g.title} ({g.min_seats}-{g.max_seats} seats)")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    p = argparse.ArgumentParser(prog="cityrules", description="Rules-as-data city-building board games.")
    sub = p.add_subparsers(dest="command", required=True)

    v = sub.add_parser("validate", help="check game folders and report every problem")
    v.add_argument("paths", nargs="+", help="game folders or shipped game names")
    v.add_argument("--format", choices=["text", "json"], default="text")
    v.add_argument("--strict", action="store_true", help="treat warnings as errors")
    v.add_argument("--fuzz", type=int, default=0, metavar="N",
                   help="then play N seeded random games at every seat count and report runtime problems")
    v.add_argument("--fuzz-cap", type=int, default=20_000, metavar="D",
                   help="decisions after which a fuzzed game counts as never ending (default 20000)")
    v.set_defaults(func=cmd_validate)

    pl = sub.add_parser("play", help="play in the terminal, humans and bots")
    pl.add_argument("game", nargs="?", help="a shipped game's name or a game folder")
    pl.add_argument("--seats", help="comma-separated human/bot, e.g. human,bot,bot,bot")
    pl.add_argument("--seed", type=int)
    pl.add_argument("--names", help="comma-separated seat names")
    pl.add_argument("--journal", help="where to save the game (default: a file under ~/.local/state/cityrules)")
    pl.add_argument("--resume", help="continue a saved game from its journal")
    pl.add_argument("--variant", help="play a variant of the game (see its game.yaml options)")
    pl.set_defaults(func=cmd_play)

    s = sub.add_parser("simulate", help="play many bot games and report the figures")
    s.add_argument("game")
    s.add_argument("-n", type=int, default=100, help="number of games")
    s.add_argument("--players", type=int)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--json", action="store_true")
    s.add_argument("--journals", help="write each game's journal into this folder")
    s.add_argument("--variant", help="simulate a variant of the game")
    s.add_argument("--cap", type=int, help="stop a game after this many decisions (reported as unfinished)")
    s.set_defaults(func=cmd_simulate)

    r = sub.add_parser("replay", help="replay a journal: event log and result")
    r.add_argument("file")
    r.add_argument("--json", action="store_true", help="one JSON object per event")
    r.add_argument("--game", help="game folder, when the journal's game is not a shipped one")
    r.set_defaults(func=cmd_replay)

    g = sub.add_parser("games", help="list the shipped games")
    g.set_defaults(func=cmd_games)
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


if __name__ == "__main__":
    entry()
