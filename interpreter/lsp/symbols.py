"""What every name of a game means and where it is written: for go to definition, hover and completion.

Built from the texts the last check read (so it follows unsaved edits), from the game.yaml data
(fields with their `description`, tables, component kinds), the board and component files
(attributes), and the rules files' syntax trees (phases, formulas, and the locals of each
phase or formula). Types come from the loaded game when it loads; a game with errors still gets
its names and places.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruledsl.builtins import BUILTINS
from ruledsl.check.exprtypes import CONSTANTS, KEYWORDS
from ruledsl.diagnostics import Span
from ruledsl.syntax import ast as A
from ruledsl.syntax.parser import parse_block, parse_rules

from ..core.game import Game
from ..load.components import code_start
from ..load.yamlsource import PositionMap, load_yaml_text
from ..workbench.suite import display_path
from .infer import Types, declared_type
from .project import GAME_FILE

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A rules file that does not parse (a line being typed) still names its phases and formulas.
_DEFINITION = re.compile(r"^(phase|formula)[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)
# Names reached after a '.': fields and attributes of seats, nodes and items.
MEMBER_KINDS = ("seat field", "node field", "item field", "board attribute", "item attribute")
# A plain name is looked up in this order (docs/language.md, "Names and what they mean").
PLAIN_ORDER = ("global field", "table", "constant", "collection", "formula", "builtin", "phase",
               "component kind", *MEMBER_KINDS, "decision")


@dataclass(frozen=True)
class Symbol:
    """A name of the game: what it is, where it is defined, its signature or type, its description."""

    name: str
    kind: str
    span: Span | None
    detail: str
    doc: str = ""
    owner: str = ""     # a field's or attribute's owner: seat, node, global or a component kind
    type: str = ""      # its type as written in the rules ("" when unknown)


@dataclass(frozen=True)
class Unit:
    """A piece of rules code: a phase or formula of a rules file, or an item's ability in its YAML file."""

    node: A.Phase | A.Formula
    where: str                      # "phase NAME", "formula NAME", "ability NAME of ITEM"
    params: tuple[Symbol, ...]


@dataclass(frozen=True)
class Cursor:
    """The word under (or just before) the cursor, and what stands before it."""

    word: str
    span: Span
    after_dot: bool
    after_run: bool


def word_at(text: str, file: str, line: int, column: int) -> Cursor | None:
    """The identifier at a 1-based position of a text (the cursor may stand just after it)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    here = lines[line - 1]
    for found in _WORD.finditer(here):
        if found.start() < column <= found.end() + 1:
            before = here[:found.start()].rstrip()
            return Cursor(found.group(0), Span(file, line, found.start() + 1, line, found.end()),
                          before.endswith("."), re.search(r"\brun$", before) is not None)
    return None


_YAML_KEPT = 24
_YAML_READ: dict[tuple[str, str], tuple[Any, PositionMap]] = {}
_TOKEN = re.compile(r"[A-Za-z0-9_.-]+")   # one character class: linear on any line
_FILE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\.(?:rules|ya?ml)")


def file_at(text: str, line: int, column: int) -> str | None:
    """The name of a game file written at a 1-based position (`rules: [round.rules]`), or None."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    for found in _TOKEN.finditer(lines[line - 1]):
        if found.start() < column <= found.end():
            return found.group(0) if _FILE.fullmatch(found.group(0)) else None
    return None


