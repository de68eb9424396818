"""`cityrules lsp`: the language server for game folders, over standard input and output."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import COMMANDS
from .common import EXIT_OK, EXIT_USAGE, sub_parser


def cmd_lsp(args: argparse.Namespace) -> int:
    """Serve the Language Server Protocol on stdin/stdout until the editor ends the session."""
    try:
        from ..lsp.server import serve
    except ImportError as err:
        print(f"cityrules lsp needs the lsp extra: pip install 'cityrules[lsp]' ({err})", file=sys.stderr)
        return EXIT_USAGE
    serve()
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `lsp` sub-command's arguments."""
    p = sub_parser(sub, "lsp", COMMANDS["lsp"],
                   "Speak the Language Server Protocol on standard input and output: validate's diagnostics as "
                   "you type, go to definition, hover and completion for .rules files, the game's YAML files and "
                   "scenario files. Editors start it themselves; docs/editors.md says how to set one up.",
                   ["cityrules lsp", ".venv/bin/cityrules lsp --stdio"])
    p.add_argument("--stdio", action="store_true",
                   help="accepted for editors that pass it; stdio is the only transport and the default")
    p.set_defaults(func=cmd_lsp)
