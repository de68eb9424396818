"""`cityrules replay`: re-run a journal and print its event log and result."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..core.engine import Engine
from ..core.journal import Journal
from ..core.public_log import changes, public_fields
from ..core.replay_check import may_be_private, replay_checked
from . import COMMANDS
from .common import EXIT_ERRORS, EXIT_OK, load_engine, sub_parser


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a journal and print its event log and result."""
    journal = Journal.load(Path(args.file))
    engine = load_engine(args.game or journal.game, journal.variant)
    report = replay_checked(engine, journal.seats, journal.seed, journal.names, journal.choices)
    if report.stop is not None:
        # The options now offered may show a seat's hand: listed only once the game is over (its seed
        # is shown then, which rebuilds everything) or when nothing in the game is private.
        reveal = journal.result is not None or not may_be_private(engine.game)
        print(printable(f"replay: {args.file}: " + report.stop.describe(journal.names, reveal), newlines=True),
              file=sys.stderr)
        return EXIT_ERRORS
    state = report.state
    if journal.result is not None and state["result"] != journal.result:
        print(f"replay: the result differs from the one recorded ({journal.result} vs {state['result']})",
              file=sys.stderr)
        return EXIT_ERRORS
    if args.json:
        for line in _json_lines(engine, journal):
            print(json.dumps(line, ensure_ascii=False))
        return EXIT_OK
    # Log lines and names come from rule files and the journal: shown with control characters escaped.
    for event in state["log"]:
        if event["to"] is None:
            print(printable(event["text"], newlines=True))
    if state["result"] is None:
        print(f"(the journal stops before the end, after {len(journal.choices)} choices)")
    else:
        result = engine.result(state)
        for fname, values in result.scores.items():
            print(printable(f"{fname}: " + ", ".join(f"{journal.names[i]} {v}" for i, v in enumerate(values))))
        print(printable("Winner(s): " + ", ".join(journal.names[i] for i in result.winners)))
    return EXIT_OK


def _json_lines(engine: Engine, journal: Journal) -> list[dict[str, Any]]:
    """The public record of a journal played again choice by choice: the public fields at the first
    decision, then each public event of the rules followed by the public fields it changed, and the
    result with every seat's summary fields. Nothing a seat alone (or nobody) sees is in it."""
    state = engine.new_game(journal.seats, journal.seed, journal.names)
    lines: list[dict[str, Any]] = []
    shown = 0

    def events() -> None:
        nonlocal shown
        for event in state["log"][shown:]:
            if event["to"] is None:
                lines.append({"kind": event["kind"], "seats": event["seats"], "data": event["data"],
                              "text": event["text"]})
        shown = len(state["log"])

    events()
    fields = public_fields(engine, state)
    lines.append({"kind": "fields", **fields})
    for seat, option in journal.choices:
        engine.apply_inplace(state, option, seat)
        events()
        now = public_fields(engine, state)
        lines += changes(fields, now)
        fields = now
    summary = _summary_fields(engine)
    lines.append({"kind": "result", **(state["result"] or {"winners": None}),
                  "seats": [{"name": name, **{f: fields["seat"][f][i] for f in summary}}
                            for i, name in enumerate(journal.names)]})
    return lines


def _summary_fields(engine: Engine) -> list[str]:
    """The public seat fields that sum a seat up: the score, the currency, the fields `score` follows."""
    g = engine.game
    wanted = [g.score_field, g.currency, *g.screen.follow]
    public = {f.name for f in g.seat_fields if f.visible == "all"}
    return [name for name in dict.fromkeys(wanted) if name is not None and name in public]


def add_parser(sub: Any) -> None:
    """The `replay` sub-command's arguments."""
    r = sub_parser(sub, "replay", COMMANDS["replay"],
                   "Re-run a journal (game, seats, seed and every choice by option id) and print the public "
                   "event log and the result. A journal whose recorded result differs is an error (exit 1), and so is "
                   "one with a choice the rules no longer accept (made with older rules): the report says which "
                   "choice, whose, why, and what the rules offer now.",
                   ["cityrules simulate examples/harbour -n 3 --journals /tmp/games",
                    "cityrules replay /tmp/games/harbour-4p-seed0.json",
                    "cityrules replay /tmp/games/harbour-4p-seed0.json --json | head -5"])
    r.add_argument("file", metavar="FILE", help="a journal written by play or simulate --journals")
    r.add_argument("--json", action="store_true",
                   help="one JSON object per line: the public fields at the start, each public event and each "
                        "change of a public field, then the result with every seat's summary fields (default: "
                        "text lines)")
    r.add_argument("--game", metavar="GAME",
                   help="the game to replay it with, when its folder has moved (default: the game the journal names)")
    r.set_defaults(func=cmd_replay)
