"""Component files: items (copies expanded), their attributes, abilities written as rules code, places,
what their backs show."""

from __future__ import annotations

from typing import Any

from ruledsl.diagnostics import Span, an, did_you_mean
from ruledsl.program import AbilityCode
from ruledsl.syntax import ast as A
from ruledsl.syntax.parser import parse_block
from ruledsl.types import Type, type_of_data, unify
from ruledsl.world import DataSource, World

from .base import LoaderBase, _freeze
from .misspelt_keys import check_misspelt_keys
from .places_check import unlisted_places
from .yamlsource import PositionMap


class ComponentsMixin(LoaderBase):
    """Reads each component kind's file and the fields declared to hold its items."""

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
            errors_before = sum(1 for d in self.diags.items if d.severity == "error")
            items, ipos, shown = self.yaml(spec["file"], "components", pos.nearest(("components", kind, "file")),
                                           f"component file '{spec['file']}' not found")
            if ipos is None:
                continue
            # A kind whose file could not be read is left out; a mistake in another kind's items is
            # no reason to leave this one out too (its name would then be unknown everywhere).
            if not isinstance(items, dict) or sum(1 for d in self.diags.items if d.severity == "error") > errors_before:
                continue
            ids: list[Any] = []
            rows: list[dict[str, Any]] = []
            lines: list[int] = []  # where each item (copies included) is in the file's list of items
            declared = spec.get("abilities") or {}
            params = {name: self.ability_params(kind, name, text, pos.nearest(("components", kind, "abilities", name)))
                      for name, text in declared.items()}
            bodies: dict[str, list[A.Phase | None]] = {name: [] for name in declared}
            check_misspelt_keys(items["items"], kind, list(declared), "items", ipos, self.diags)
            # An editor's buffer is new at every keystroke: its abilities' trees are not worth cache files.
            kept = self.given_text(spec["file"]) is None
            for i, item in enumerate(items["items"]):
                self.whole_numbers(item, ("items", i), ipos)
                copies = item.get("copies", 1)
                code = {name: self.ability_body(item.get(name), ("items", i, name), ipos, shown, kept)
                        for name in declared}
                for n in range(1, copies + 1):
                    cid = item["id"] if copies == 1 else f"{item['id']}-{n}"
                    if cid in ids:
                        self.diags.error(ipos.nearest(("items", i, "id")), "duplicate",
                                         f"{kind} id {cid!r} is used twice")
                        break  # once per item, not once per copy
                    ids.append(cid)
                    lines.append(i)
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
            sources: dict[str, DataSource] = {}
            where = self.positions_later(shown)
            for name in names:
                column = tuple(_freeze(row.get(name)) for row in rows)
                sources[name] = DataSource(column, where, ("items",), tuple(lines), (name,))
                attrs[name] = self.column_type(kind, name, column, ids, sources[name], Span(shown, 1, 1))
                values[name] = column
            self.indexes[kind] = {cid: i for i, cid in enumerate(ids)}
            self.kinds.add(kind)
            result[kind] = (tuple(ids), attrs, values, spec["collection"], sources)
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
        state = data.get("state") or {}
        others = {name for part, specs in state.items() if part not in ("seat", "global") for name in specs or {}}
        self.diags.extend(unlisted_places(
            getattr(self, "rule_trees", ()), self.ability_code, result,
            {kind: pos.nearest(("components", kind, "places")) for kind in result},
            {k: v[0].type for k, v in seat_fields.items()}, {k: v[0].type for k, v in global_fields.items()}, others))
        return result

    def backs(self, data: dict[str, Any], pos: PositionMap, world: World) -> dict[str, str]:
        """Each kind's attribute that every seat can tell of an item it may not see (`back:`), checked
        to be one of the items' attributes."""
        result = {}
        for kind, spec in (data.get("components") or {}).items():
            name = spec.get("back")
            component = world.components.get(kind)
            if name is None or component is None:    # (a kind whose file has errors is reported there)
                continue
            where = pos.nearest(("components", kind, "back"))
            attributes = [a for a in component.attr_values if a != "id"]
            if name == "id":
                self.diags.error(where, "type", f"a {kind}'s id on its back would show which {kind} it is",
                                 f"name the attribute its back shows{_among(attributes)}, or leave `back` out")
            elif name not in attributes:
                self.diags.error(where, "unknown-field", f"{kind} items have no attribute '{name}'",
                                 did_you_mean(name, attributes) or f"name the attribute its back shows{_among(attributes)}")
            else:
                result[kind] = name
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

    def ability_body(self, value: Any, path: tuple[Any, ...], ipos: PositionMap, shown: str,
                     kept: bool = True) -> A.Phase | None:
        """Parse an item's ability code where it stands in its YAML file (`kept`: see `parse_block`)."""
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
        phase, diags = parse_block(value, shown, first_line, column, kept)
        self.diags.extend(diags)
        return phase


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


def code_start(lines: list[str], span: Span) -> tuple[int, int]:
    """Where an item's ability code begins in its YAML file (1-based line and column), given the value's span."""
    return _text_start(lines, span)


def _among(names: list[str]) -> str:
    """` (a, b, c)` to follow a hint's words with, or nothing when there are none."""
    return f" ({', '.join(names)})" if names else ""
