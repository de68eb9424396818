"""`cityrules schema`: write the JSON Schemas of game.yaml, board.yaml and component files for YAML editors."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..load.schema_check import SchemaName, draft7, load_schema
from . import COMMANDS
from .common import EXIT_OK, sub_parser

SCHEMAS: tuple[SchemaName, ...] = ("game", "board", "components")


def schema_text(name: SchemaName, draft: str) -> str:
    """A schema as written to disk: the one validate checks with (draft 2020-12), or its draft 7 form."""
    schema: Any = load_schema(name)
    if draft == "7":
        schema = {"$schema": "http://json-schema.org/draft-07/schema#", **draft7(schema)}  # type: ignore[dict-item]
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def cmd_schema(args: argparse.Namespace) -> int:
    """Write one file per schema into the output folder and say where each goes."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in SCHEMAS:
        path = out / f"{name}.schema.json"
        path.write_text(schema_text(name, args.draft), encoding="utf-8")
        print(path)
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `schema` sub-command's arguments."""
    p = sub_parser(sub, "schema", COMMANDS["schema"],
                   "Write game.schema.json, board.schema.json and components.schema.json, the schemas validate "
                   "checks the YAML files with, so that a YAML editor checks and completes them too "
                   "(see docs/editors.md).",
                   ["cityrules schema", "cityrules schema --out ~/schemas --draft 7"])
    p.add_argument("--out", default="schemas", metavar="DIR", help="folder to write them into (default: schemas)")
    p.add_argument("--draft", choices=["2020-12", "7"], default="2020-12",
                   help="JSON Schema draft: 2020-12 as validate uses it (default), "
                   "or 7 for editors that know only draft 7")
    p.set_defaults(func=cmd_schema)
