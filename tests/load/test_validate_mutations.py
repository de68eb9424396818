"""Mutation property test: every broken copy of a shipped game is answered with diagnostics.

Each example copies one shipped game into a temporary folder, makes ONE change to ONE file and
runs `check_game`. Whatever the change, the validator must not raise, every diagnostic must point
at a real line and column of a file of the game, and every diagnostic must render. When the
change certainly breaks the game, at least one error must be reported; for a renamed reference
and for cut lines it must point into the mutated file, at the mutated line.

"Certainly" is decided here, independently of the validator, by arguments that hold for any
valid game (each `certain_*` function says why); changes that only may break the game are still
made, for the first two properties.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st
from jsonschema import Draft202012Validator

from interpreter.load.loader import check_game, games_root
from interpreter.load.schema_check import load_schema
from ruledsl.builtins import BUILTINS
from ruledsl.check.exprtypes import CONSTANTS
from ruledsl.diagnostics import Diagnostic, render

GAMES = ("downtown", "city", "london")
YamlPath = tuple[Any, ...]


@pytest.fixture(autouse=True, scope="module")
def _no_parse_cache() -> Iterator[None]:
    """Parse every mutated text for real, and leave no cache entries behind."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CITYRULES_NO_CACHE", "1")
        yield


# ------------------------------------------------------------------ the games' files


@cache
def game_files(game: str) -> dict[str, str]:
    """Every file of a shipped game, by name."""
    folder = games_root() / game
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}


