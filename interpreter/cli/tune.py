"""`cityrules tune`: search a game's numbers for a balance target; write the best as a variant."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..analysis.batch import BatchFailed
from ..analysis.figures import batch_figures
from ..analysis.text import num, num_ci, pct, pct_ci
from ..analysis.tune import (
    LOSS_WORDS,
    TRIAL_VARIANT,
    CandidateFolder,
    GameNumbers,
    Knob,
    Target,
    Trial,
    add_variant,
    loss,
    parse_knob,
    parse_target,
    search,
    variant_values,
)
from ..load.loader import load_game
from . import COMMANDS
from .batch_args import add_batch_arguments, batch_failed_message, batch_spec, play
from .common import EXIT_ERRORS, EXIT_OK, load_engine, sub_parser, whole


def cmd_tune(args: argparse.Namespace) -> int:
    """Search, confirm on fresh seeds, report, and write the variant."""
    game = load_engine(args.game, args.variant).game
    knobs = [parse_knob(v) for v in args.vary]
    targets = [parse_target(t) for t in args.target]
    numbers = GameNumbers(game.folder, args.variant)
    tables = numbers.tables
    start = {k: numbers.value(k) for k in knobs}
    spec = batch_spec(args, game)
    candidates = CandidateFolder(game.folder)
    log = sys.stderr

    def in_tables(values: dict[Knob, int]) -> dict[Knob, int]:
        return {k: v for k, v in values.items() if numbers.kind(k) == "table"}

    def evaluate(values: dict[Knob, int], first_seed: int = args.seed, games: int = args.n) -> Trial:
        folder = candidates.make(variant_values(game.folder, args.variant, tables, in_tables(values)),
                                 lambda copy: numbers.write(copy, values))
        try:
            trial_game = load_game(str(folder), TRIAL_VARIANT)
            trial_spec = replace(spec, folder=str(folder), variant=TRIAL_VARIANT, first_seed=first_seed, games=games)
            result = play(args, trial_spec, "tune: " + ", ".join(f"{k.name}={v}" for k, v in values.items()))
            figures = batch_figures(trial_game, result)
        finally:
            candidates.drop(folder)
        return Trial({k.name: v for k, v in values.items()}, loss(targets, figures), figures)

    try:
        trials: list[Trial] = []
        for trial in search(knobs, args.trials, args.seed, evaluate, start):
            trials.append(trial)
            if not args.json:
                print(f"  trial {len(trials):>3}: {_values_text(trial.values)}  loss {trial.loss:.3f}", file=log)
        best = min(trials, key=lambda t: t.loss)
        confirm = args.confirm or args.n
        best_values = {k: best.values[k.name] for k in knobs}
        confirmed = evaluate(best_values, args.seed + args.n, confirm)
        baseline = next((t for t in trials if t.values == {k.name: v for k, v in start.items()}), None)
    except BatchFailed as err:
        print(batch_failed_message("simulate", args.game, spec.seats, err.seed, err.report), file=sys.stderr)
        return EXIT_ERRORS
    finally:
        candidates.close()
    written = None
    not_tables = [k for k in knobs if numbers.kind(k) != "table"]
    if not args.no_write and not not_tables:
        description = (f"Found by cityrules tune for {'; '.join(t.describe() for t in targets)} "
                       f"({args.trials} trials of {args.n} games, confirmed on {confirm} fresh seeds)")
        written = add_variant(game.folder, args.name, description,
                              variant_values(game.folder, args.variant, tables, best_values),
                              lambda folder, name: load_game(str(folder), name))
    data = _summary(args, knobs, targets, trials, best, confirmed, baseline, written)
    data["vary"] = [{**row, "where": numbers.where(k), "game_value": start[k]} for row, k in zip(data["vary"], knobs)]
    if not_tables and not args.no_write:
        data["variant"]["not_written"] = ("a variant replaces tables only, and " + ", ".join(k.name for k in not_tables)
                                          + (" is" if len(not_tables) == 1 else " are") + " not in a table: "
                                          "write the best values into the files by hand")
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        print("\n".join(_lines(data, targets, confirmed)))
    return EXIT_OK


def _values_text(values: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _target_rows(targets: list[Target], figures: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for t in targets:
        value, miss = t.measure(figures)
        rows.append({"target": t.text, "meaning": t.describe(), "value": None if value is None else round(value, 3),
                     "met": miss == 0, "miss": round(miss, 3), "explained": t.explain(figures)})
    return rows


def _summary(args: argparse.Namespace, knobs: list[Knob], targets: list[Target], trials: list[Trial], best: Trial,
             confirmed: Trial, baseline: Trial | None, written: Path | None) -> dict[str, Any]:
    f = confirmed.figures
    return {
        "game": f["game"], "game_arg": args.game, "base_variant": args.variant, "targets": [t.text for t in targets],
        "vary": [{"name": k.name, "low": k.low, "high": k.high} for k in knobs],
        "trials": [{"values": t.values, "loss": round(t.loss, 4)} for t in trials],
        "best": {"values": best.values, "loss": round(best.loss, 4), "search_targets": _target_rows(targets, best.figures)},
        "loss_means": LOSS_WORDS,
        "baseline": None if baseline is None else {"values": baseline.values, "loss": round(baseline.loss, 4),
                                                   "targets": _target_rows(targets, baseline.figures)},
        "confirmed": {"seeds": f["seeds"], "games": f["games"], "targets": _target_rows(targets, f),
                      "win_rate": f["win_rate"], "win_rate_ci": f["win_rate_ci"],
                      "first_seat_advantage": f["first_seat_advantage"],
                      "mean_rounds": f["mean_rounds"], "mean_rounds_ci": f["mean_rounds_ci"],
                      "rounds_quantiles": f["rounds"]["quantiles"] if f["rounds"] else None,
                      "margin": {"mean": f["margin"]["mean"], "ci": f["margin"]["ci"]}},
        "variant": {"name": args.name, "written_to": str(written) if written else None},
    }


def _lines(data: dict[str, Any], targets: list[Target], confirmed: Trial) -> list[str]:
    f = confirmed.figures
    best = data["best"]
    lines = [printable(f"Best values among {len(data['trials'])} different candidates: {_values_text(best['values'])}")]
    for row in data["vary"]:
        lines.append(printable(f"  {row['name']}: {row['where']}; the game has {row['game_value']}, "
                               f"searched {row['low']}..{row['high']}"))
    if data["baseline"] is not None:
        lines.append(printable(f"  the game's own values ({_values_text(data['baseline']['values'])}) scored loss "
                               f"{data['baseline']['loss']:.3f}; the best {best['loss']:.3f}"))
    lines.append(f"  ({data['loss_means']})")
    c = data["confirmed"]
    lines.append(f"Measured again on {c['games']} fresh games (seeds {c['seeds']['first']}..{c['seeds']['last']}):")
    for row in c["targets"]:
        lines.append(printable(f"  {'met' if row['met'] else 'MISSED':<6} {row['meaning']}: {num(row['value'], 2)} "
                               f"({row['explained']})"))
    lines.append("  win rate by seat: " + ", ".join(
        f"{n} {pct(r)} ({pct_ci(ci)})" for n, r, ci in zip(f["names"], f["win_rate"], f["win_rate_ci"])))
    fs = f["first_seat_advantage"]
    if fs["value"] is not None:
        lines.append(f"  first-seat advantage: {100 * fs['value']:+.1f} points "
                     f"({100 * fs['ci'][0]:+.1f} to {100 * fs['ci'][1]:+.1f})")
    if f["mean_rounds"] is not None:
        lines.append(f"  rounds: mean {num(f['mean_rounds'], 2)} ({num_ci(f['mean_rounds_ci'], 2)}), "
                     f"median {f['rounds']['quantiles']['median']}")
    v = data["variant"]
    if v["written_to"]:
        lines.append(printable(f"Written as variant '{v['name']}' in {v['written_to']}: "
                               f"cityrules play {data['game_arg']} --variant {v['name']}"))
    elif v.get("not_written"):
        lines.append(printable(f"Not written as a variant: {v['not_written']}."))
    else:
        lines.append("Not written (--no-write).")
    return lines


def add_parser(sub: Any) -> None:
    """The `tune` sub-command's arguments."""
    s = sub_parser(sub, "tune", COMMANDS["tune"],
                   "Targets: fair[:POINTS] (every seat's win rate within ±POINTS of the average), "
                   "first-seat[:POINTS], rounds:LO..HI (median rounds), margin:LO..HI (mean winning margin). "
                   "Each candidate plays -n games on the same seeds (Optuna's TPE search); the best is measured "
                   "again on fresh seeds and written into the game's game.yaml as a variant. See docs/balance.md.",
                   ["cityrules tune FOLDER --vary TABLE=1..3 --target fair:3 -n 2000 --trials 30",
                    "cityrules tune FOLDER --vary ITEM.ATTRIBUTE=4..8 --vary seat.money=20..40 --target fair:3",
                    "cityrules tune FOLDER --vary TABLE.KEY.1=1..4 --target rounds:11..13 --no-write --json"])
    s.add_argument("game", metavar="GAME", help="a game folder (or a shipped game's name)")
    s.add_argument("--vary", action="append", required=True, metavar="NAME=LO..HI",
                   help="a whole number and the range to search: TABLE.KEY (inside a table), ITEM.ATTRIBUTE (an "
                        "item's attribute, by its id as its component file writes it, every copy) or SCOPE.FIELD "
                        "(a state field's initial value, as seat.money) (repeatable; default: none, required)")
    s.add_argument("--target", action="append", required=True, metavar="TARGET",
                   help="a balance target, as listed above (repeatable; default: none, required)")
    s.add_argument("--trials", type=whole(1, "a number of trials"), default=20,
                   help="candidates to try (default: 20)")
    s.add_argument("--confirm", type=whole(1, "a number of games"),
                   help="games to measure the best on, on fresh seeds (default: -n)")
    s.add_argument("--name", default="tuned", help="the variant's name (default: tuned)")
    s.add_argument("--no-write", action="store_true", help="report only; leave game.yaml alone (default: write)")
    s.add_argument("--variant", metavar="NAME", help="start from this variant of the game (default: the plain game)")
    add_batch_arguments(s, restrict=False)
    s.add_argument("--json", action="store_true", help="print the search and its result as JSON (default: text)")
    s.set_defaults(func=cmd_tune)
