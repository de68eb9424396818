"""`cityrules validate`: check game folders and report every problem."""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruledsl.diagnostics import Diagnostic, Span, render_all

from ..load import check_cache
from ..load.files import real_folder
from ..load.games import resolve_game
from . import COMMANDS
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, sub_parser, whole

if TYPE_CHECKING:
    from ..core.game import Game
    from ..play.trial import Finding

# The loader, the compiler, the engine and the bots are imported only when a folder must really be
# checked or played: a folder whose check is in the cache is reported without them.

TRIAL_GAMES = 4
"""The trial games `validate` plays by default: seed 0 at this many seat counts and variants spread
over them (never a time budget: the same files give the same report on any machine)."""


def cmd_validate(args: argparse.Namespace) -> int:
    """Check game folders, then play a few seeded games; print every diagnostic."""
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
        where = check_cache.key(target, folder)
        cached = check_cache.load(where) if where is not None else None
        clean = cached is not None and not any(d.severity == "error" for d in cached.diags)
        mode = f"{args.fuzz or f'sample {TRIAL_GAMES}'}, cap {args.fuzz_cap}"
        trials = check_cache.load_trials(where, mode) if where is not None and clean and not args.no_play else None
        games: list[Game] = []
        if cached is not None and (args.no_play or not clean or trials is not None):
            diags, sources = list(cached.diags), dict(cached.sources)
        else:
            games, checked = _check_uncollected(folder, check_only=args.no_play)
            diags, sources = list(checked.diags), dict(checked.sources)
            # Kept only when the folder did not change while it was being checked.
            if where is not None and cached is None and check_cache.key(target, folder) == where:
                check_cache.store(where, checked)
        played = None
        if trials is not None:
            played, found = trials
            diags.extend(found)
        elif games and not any(d.severity == "error" for d in diags) and not args.no_play:
            played, found = _play(games, target, folder, sources, args)
            diags.extend(found)
            if where is not None and check_cache.key(target, folder) == where:
                check_cache.store_trials(where, mode, played, found)
        errors = [d for d in diags if d.severity == "error" or args.strict]
        warnings = [d for d in diags if not (d.severity == "error" or args.strict)]
        if args.format == "json":
            records.extend({**d.as_dict(), "severity": "error" if args.strict else d.severity} for d in diags)
        else:
            for text in render_all(diags, sources):
                print(text)
            ms = (time.perf_counter() - started) * 1000
            status = "ok" if not errors else "FAILED"
            games_played = f", {played} game(s) played" if played is not None else ""
            print(f"{target}: {status} ({len(errors)} error(s), {len(warnings)} warning(s){games_played}, {ms:.0f} ms)")
        if errors:
            worst = max(worst, EXIT_ERRORS)
    if args.format == "json":
        print(terminal_safe_json(json.dumps(records, ensure_ascii=False, indent=1)))
    return worst


