"""The examples of docs/language.md are checked against the language as it is.

Every ```rules block of the reference carries an HTML comment just above it that says how to check
it (the comment is invisible when the document is rendered):

- `<!-- given: lot: node, s: seat -->`: phase-body statements; the given names are the parameters
  of the enclosing phase. The block is wrapped in a phase and compiled in a small Downtown-like
  game built here (or, with `; context: NAME`, in the context NAME).
- `<!-- top-level -->` (optionally `; context: NAME`): formula and phase definitions, compiled as a
  rules file of that context.
- `<!-- context: NAME -->`: the rules file of a complete game shown in the document; its other
  files are the ```yaml blocks annotated `<!-- file: NAME/game.yaml -->` and so on. The game must
  validate without a warning and be playable to the end by random bots.
- `<!-- quoted: games/london/cards.rules -->`: a quotation that must appear in that shipped file.

A context is either one of the synthetic games below (`downtown`, the default, and `edges`) or a
complete game of the document itself, so the Market fragments are checked against Market's own
files. Over all the blocks, every statement of the grammar and every built-in function (at every
number of arguments it takes) must have an example, so a new construct cannot go undocumented.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from lark.grammar import Rule

from interpreter.analysis.simulate import play_bots
from interpreter.core.engine import Engine
from interpreter.load.loader import check_game
from ruledsl.builtins import BUILTINS
from ruledsl.diagnostics import Diagnostic
from ruledsl.syntax import ast as A

# The raw Lark tree keeps the grammar's own names (chooser_each, elif_clause...), which the AST does not.
from ruledsl.syntax.parser import _parser, parse_rules

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "language.md"

EXAMPLE_PHASE = "doc_example"
START_PHASE = "doc_start"
EXAMPLE_FILE = "doc_example.rules"

# Parsed only so that the checker can explain a bare value on a line: never valid, so no example.
NOT_STATEMENTS = frozenset({"expr_stmt"})
BOT_SEEDS = (1, 2, 3)
MAX_DECISIONS = 20_000

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[A-Za-z0-9_-]*)[ \t]*$")
ANNOTATION = re.compile(r"^[ \t]*<!--(?P<body>.*)-->[ \t]*$")
ANNOTATION_KEYS = frozenset({"given", "top-level", "context", "quoted", "file"})


# ----------------------------------------------------------------------------- the document


@dataclass(frozen=True)
class Block:
    """One fenced code block of the document, with its annotation (key -> value, '' for a flag)."""

    line: int  # of the opening fence, 1-based
    lang: str
    text: str  # without the fence's own indentation
    note: dict[str, str]

    @property
    def where(self) -> str:
        """`docs/language.md:LINE`, for messages."""
        return f"{DOC.relative_to(ROOT)}:{self.line}"

    @property
    def context(self) -> str:
        """The context the block is checked in."""
        return self.note.get("context", "downtown")

    @property
    def kind(self) -> str:
        """'fragment', 'top-level', 'game' or 'quoted' (rules blocks only)."""
        if "quoted" in self.note:
            return "quoted"
        if "given" in self.note:
            return "fragment"
        if "top-level" in self.note:
            return "top-level"
        return "game"


def _annotation(line: str) -> dict[str, str] | None:
    """The key/value parts of an annotation comment, or None when the line is not one."""
    m = ANNOTATION.match(line)
    if m is None:
        return None
    note: dict[str, str] = {}
    for part in m["body"].split(";"):
        key, _, value = part.partition(":")
        if key.strip():
            note[key.strip()] = value.strip()
    return note


def _first_code_line(text: str) -> str:
    """The first line that is neither blank nor a comment."""
    return next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")


def _is_definitions(text: str) -> bool:
    """True when the text is formula and phase definitions rather than statements."""
    return _first_code_line(text).startswith(("formula ", "phase "))


def _problems_of(block: Block) -> list[str]:
    """What is wrong with a block's annotation (rules blocks and annotated yaml blocks)."""
    note = block.note
    unknown = set(note) - ANNOTATION_KEYS
    if unknown:
        return [f"unknown annotation key(s) {sorted(unknown)}"]
    if block.lang == "yaml":
        return [] if set(note) <= {"file"} and "/" in note.get("file", "/") else [
            "a yaml block may only be annotated <!-- file: GAME/FILE -->"]
    forms = [k for k in ("given", "top-level", "quoted") if k in note]
    if len(forms) > 1 or "file" in note or ("quoted" in note and "context" in note):
        return [f"conflicting annotation {note}"]
    if not forms and "context" not in note:
        return ["the annotation says neither given, top-level, context nor quoted"]
    if block.kind == "fragment" and _is_definitions(block.text):
        return ["a block of formula/phase definitions must be annotated <!-- top-level -->, not given"]
    if block.kind == "top-level" and not _is_definitions(block.text):
        return ["a <!-- top-level --> block must start with a formula or a phase"]
    return []


