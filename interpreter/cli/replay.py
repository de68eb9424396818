"""`cityrules replay`: re-run a journal and print its event log and result."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..core.journal import Journal, replay
from . import COMMANDS
from .common import EXIT_ERRORS, EXIT_OK, load_engine


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a journal and print its event log and result."""
    journal = Journal.load(Path(args.file))
    engine = load_engine(args.game or journal.game, journal.variant)
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


def add_parser(sub: Any) -> None:
    """The `replay` sub-command's arguments."""
    r = sub.add_parser("replay", help=COMMANDS["replay"])
    r.add_argument("file")
    r.add_argument("--json", action="store_true", help="one JSON object per event")
    r.add_argument("--game", help="game folder, when the journal's game is not a shipped one")
    r.set_defaults(func=cmd_replay)