class Symbols:
    """The names of one game, built from the texts of its files."""

    def __init__(self, folder: Path, sources: dict[str, str], game: Game | None):
        self.folder = folder
        self.sources = sources
        self.game = game
        self.by_name: dict[str, list[Symbol]] = {}
        self.trees: dict[str, A.RulesFile] = {}
        self.units: dict[str, list[Unit]] = {}     # by file: rules files and component files with code
        self.broken: dict[str, str] = {}           # rules files that do not parse, with their texts
        self._patches: dict[tuple[str, int], list[Unit]] = {}
        self.types = Types(game)
        for name, spec in BUILTINS.items():
            self._add(Symbol(name, "builtin", None, f"built-in function {name} ({spec.arity} argument(s))",
                             "see docs/language.md, section 6"))
        for name in CONSTANTS:
            self._add(Symbol(name, "constant", None, f"{name}: every {name[:-1]}, in "
                             + ("turn order" if name == "seats" else "board order")))
        data = self._yaml(GAME_FILE)
        if data is not None:
            self._game_yaml(*data)
        for shown, text in sources.items():
            if shown.endswith(".rules"):
                tree, _ = parse_rules(text, shown)
                if tree is not None:
                    self.trees[shown] = tree
                    self._rules(tree)
                else:
                    self.broken[shown] = text
                    self._unparsed(shown, text)

    # ------------------------------------------------------------ queries
    def lookup(self, cursor: Cursor, file: str, line: int, receiver: list[str] | None = None) -> list[Symbol]:
        """What the word under the cursor means there: a local first, then the game's names in order.

        After a '.', `receiver` names what stands before it (`s.hand` for `s.hand.size`): only the
        members of its type are meant, when its type is known.
        """
        if cursor.after_run:
            return [s for s in self.by_name.get(cursor.word, []) if s.kind == "phase"]
        found = self.by_name.get(cursor.word, [])
        if cursor.after_dot:
            owner = self.receiver_type(receiver, file, line) if receiver else ""
            return [s for s in self.members(owner) if s.name == cursor.word]
        local = [s for s in self.locals(file, line) if s.name == cursor.word]
        if local:
            return local[-1:]
        for kind in PLAIN_ORDER:
            same = [s for s in found if s.kind == kind]
            if same:
                return same
        return found

    def receiver_type(self, names: list[str] | None, file: str, line: int) -> str:
        """The type of a chain of names written before a '.' at a line ("" when unknown)."""
        if not names:
            return ""
        env = {s.name: s.type for s in self.locals(file, line) if s.type}
        return self.types.chain(names, env)

    def members(self, owner: str) -> list[Symbol]:
        """The fields and attributes of values of a type (of every type when it is unknown)."""
        every = [s for group in self.by_name.values() for s in group if s.kind in MEMBER_KINDS]
        owner = owner.strip().rstrip("?")
        if not owner or not any(s.owner == owner for s in every):
            return every
        return [s for s in every if s.owner == owner]

    def in_code(self, file: str, line: int) -> bool:
        """True where rules code is written: a rules file, or an item's ability in a component file."""
        return file.endswith(".rules") or self._unit(file, line) is not None

    def visible(self, file: str, line: int, after_dot: bool, after_run: bool,
                receiver: list[str] | None = None) -> list[Symbol]:
        """Every name that may be written at a place (for completion), locals first."""
        if after_run:
            return [s for group in self.by_name.values() for s in group if s.kind == "phase"]
        if after_dot:
            return self.members(self.receiver_type(receiver, file, line))
        if not self.in_code(file, line):
            # A YAML file (game, board, items, scenarios) names fields, decisions and phases alike.
            return [s for group in self.by_name.values() for s in group if s.kind not in ("builtin", "constant")]
        names = {s.name: s for s in self.locals(file, line)}
        plain = [s for group in self.by_name.values() for s in group
                 if s.kind not in MEMBER_KINDS and s.kind != "decision" and s.name not in names]
        keywords = [Symbol(k, "keyword", None, f"{k}: a word of the rules language") for k in sorted(KEYWORDS)]
        return list(names.values()) + plain + keywords

    def locals(self, file: str, line: int) -> list[Symbol]:
        """The parameters and variables visible on a line of rules code, outermost first."""
        unit = self._unit(file, line)
        if unit is None:
            return []
        found = list(unit.params)
        env: dict[str, str] = {p.name: p.type for p in unit.params}
        found += list(_declared(unit.node.body, line, self._lines(file), self.types, env))
        return found

    def _unit(self, file: str, line: int) -> Unit | None:
        units = self.units.get(file)
        if units is None and file in self.broken:
            units = self._patched(file, line)
        for unit in units or ():
            if unit.node.span.line <= line <= max(unit.node.span.end_line, unit.node.span.line):
                return unit
        return None

    def _patched(self, file: str, line: int) -> list[Unit]:
        """The units of a rules file that does not parse, read with one line made `pass`: the line
        being typed (`    let x = `) leaves the rest of the file, and the locals above it, readable."""
        if (file, line) not in self._patches:
            lines = self.broken[file].split("\n")
            if 1 <= line <= len(lines):
                here = lines[line - 1]
                # `pass` where it stands: a block whose only line it is stays a block.
                lines[line - 1] = here[:len(here) - len(here.lstrip())] + "pass" if here.strip() else ""
            tree, _ = parse_rules("\n".join(lines), file, kept=False)   # a text no file holds
            self._patches[(file, line)] = _units(tree) if tree is not None else []
        return self._patches[(file, line)]

    # ------------------------------------------------------------ building
    def _add(self, symbol: Symbol) -> None:
        self.by_name.setdefault(symbol.name, []).append(symbol)

    def _lines(self, shown: str) -> list[str]:
        return self.sources.get(shown, "").splitlines()

    def _yaml(self, name: str) -> tuple[Any, PositionMap] | None:
        shown = display_path(self.folder / name)
        text = self.sources.get(shown)
        if text is None:
            return None
        key = (shown, text)
        found = _YAML_READ.pop(key, None)
        if found is None:
            data, pos, _ = load_yaml_text(text, shown)
            found = (data, pos)
        # Kept for the next keystroke's symbols: most files did not change (read only, never changed).
        _YAML_READ[key] = found
        while len(_YAML_READ) > _YAML_KEPT:
            del _YAML_READ[next(iter(_YAML_READ))]
        return found if isinstance(found[0], dict) else None

    def _type(self, kind: str, name: str, written: Any) -> str:
        """A field's or table's type: the loaded game's, else as written."""
        world = self.game.world if self.game is not None else None
        if world is not None:
            table = world.tables.get(name) if kind == "table" else None
            if table is not None:
                return str(table[0])
        return str(written) if written is not None else "?"

    def _game_yaml(self, data: dict[str, Any], pos: PositionMap) -> None:
        state = data.get("state") if isinstance(data.get("state"), dict) else {}
        components = data.get("components") if isinstance(data.get("components"), dict) else {}
        for owner, fields in (state or {}).items():
            if not isinstance(fields, dict):
                continue
            kind = {"seat": "seat field", "global": "global field", "node": "node field"}.get(owner, "item field")
            for name, spec in fields.items():
                spec = spec if isinstance(spec, dict) else {}
                visible = spec.get("visible", "all")
                shown = f"{owner} field {name}: {spec.get('type', '?')}" + (
                    f" (visible: {visible})" if visible != "all" else "")
                typed = (self.types.plain(str(name)) if owner == "global"
                         else self.types.member(str(owner), str(name))) or str(spec.get("type", ""))
                self._add(Symbol(str(name), kind, pos.key_span(("state", owner, name)), shown,
                                 str(spec.get("description", "")), str(owner), typed))
        for name, value in (data.get("tables") or {}).items() if isinstance(data.get("tables"), dict) else ():
            self._add(Symbol(str(name), "table", pos.key_span(("tables", name)),
                             f"table {name}: {self._type('table', name, type(value).__name__)}",
                             _comment_above(self.sources.get(pos.file, ""), pos.key_span(("tables", name)))))
        for kind, spec in (components or {}).items():
            spec = spec if isinstance(spec, dict) else {}
            self._add(Symbol(str(kind), "component kind", pos.key_span(("components", kind)),
                             f"component kind {kind}, items in {spec.get('file', '?')}",
                             str(spec.get("description", ""))))
            if isinstance(spec.get("collection"), str):
                self._add(Symbol(spec["collection"], "collection", pos.key_span(("components", kind, "collection")),
                                 f"collection {spec['collection']}: list[{kind}], every {kind} in file order"))
            if isinstance(spec.get("file"), str):
                abilities = spec.get("abilities") if isinstance(spec.get("abilities"), dict) else {}
                self._attributes(spec["file"], "item attribute", "items", kind, set(abilities or ()))
                if abilities:
                    self._abilities(spec["file"], str(kind), abilities)
        if isinstance(data.get("board"), str):
            self._attributes(data["board"], "board attribute", "nodes", "node")

    def _attributes(self, file: str, kind: str, key: str, owner: str, abilities: set[str] | None = None) -> None:
        """The attributes written on a board's nodes or a component file's items, each at its first use
        (an item's ability code is no attribute)."""
        found = self._yaml(file)
        if found is None or not isinstance(found[0].get(key), list):
            return
        data, pos = found
        world = self.game.world if self.game is not None else None
        types = (world.node_attrs if owner == "node" else world.components[owner].attrs
                 if owner in world.components else {}) if world is not None else {}
        seen: set[str] = set()
        for i, item in enumerate(data[key]):
            for name in item if isinstance(item, dict) else ():
                if name in seen or name == "copies" or name in (abilities or ()):
                    continue
                seen.add(name)
                t = types.get(name)
                self._add(Symbol(str(name), kind, pos.key_span((key, i, name)),
                                 f"{owner} attribute {name}" + (f": {t}" if t is not None else ""),
                                 f"written in {file}", owner, str(t) if t is not None else ""))

    def _abilities(self, file: str, kind: str, declared: dict[Any, Any]) -> None:
        """Each item's ability code in a component file: a unit of code with `this` and the declared parameters."""
        found = self._yaml(file)
        if found is None or not isinstance(found[0].get("items"), list):
            return
        data, pos = found
        lines = self._lines(pos.file)
        for ability, text in declared.items():
            params = [Symbol("this", "parameter", None, f"this: {kind}", f"the {kind} whose ability {ability} runs",
                             type=kind)]
            for part in str(text).split(","):
                name, _, type_text = part.partition(":")
                if name.strip().isidentifier() and type_text.strip():
                    params.append(Symbol(name.strip(), "parameter", None, f"{name.strip()}: {type_text.strip()}",
                                         f"a parameter of ability {ability}", type=type_text.strip()))
            for i, item in enumerate(data["items"]):
                code = item.get(ability) if isinstance(item, dict) else None
                if not isinstance(code, str):
                    continue
                first_line, column = code_start(lines, pos.nearest(("items", i, ability)))
                body, _ = parse_block(code, pos.file, first_line, column)
                if body is not None:
                    where = f"ability {ability} of {item.get('id', i)}"
                    self.units.setdefault(pos.file, []).append(Unit(body, where, tuple(params)))
                    self._decisions(body.body)

    def _unparsed(self, shown: str, text: str) -> None:
        """The phases and formulas of a rules file that does not parse, found by their first lines."""
        for found in _DEFINITION.finditer(text):
            line = text.count("\n", 0, found.start()) + 1
            start = found.start(2) - found.start() + 1
            self._add(Symbol(found.group(2), found.group(1), Span(shown, line, start, line, start + len(found.group(2)) - 1),
                             f"{found.group(1)} {found.group(2)}"))

    def _decisions(self, body: tuple[A.Stmt, ...]) -> None:
        for statement in _walk(body):
            if isinstance(statement, A.Choose):
                self._add(Symbol(statement.var, "decision", statement.span,
                                 f"decision {statement.var}" + (" (secret)" if statement.secret else ""),
                                 "option ids of this choice start with " + f"'{statement.var}:'"))

    def _rules(self, tree: A.RulesFile) -> None:
        # The formulas' types, never their code (asking for it would generate the whole program's).
        formulas = self.game.program.formula_types if self.game is not None else {}
        for f in tree.formulas:
            sig = formulas.get(f.name)
            if sig is not None:
                params = ", ".join(f"{p.name}: {t}" for p, t in zip(f.params, sig[0]))
                detail = f"formula {f.name}({params}) -> {sig[1]}"
            else:
                detail = f"formula {f.name}({_params(f.params)})"
            self._add(Symbol(f.name, "formula", f.name_span, detail,
                             _comment_above(self.sources.get(f.span.file, ""), f.span)))
        for p in tree.phases:
            self._add(Symbol(p.name, "phase", p.name_span, f"phase {p.name}({_params(p.params)})" if p.params
                             else f"phase {p.name}", _comment_above(self.sources.get(p.span.file, ""), p.span)))
        self._decisions(tuple(s for p in tree.phases for s in p.body))
        self.units[tree.span.file] = _units(tree)


