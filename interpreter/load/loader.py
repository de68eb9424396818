"""Load a game folder: YAML (safe) → schema → board → rules parse → check → compile.

Each part of the work lives in a module of its own (board, components, fields, tables, rules files);
this one puts them together in order and builds the `Game`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from ruledsl.compiler import Program, compile_rules
from ruledsl.diagnostics import Diagnostic, RuleFileError, Span, an, did_you_mean
from ruledsl.types import Type, type_of_data
from ruledsl.world import Component, DataSource, Field, World

from ..core.game import FieldSpec, Game
from .base import DataMemo, _freeze
from .board import BoardMixin, _edge_columns
from .bots import BotsMixin, bot_formulas
from .components import ComponentsMixin
from .fields import FieldsMixin
from .games import game_ref, games_root, resolve_game, shipped_games
from .names import NamesMixin
from .rules_files import RulesFilesMixin
from .screen import ScreenMixin, screen_formula_names
from .tables import TablesMixin
from .unused_tables import GameWords, warn_unused_tables
from .yamlsource import PositionMap

__all__ = ["DataMemo", "check_game", "load_game", "allowed", "game_ref", "games_root", "resolve_game",
           "shipped_games"]

# A part of `state`'s fields: name -> (the compiler's field, the screens' spec).
_Fields = dict[str, tuple[Field, FieldSpec]]


class _Data(NamedTuple):
    """What reading the game's data (all but the rules files) gives the rest of the loading."""

    data: dict[str, Any]
    pos: PositionMap
    game_file: str
    world: World
    graph: Any
    cells: Any
    reconstructed: bool
    declared: dict[str, _Fields]
    component_fields: dict[str, _Fields]
    kinds: dict[str, tuple[Any, ...]]
    table_spans: dict[str, Span]
    game_words: GameWords


