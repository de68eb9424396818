"""Load a game folder: YAML (safe) → schema → board graph → rules parse → check → compile."""

from __future__ import annotations

import importlib.util
import marshal
import re
from pathlib import Path
from typing import Any, Callable

import networkx as nx

from ruledsl import ast as A
from ruledsl.compiler import AbilityCode, compile_rules
from ruledsl.diagnostics import Diagnostic, DiagnosticBag, RuleFileError, Span, an, did_you_mean
from ruledsl.parser import parse_block, parse_rules
from ruledsl.types import Type, TypeSyntaxError, assignable, parse_type, type_of_data, unify
from ruledsl.world import Component, Field, World

from ..core.game import FieldSpec, Game
from .schema_check import check_schema
from .yamlsource import PositionMap, load_yaml

MAX_RULES_BYTES = 1024 * 1024


def games_root() -> Path:
    """The folder of the games shipped with cityrules (installed as the `cityrules_games` package)."""
    spec = importlib.util.find_spec("cityrules_games")
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location).is_dir():
            return Path(location)
    return Path(__file__).resolve().parents[2] / "games"


def shipped_games() -> list[str]:
    """Names of the shipped games."""
    root = games_root()
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())


def resolve_game(name_or_path: str) -> Path:
    """A game folder from a shipped game's name or a path."""
    path = Path(name_or_path)
    if (path / "game.yaml").is_file():
        return path
    if path.name == "game.yaml" and path.is_file():
        return path.parent
    shipped = games_root() / name_or_path
    if (shipped / "game.yaml").is_file():
        return shipped
    hint = did_you_mean(name_or_path, shipped_games())
    raise FileNotFoundError(f"no game '{name_or_path}': not a folder with a game.yaml, nor a shipped game "
                            f"({', '.join(shipped_games())})" + (f"; {hint}" if hint else ""))


def game_ref(game: Game) -> str:
    """How a journal names a game: a shipped game by name, any other by its folder's full path."""
    shipped = games_root() / game.name
    if shipped.resolve() == game.folder.resolve():
        return game.name
    return str(game.folder.resolve())


def _display(folder: Path, name: str) -> str:
    """The file name shown in diagnostics: relative to the working folder when possible."""
    full = (folder / name).resolve()
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(full)


