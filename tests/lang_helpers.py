"""Helpers for the language tests: parse snippets and build tiny games in a temporary folder."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import yaml

from interpreter.core.engine import Engine
from interpreter.load.loader import check_game
from ruledsl.diagnostics import Diagnostic
from ruledsl.syntax import ast as A
from ruledsl.syntax.parser import parse_expression, parse_rules

RULES_FILE = "x.rules"


# ------------------------------------------------------------------ parsing


def parse_ok(source: str) -> A.RulesFile:
    """Parse rules text that must be valid."""
    tree, diags = parse_rules(textwrap.dedent(source), RULES_FILE)
    assert diags == [], diags
    assert tree is not None
    return tree


def parse_bad(source: str) -> Diagnostic:
    """Parse rules text that must have exactly one syntax error; return it."""
    tree, diags = parse_rules(textwrap.dedent(source), RULES_FILE)
    assert tree is None
    assert len(diags) == 1, diags
    assert diags[0].code == "syntax"
    assert diags[0].span.file == RULES_FILE
    return diags[0]


def expr(source: str) -> A.Expr:
    """Parse one expression that must be valid."""
    tree, diags = parse_expression(source, "expr")
    assert diags == [], diags
    assert tree is not None
    return tree


def phase_body(source: str) -> tuple[A.Stmt, ...]:
    """The statements of `phase main:` with the given (unindented) body."""
    body = textwrap.indent(textwrap.dedent(source), "    ")
    tree = parse_ok("phase main:\n" + body)
    return tree.phases[0].body


def stmt(source: str) -> A.Stmt:
    """The single statement of a phase body."""
    body = phase_body(source)
    assert len(body) == 1, body
    return body[0]


# -------------------------------------------------------------- tiny games


def write_game(folder: Path, rules: str | dict[str, str], *, seat: dict[str, Any] | None = None,
               global_: dict[str, Any] | None = None, node: dict[str, Any] | None = None,
               tables: dict[str, Any] | None = None, board: dict[str, Any] | None = None,
               start: str = "main", seats: tuple[int, int] = (1, 4), extra: dict[str, Any] | None = None,
               other_files: dict[str, str] | None = None) -> Path:
    """Write game.yaml (+ board.yaml) and the rules file(s) of a tiny game into `folder`.

    `rules` is the text of x.rules, or a dict {file name: text} for several files. Fields are
    given in the short form {name: (type, initial)} or the full YAML form {name: {...}}. `extra`
    adds top-level keys of game.yaml (`names`, `components`...) and `other_files` other files (a
    component file), written as given.
    """
    for name, text in (other_files or {}).items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    files = {RULES_FILE: rules} if isinstance(rules, str) else rules
    state: dict[str, Any] = {}
    for key, fields in (("seat", seat), ("global", global_), ("node", node)):
        if fields:
            state[key] = {name: spec if isinstance(spec, dict) else {"type": spec[0], "initial": spec[1]}
                          for name, spec in fields.items()}
    data: dict[str, Any] = {"name": "tiny", "title": "Tiny", "seats": {"min": seats[0], "max": seats[1]},
                            "rules": list(files), "start": start, "state": state}
    if tables:
        data["tables"] = tables
    data.update(extra or {})
    if board is not None:
        data["board"] = "board.yaml"
        (folder / "board.yaml").write_text(yaml.safe_dump(board, sort_keys=False), encoding="utf-8")
    (folder / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def check(folder: Path, rules: str | dict[str, str], **kw: Any) -> tuple[Any, list[Diagnostic]]:
    """Write and check a tiny game: (game or None, every diagnostic)."""
    write_game(folder, rules, **kw)
    game, diags, _ = check_game(folder)
    return game, diags


def errors(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity == "error"]


def warnings(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity == "warning"]


def load(folder: Path, rules: str | dict[str, str], **kw: Any) -> Any:
    """A tiny game that must compile without errors."""
    game, diags = check(folder, rules, **kw)
    assert errors(diags) == [], diags
    assert game is not None
    return game


def engine(folder: Path, rules: str | dict[str, str], **kw: Any) -> Engine:
    """An engine for a tiny game that must compile."""
    return Engine(load(folder, rules, **kw))


LINE_BOARD = {
    "nodes": [{"id": 1, "colour": "red"}, {"id": 2, "colour": "blue"}, {"id": 3, "colour": "red"}],
    "edges": [[1, 2], [2, 3]],
}
"""Three nodes in a line, each with a fixed `colour` attribute."""


def building_rules(rounds: int, log: bool = False) -> str:
    """A tiny game for journals and rule edits: each seat in turn picks a kind of building, `rounds`
    times over, and scores its name's length (`log`: each pick is also an event)."""
    event = '            log built(seat=s, kind=kind) "{s} builds a {kind}"\n' if log else ""
    return ("phase main:\n"
            f"    for r in range({rounds}):\n"
            "        for s in seats:\n"
            '            choose kind from ["house", "shop", "park"] by s "{s}, build what?"\n'
            "            s.score += len(kind)\n"
            f"{event}"
            "    end winners seats\n")