def _check_uncollected(folder: Path, check_only: bool) -> tuple[list[Game], check_cache.Checked]:
    """`_check` with Python's cycle collector paused: checking makes many small objects (syntax trees,
    types, diagnostics) that live until it ends, so the collector's passes over them find nothing to
    free and cost about a tenth of an edited game's check. What a check holds is bounded by the game's
    files; the trial games that follow run with the collector on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _check(folder, check_only)
    finally:
        if was_enabled:
            gc.enable()


def _check(folder: Path, check_only: bool = False) -> tuple[list[Game], check_cache.Checked]:
    """Load a game folder and each of its variants, and read its scenario files: the games that loaded,
    and every diagnostic (each once) with the texts they quote. `check_only` (no trial games follow):
    the rules are checked without generating the code that runs them (the same diagnostics)."""
    from ..load.loader import check_game
    from ..workbench.check import check_folder
    from ..workbench.suite import display_path

    game, diags, sources = check_game(folder, check_only=check_only)
    games = [game] if game is not None else []
    seen = set(diags)
    for variant in game.variants if game else ():
        other, more, more_sources = check_game(folder, variant, check_only=check_only)
        sources.update(more_sources)
        games += [other] if other is not None else []
        for d in more:
            if d not in seen:
                seen.add(d)
                diags.append(d)
    scenario_diags, scenario_sources = check_folder(folder, game, display_path)
    diags += scenario_diags
    sources.update(scenario_sources)
    return games, check_cache.Checked(diags, sources)


def _play(games: list[Game], target: str, folder: Path, sources: dict[str, str],
          args: argparse.Namespace) -> tuple[int, list[Diagnostic]]:
    """Seeded bot games that build every screen: by default TRIAL_GAMES of them, with --fuzz N that
    many per seat count and variant, shared out over --jobs processes; each problem found becomes a
    diagnostic."""
    from ..core.engine import Engine
    from ..load.base import display_name
    from ..play.trial import QUICK, THOROUGH, every_trial, sample_trials, trial_games

    engines = [Engine(g) for g in games]
    trials = every_trial(engines, args.fuzz) if args.fuzz else sample_trials(engines, TRIAL_GAMES)
    report = trial_games(engines, trials, args.fuzz_cap, args.jobs or _cores(), THOROUGH if args.fuzz else QUICK)
    game_file = display_name(real_folder(folder), "game.yaml")
    start = _start_span(game_file, sources.get(game_file, ""))
    return report.played, [_diagnostic(f, target, start, args.fuzz_cap) for f in report.findings]


def _cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every system
        return os.cpu_count() or 1


_START = re.compile(r"^start:[ \t]*", re.MULTILINE)


def _start_span(game_file: str, text: str) -> Span:
    """Where game.yaml names the start phase: the place for problems of a whole game (it never ends)."""
    found = _START.search(text)
    if found is None:
        return Span(game_file, 1, 1)
    line = text.count("\n", 0, found.start()) + 1
    value = text[found.end():].split("\n", 1)[0].split("#", 1)[0].rstrip()
    return Span(game_file, line, len(found.group(0)) + 1, line, len(found.group(0)) + max(1, len(value)))


def _diagnostic(found: Finding, target: str, start: Span, cap: int) -> Diagnostic:
    """A trial game's finding as a diagnostic: where the rules failed (else where the game starts),
    and how to play that game again."""
    variant = f" --variant {found.variant}" if found.variant else ""
    if found.code == "screen":
        # simulate shows nothing; a session of bots builds every prompt, and stops where this one fails.
        bots = ",".join(["bot"] * found.seats)
        again = f"cityrules play {target} --seats {bots} --seed {found.seed}{variant}; it stops at decision {found.decisions + 1}"
    else:
        again = f"cityrules simulate {target} -n 1 --players {found.seats} --seed {found.seed}{variant}"
    if found.code == "no-end":
        again += f" --cap {cap}"
    where = f"{found.seats} seats, seed {found.seed}" + (f", variant {found.variant}" if found.variant else "")
    span = found.span or start
    hint = found.hint or f"reproduce: {again}"
    return Diagnostic(span, found.code, f"{found.message} ({where})", found.severity, hint=hint)


# Characters JSON may carry raw that a terminal obeys (C1 controls, line separators, bidi overrides)
# or that no terminal can be sent (lone surrogates): written as \u escapes, the same JSON text.
_RAW_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def terminal_safe_json(text: str) -> str:
    """JSON text (from json.dumps) with the characters a terminal would obey written as escapes."""
    return _RAW_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def add_parser(sub: Any) -> None:
    """The `validate` sub-command's arguments."""
    v = sub_parser(sub, "validate", COMMANDS["validate"],
                   "Check every file of each game: YAML, schema, board, rules (names, types, arity). Each "
                   "problem is reported with its file, line and column. Then, when the game is clean, play "
                   f"{TRIAL_GAMES} seeded games with bots (the same ones on every machine) that build every prompt "
                   "and screen, to find a game that never ends or a text that cannot be written; what they "
                   "found is kept until a file of the game changes. Exit status: 0 clean, 1 errors, 2 usage "
                   "problems.",
                   ["cityrules validate examples/harbour",
                    "cityrules validate GAME --strict     # GAME: a folder, or a name from cityrules games",
                    "cityrules validate examples/harbour --format json",
                    "cityrules validate GAME --fuzz 20"])
    v.add_argument("paths", nargs="+", metavar="GAME", help="game folders or shipped game names (see: cityrules games)")
    v.add_argument("--format", choices=["text", "json"], default="text",
                   help="text lines, or one JSON array of every diagnostic (default: text)")
    v.add_argument("--strict", action="store_true", help="treat warnings as errors (default: off)")
    v.add_argument("--no-play", action="store_true",
                   help=f"skip the seeded bot games played after a clean check (default: play {TRIAL_GAMES})")
    v.add_argument("--fuzz", type=whole(0, "a number of games"), default=0, metavar="N",
                   help=f"instead, play N seeded bot games at every seat count and variant (default: 0, "
                        f"{TRIAL_GAMES} games spread over the seat counts and variants)")
    v.add_argument("--jobs", type=whole(1, "a number of processes"), default=0, metavar="N",
                   help="play the trial games over N processes; the report is the same (default: every core)")
    v.add_argument("--fuzz-cap", type=whole(1, "a number of decisions"), default=20_000, metavar="D",
                   help="decisions after which a game counts as never ending (default: 20000)")
    v.set_defaults(func=cmd_validate)