def _units(tree: A.RulesFile) -> list[Unit]:
    """The phases and formulas of a rules file as units of code, with their parameters."""
    units: list[Unit] = []
    code: list[A.Phase | A.Formula] = [*tree.phases, *tree.formulas]
    for unit in code:
        where = f"{'phase' if isinstance(unit, A.Phase) else 'formula'} {unit.name}"
        own = tuple(Symbol(p.name, "parameter", p.span, f"{p.name}: {p.type_text}", f"a parameter of {where}",
                           type=p.type_text) for p in unit.params)
        units.append(Unit(unit, where, own))
    return units


def _params(params: tuple[A.Param, ...]) -> str:
    return ", ".join(f"{p.name}: {p.type_text}" for p in params)


def _comment_above(text: str, span: Span | None) -> str:
    """The comment lines just above a definition: its documentation."""
    if span is None:
        return ""
    lines = text.splitlines()
    found: list[str] = []
    n = span.line - 2
    while 0 <= n < len(lines) and lines[n].lstrip().startswith("#"):
        found.insert(0, lines[n].lstrip().lstrip("#").strip())  # (a designer's `##` note too)
        n -= 1
    return " ".join(found)


def _walk(block: tuple[A.Stmt, ...]) -> Iterator[A.Stmt]:
    for statement in block:
        yield statement
        for inner in A.child_blocks(statement):
            yield from _walk(inner)