class _Loader:
    def __init__(self, folder: Path, variant: str | None = None):
        self.folder = folder
        self.variant = variant
        self.ability_code: list[AbilityCode] = []
        self.diags = DiagnosticBag()
        self.sources: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}

    def yaml(self, name: str, schema: str) -> tuple[Any, PositionMap | None, str]:
        shown = _display(self.folder, name)
        path = self.folder / name
        if not path.is_file():
            return None, None, shown
        try:
            self.sources[shown] = path.read_text(encoding="utf-8", errors="replace")[:MAX_RULES_BYTES]
        except OSError:
            pass
        data, positions, diags = load_yaml(path, shown)
        self.diags.extend(diags)
        if data is None and not diags:
            # An empty file (or only comments) holds none of the keys the schema requires.
            self.diags.error(Span(shown, 1, 1), "schema", f"'{name}' is empty",
                             "see docs/language.md, section 1, for what this file holds")
        if data is not None and not diags:
            self.diags.extend(check_schema(data, positions, schema, shown))  # type: ignore[arg-type]
        return data, positions, shown

    def load(self) -> Game | None:
        data, pos, game_file = self.yaml("game.yaml", "game")
        if pos is None:
            self.diags.error(Span(game_file, 1, 1), "missing-file", "the game folder has no game.yaml")
            return None
        if self.diags.has_errors or not isinstance(data, dict):
            return None
        seats = data["seats"]
        self.min_seats = seats["min"]
        if seats["min"] > seats["max"]:
            self.diags.error(pos.nearest(("seats",)), "schema", "seats.min is larger than seats.max")
        board = self.board(data, pos)
        if board is None:
            return None
        graph, node_ids, attrs, attr_values, cells, reconstructed = board
        index = {nid: i for i, nid in enumerate(node_ids)}
        self.indexes: dict[str, dict[Any, int]] = {"node": index}
        kinds = self.components(data, pos)
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
        seat_fields = self.fields(state.get("seat", {}), ("state", "seat"), pos, index, "seat")
        global_fields = self.fields(state.get("global", {}), ("state", "global"), pos, index, "global")
        node_fields = self.fields(state.get("node", {}), ("state", "node"), pos, index, "node")
        for name in node_fields:
            if name in attrs:
                self.diags.error(pos.nearest(("state", "node", name)), "duplicate",
                                 f"'{name}' is both a node field and a board attribute")
        tables = {}
        table_spans = {}
        for name, value in (data.get("tables") or {}).items():
            tables[name] = (type_of_data(value), _freeze(value))
            table_spans[name] = pos.nearest(("tables", name))
            self.whole_numbers(value, ("tables", name), pos)
            for kind, fields in (("global", global_fields), ("seat", seat_fields), ("node", node_fields)):
                if name in fields:
                    self.diags.error(table_spans[name], "duplicate",
                                     f"'{name}' is both a table and {an(kind)} field: rename one of them")
        self.apply_variant(data, pos, tables)
        currency = data.get("currency")
        if currency is not None and currency not in seat_fields:
            self.diags.error(pos.nearest(("currency",)), "unknown-field",
                             f"currency '{currency}' is not a seat field",
                             did_you_mean(currency, list(seat_fields)))
        summary = data.get("summary") or {}
        for key, fields, kind in (("score", seat_fields, "seat"), ("rounds", global_fields, "global")):
            if key in summary and summary[key] not in fields:
                self.diags.error(pos.nearest(("summary", key)), "unknown-field",
                                 f"summary {key} '{summary[key]}' is not {an(kind)} field",
                                 did_you_mean(summary[key], list(fields)))
        adjacency = tuple(tuple(sorted(index[m] for m in graph.neighbors(n))) for n in node_ids)
        edges, edge_types = _edge_columns(graph, node_ids, index)
        components = {
            kind: Component(kind, info[0], info[1], info[2], {k: v[0] for k, v in component_fields[kind].items()},
                            info[3])
            for kind, info in kinds.items()}
        world = World(
            seat_fields={k: v[0] for k, v in seat_fields.items()},
            global_fields={k: v[0] for k, v in global_fields.items()},
            node_fields={k: v[0] for k, v in node_fields.items()},
            node_attrs=attrs, node_attr_values=attr_values, node_ids=tuple(node_ids),
            adjacency=adjacency, tables=tables, table_spans=table_spans, edges=edges, edge_types=edge_types,
            components=components)
        files = self.rules(data["rules"], pos)
        if self.diags.has_errors:
            return None
        try:
            program, diags = compile_rules(world, files, data["start"], pos.nearest(("start",)),
                                           tuple((data.get("display") or {}).values()), tuple(self.ability_code))
        except RecursionError:
            # Formulas are checked inside their callers: a very long chain of them runs out of stack.
            first = files[0].phases[0].span if files and files[0].phases else Span(game_file, 1, 1)
            self.diags.error(first, "too-deep", "formulas call formulas too many levels deep to be checked",
                             "shorten the chain: compute a part with a table, or in a phase with let")
            return None
        self.diags.extend(diags)
        if program is None:
            return None
        display = data.get("display") or {}
        for key, name in display.items():
            found = program.formulas.get(name)
            where = pos.nearest(("display", key))
            if found is None:
                self.diags.error(where, "unknown-name", f"display {key} '{name}' is not a formula",
                                 did_you_mean(name, list(program.formulas)))
            elif [t.kind for t in found[1]] != ["node"] or found[2].kind not in ("str", "any"):
                self.diags.error(where, "type", f"display {key} '{name}' must be a formula of one node "
                                 "giving a text, like: formula label(n: node) = ...")
        places = self.places(data, pos, seat_fields, global_fields)
        if self.diags.has_errors:
            return None
        return Game(
            name=data["name"], title=data["title"], folder=self.folder, min_seats=seats["min"],
            max_seats=seats["max"], currency=currency, start=data["start"], world=world, program=program,
            graph=graph, seat_fields=tuple(v[1] for v in seat_fields.values()),
            global_fields=tuple(v[1] for v in global_fields.values()),
            node_fields=tuple(v[1] for v in node_fields.values()), node_cells=cells,
            component_fields={kind: tuple(v[1] for v in fields.values()) for kind, fields in component_fields.items()},
            component_places=places,
            score_field=summary.get("score", currency), rounds_field=summary.get("rounds"),
            variant=self.variant, variants=tuple(data.get("options") or ()), display=dict(display),
            reconstructed_board=reconstructed, credits=data.get("credits", ""), sources=self.sources)

    def whole_numbers(self, value: Any, path: tuple[Any, ...], pos: PositionMap) -> None:
        """The rules count in whole numbers: a fraction in the data is a mistake to report."""
        if isinstance(value, float):
            self.diags.error(pos.nearest(path), "type", f"{value} is not a whole number",
                             "the rules language counts in whole numbers")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.whole_numbers(item, path + (i,), pos)
        elif isinstance(value, dict):
            for key, item in value.items():
                self.whole_numbers(item, path + (key,), pos)

    def components(self, data: dict[str, Any], pos: PositionMap) -> dict[str, tuple[Any, ...]]:
        """Load each component kind's file: ids (copies expanded), attribute types and columns."""
        result: dict[str, tuple[Any, ...]] = {}
        self.kinds: set[str] = set()
        reserved = {"int", "bool", "str", "seat", "node", "list", "map", "tuple", "any", "none"}
        for kind, spec in (data.get("components") or {}).items():
            if kind in reserved:
                self.diags.error(pos.key_span(("components", kind)) or pos.nearest(("components", kind)),
                                 "reserved-word", f"'{kind}' is a built-in type and cannot name a component kind")
                continue
            items, ipos, shown = self.yaml(spec["file"], "components")
            if ipos is None:
                self.diags.error(pos.nearest(("components", kind, "file")), "missing-file",
                                 f"component file '{spec['file']}' not found")
                continue
            if not isinstance(items, dict) or self.diags.has_errors:
                continue
            ids: list[Any] = []
            rows: list[dict[str, Any]] = []
            declared = spec.get("abilities") or {}
            params = {name: self.ability_params(kind, name, text, pos.nearest(("components", kind, "abilities", name)))
                      for name, text in declared.items()}
            bodies: dict[str, list[A.Phase | None]] = {name: [] for name in declared}
            for i, item in enumerate(items["items"]):
                self.whole_numbers(item, ("items", i), ipos)
                copies = item.get("copies", 1)
                code = {name: self.ability_body(item.get(name), ("items", i, name), ipos, shown)
                        for name in declared}
                for n in range(1, copies + 1):
                    cid = item["id"] if copies == 1 else f"{item['id']}-{n}"
                    if cid in ids:
                        self.diags.error(ipos.nearest(("items", i, "id")), "duplicate",
                                         f"{kind} id {cid!r} is used twice")
                        break  # once per item, not once per copy
                    ids.append(cid)
                    rows.append({k: v for k, v in item.items() if k not in ("id", "copies") and k not in declared})
                    for name in declared:
                        bodies[name].append(code[name])
            for name in declared:
                self.ability_code.append(AbilityCode(kind, name, params[name], tuple(bodies[name])))
            names = sorted({k for row in rows for k in row})
            attrs: dict[str, Type] = {"id": Type("none", (), True)}
            for cid in ids:
                attrs["id"] = unify(attrs["id"], type_of_data(cid))
            values: dict[str, tuple[Any, ...]] = {"id": tuple(ids)}
            for name in names:
                column = tuple(_freeze(row.get(name)) for row in rows)
                t: Type = Type("none", (), True)
                for v in column:
                    t = unify(t, type_of_data(v))
                attrs[name] = t
                values[name] = column
            self.indexes[kind] = {cid: i for i, cid in enumerate(ids)}
            self.kinds.add(kind)
            result[kind] = (tuple(ids), attrs, values, spec["collection"])
        return result

    def places(self, data: dict[str, Any], pos: PositionMap, seat_fields: dict[str, Any],
               global_fields: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        """The fields declared to hold every item of a kind exactly once, checked to exist."""
        result = {}
        for kind, spec in (data.get("components") or {}).items():
            names = spec.get("places") or []
            for i, name in enumerate(names):
                found = seat_fields.get(name) or global_fields.get(name)
                if found is None:
                    self.diags.error(pos.nearest(("components", kind, "places", i)), "unknown-field",
                                     f"'{name}' is not a seat or global field",
                                     did_you_mean(name, list(seat_fields) + list(global_fields)))
                elif not _holds(found[0].type, kind):
                    self.diags.error(pos.nearest(("components", kind, "places", i)), "type",
                                     f"'{name}' is {an(found[0].type)}: it cannot hold {an(kind)}")
            if names:
                result[kind] = tuple(names)
        return result

    def ability_params(self, kind: str, ability: str, text: str, span: Span) -> tuple[A.Param, ...]:
        """`this` (the item) and the parameters declared for an ability, e.g. "you: seat"."""
        params = [A.Param(span, "this", kind)]
        for part in [p for p in text.split(",") if p.strip()]:
            name, _, type_text = part.partition(":")
            name, type_text = name.strip(), type_text.strip()
            if not name.isidentifier() or not type_text:
                self.diags.error(span, "syntax", f"ability '{ability}': '{part.strip()}' is not 'name: type'",
                                 "write the parameters like: you: seat, amount: int")
                continue
            params.append(A.Param(span, name, type_text))
        return tuple(params)

    def lines_of(self, shown: str) -> list[str]:
        """The lines of a file already read, split once however many abilities it holds."""
        if shown not in self._lines:
            self._lines[shown] = self.sources.get(shown, "").splitlines()
        return self._lines[shown]

    def ability_body(self, value: Any, path: tuple[Any, ...], ipos: PositionMap, shown: str) -> A.Phase | None:
        """Parse an item's ability code where it stands in its YAML file."""
        if value is None:
            return None
        span = ipos.nearest(path)
        if not isinstance(value, str):
            self.diags.error(span, "type", "an ability is rules code written as text", "use a | block for several lines")
            return None
        lines = self.lines_of(shown)
        opener = _opener(lines, span)
        if opener == ">" or (opener != "|" and span.end_line > span.line):
            # YAML has joined the lines into one: the layout the rules depend on is gone.
            self.diags.error(span, "syntax", "ability code must keep its lines as written, and this YAML "
                             "value joins them", "write the code as a block that starts with '|'")
            return None
        first_line, column = _text_start(lines, span)
        phase, diags = parse_block(value, shown, first_line, column)
        self.diags.extend(diags)
        return phase

    def apply_variant(self, data: dict[str, Any], pos: PositionMap, tables: dict[str, tuple[Type, Any]]) -> None:
        """A variant replaces tables by name: the same rules run on other numbers or switches."""
        options = data.get("options") or {}
        for name, option in options.items():
            for key, value in option["values"].items():
                where = pos.nearest(("options", name, "values", key))
                self.whole_numbers(value, ("options", name, "values", key), pos)
                if key not in tables:
                    self.diags.error(where, "unknown-name", f"variant '{name}' sets '{key}', which is not a table",
                                     did_you_mean(key, list(tables)))
                elif not _same_shape(tables[key][0], type_of_data(value)):
                    self.diags.error(where, "type", f"variant '{name}' sets '{key}' to {an(type_of_data(value))}, "
                                     f"but the table is {an(tables[key][0])}")
        if self.variant is None:
            return
        if self.variant not in options:
            hint = did_you_mean(self.variant, list(options))
            self.diags.error(pos.nearest(("options",)), "unknown-variant",
                             f"this game has no variant '{self.variant}'"
                             + (f" (variants: {', '.join(options)})" if options else " (it has none)"), hint)
            return
        for key, value in options[self.variant]["values"].items():
            if key in tables:
                tables[key] = (tables[key][0], _freeze(value))

    def board(self, data: dict[str, Any], pos: PositionMap) -> tuple[Any, ...] | None:
        graph: "nx.Graph[Any]" = nx.Graph()
        if "board" not in data:
            return graph, [], {"id": Type("none", (), True)}, {"id": ()}, (), False
        board, bpos, shown = self.yaml(data["board"], "board")
        if bpos is None:
            self.diags.error(pos.nearest(("board",)), "missing-file", f"board file '{data['board']}' not found")
            return None
        if self.diags.has_errors or not isinstance(board, dict):
            return None
        graph = nx.DiGraph() if board.get("directed") else nx.Graph()
        node_ids: list[Any] = []
        for i, node in enumerate(board["nodes"]):
            nid = node["id"]
            if nid in graph:
                self.diags.error(bpos.nearest(("nodes", i, "id")), "duplicate", f"node id {nid!r} is used twice")
                continue
            self.whole_numbers(node, ("nodes", i), bpos)
            graph.add_node(nid, **{k: v for k, v in node.items() if k != "id"})
            node_ids.append(nid)
        self.whole_numbers(board.get("edges") or [], ("edges",), bpos)
        for i, edge in enumerate(board.get("edges") or []):
            a, b, extra = (edge[0], edge[1], {}) if isinstance(edge, list) else (
                edge["from"], edge["to"], {k: v for k, v in edge.items() if k not in ("from", "to")})
            for end, key in ((a, 0 if isinstance(edge, list) else "from"), (b, 1 if isinstance(edge, list) else "to")):
                if end not in graph:
                    self.diags.error(bpos.nearest(("edges", i, key)), "unknown-node",
                                     f"edge {i + 1} names node {end!r}, which the board does not have",
                                     did_you_mean(str(end), [str(n) for n in node_ids]))
            if a in graph and b in graph:
                graph.add_edge(a, b, **extra)
        if self.diags.has_errors:
            return None
        attrs: dict[str, Type] = {"id": type_of_data(node_ids[0]) if node_ids else Type("any", (), True)}
        for nid in node_ids:
            attrs["id"] = unify(attrs["id"], type_of_data(nid))
        names = sorted({k for n in node_ids for k in graph.nodes[n]})
        values: dict[str, tuple[Any, ...]] = {"id": tuple(node_ids)}
        for name in names:
            column = tuple(_freeze(graph.nodes[n].get(name)) for n in node_ids)
            t: Type = Type("none", (), True)
            for v in column:
                t = unify(t, type_of_data(v))
            attrs[name] = t
            values[name] = column
        cells = tuple(tuple((int(c[0]), int(c[1])) for c in (graph.nodes[n].get("cells") or ())) for n in node_ids)
        return graph, node_ids, attrs, values, cells, bool(board.get("reconstructed"))

    def fields(self, specs: dict[str, Any], where: tuple[str, ...], pos: PositionMap, index: dict[Any, int],
               owner: str) -> dict[str, tuple[Field, FieldSpec]]:
        result = {}
        for name, spec in specs.items():
            path = where + (name,)
            try:
                t = parse_type(spec["type"], self.kinds)
            except TypeSyntaxError as err:
                self.diags.error(pos.nearest(path + ("type",)), "type", str(err))
                continue
            initial = self.convert(spec["initial"], t, path + ("initial",), pos, index)
            if t.kind == "map" and _has_int_keys(t):
                self.diags.error(pos.nearest(path + ("type",)), "type",
                                 "state maps need text keys (they are saved as JSON)")
            visible = spec.get("visible", "all")
            if visible == "owner" and owner != "seat":
                self.diags.error(pos.nearest(path + ("visible",)), "schema",
                                 "'owner' visibility only applies to seat fields")
            field = Field(name, t, pos.nearest(path), bool(spec.get("ledger")), visible)
            result[name] = (field, FieldSpec(name, str(t), initial, visible, bool(spec.get("ledger"))))
        return result

    def convert(self, value: Any, t: Type, path: tuple[Any, ...], pos: PositionMap, index: dict[Any, int]) -> Any:
        """Check an initial value against its declared type; node ids become node indexes."""
        span = pos.nearest(path)
        if value is None:
            if not t.nullable and t.kind != "any":
                self.diags.error(span, "type", f"the initial value must be {t}, not none",
                                 f"write the type as '{t}?' to allow none")
            return None
        kind = t.kind
        ok: Callable[[Any], bool] = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "bool": lambda v: isinstance(v, bool), "str": lambda v: isinstance(v, str),
              "seat": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
              "list": lambda v: isinstance(v, list), "map": lambda v: isinstance(v, dict),
              "tuple": lambda v: isinstance(v, list) and len(v) == len(t.args),
              "any": lambda v: True}.get(kind, lambda v: isinstance(v, (int, str)) and v in self.indexes.get(kind, {}))
        if not ok(value):
            extra = f" (no {kind} has this id)" if kind in self.indexes else ""
            self.diags.error(span, "type", f"the initial value {value!r} is not {an(t)}{extra}")
            return None
        if kind in self.indexes:
            return self.indexes[kind][value]
        if kind == "tuple":
            return [self.convert(v, a, path + (i,), pos, index) for i, (v, a) in enumerate(zip(value, t.args))]
        if kind == "seat" and value >= self.min_seats:
            self.diags.error(span, "type", f"seat {value} does not exist in a game of {self.min_seats} seats",
                             "seats are numbered from 0")
            return None
        if kind == "list":
            return [self.convert(v, t.args[0], path + (i,), pos, index) for i, v in enumerate(value)]
        if kind == "map":
            return {str(k): self.convert(v, t.args[1], path + (k,), pos, index) for k, v in value.items()}
        return value

    def rules(self, names: list[str], pos: PositionMap) -> list[A.RulesFile]:
        files = []
        for i, name in enumerate(names):
            shown = _display(self.folder, name)
            path = self.folder / name
            if not path.is_file():
                self.diags.error(pos.nearest(("rules", i)), "missing-file", f"rules file '{name}' not found")
                continue
            if path.stat().st_size > MAX_RULES_BYTES:
                self.diags.error(Span(shown, 1, 1), "file-too-large", f"'{name}' is over 1 MiB")
                continue
            raw = path.read_bytes()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                # Reported, not silently replaced: a text in the rules would show U+FFFD to players.
                self.sources[shown] = raw.decode("utf-8", errors="replace")
                before = raw[:err.start].decode("utf-8", errors="replace")
                line = before.count("\n") + 1
                self.diags.error(Span(shown, line, len(before) - before.rfind("\n")), "syntax",
                                 f"this file is not UTF-8 text: byte 0x{raw[err.start]:02x} cannot be read",
                                 "save the file as UTF-8")
                continue
            self.sources[shown] = text
            tree, diags = parse_rules(text, shown)
            self.diags.extend(diags)
            if tree is not None:
                files.append(tree)
        return files