class _Loader(BoardMixin, ComponentsMixin, NamesMixin, FieldsMixin, TablesMixin, RulesFilesMixin, ScreenMixin,
              BotsMixin):
    def load(self) -> Game | None:
        """The game, read step by step; None once a step finds errors the next cannot go past."""
        read = self._data_read()
        if read is None:
            return None
        data, pos, game_file, world, graph, cells, reconstructed, declared, component_fields, kinds, table_spans, \
            game_words = read
        program = self._compile(data, pos, world, game_file)
        if program is None:
            return None
        self._check_display(data, pos, program)
        places = self.places(data, pos, declared["seat"], declared["global"])
        backs = self.backs(data, pos, world)
        screen = self.screen(data, pos, program, {part: tuple(v[1] for v in fields.values())
                                                   for part, fields in {**declared, **component_fields}.items()},
                             set(kinds))
        bots = self.bot_settings(data, pos, program)
        if self.diags.has_errors:
            return None
        warn_unused_tables(self.diags, data, game_file, self.sources,
                           {name: pos.key_span(("tables", name)) or span for name, span in table_spans.items()},
                           game_words)
        seats, summary = data["seats"], data.get("summary") or {}
        return Game(
            name=data["name"], title=data["title"], folder=self.folder, min_seats=seats["min"],
            max_seats=seats["max"], currency=data.get("currency"), start=data["start"], world=world,
            program=program, board=graph, seat_fields=tuple(v[1] for v in declared["seat"].values()),
            global_fields=tuple(v[1] for v in declared["global"].values()),
            node_fields=tuple(v[1] for v in declared["node"].values()), node_cells=cells,
            component_fields={kind: tuple(v[1] for v in fields.values()) for kind, fields in component_fields.items()},
            component_places=places, component_backs=backs,
            score_field=summary.get("score", data.get("currency")), rounds_field=summary.get("rounds"),
            variant=self.variant, variants=tuple(data.get("options") or ()), display=dict(data.get("display") or {}),
            screen=screen, reconstructed_board=reconstructed, credits=data.get("credits", ""), bots=bots,
            sources=self.sources)

    def _data_read(self) -> _Data | None:
        """The game's data (all but the rules files): read, or as the memo kept it when the files it
        read are the same (see base.DataMemo); None when it has errors the rules cannot go past."""
        if self.memo is None:
            return self._read_data()
        kept = self.memo.find(self)
        if kept is not None:
            restored: _Data | None = kept.restore(self)
            return restored
        self.reads = {}
        read = self._read_data()
        self.memo.keep(self, read)
        self.reads = None
        return read

    def _read_data(self) -> _Data | None:
        game_file = self.shown("game.yaml")
        data, pos, _ = self.yaml("game.yaml", "game", Span(game_file, 1, 1), "the game folder has no game.yaml")
        if pos is None or self.diags.has_errors or not isinstance(data, dict):
            return None
        self._check_seats(data, pos)
        board = self.board(data, pos)
        if board is None:
            return None
        graph, node_ids, attrs, attr_values, cells, reconstructed, attr_sources = board
        index = {nid: i for i, nid in enumerate(node_ids)}
        self.indexes: dict[str, dict[Any, int]] = {"node": index}
        kinds = self.components(data, pos)
        self.name_sets = self.read_names(data, pos)
        self.table_names = [str(name) for name in (data.get("tables") or {})]
        self.table_initials = []
        declared, component_fields = self._state_fields(data, pos, index, kinds, attrs)
        tables, table_spans, table_paths = self._tables(data, pos, declared)
        self.apply_variant(data, pos, tables, table_paths)
        self.read_table_initials(tables, pos, index)
        self.check_named_data(self.name_sets, pos, tables, attr_sources, kinds)
        self._check_summary(data, pos, declared)
        game_positions = self.positions_later(game_file)
        edges, edge_types = _edge_columns(graph, node_ids, index)
        components = {
            kind: Component(kind, info[0], info[1], info[2], {k: v[0] for k, v in component_fields[kind].items()},
                            info[3], info[4])
            for kind, info in kinds.items()}
        world = World(
            seat_fields={k: v[0] for k, v in declared["seat"].items()},
            global_fields={k: v[0] for k, v in declared["global"].items()},
            node_fields={k: v[0] for k, v in declared["node"].items()},
            node_attrs=attrs, node_attr_values=attr_values, node_ids=tuple(node_ids),
            adjacency=tuple(tuple(sorted(index[m] for m in graph.successors(n))) for n in node_ids),
            tables=tables, table_spans=table_spans, edges=edges, edge_types=edge_types, components=components,
            table_sources={name: DataSource(value, game_positions, table_paths[name])
                           for name, (_, value) in tables.items()},
            node_attr_sources=attr_sources, name_sets=self.name_sets)
        return _Data(data, pos, game_file, world, graph, cells, reconstructed, declared, component_fields, kinds,
                     table_spans, GameWords(data))

    def _check_seats(self, data: dict[str, Any], pos: PositionMap) -> None:
        seats = data["seats"]
        self.min_seats = seats["min"]
        if seats["min"] > seats["max"]:
            self.diags.error(pos.nearest(("seats",)), "schema", "seats.min is larger than seats.max")

    def _state_fields(self, data: dict[str, Any], pos: PositionMap, index: dict[Any, int],
                      kinds: dict[str, tuple[Any, ...]], attrs: Mapping[str, Any]
                      ) -> tuple[dict[str, _Fields], dict[str, _Fields]]:
        """The fields of `state`'s seat, global and node parts, and of each component kind's,
        reporting parts that are none of those and names used twice."""
        state = data.get("state", {})
        for key in state:
            if key not in ("seat", "global", "node") and key not in kinds:
                self.diags.error(pos.key_span(("state", key)) or pos.nearest(("state", key)), "unknown-name",
                                 f"state '{key}' is not seat, global, node or a component kind",
                                 did_you_mean(key, ["seat", "global", "node", *kinds]))
        component_fields = {kind: self.fields(state.get(kind, {}), ("state", kind), pos, index, kind)
                            for kind in kinds}
        for kind, fields in component_fields.items():
            for name in fields:
                if name in kinds[kind][1]:
                    self.diags.error(pos.nearest(("state", kind, name)), "duplicate",
                                     f"'{name}' is both {an(kind)} field and an attribute in its file: rename one")
        for kind, info in kinds.items():
            clash = info[3] in (state.get("global") or {}) or info[3] in (data.get("tables") or {})
            if clash:
                self.diags.error(pos.nearest(("components", kind, "collection")), "duplicate",
                                 f"the collection name '{info[3]}' is already a global field or a table")
        declared = {part: self.fields(state.get(part, {}), ("state", part), pos, index, part)
                    for part in ("seat", "global", "node")}
        for name in declared["node"]:
            if name in attrs:
                self.diags.error(pos.nearest(("state", "node", name)), "duplicate",
                                 f"'{name}' is both a node field and a board attribute")
        return declared, component_fields

    def _tables(self, data: dict[str, Any], pos: PositionMap, declared: dict[str, _Fields]
                ) -> tuple[dict[str, tuple[Type, Any]], dict[str, Span], dict[str, tuple[str, ...]]]:
        """The tables (type and frozen value), where each is declared and where its value is written."""
        tables = {}
        table_spans = {}
        table_paths: dict[str, tuple[str, ...]] = {}
        for name, value in (data.get("tables") or {}).items():
            tables[name] = (type_of_data(value), _freeze(value))
            table_spans[name] = pos.nearest(("tables", name))
            table_paths[name] = ("tables", name)
            self.whole_numbers(value, ("tables", name), pos)
            for kind in ("global", "seat", "node"):
                if name in declared[kind]:
                    self.diags.error(table_spans[name], "duplicate",
                                     f"'{name}' is both a table and {an(kind)} field: rename one of them")
        return tables, table_spans, table_paths

    def _check_summary(self, data: dict[str, Any], pos: PositionMap, declared: dict[str, _Fields]) -> None:
        """The currency and what `simulate` reports name fields that exist."""
        seat_fields = declared["seat"]
        currency = data.get("currency")
        if currency is not None and currency not in seat_fields:
            self.diags.error(pos.nearest(("currency",)), "unknown-field",
                             f"currency '{currency}' is not a seat field",
                             did_you_mean(currency, list(seat_fields)))
        summary = data.get("summary") or {}
        for key, kind in (("score", "seat"), ("rounds", "global")):
            fields = declared[kind]
            if key in summary and summary[key] not in fields:
                self.diags.error(pos.nearest(("summary", key)), "unknown-field",
                                 f"summary {key} '{summary[key]}' is not {an(kind)} field",
                                 did_you_mean(summary[key], list(fields)))

    def _compile(self, data: dict[str, Any], pos: PositionMap, world: World, game_file: str) -> Program | None:
        """The rules files parsed and compiled against the world; None on errors."""
        files = self.rules(data["rules"], pos)
        if self.diags.has_errors:
            return None
        try:
            program, diags = compile_rules(world, files, data["start"], pos.nearest(("start",)),
                                           tuple((data.get("display") or {}).values()) + screen_formula_names(data)
                                           + bot_formulas(data),
                                           tuple(self.ability_code), self.check_only)
        except RecursionError:
            # Formulas are checked inside their callers: a very long chain of them runs out of stack.
            first = files[0].phases[0].span if files and files[0].phases else Span(game_file, 1, 1)
            self.diags.error(first, "too-deep", "formulas call formulas too many levels deep to be checked",
                             "shorten the chain: compute a part with a table, or in a phase with let")
            return None
        self.diags.extend(diags)
        return program

    def _check_display(self, data: dict[str, Any], pos: PositionMap, program: Program) -> None:
        """Each `display` entry names a formula of one node giving a text."""
        for key, name in (data.get("display") or {}).items():
            found = program.formula_types.get(name)
            where = pos.nearest(("display", key))
            if found is None:
                self.diags.error(where, "unknown-name", f"display {key} '{name}' is not a formula",
                                 did_you_mean(name, list(program.formula_types)))
            elif [t.kind for t in found[0]] != ["node"] or found[1].kind not in ("str", "any"):
                self.diags.error(where, "type", f"display {key} '{name}' must be a formula of one node "
                                 "giving a text, like: formula label(n: node) = ...")