@cache
def game_data(game: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(game_files(game)["game.yaml"])
    return data


@cache
def yaml_kinds(game: str) -> dict[str, str]:
    """The schema of each YAML file of a game: game, board or components."""
    data = game_data(game)
    kinds = {"game.yaml": "game"}
    if "board" in data:
        kinds[data["board"]] = "board"
    for spec in (data.get("components") or {}).values():
        kinds[spec["file"]] = "components"
    return kinds


@cache
def ability_names(game: str, file: str) -> frozenset[str]:
    """The abilities whose code items of a component file carry."""
    for spec in (game_data(game).get("components") or {}).values():
        if spec["file"] == file:
            return frozenset(spec.get("abilities") or {})
    return frozenset()


def variants(game: str) -> list[str | None]:
    return [None, *(game_data(game).get("options") or {})]


# ------------------------------------------------------------------ rules code: lines and tokens


class Tok(NamedTuple):
    kind: str  # space, comment, string, open_string, name, number, op
    text: str
    col: int  # 1-based column in its line


_TOKEN = re.compile(r'(?P<space>[ \t]+)|(?P<comment>#.*)|(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<open_string>".*)'
                    r"|(?P<name>[A-Za-z_]\w*)|(?P<number>\d+)|(?P<op>//|==|!=|<=|>=|\+=|-=|.)")


def lex(text: str, col0: int = 1) -> list[Tok]:
    """The tokens of one line of rules code (a text in quotes is one token)."""
    return [Tok(m.lastgroup or "op", m.group(), m.start() + col0) for m in _TOKEN.finditer(text)]


def code_tokens(text: str) -> list[Tok]:
    return [t for t in lex(text) if t.kind not in ("space", "comment")]


@cache
def keywords() -> frozenset[str]:
    """The words of the language: every lowercase literal of the grammar."""
    grammar = resources.files("ruledsl.syntax").joinpath("rules.lark").read_text(encoding="utf-8")
    return frozenset(re.findall(r'"([a-z]+)"', grammar))


# A name right after these words is being defined (or is a log line's kind), not used.
DEFINING = {"phase", "formula", "let", "for", "choose", "draw", "roll", "each", "log"}


def template_refs(tok: Tok) -> list[Tok]:
    """The names used inside the {...} parts of a text in quotes."""
    raw = tok.text[1:-1]
    found: list[Tok] = []
    i = 0
    while i < len(raw):
        if raw[i] == "\\":
            i += 2
        elif raw[i] == "{" and raw.find("}", i) > 0:
            close = raw.find("}", i)
            found += references(raw[i + 1:close], tok.col + i + 2)
            i = close + 1
        else:
            i += 1
    return found


def references(text: str, col0: int = 1) -> list[Tok]:
    """Names that refer to a phase, formula, field, table, variable, function, type or ability."""
    toks = [t for t in lex(text, col0) if t.kind not in ("space", "comment")]
    header = bool(toks) and toks[0].text in ("phase", "formula")
    log_line = bool(toks) and toks[0].text == "log"
    found: list[Tok] = []
    for i, t in enumerate(toks):
        if t.kind == "string":
            found += template_refs(t)
            continue
        if t.kind != "name" or t.text in keywords():
            continue
        before = toks[i - 1].text if i else ""
        after = toks[i + 1].text if i + 1 < len(toks) else ""
        if before in DEFINING or (log_line and after == "=") or (header and after == ":"):
            continue
        found.append(t)
    return found


def definitions(text: str) -> set[str]:
    """Names a line binds (variables, parameters, loop variables, phases, formulas)."""
    toks = code_tokens(text)
    header = bool(toks) and toks[0].text in ("phase", "formula")
    names = {t.text for i, t in enumerate(toks) if t.kind == "name" and i and toks[i - 1].text in DEFINING}
    if header:
        names |= {t.text for i, t in enumerate(toks[:-1]) if t.kind == "name" and toks[i + 1].text == ":"}
    for t in toks:
        if t.kind == "string":
            for i in range(len(t.text)):
                if t.text.startswith("{", i):
                    names |= definitions(t.text[i + 1:t.text.find("}", i)])
    return names


def opens_block(text: str) -> bool:
    """Does the line end with ':' (a header whose block follows)?"""
    toks = code_tokens(text)
    return bool(toks) and toks[-1].text == ":"


def indent_of(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def is_code(text: str) -> bool:
    return bool(code_tokens(text))


@dataclass(frozen=True)
class Unit:
    """A piece of rules code in a file: a whole rules file, or one ability's `|` block in YAML.

    Lines are indexes into the file's lines. `base` is the block's indentation in YAML; its code
    is parsed as the body of a phase, so its lines sit one level (4 columns) inside a header.
    """

    file: str
    lines: tuple[int, ...]
    base: int = 0
    embedded: bool = False

    def logical_indent(self, text: str) -> int:
        return indent_of(text) - self.base + (4 if self.embedded else 0)


@cache
def code_units(game: str) -> tuple[Unit, ...]:
    """Every piece of rules code in the game: the rules files and the abilities in component files."""
    units: list[Unit] = []
    for name, text in game_files(game).items():
        lines = text.splitlines()
        if name.endswith(".rules"):
            units.append(Unit(name, tuple(range(len(lines)))))
        elif ability_names(game, name):
            units += ability_units(name, text, ability_names(game, name))
    return tuple(units)


def ability_units(file: str, text: str, abilities: frozenset[str]) -> list[Unit]:
    """The `|` blocks holding ability code in a component file."""
    units = []
    todo = [yaml.compose(text)]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if (isinstance(key, yaml.ScalarNode) and key.value in abilities
                        and isinstance(value, yaml.ScalarNode) and value.style == "|"):
                    lines = text.splitlines()
                    rows = [i for i in range(value.start_mark.line + 1, value.end_mark.line) if lines[i].strip()]
                    units.append(Unit(file, tuple(rows), indent_of(lines[rows[0]]), True))
                todo.append(value)
        elif isinstance(node, yaml.SequenceNode):
            todo += node.value
    return units


@cache
def taken_words(game: str) -> frozenset[str]:
    """Every word anywhere in the game, and every name the language gives meaning to."""
    words = {w for text in game_files(game).values() for w in re.findall(r"\w+", text)}
    types = {"int", "bool", "str", "seat", "node", "list", "map", "tuple", "any", "none"}
    return frozenset(words | keywords() | set(BUILTINS) | set(CONSTANTS) | types)


def misspell(name: str, how: str, at: int, game: str) -> str:
    """A misspelling of `name` that names nothing in the game."""
    i = at % len(name)
    new = {"double": name[:i + 1] + name[i:], "drop": name[:i] + name[i + 1:],
           "swap": name[:i] + name[i + 1:i + 2] + name[i:i + 1] + name[i + 2:],
           "insert": name[:i] + "q" + name[i:]}[how]
    if not re.fullmatch(r"[A-Za-z_]\w*", new) or new == name:
        new = name + "q"
    while new in taken_words(game):
        new += "q"
    return new


@cache
def all_code(game: str) -> tuple[str, ...]:
    """Every line of rules code of the game (rules files and abilities)."""
    return tuple(game_files(game)[u.file].splitlines()[i] for u in code_units(game) for i in u.lines)


@cache
def bare_refs(game: str) -> frozenset[str]:
    """Names used on their own (not after a dot) in the code."""
    found = set()
    for line in all_code(game):
        toks = [t for t in lex(line) if t.kind not in ("space", "comment")]
        refs = references(line)
        for t in refs:
            before = [u for u in toks if u.col < t.col]
            if not before or before[-1].text != ".":
                found.add(t.text)
    return frozenset(found)


@cache
def dotted_refs(game: str) -> frozenset[str]:
    """Names used after a dot (fields, attributes) anywhere in the code, texts included."""
    return frozenset(m.group(1) for line in all_code(game) for m in re.finditer(r"\.\s*([A-Za-z_]\w*)", line))


@cache
def local_names(game: str) -> frozenset[str]:
    return frozenset(n for line in all_code(game) for n in definitions(line))


@cache
def other_owners_of(game: str) -> dict[str, int]:
    """How many owners (state kinds, board nodes, edges, component items, table rows) have each key."""
    counts: dict[str, int] = {}

    def keys_in(value: Any) -> set[str]:
        found: set[str] = set()
        if isinstance(value, dict):
            for k, v in value.items():
                found.add(str(k))
                found |= keys_in(v)
        elif isinstance(value, list):
            for v in value:
                found |= keys_in(v)
        return found

    data = game_data(game)
    owners = [set(fields or {}) for fields in (data.get("state") or {}).values()]
    owners.append(keys_in(data.get("tables") or {}) | keys_in(data.get("options") or {}))
    for name, kind in yaml_kinds(game).items():
        if kind != "game":
            owners.append(keys_in(yaml.safe_load(game_files(game)[name])))
    for keys in owners:
        for k in keys:
            counts[k] = counts.get(k, 0) + 1
    return counts


@cache
def table_keys(game: str) -> frozenset[str]:
    """Keys of the mappings inside tables: `rule.neighbour` reads one."""
    found: set[str] = set()
    todo: list[Any] = [game_data(game).get("tables") or {}]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            found |= {str(k) for k in value}
            todo += value.values()
        elif isinstance(value, list):
            todo += value
    return frozenset(found)


def certain_misspelling(game: str, text: str, tok: Tok) -> bool:
    """A misspelt reference is an error, except a key read from a table row chosen at run time
    (`bonus[owners].poor`): the validator checks table keys only where the whole path is
    written in the rules, so such a misspelling is found only when the game runs (reported)."""
    before = [t for t in code_tokens(text) if t.col < tok.col]
    dotted = bool(before) and before[-1].text == "."
    return not (dotted and tok.text in table_keys(game))


# ------------------------------------------------------------------ certain breakage in rules code

# After these the line cannot end: an operand, a name or a block must follow.
NEEDS_MORE = {"=", "+=", "-=", "==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "//", "%", ".", ",",
              "and", "or", "not", "in", "if", "else", "elif", "while", "for", "let", "run", "from", "to",
              "by", "each", "winners", "end", "pay", "gain", "shuffle", "draw", "add", "remove", "choose",
              "roll", "log", "phase", "formula", "of", "with"}


def bracket_balance(toks: list[Tok]) -> int:
    return sum(t.text in "([{" for t in toks if t.kind == "op") - sum(t.text in ")]}" for t in toks if t.kind == "op")


def levels_before(unit: Unit, lines: list[str], row: int) -> tuple[list[int], bool]:
    """The open indentation levels before line `row`, and whether the line before opens a block.

    Shipped rules never continue a line inside brackets, so each code line is one statement.
    """
    levels, opens = [0], False
    if unit.embedded:
        levels, opens = [0], True  # the code is the body of a header `phase _ability:`
    for i in unit.lines:
        if i >= row:
            break
        if not is_code(lines[i]):
            continue
        ind = unit.logical_indent(lines[i])
        if ind > levels[-1]:
            levels.append(ind)
        while ind < levels[-1]:
            levels.pop()
        opens = opens_block(lines[i])
    return levels, opens


def certain_bad_indent(unit: Unit, lines: list[str], row: int, new_indent: int) -> bool:
    """Is this line certainly a syntax error at the given (logical) indentation?

    After a header the line must be indented deeper; elsewhere it must not be deeper than the
    line before and must return to a level that is open. A statement cannot stand at the top of a
    rules file, and a definition cannot stand inside a block.
    """
    levels, opens = levels_before(unit, lines, row)
    first = code_tokens(lines[row])[0].text
    if not unit.embedded and (new_indent == 0) != (first in ("phase", "formula")):
        return True
    if opens:
        return new_indent <= levels[-1]
    return new_indent > levels[-1] or new_indent not in levels


def next_code(unit: Unit, lines: list[str], row: int) -> int | None:
    return next((i for i in unit.lines if i > row and is_code(lines[i])), None)


def prev_code(unit: Unit, lines: list[str], row: int) -> int | None:
    return next((i for i in reversed(unit.lines) if i < row and is_code(lines[i])), None)


def certain_cut(unit: Unit, lines: list[str], row: int) -> tuple[int, int] | None:
    """Rows (0-based, in the new file) where deleting line `row` is certainly reported, or None.

    A header whose previous line neither opens a block nor is indented deeper: its block is left
    indented for no reason. The only statement of a block: the header is left with an empty block.
    """
    text = lines[row]
    if not is_code(text):
        return None
    ind = unit.logical_indent(text)
    before = prev_code(unit, lines, row)
    after = next_code(unit, lines, row)
    prev_ind = unit.logical_indent(lines[before]) if before is not None else 0
    prev_opens = opens_block(lines[before]) if before is not None else unit.embedded
    if opens_block(text) and not prev_opens and prev_ind <= ind and after is not None:
        return after - 1, after - 1
    next_ind = unit.logical_indent(lines[after]) if after is not None else 0
    if prev_opens and ind > prev_ind and next_ind <= prev_ind and not opens_block(text):
        if unit.embedded and before is None:
            return None  # the whole ability is gone: the YAML value becomes empty text
        start = before if before is not None else row
        return start, (after - 1 if after is not None else len(lines) - 2)
    return None


def certain_half(text: str, cut: int) -> bool:
    """Is the line certainly unparseable when only its first `cut` characters are kept?

    A text in quotes left open, a bracket left open (every other line is balanced, so nothing
    can close it), an operator or a word that needs something after it, or a header that lost
    its ':' while its block still follows.
    """
    toks = code_tokens(text[:cut])
    if not toks:
        return False
    if any(t.kind == "open_string" for t in toks) or bracket_balance(toks) > 0:
        return True
    return toks[-1].text in NEEDS_MORE or opens_block(text)


def certain_char(unit: Unit, lines: list[str], row: int, pos: int) -> tuple[int, int] | None:
    """Certain breakage, as a column range to point at, when the character at `pos` goes.

    A bracket (every other line is balanced), a quote that opens or closes a text (a text cannot
    go on to the next line), a '}' that closes an expression in a text, the ':' that ends a
    header, or a space of the indentation that leaves the line at no open level.
    """
    text = lines[row]
    if pos < indent_of(text):
        return (1, len(text)) if certain_bad_indent(unit, lines, row, unit.logical_indent(text) - 1) else None
    tok = next(t for t in lex(text) if t.col - 1 <= pos < t.col - 1 + len(t.text))
    if tok.kind == "op" and tok.text in "()[]{}":
        return 1, len(text)
    if tok.kind == "op" and tok.text == ":" and tok is code_tokens(text)[-1] and opens_block(text):
        return 1, len(text) + 1
    if tok.kind == "string":
        offset = pos - (tok.col - 1)
        if offset in (0, len(tok.text) - 1):
            return 1, len(text) + 1
        raw = tok.text
        opened = raw.rfind("{", 0, offset)
        if raw[offset] == "}" and opened > 0 and "}" not in raw[opened:offset] and raw[opened - 1] != "\\":
            return 1, len(text) + 1
    return None


# ------------------------------------------------------------------ YAML: paths and values


def yaml_paths(value: Any, path: YamlPath = ()) -> Iterator[tuple[YamlPath, Any]]:
    """Every value in loaded YAML data with its path (mapping keys and list indexes)."""
    if path:
        yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from yaml_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from yaml_paths(v, path + (i,))


def conversions(value: Any) -> list[str]:
    """The type changes that apply to a value."""
    if isinstance(value, bool) or value is None:
        kinds = ["scalar->list"]
    elif isinstance(value, int):
        kinds = ["number->text", "scalar->list"]
    elif isinstance(value, str):
        kinds = ["text->number", "scalar->list"]
    elif isinstance(value, list):
        kinds = ["list->mapping"]
    else:
        kinds = []
    return kinds + (["value->null"] if value is not None else [])


def convert(value: Any, how: str) -> Any:
    if how == "number->text":
        return str(value)
    if how == "text->number":
        return 987654  # no id, count or price of the shipped games
    if how == "list->mapping":
        return {f"k{i}": v for i, v in enumerate(value)}
    if how == "scalar->list":
        return [value]
    return None


def get(data: Any, path: YamlPath) -> Any:
    for k in path:
        data = data[k]
    return data


class _Dumper(yaml.SafeDumper):
    """Writes text with line breaks (ability code) as `|` blocks, as the shipped files do."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


_Dumper.add_representer(str, _represent_str)


def dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000)


def rename_in(data: Any, path: YamlPath, new_key: Any) -> None:
    """Rename the key at the end of `path`, keeping its place in the mapping."""
    parent = get(data, path[:-1])
    items = [(new_key if k == path[-1] else k, v) for k, v in parent.items()]
    parent.clear()
    parent.update(items)


def new_key_for(key: Any, game: str) -> Any:
    return key + 97 if isinstance(key, int) and not isinstance(key, bool) else misspell(str(key), "insert", 1, game)


def data_name_used(game: str, owner: str, name: str) -> bool:
    """Is a table (owner "tables") or state field certainly read by the code or by game.yaml?

    A table or global field is read by name: any use of the name that no variable shadows. A
    field of a seat, a node or an item is read after a dot: only when nothing else (another
    owner's field, an attribute, a key in a table) has the name. game.yaml itself names fields
    in `currency`, `summary` and `places`.
    """
    data = game_data(game)
    if owner in ("tables", "global"):
        if name in bare_refs(game) and name not in local_names(game):
            return True
    elif name in dotted_refs(game) and other_owners_of(game).get(name, 0) == 1:
        return True
    named = [data.get("currency"), *(data.get("summary") or {}).values(),
             *(p for spec in (data.get("components") or {}).values() for p in spec.get("places") or [])]
    return owner != "tables" and name in named


def same_id(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def certain_yaml(game: str, file: str, data: Any, mutated: Any, path: YamlPath, how: str,
                 variant: str | None) -> tuple[bool, bool]:
    """(certainly an error, certainly an error in this file) for a YAML change.

    The schema fixes keys and types: a file it rejects must get an error in that file. Beyond the
    schema: a table or field in use that is deleted or renamed (with its whole section); an
    initial value whose kind no longer fits its declared type; a board node id that edges name,
    or an edge's end, retyped; an ability's code that is no longer text, or an ability in use
    that is no longer declared; a variant value of another shape than its table, or naming no
    table; a component kind the state has fields for; the variant being checked.
    """
    kind = yaml_kinds(game)[file]
    if not Draft202012Validator(load_schema(kind)).is_valid(mutated):
        return True, True
    gone = how in ("delete", "rename")
    shape = how in ("number->text", "text->number", "scalar->list", "list->mapping")
    if kind == "game":
        state = data.get("state") or {}
        if gone and path == ("tables",):
            return any(data_name_used(game, "tables", t) for t in data.get("tables") or {}), False
        if gone and len(path) == 2 and path[0] == "tables" and data_name_used(game, "tables", path[1]):
            return True, False
        if gone and len(path) == 2 and path[0] == "state":
            if how == "rename":
                return True, True  # state 'seatq' is no seat, global, node or component kind
            return any(data_name_used(game, path[1], f) for f in state[path[1]] or {}), False
        if gone and len(path) == 3 and path[0] == "state" and data_name_used(game, path[1], path[2]):
            return True, False
        if len(path) >= 4 and path[0] == "state" and path[3] == "initial" and not gone:
            declared = str(get(data, path[:3])["type"])
            nullable = declared.endswith("?") if len(path) == 4 else "?" in declared
            if "any" not in declared and not (how == "value->null" and nullable):
                return True, True
        tables = set(data.get("tables") or {})
        in_variants = {k for o in (data.get("options") or {}).values() for k in o["values"]}
        if how == "rename" and len(path) == 4 and path[0] == "options" and path[2] == "values":
            return True, True
        if shape and ((len(path) == 2 and path[0] == "tables" and path[1] in in_variants)
                      or (len(path) == 4 and path[0] == "options" and path[2] == "values" and path[3] in tables)):
            return True, True
        if gone and variant is not None and path in (("options",), ("options", variant)):
            return True, True
        if gone and len(path) == 2 and path[0] == "components" and path[1] in state:
            return True, True
        abilities = path[:3] == ("components", path[1], "abilities") if len(path) >= 3 else False
        if gone and abilities and len(path) == 3:
            return any(a in bare_refs(game) for a in get(data, path) or {}), False
        if gone and abilities and len(path) == 4 and path[3] in bare_refs(game):
            return True, False
    if kind == "board" and how in ("number->text", "text->number"):
        nodes = [n["id"] for n in data["nodes"]]
        if path[0] == "nodes" and path[2:] == ("id",):
            old = get(data, path)
            ends = [e for edge in data.get("edges") or []
                    for e in (edge if isinstance(edge, list) else [edge.get("from"), edge.get("to")])]
            if any(same_id(e, old) for e in ends):
                return True, True
        if path[0] == "edges" and len(path) == 3 and path[2] in (0, 1, "from", "to") \
                and not any(same_id(n, get(mutated, path)) for n in nodes):
            return True, True  # the edge names a node the board does not have
    if kind == "components" and len(path) == 3 and path[0] == "items" and path[2] in ability_names(game, file):
        if how in ("text->number", "scalar->list", "list->mapping"):
            return True, True
    return False, False


# ------------------------------------------------------------------ checking the answer


def run_validator(folder: Path, variant: str | None) -> tuple[list[Diagnostic], dict[str, str]]:
    """check_game must answer, never raise."""
    _, diags, sources = check_game(folder, variant)
    return diags, sources


def shown_path(file: str) -> Path:
    path = Path(file)
    return (path if path.is_absolute() else Path.cwd() / path).resolve()


def assert_sensible(folder: Path, diags: list[Diagnostic], sources: dict[str, str]) -> None:
    """Each diagnostic points into an existing file of the game, at a real line and column, and renders."""
    for d in diags:
        path = shown_path(d.span.file)
        assert path.parent == folder.resolve() and path.is_file(), d
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        eof_line = len(lines) + (1 if text.endswith("\n") or not text else 0)
        for line, column in ((d.span.line, d.span.column), (d.span.end_line, d.span.end_column)):
            assert 1 <= line <= max(eof_line, 1), d
            width = len(lines[line - 1]) if line <= len(lines) else 0
            assert 1 <= column <= width + 1, d
        assert (d.span.end_line, d.span.end_column) >= (d.span.line, d.span.column), d
        shown = render(d, sources.get(d.span.file))
        assert shown.startswith(f"{d.span.file}:{d.span.line}:{d.span.column}: {d.severity}[{d.code}]")


def errors_in(folder: Path, diags: list[Diagnostic], file: str) -> list[Diagnostic]:
    return [d for d in diags if d.severity == "error" and shown_path(d.span.file) == (folder / file).resolve()]


def mutated_game(game: str, file: str, text: str) -> tempfile.TemporaryDirectory[str]:
    """A copy of the game in a temporary folder with one file replaced."""
    temp = tempfile.TemporaryDirectory(prefix="cityrules-mutant-")
    folder = Path(temp.name)
    shutil.copytree(games_root() / game, folder, dirs_exist_ok=True)
    (folder / file).write_text(text, encoding="utf-8")
    return temp


# ------------------------------------------------------------------ one mutation, and its check


Draw = Callable[[Sequence[Any], str], Any]


@dataclass
class Case:
    """One mutated game file, with what the validator must say about it."""

    game: str
    file: str
    text: str
    variant: str | None = None
    certain: bool = False  # at least one error
    here: bool = False  # ... and one in the mutated file
    near: tuple[int, int, int, int] | None = None  # ... at these lines and columns (1-based, inclusive)


def yaml_case(draw: Draw) -> Case:
    """Delete a key, rename a key or change a value's type, anywhere in one YAML file."""
    game = draw(GAMES, "game")
    file = draw(sorted(yaml_kinds(game)), "file")
    variant = draw(variants(game), "variant")
    original = yaml.safe_load(game_files(game)[file])
    path, value = draw(list(yaml_paths(original)), "spot")
    keyed = isinstance(get(original, path[:-1]), dict)
    kinds = conversions(value)
    how = draw((["delete", "rename"] if keyed else []) + kinds, "mutation")
    mutated = yaml.safe_load(game_files(game)[file])
    if how == "delete":
        del get(mutated, path[:-1])[path[-1]]
    elif how == "rename":
        rename_in(mutated, path, new_key_for(path[-1], game))
    else:
        get(mutated, path[:-1])[path[-1]] = convert(value, how)
    certain, here = certain_yaml(game, file, original, mutated, path, how, variant)
    return Case(game, file, dump(mutated), variant, certain, here)


RULES_MUTATIONS = ("rename", "cut", "cut-half", "delete-char", "duplicate", "indent")
WHOLE_LINE = 10**6


def rules_case(draw: Draw) -> Case:
    """One change to rules code, in a rules file or in an ability written in a component file."""
    game = draw(GAMES, "game")
    file = draw(sorted({u.file for u in code_units(game)}), "file")
    unit = draw([u for u in code_units(game) if u.file == file], "unit")
    how = draw(RULES_MUTATIONS, "mutation")
    lines = game_files(game)[unit.file].splitlines()
    code_rows = [i for i in unit.lines if is_code(lines[i])]
    case = Case(game, unit.file, "")
    if how == "rename":
        row, tok = draw([(i, t) for i in code_rows for t in references(lines[i])], "reference")
        text = lines[row]
        new = misspell(tok.text, draw(["double", "drop", "swap", "insert"], "how"), draw(range(40), "at"), game)
        lines[row] = lines[row][:tok.col - 1] + new + lines[row][tok.col - 1 + len(tok.text):]
        if certain_misspelling(game, text, tok):
            case.certain, case.near = True, (row + 1, row + 1, tok.col, tok.col)
    elif how == "cut":
        row = draw(list(unit.lines), "row")
        rows = certain_cut(unit, lines, row)
        del lines[row]
        if rows is not None:
            case.certain, case.near = True, (rows[0] + 1, rows[1] + 1, 1, WHOLE_LINE)
    elif how == "cut-half":
        row = draw(code_rows, "row")
        text = lines[row]
        end = max(t.col + len(t.text) - 1 for t in code_tokens(text))
        keep = draw(range(indent_of(text) + 1, max(indent_of(text) + 2, end)), "keep")
        lines[row] = text[:keep]
        if keep < end and certain_half(text, keep):
            case.certain, case.near = True, (row + 1, row + 1 + opens_block(text), 1, WHOLE_LINE)
    elif how == "delete-char":
        row = draw(code_rows, "row")
        text = lines[row]
        pos = draw(range(len(text)), "position")
        columns = certain_char(unit, lines, row, pos)
        tok = next(t for t in lex(text) if t.col - 1 <= pos < t.col - 1 + len(t.text))
        lines[row] = text[:pos] + text[pos + 1:]
        rest = tok.text[:pos - tok.col + 1] + tok.text[pos - tok.col + 2:]
        if columns is not None:
            case.certain, case.near = True, (row + 1, row + 1, *columns)
        elif (tok in references(text) and rest not in taken_words(game) and re.fullmatch(r"[A-Za-z_]\w*", rest)
              and certain_misspelling(game, text, tok)):
            case.certain, case.near = True, (row + 1, row + 1, tok.col, tok.col)
    elif how == "duplicate":
        row = draw(code_rows, "row")
        text = lines[row]
        lines.insert(row + 1, text)
        first = code_tokens(text)[0].text
        # A copied header leaves the first copy without a block; a copied `let` (draw, roll,
        # choose) declares its name twice; a copied formula is defined twice: all at the copy.
        if opens_block(text) or first in ("let", "draw", "roll", "choose") or first == "formula":
            case.certain, case.near = True, (row + 2, row + 2, 1, WHOLE_LINE)
    else:
        row = draw(code_rows, "row")
        text = lines[row]
        new_indent = max(0, indent_of(text) + draw([-8, -4, -2, -1, 1, 2, 4, 8], "delta"))
        lines[row] = " " * new_indent + text.lstrip(" ")
        logical = unit.logical_indent(text) + new_indent - indent_of(text)
        # In YAML, a line moved out of its `|` block (or the block's first line, which sets the
        # block's indentation) changes the YAML itself: only the rules code is judged here.
        inside = not unit.embedded or (new_indent >= unit.base and row != unit.lines[0])
        if inside and new_indent != indent_of(text) and certain_bad_indent(unit, lines, row, logical):
            case.certain, case.near = True, (row, row + 1, 1, WHOLE_LINE)
    case.text = "\n".join(lines) + "\n"
    return case


def check_case(case: Case) -> None:
    """Run the validator on the mutated copy and hold it to the case's expectations."""
    with mutated_game(case.game, case.file, case.text) as temp:
        folder = Path(temp)
        diags, sources = run_validator(folder, case.variant)
        assert_sensible(folder, diags, sources)
        if case.certain:
            assert any(d.severity == "error" for d in diags), diags
        if case.here:
            assert errors_in(folder, diags, case.file), diags
        if case.near is not None:
            first, last, col_from, col_to = case.near
            assert any(first <= d.span.line <= last and d.span.column <= col_to
                       and (d.span.end_line > d.span.line or d.span.end_column >= col_from)
                       for d in errors_in(folder, diags, case.file)), (case.near, diags)


def _hypothesis_draw(data: st.DataObject) -> Draw:
    """Each choice of a case, drawn by hypothesis (so a failure prints every choice made)."""
    return lambda options, label: data.draw(st.sampled_from(options), label)


# ------------------------------------------------------------------ the tests


@pytest.mark.parametrize("game", GAMES)
def test_the_starting_points_are_clean(game: str) -> None:
    """Every error found below comes from its mutation: the copies, YAML rewritten as this test
    writes it, check without errors."""
    for file in yaml_kinds(game):
        with mutated_game(game, file, dump(yaml.safe_load(game_files(game)[file]))) as temp:
            for variant in variants(game):
                diags, sources = run_validator(Path(temp), variant)
                assert [d for d in diags if d.severity == "error"] == [], (file, variant, diags)
                assert_sensible(Path(temp), diags, sources)


@settings(max_examples=85, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_yaml_mutation_is_answered_with_diagnostics(data: st.DataObject) -> None:
    check_case(yaml_case(_hypothesis_draw(data)))


@settings(max_examples=170, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_rules_mutation_is_answered_with_diagnostics(data: st.DataObject) -> None:
    check_case(rules_case(_hypothesis_draw(data)))