@lru_cache(maxsize=1)
def read_document() -> tuple[tuple[Block, ...], tuple[str, ...]]:
    """Every ```rules block and every annotated ```yaml block, and the problems found on the way."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    problems: list[str] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        start, indent, lang = i, m["indent"], m["lang"]
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        i += 1
        note = _annotation(lines[start - 1]) if start > 0 else None
        where = f"{DOC.relative_to(ROOT)}:{start + 1}"
        if lang == "rules" and note is None:
            problems.append(f"{where}: a ```rules block without an annotation comment on the line above")
            continue
        if note is None or lang not in ("rules", "yaml"):
            continue
        block = Block(start + 1, lang, "\n".join(body) + "\n", note)
        problems.extend(f"{where}: {p}" for p in _problems_of(block))
        blocks.append(block)
    return tuple(blocks), tuple(problems)


def rules_blocks(kind: str | None = None) -> list[Block]:
    """The well-annotated ```rules blocks, optionally of one kind only."""
    blocks, _ = read_document()
    return [b for b in blocks if b.lang == "rules" and not _problems_of(b) and kind in (None, b.kind)]


def doc_games() -> dict[str, dict[str, str]]:
    """The complete games of the document: game name -> {file name: text}."""
    games: dict[str, dict[str, str]] = defaultdict(dict)
    blocks, _ = read_document()
    for b in blocks:
        if b.lang == "yaml" and "file" in b.note:
            game, _, name = b.note["file"].partition("/")
            games[game][name] = b.text
    for b in rules_blocks("game"):
        game_yaml = yaml.safe_load(games[b.context].get("game.yaml", "{}")) or {}
        rules = game_yaml.get("rules", [])
        assert len(rules) == 1, f"{b.where}: the game.yaml of '{b.context}' must list exactly one rules file"
        games[b.context][rules[0]] = b.text
    return dict(games)


def _ids(blocks: list[Block]) -> list[str]:
    """Test ids that say where the block is in the document."""
    return [f"line{b.line}" for b in blocks]


# ----------------------------------------------------------------------------- the contexts

# The Downtown-like game that fragments without a context compile in: Downtown's fields and
# tables on a small board.
DOWNTOWN: dict[str, Any] = {
    "name": "doc-downtown",
    "title": "Downtown (fragments)",
    "seats": {"min": 3, "max": 6},
    "currency": "money",
    "board": "board.yaml",
    "state": {
        "seat": {
            "money": {"type": "int", "initial": 30, "ledger": True},
            "markers": {"type": "int", "initial": 15},
            "lobby": {"type": "bool", "initial": True},
        },
        "global": {
            "mayor": {"type": "seat", "initial": 0},
            "round": {"type": "int", "initial": 0},
            "piles": {"type": "map[str, list[node]]", "initial": {"west": [], "east": []}, "visible": "nobody"},
            "revealed": {"type": "list[node]", "initial": []},
            "supply": {"type": "map[str, map[str, int]]",
                       "initial": {k: {"square": 3, "rect": 3} for k in ("park", "housing", "industry", "commerce")}},
        },
        "node": {
            "plaque": {"type": "str?", "initial": None},
            "markers": {"type": "list[seat]", "initial": []},
            "paid": {"type": "bool", "initial": False},
        },
    },
    "tables": {
        "sides": ["west", "east"],
        "other_side": {"west": "east", "east": "west"},
        "setup_cards_per_side": 3,
        "setup_kinds": ["park", "park", "park", "housing", "commerce", "industry"],
        "votable": ["housing", "industry", "commerce"],
        "never_scored": ["park"],
        "lobby_weight": 2,
        "parcels_per_lot": 4,
        "prices": {"with_plaque": [0, 3, 7, 12], "bare": [0, 2, 5, 9]},
        "max_parcels": {3: 3, 4: 3, 5: 2, 6: 2},
        "well_placed_rule": {"housing": {"neighbour": "industry", "min": 0, "max": 0},
                             "industry": {"neighbour": "commerce", "min": 1, "max": 99}},
        "value_factor": {"well": 2, "poor": 1},
        "bonus": {1: {"well": 10, "poor": 5}, 2: {"well": 2, "poor": 1}},
    },
}

DOWNTOWN_NODES = [
    {"id": 1, "shape": "rect", "side": "west", "cells": [[0, 0], [0, 1]]},
    {"id": 2, "shape": "square", "side": "west", "cells": [[1, 0]]},
    {"id": 3, "shape": "square", "side": "east", "cells": [[0, 2]]},
    {"id": 4, "shape": "rect", "side": "east", "cells": [[1, 1], [1, 2]]},
]
DOWNTOWN_BOARD: dict[str, Any] = {"nodes": DOWNTOWN_NODES, "edges": [[1, 2], [1, 3], [2, 4], [3, 4]]}
# Streets with a direction, for `exits` and `follow`.
EDGES_BOARD: dict[str, Any] = {"nodes": DOWNTOWN_NODES, "edges": [
    {"from": 1, "to": 3, "dir": "east"}, {"from": 1, "to": 2, "dir": "south"},
    {"from": 2, "to": 4, "dir": "east"}, {"from": 3, "to": 4, "dir": "south"}]}

# The rest of Downtown, as far as fragments use it: added only when a block names it without
# defining it, so a block may define its own version of any of them.
DOWNTOWN_STUBS: dict[str, str] = {
    "price": "formula price(lot: node, parcels: int) = prices.bare[parcels]",
    "buys": "formula buys(lot: node) = lot.plaque not in never_scored",
    "can_pick": "formula can_pick(s: seat, lot: node) = not lot.paid",
    "complete": "formula complete(lot: node) = not lot.paid",
    "value_per_marker": "formula value_per_marker(lot: node) = 1",
    "well_placed": "formula well_placed(lot: node) = true",
    "setup": "phase setup:\n    pass",
    "planning": "phase planning:\n    pass",
    "vote": "phase vote(lot: node):\n    pass",
    "place": "phase place(lot: node, kind: str):\n    pass",
    "buying": "phase buying:\n    pass",
    "payout": "phase payout:\n    pass",
    "pay_out": "phase pay_out(lot: node):\n    pass",
}


@dataclass(frozen=True)
class Context:
    """A game that examples are compiled in: its files, and stand-ins for phases and formulas it lacks."""

    files: dict[str, str]
    stubs: dict[str, str]

    @property
    def game_yaml(self) -> dict[str, Any]:
        """A fresh copy of the context's game.yaml data."""
        data: dict[str, Any] = yaml.safe_load(self.files["game.yaml"])
        return data

    def collections(self) -> dict[str, str]:
        """Component kind -> the name of its collection."""
        kinds = self.game_yaml.get("components") or {}
        return {kind: spec["collection"] for kind, spec in kinds.items()}


def _synthetic(board: dict[str, Any]) -> Context:
    """The Downtown-like context on the given board."""
    data = dict(DOWNTOWN, rules=[], start=START_PHASE)
    return Context({"game.yaml": yaml.safe_dump(data, sort_keys=False),
                    "board.yaml": yaml.safe_dump(board, sort_keys=False)}, DOWNTOWN_STUBS)


def context(name: str) -> Context:
    """The context called `name`: a synthetic game, or a complete game of the document."""
    if name == "downtown":
        return _synthetic(DOWNTOWN_BOARD)
    if name == "edges":
        return _synthetic(EDGES_BOARD)
    games = doc_games()
    assert name in games, f"no context called '{name}': neither built in this test nor a game of the document"
    return Context(dict(games[name]), {})


# ----------------------------------------------------------------------------- compiling


def split_top(text: str) -> list[str]:
    """Split at the commas that are not inside brackets: `a: int, m: map[str, int]` has two parts."""
    parts: list[str] = []
    depth, current = 0, ""
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    parts.append(current.strip())
    return [p for p in parts if p]


def split_params(text: str) -> list[tuple[str, str]]:
    """`lot: node, m: map[str, int]` -> [(lot, node), (m, map[str, int])]."""
    params = []
    for part in split_top(text):
        name, colon, type_text = part.partition(":")
        assert colon, f"a given name needs a type: '{part}'"
        params.append((name.strip(), type_text.strip()))
    return params


def sample_value(type_text: str, collections: dict[str, str]) -> str:
    """A rules expression of the type, to pass to a phase's parameter."""
    t = type_text.replace(" ", "")
    if t.endswith("?"):
        return "none"
    simple = {"int": "0", "bool": "false", "str": '""', "seat": "seats[0]", "node": "nodes[0]"}
    if t in simple:
        return simple[t]
    if t in collections:
        return f"{collections[t]}[0]"
    m = re.fullmatch(r"(list|map|tuple)\[(.*)\]", t)
    assert m is not None, f"no sample value for the type '{type_text}'"
    args = split_top(m[2])
    if m[1] == "list":
        return f"[{sample_value(args[0], collections)}]"
    if m[1] == "map":
        assert args[0] == "str", f"maps written in the rules have text keys, not '{type_text}'"
        return f'{{"k": {sample_value(args[1], collections)}}}'
    parts = [sample_value(a, collections) for a in args]
    return f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"


def fragment_source(block: Block) -> str:
    """A fragment wrapped in the phase whose parameters the annotation gives."""
    params = ", ".join(f"{n}: {t}" for n, t in split_params(block.note["given"]))
    header = f"phase {EXAMPLE_PHASE}({params}):" if params else f"phase {EXAMPLE_PHASE}:"
    return header + "\n" + textwrap.indent(block.text, "    ", lambda ln: True)


def example_source(block: Block) -> str:
    """The rules text that a block stands for, as it is compiled."""
    return fragment_source(block) if block.kind == "fragment" else block.text


def _words(text: str) -> set[str]:
    """Every name-like word of a text."""
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))


def compile_example(block: Block, folder: Path) -> list[Diagnostic]:
    """Write the block into a copy of its context, run from the start phase, and check the game."""
    ctx = context(block.context)
    source = example_source(block)
    tree, diags = parse_rules(source, EXAMPLE_FILE)
    if tree is None:
        return diags
    defined = {p.name for p in tree.phases} | {f.name for f in tree.formulas}
    stubs = [text for name, text in ctx.stubs.items() if name in _words(block.text) and name not in defined]
    stub_tree, stub_diags = parse_rules("\n\n".join(stubs) + "\n", "stubs.rules")
    assert stub_tree is not None, stub_diags

    data = ctx.game_yaml
    collections = ctx.collections()
    calls: list[str] = []
    for phase in [*tree.phases, *stub_tree.phases]:
        args = ", ".join(sample_value(p.type_text, collections) for p in phase.params)
        calls.append(f"run {phase.name}({args})" if phase.params else f"run {phase.name}")
    if data["start"] != START_PHASE:  # a game of the document: keep its own start phase reachable
        calls.append(f"run {data['start']}")
    harness = f"phase {START_PHASE}:\n" + "".join(f"    {c}\n" for c in calls) + "    end winners seats\n"

    files = dict(ctx.files)
    files[EXAMPLE_FILE] = source
    files["stubs.rules"] = "\n\n".join(stubs) + "\n"
    files["start.rules"] = harness
    data["rules"] = [*data["rules"], EXAMPLE_FILE, "stubs.rules", "start.rules"]
    data["start"] = START_PHASE
    files["game.yaml"] = yaml.safe_dump(data, sort_keys=False)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    _, diags, _ = check_game(folder)
    return diags


def describe(block: Block, diags: list[Diagnostic], file_name: str = EXAMPLE_FILE) -> str:
    """Diagnostics as `file:line: severity[code]: message`, at the document's line when in the block.

    `file_name` is the rules file that holds the block's text (a fragment has one line more, its
    phase's header).
    """
    shift = block.line - 1 if block.kind == "fragment" else block.line
    out = []
    for d in diags:
        where = (f"{DOC.relative_to(ROOT)}:{d.span.line + shift}" if Path(d.span.file).name == file_name
                 else f"{d.span.file}:{d.span.line}")
        out.append(f"{where}: {d.severity}[{d.code}]: {d.message}")
    return "\n".join(out)


# ----------------------------------------------------------------------------- tests


def test_every_rules_block_is_annotated() -> None:
    _, problems = read_document()
    assert problems == (), "\n".join(problems)
    assert len(rules_blocks()) > 30, "the document's examples were not found"


@pytest.mark.parametrize("block", rules_blocks("fragment") + rules_blocks("top-level"),
                         ids=_ids(rules_blocks("fragment") + rules_blocks("top-level")))
def test_example_compiles(block: Block, tmp_path: Path) -> None:
    diags = compile_example(block, tmp_path)
    bad = [d for d in diags if d.severity == "error" or d.code != "unused"]
    assert bad == [], f"the example at {block.where} does not compile cleanly:\n" + describe(block, bad)


GAMES = sorted({b.context for b in rules_blocks("game")})


@pytest.mark.parametrize("name", GAMES)
def test_complete_game_validates_and_plays(name: str, tmp_path: Path) -> None:
    files = doc_games()[name]
    for file_name, text in files.items():
        (tmp_path / file_name).write_text(text, encoding="utf-8")
    game, diags, _ = check_game(tmp_path)
    block = next(b for b in rules_blocks("game") if b.context == name)
    rules_file = yaml.safe_load(files["game.yaml"])["rules"][0]
    assert diags == [], (f"the game '{name}' of the document does not validate cleanly:\n"
                         + describe(block, diags, rules_file))
    assert game is not None
    engine = Engine(game)
    for seats in sorted({game.min_seats, game.max_seats}):
        for seed in BOT_SEEDS:
            state, _ = play_bots(engine, seats, seed, max_decisions=MAX_DECISIONS)
            assert state["result"] is not None, (
                f"'{name}' with {seats} seats, seed {seed}: no result after {MAX_DECISIONS} decisions")


def test_the_document_has_complete_games() -> None:
    assert "mini" in GAMES and "market" in GAMES, GAMES


def _appears_indented(quote: list[str], text: list[str]) -> bool:
    """True when the lines of `quote` stand in `text` one after another, all shifted by one indentation."""
    for i in range(len(text) - len(quote) + 1):
        first = text[i]
        if not first.endswith(quote[0]) or first[: len(first) - len(quote[0])].strip():
            continue
        indent = first[: len(first) - len(quote[0])]
        if all((t.strip() == "" and q.strip() == "") or t == indent + q for q, t in zip(quote, text[i:])):
            return True
    return False


@pytest.mark.parametrize("block", rules_blocks("quoted"), ids=_ids(rules_blocks("quoted")))
def test_quoted_block_is_in_its_file(block: Block) -> None:
    path = ROOT / block.note["quoted"]
    assert path.is_file(), f"{block.where}: no file {block.note['quoted']}"
    quote = textwrap.dedent(block.text).rstrip("\n").splitlines()
    assert _appears_indented(quote, path.read_text(encoding="utf-8").splitlines()), (
        f"{block.where}: the quotation is not (or no longer) in {block.note['quoted']}")


# ----------------------------------------------------------------------------- coverage


def statement_constructs() -> set[str]:
    """The names the grammar gives to statements and to the parts only statements have.

    These are the statement rules (`_simple`, `_compound`), their aliases (`run ... of` is
    `run_ability`), and the rules reached only through a statement (`chooser_each`, `elif_clause`,
    `kwargs` of a log line...): so a new statement, or a new form of one, needs an example.
    """
    by_origin: dict[str, list[Rule]] = defaultdict(list)
    for rule in _parser().rules:
        by_origin[rule.origin.name].append(rule)
    statements = {sym.name for wrapper in ("_simple", "_compound")
                  for rule in by_origin[wrapper] for sym in rule.expansion} - NOT_STATEMENTS

    def reach(roots: set[str], stop: set[str]) -> set[str]:
        """The rules reachable from `roots` without entering those in `stop`."""
        seen: set[str] = set()
        todo = list(roots)
        while todo:
            name = todo.pop()
            if name in seen or name in stop or name not in by_origin:
                continue
            seen.add(name)
            todo.extend(sym.name for rule in by_origin[name] for sym in rule.expansion if not sym.is_term)
        return seen

    outside = reach({"start", "expr"}, stop=statements | NOT_STATEMENTS)
    inside = reach(statements, stop=outside)
    return {rule.alias or name for name in inside if not name.startswith("_") for rule in by_origin[name]}


def constructs_in(source: str) -> set[str]:
    """The grammar names of the parse tree of a rules text."""
    tree = _parser().parse(source, start="start")
    return {str(t.data) for t in tree.iter_subtrees()}


def _calls(node: object) -> Iterator[A.Call]:
    """Every call in a syntax tree, including those inside the braces of texts."""
    if isinstance(node, A.Call):
        yield node
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _calls(getattr(node, f.name))
    elif isinstance(node, (tuple, list)):
        for item in node:
            yield from _calls(item)


def builtin_calls_in(source: str) -> set[tuple[str, int]]:
    """(built-in, number of arguments) of every call in a rules text, templates included."""
    tree, diags = parse_rules(source, EXAMPLE_FILE)
    assert tree is not None, diags
    return {(c.name, len(c.args)) for c in _calls(tree) if c.name in BUILTINS}


def test_every_statement_has_an_example() -> None:
    found: set[str] = set()
    for block in rules_blocks():
        found |= constructs_in(example_source(block))
    missing = statement_constructs() - found
    assert not missing, f"statements (grammar names) with no example in {DOC.name}: {sorted(missing)}"


def test_every_builtin_has_an_example() -> None:
    found: set[tuple[str, int]] = set()
    for block in rules_blocks():
        found |= builtin_calls_in(example_source(block))
    wanted = {(name, n) for name, b in BUILTINS.items() for n in range(b.fewest, b.most + 1)}
    missing = sorted(wanted - found)
    assert not missing, f"built-ins (name, arguments) with no example in {DOC.name}: {missing}"


def test_the_coverage_lists_are_derived() -> None:
    """Guards the derivation itself: the grammar and BUILTINS yield what the document teaches."""
    constructs = statement_constructs()
    assert {"let_stmt", "run_stmt", "run_ability", "chooser_one", "chooser_each", "elif_clause",
            "else_clause", "while_stmt", "roll_stmt"} <= constructs, constructs
    assert not constructs & NOT_STATEMENTS
    assert {"len", "exits", "follow"} <= set(BUILTINS)