def _edge_columns(graph: "nx.Graph[Any]", node_ids: list[Any], index: dict[Any, int]) -> tuple[
        dict[str, tuple[tuple[list[object], ...], ...]], dict[str, Type]]:
    """Per edge attribute: for each node, its successors with the attribute's value, in node order."""
    names = sorted({k for _, _, d in graph.edges(data=True) for k in d})
    columns: dict[str, tuple[tuple[list[object], ...], ...]] = {}
    types: dict[str, Type] = {}
    for name in names:
        per_node = []
        t: Type = Type("none", (), True)
        for nid in node_ids:
            pairs = []
            for succ in sorted(graph.neighbors(nid), key=lambda m: index[m]):
                value = graph.edges[nid, succ].get(name)
                if value is not None:
                    pairs.append([index[succ], value])
                    t = unify(t, type_of_data(value))
            per_node.append(tuple(pairs))
        columns[name] = tuple(per_node)
        types[name] = t
    return columns, types


def _holds(t: Type, kind: str) -> bool:
    """Can a value of type t contain items of the kind (directly or inside lists)?"""
    return t.kind == kind or any(_holds(a, kind) for a in t.args)


def _opener(lines: list[str], span: Span) -> str:
    """The character a YAML scalar starts with: '|', '>', a quote, or the first of a plain value."""
    if not 1 <= span.line <= len(lines) or span.column < 1:
        return ""
    return lines[span.line - 1][span.column - 1:span.column]