def _name_span(span: Span, name: str, lines: list[str]) -> Span:
    """Where a declared name is written in its statement (the statement's start if not found)."""
    if 1 <= span.line <= len(lines):
        found = re.compile(rf"\b{re.escape(name)}\b").search(lines[span.line - 1], span.column - 1)
        if found:
            return Span(span.file, span.line, found.start() + 1, span.line, found.end())
    return span


def _declared(block: tuple[A.Stmt, ...], line: int, lines: list[str], types: Types, env: dict[str, str]
              ) -> Iterator[Symbol]:
    """Variables made before `line` by the statements of a block and of the inner blocks around it.

    `env` holds the types of the variables made so far, by name; each new one is added to it.
    """
    for i, statement in enumerate(block):
        start = statement.span.line
        if start > line:
            return
        following = block[i + 1].span.line if i + 1 < len(block) else None
        inside = following is None or line < following
        declared = _variable(statement)
        # A loop's variable lives in its body; any other from the next line to the block's end.
        if declared is not None and (inside if isinstance(statement, A.For) else start < line):
            name, what = declared
            typed = declared_type(statement, types, env)
            env[name] = typed
            yield Symbol(name, "local", _name_span(statement.span, name, lines),
                         f"{name} ({what}{': ' + typed if typed else ''})",
                         lines[start - 1].strip() if start <= len(lines) else "", type=typed)
        if isinstance(statement, A.Choose) and statement.each_var and start == line:
            yield Symbol(statement.each_var, "local", _name_span(statement.span, statement.each_var, lines),
                         f"{statement.each_var} (each seat choosing)")
        if inside:
            inners = [b for b in A.child_blocks(statement) if b]
            for k, inner in enumerate(inners):
                if inner[0].span.line <= line and (k + 1 == len(inners) or line < inners[k + 1][0].span.line):
                    yield from _declared(inner, line, lines, types, env)


def _variable(statement: A.Stmt) -> tuple[str, str] | None:
    """The variable a statement makes, with what makes it."""
    if isinstance(statement, A.Let):
        return statement.name, "let"
    if isinstance(statement, A.For):
        return statement.var, "loop variable"
    if isinstance(statement, A.Choose):
        return statement.var, "chosen"
    if isinstance(statement, A.Draw):
        return statement.var, "drawn"
    if isinstance(statement, A.Roll):
        return statement.var, "rolled"
    return None