def check_game(folder: Path, variant: str | None = None, texts: Mapping[Path, str] | None = None,
               check_only: bool = False, memo: DataMemo | None = None
               ) -> tuple[Game | None, list[Diagnostic], dict[str, str]]:
    """Load a game folder and return it with every diagnostic (the game is None on errors).

    `texts` gives the text of some of the folder's files in place of what is on disk (an editor's
    unsaved buffers, by path); nothing is written. `check_only`: the same diagnostics and game,
    sooner, for a caller that will most likely not run it (the rules' code is compiled in full only
    if something runs them: see `ruledsl.compiler.compile_rules`). `memo`: the game's data as last
    read, used again when its files did not change, and kept for the next check (base.DataMemo).
    """
    loader = _Loader(folder, variant, texts)
    loader.check_only = check_only
    loader.memo = memo
    game = loader.load()
    lines: dict[str, list[str]] = {}

    def lines_of(file: str) -> list[str] | None:
        source = loader.sources.get(file)
        if source is not None and file not in lines:
            lines[file] = source.splitlines()
        return lines.get(file)

    kept = [d for d in loader.diags.items if d.severity != "warning" or not _allowed(d, lines_of(d.span.file))]
    items = sorted(kept, key=lambda d: (d.span.file, d.span.line, d.span.column))
    return game, items, loader.sources


_ALLOW = re.compile(r"#\s*allow:\s*([a-z-]+(?:\s*,\s*[a-z-]+)*)")


def allowed(diag: Diagnostic, source: str | None) -> bool:
    """A warning the designer has accepted with `# allow: code` on its line or the comment line above.

    Errors cannot be allowed: the game would not run.
    """
    return diag.severity == "warning" and source is not None and _allowed(diag, source.splitlines())


def _allowed(diag: Diagnostic, lines: list[str] | None) -> bool:
    if lines is None:
        return False
    candidates = lines[diag.span.line - 1: diag.span.line] if 0 < diag.span.line <= len(lines) else []
    if 1 < diag.span.line <= len(lines) + 1 and lines[diag.span.line - 2].lstrip().startswith("#"):
        candidates.append(lines[diag.span.line - 2])
    for line in candidates:
        for found in _ALLOW.finditer(line):
            if diag.code in (c.strip() for c in found.group(1).split(",")):
                return True
    return False


def load_game(name_or_path: str, variant: str | None = None) -> Game:
    """Load a shipped game by name or a game folder by path; raises RuleFileError on problems."""
    folder = resolve_game(name_or_path)
    game, diags, sources = check_game(folder, variant)
    if game is None:
        raise RuleFileError([d for d in diags if d.severity == "error"] or diags, sources)
    return game