def _text_start(lines: list[str], span: Span) -> tuple[int, int]:
    """Where the text of a YAML scalar begins: after a quote, or on the line after a `|`."""
    if not 1 <= span.line <= len(lines):
        return span.line, span.column
    here = _opener(lines, span)
    if here in ("|", ">"):
        for n in range(span.line, len(lines)):
            text = lines[n]
            if text.strip():
                return n + 1, len(text) - len(text.lstrip()) + 1
        return span.line, span.column
    if here in ('"', "'"):
        return span.line, span.column + 1
    return span.line, span.column


def _same_shape(a: Type, b: Type) -> bool:
    return assignable(a, b) or assignable(b, a)


def _has_int_keys(t: Type) -> bool:
    if t.kind == "map":
        return t.args[0].kind == "int" or _has_int_keys(t.args[1])
    if t.kind == "list":
        return _has_int_keys(t.args[0])
    return False


def _freeze(value: Any) -> Any:
    """Tables and attributes are read-only data; a private copy keeps YAML objects unshared."""
    return marshal.loads(marshal.dumps(value))


def check_game(folder: Path, variant: str | None = None) -> tuple[Game | None, list[Diagnostic], dict[str, str]]:
    """Load a game folder and return it with every diagnostic (the game is None on errors)."""
    loader = _Loader(folder, variant)
    game = loader.load()
    kept = [d for d in loader.diags.items if not allowed(d, loader.sources.get(d.span.file))]
    items = sorted(kept, key=lambda d: (d.span.file, d.span.line, d.span.column))
    return game, items, loader.sources


_ALLOW = re.compile(r"#\s*allow:\s*([a-z-]+(?:\s*,\s*[a-z-]+)*)")


def allowed(diag: Diagnostic, source: str | None) -> bool:
    """A warning the designer has accepted with `# allow: code` on its line or the comment line above.

    Errors cannot be allowed: the game would not run.
    """
    if diag.severity != "warning" or source is None:
        return False
    lines = source.splitlines()
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
