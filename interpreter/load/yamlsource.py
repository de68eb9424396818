"""Safe YAML loading that remembers where every value came from.

Only PyYAML's SafeLoader machinery is used: the file is composed into a node
tree and plain Python data (dict, list, str, int, float, bool, None) is built
from it here, so every value's position can be recorded and hostile input
(alias bombs, deep nesting, duplicate keys) is reported instead of crashing.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Iterable
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ruledsl.diagnostics import Diagnostic, Span
from ruledsl.syntax.parser import MAX_NUMBER_DIGITS

PathItem = Any  # a mapping key (usually str, sometimes int) or a list index
Path = tuple[PathItem, ...]

MAX_FILE_BYTES = 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = 64

_TAG = "tag:yaml.org,2002:"
_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN_SCALAR_TAGS = {_TAG + t for t in ("null", "bool", "int", "float", "str")}
_SYNTAX_HINTS = {
    "mapping values are not allowed here": "a value containing ': ' must be quoted, or the indentation is off",
    "found character '\\t' that cannot start any token": "YAML does not allow tabs for indentation; use spaces",
}


class PositionMap:
    """Where each value (and each mapping key) of a loaded YAML document is in the file.

    Paths are tuples of mapping keys and list indexes, as in jsonschema's
    `error.absolute_path`; the empty tuple is the whole document.
    """

    def __init__(self, file: str) -> None:
        self.file = file
        self._values: dict[Path, Span] = {}
        self._keys: dict[Path, Span] = {}

    def record(self, path: Path, span: Span) -> None:
        """Remember the span of the value at `path`."""
        self._values[path] = span

    def record_key(self, path: Path, span: Span) -> None:
        """Remember the span of the key whose value is at `path`."""
        self._keys[path] = span

    def span(self, path: Iterable[PathItem]) -> Span | None:
        """The span of the value at `path`, or None when there is no such value."""
        return self._values.get(tuple(path))

    def key_span(self, path: Iterable[PathItem]) -> Span | None:
        """The span of the mapping key naming the value at `path`, or None."""
        return self._keys.get(tuple(path))

    def nearest(self, path: Iterable[PathItem]) -> Span:
        """The span at `path`, else at its longest recorded prefix, else the file's start."""
        items = tuple(path)
        for end in range(len(items), -1, -1):
            found = self._values.get(items[:end])
            if found is not None:
                return found
        return Span(self.file, 1, 1)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and path in self._values

    def __len__(self) -> int:
        return len(self._values)


class _Stop(Exception):
    """Aborts loading with one diagnostic, for problems after which the data is useless."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _span(file: str, start: yaml.Mark, end: yaml.Mark | None = None, lines: list[str] | None = None) -> Span:
    """Span from pyyaml's 0-based marks; pyyaml's end mark is exclusive, ours inclusive.

    `lines` (the text's lines) is needed for spans that end at a line break: libyaml's marks
    do not carry the text.
    """
    line, column = start.line + 1, start.column + 1
    if end is None or (end.line, end.column) <= (start.line, start.column):
        return Span(file, line, column)
    if end.column == 0:
        # Ends at a line break (block scalars): close the span on the line before.
        return Span(file, line, column, end.line, max(1, _line_length(end, lines)))
    return Span(file, line, column, end.line + 1, end.column)


def _line_length(mark: yaml.Mark, lines: list[str] | None) -> int:
    """Length of the line that ends just before `mark` (which sits at a line start)."""
    if lines is None or not 0 < mark.line <= len(lines):
        return 1
    return len(lines[mark.line - 1].rstrip("\r"))


def _make_loader(file: str) -> type[yaml.SafeLoader]:
    """A SafeLoader that refuses to compose collections nested deeper than MAX_DEPTH."""

    class BoundedLoader(yaml.SafeLoader):
        depth = 0

        def _enter(self) -> None:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise _Stop(_too_deep(_span(file, mark)))

        def compose_sequence_node(self, anchor: Any) -> SequenceNode:
            self._enter()
            node = super().compose_sequence_node(anchor)
            self.depth -= 1
            return node

        def compose_mapping_node(self, anchor: Any) -> MappingNode:
            self._enter()
            node = super().compose_mapping_node(anchor)
            self.depth -= 1
            return node

    return BoundedLoader


# libyaml composes nodes recursively in C, and a few thousand levels overflow the C stack: the
# process dies (`- - - - ...` or `? ? ? ...` 40,000 deep on one line). So it only gets text whose
# nesting is plainly shallow; the pure-Python loader (bounded, and with the best error messages)
# reads everything else.
_SHALLOW_DEPTH = 400
_INDICATOR = re.compile(r"[-?:](?=[ \t]|$)")


def _plainly_shallow(text: str) -> bool:
    """A cheap over-estimate of the nesting stays under _SHALLOW_DEPTH on every line.

    When a line starts at indentation i, the block collections still open began at columns up to
    i, at most two per column (a sequence may sit at its key's indentation). On the line itself
    each indicator (`- `, `? `, `: `) opens at most one more, and each `[` or `{` one more.
    """
    depth = 0
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if 2 * (indent + 1) + depth > _SHALLOW_DEPTH:
            return False
        indicators = len(_INDICATOR.findall(line, indent))
        if 2 * (indent + 1) + indicators + depth + line.count("[") + line.count("{") > _SHALLOW_DEPTH:
            return False
        if "[" not in line and "{" not in line and "]" not in line and "}" not in line:
            continue
        for ch in line:
            if ch in "[{":
                depth += 1
            elif ch in "]}" and depth:
                depth -= 1
    return True


def _compose(text: str, file: str) -> Node | None:
    if yaml.__with_libyaml__ and _plainly_shallow(text):
        try:
            node: Node | None = yaml.compose(text, Loader=yaml.CSafeLoader)
            return node
        except yaml.YAMLError:
            pass  # read it again below, for the clearest message
    result: Node | None = yaml.compose(text, Loader=_make_loader(file))
    return result


def _too_deep(span: Span) -> Diagnostic:
    return Diagnostic(
        span, "yaml-too-deep", f"the data is nested more than {MAX_DEPTH} levels deep", hint="flatten the structure"
    )


def _too_large(span: Span) -> Diagnostic:
    return Diagnostic(span, "yaml-too-large", f"the data expands to more than {MAX_NODES} values",
                      hint="aliases (*name) and merges (<<) that repeat large anchored blocks multiply the size")


def _recursive(span: Span) -> Diagnostic:
    return Diagnostic(span, "yaml-recursive-alias", "an alias (*name) refers to a block that contains it")


class _Builder:
    """Turns a composed node tree into plain data, recording positions as it goes."""

    def __init__(self, file: str, positions: PositionMap, lines: list[str] | None = None) -> None:
        self.file = file
        self.lines = lines
        self.positions = positions
        self.diagnostics: list[Diagnostic] = []
        self.count = 0
        self.active: set[int] = set()
        self.constructor = yaml.SafeLoader("")

    def build(self, node: Node, path: Path, depth: int) -> object:
        span = _span(self.file, node.start_mark, node.end_mark, self.lines)
        self.count += 1
        if self.count > MAX_NODES:
            raise _Stop(_too_large(span))
        if isinstance(node, ScalarNode):
            self.positions.record(path, span)
            return self.scalar(node, span)
        if depth >= MAX_DEPTH:
            raise _Stop(_too_deep(span))
        if id(node) in self.active:
            raise _Stop(_recursive(span))
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                self.check_tag(node, "seq", span)
                result: object = [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
            else:
                assert isinstance(node, MappingNode)
                result = self.mapping(node, path, depth, span)
        finally:
            self.active.discard(id(node))
        if not node.flow_style:
            # Block collections "end" where the next token starts; end them at their last value instead.
            span = self.block_span(span, result, path)
        self.positions.record(path, span)
        return result

    def block_span(self, span: Span, result: object, path: Path) -> Span:
        keys: Iterable[PathItem] = (
            range(len(result)) if isinstance(result, list) else result if isinstance(result, dict) else ()
        )
        ends = [(c.end_line, c.end_column) for k in keys if (c := self.positions.span(path + (k,))) is not None]
        # Aliased values keep the anchor's (earlier) position, so take the furthest end, not the last child's.
        end = max(ends, default=(span.line, span.column))
        return Span(span.file, span.line, span.column, *max(end, (span.line, span.column)))

    def scalar(self, node: ScalarNode, span: Span) -> object:
        if node.tag == _TAG + "timestamp":
            return node.value  # dates stay text: the game files have no date fields
        if node.tag == _TAG + "merge":
            return node.value
        if node.tag not in _PLAIN_SCALAR_TAGS:
            self.bad_tag(node, span)
            return node.value
        if node.tag == _TAG + "int" and len(node.value) > MAX_NUMBER_DIGITS:
            self.diagnostics.append(Diagnostic(span, "yaml-bad-value", f"this number is {len(node.value):,} "
                                               f"characters long; numbers have at most {MAX_NUMBER_DIGITS} digits"))
            return node.value
        try:
            value = self.constructor.yaml_constructors[node.tag](self.constructor, node)
        except Exception as exc:  # e.g. an integer with more digits than Python will convert
            self.diagnostics.append(Diagnostic(span, "yaml-bad-value", f"cannot read this value: {exc}"))
            return node.value
        if isinstance(value, str) and (half := _SURROGATE.search(value)) is not None:
            # A "\ud800" escape gives half of a UTF-16 pair: no file or terminal can hold it.
            self.diagnostics.append(Diagnostic(span, "yaml-bad-value", f"this text holds \\u{ord(half.group(0)):04x}, "
                                               "half of a UTF-16 surrogate pair, which is not a character",
                                               hint="write the character itself, or its \\U escape"))
        return value

    def mapping(self, node: MappingNode, path: Path, depth: int, span: Span) -> dict[object, object]:
        self.check_tag(node, "map", span)
        result: dict[object, object] = {}
        explicit: list[tuple[Node, Node]] = []
        merged: list[tuple[Node, Node]] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.tag == _TAG + "merge":
                merged.extend(self.merge_pairs(value_node, depth, _span(self.file, key_node.start_mark)))
            else:
                explicit.append((key_node, value_node))
        first_seen: dict[object, Span] = {}
        for key_node, value_node in explicit:
            key = self.key(key_node)
            if key is _BAD_KEY:
                continue
            key_span = _span(self.file, key_node.start_mark, key_node.end_mark, self.lines)
            if key in first_seen:
                self.duplicate(key, key_span, first_seen[key])
                continue
            first_seen[key] = key_span
            self.positions.record_key(path + (key,), key_span)
            result[key] = self.build(value_node, path + (key,), depth + 1)
        # Merged keys (<<: *defaults) come first and explicit keys override them, as in YAML 1.1.
        base: dict[object, object] = {}
        for key_node, value_node in merged:
            key = self.key(key_node)
            if key is _BAD_KEY or key in first_seen or key in base:
                continue
            self.positions.record_key(path + (key,), _span(self.file, key_node.start_mark, key_node.end_mark, self.lines))
            base[key] = self.build(value_node, path + (key,), depth + 1)
        return {**base, **result} if base else result

    def merge_pairs(self, value: Node, depth: int, site: Span) -> list[tuple[Node, Node]]:
        """The key-value pairs a merge (`<<`) brings in; `site` is the `<<` being expanded."""
        sources = value.value if isinstance(value, SequenceNode) else [value]
        pairs: list[tuple[Node, Node]] = []
        for source in sources:
            if not isinstance(source, MappingNode):
                span = _span(self.file, source.start_mark, source.end_mark, self.lines)
                self.diagnostics.append(
                    Diagnostic(span, "yaml-bad-merge", "'<<' must be followed by a mapping or a list of mappings")
                )
                continue
            if depth >= MAX_DEPTH:
                raise _Stop(_too_deep(_span(self.file, source.start_mark)))
            if id(source) in self.active:
                raise _Stop(_recursive(_span(self.file, source.start_mark)))
            self.active.add(id(source))
            try:
                for key_node, inner in source.value:
                    if isinstance(key_node, ScalarNode) and key_node.tag == _TAG + "merge":
                        pairs.extend(self.merge_pairs(inner, depth + 1, site))
                    else:
                        pairs.append((key_node, inner))
                        # Merges of merges multiply like aliases of aliases: count before expanding further.
                        self.count += 1
                        if self.count > MAX_NODES:
                            raise _Stop(_too_large(site))
            finally:
                self.active.discard(id(source))
        return pairs

    def key(self, node: Node) -> object:
        span = _span(self.file, node.start_mark, node.end_mark, self.lines)
        if not isinstance(node, ScalarNode):
            self.diagnostics.append(
                Diagnostic(span, "yaml-complex-key", "a mapping key must be a single value, not a list or mapping")
            )
            return _BAD_KEY
        key = self.scalar(node, span)
        if isinstance(key, bool):
            self.diagnostics.append(
                Diagnostic(
                    span,
                    "yaml-bool-key",
                    f"the key {node.value!r} is read by YAML as {str(key).lower()}, not as text",
                    "warning",
                    hint=f"quote it: '{node.value}'",
                )
            )
        return key

    def duplicate(self, key: object, span: Span, first: Span) -> None:
        self.diagnostics.append(
            Diagnostic(
                span,
                "duplicate-key",
                f"duplicate key {key!r} (first given at line {first.line})",
                hint="remove one of them",
            )
        )

    def check_tag(self, node: Node, kind: str, span: Span) -> None:
        if node.tag != _TAG + kind:
            self.bad_tag(node, span)

    def bad_tag(self, node: Node, span: Span) -> None:
        self.diagnostics.append(
            Diagnostic(
                span,
                "yaml-tag",
                f"unsupported YAML tag {node.tag!r}",
                hint="remove the '!' tag; plain values are enough",
            )
        )


_BAD_KEY = object()


def _syntax_diagnostic(exc: yaml.YAMLError, text: str, file: str) -> Diagnostic:
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        what = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        return Diagnostic(Span(file, line, column), "yaml-syntax", f"the character {what} is not allowed in YAML")
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        span = _span(file, mark) if mark is not None else Span(file, 1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        long_key = _long_key(text, file, mark) if problem in _KEY_PROBLEMS and mark is not None else None
        if long_key is not None:
            return long_key
        hint = _SYNTAX_HINTS.get(problem)
        if problem.startswith("expected ',' or"):
            hint = 'inside { } or [ ], quote values that contain ? : , [ ] { } (for example "int?")'
        if exc.context and exc.problem and not exc.context.startswith("while"):
            problem = f"{exc.context}, {exc.problem}"  # e.g. "expected a single document ..., but found another"
        elif hint is None and exc.context and exc.context_mark is not None and exc.problem:
            hint = f"{exc.context} at line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1}"
        return Diagnostic(span, "yaml-syntax", problem, hint=hint)
    return Diagnostic(Span(file, 1, 1), "yaml-syntax", str(exc).split("\n")[0] or "invalid YAML")


_KEY_PROBLEMS = ("mapping values are not allowed here", "could not find expected ':'")
_MAX_KEY = 1024  # YAML reads a key written without '?' only up to this many characters


def _long_key(text: str, file: str, mark: yaml.Mark) -> Diagnostic | None:
    """The real reason for a ':' YAML will not take: the key before it is too long to be a key."""
    lines = text.splitlines()
    if not 0 <= mark.line < len(lines):
        return None
    line = lines[mark.line]
    before = line[:mark.column]
    key = before.lstrip(" -?")
    colon = before.rfind(":") if mark.column >= len(line) or line[mark.column] != ":" else mark.column
    if colon >= 0:
        key = line[:colon].lstrip(" -?")
    if len(key) <= _MAX_KEY:
        return None
    start = len(line) - len(line.lstrip(" -?"))
    return Diagnostic(Span(file, mark.line + 1, start + 1), "yaml-syntax",
                      f"this key is {len(key):,} characters long; YAML reads at most {_MAX_KEY:,} characters as a key",
                      hint="use a shorter name")


def load_yaml_text(text: str, display_name: str) -> tuple[object, PositionMap, list[Diagnostic]]:
    """Load YAML text into plain data, the position of every value, and every problem found.

    On a fatal problem the data is None and the diagnostics say why; otherwise
    the data is usable as far as it goes even when there are diagnostics.
    """
    positions = PositionMap(display_name)
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        return None, positions, [_too_large_file(display_name)]
    try:
        root = _compose(text, display_name)
        if root is None:
            return None, positions, []
        builder = _Builder(display_name, positions, text.splitlines())
        data = builder.build(root, (), 0)
    except _Stop as stop:
        return None, PositionMap(display_name), [stop.diagnostic]
    except yaml.YAMLError as exc:
        return None, PositionMap(display_name), [_syntax_diagnostic(exc, text, display_name)]
    except Exception as exc:  # a pyyaml bug or resource limit must not crash the loader
        message = f"could not read the YAML: {type(exc).__name__}: {exc}"
        return None, PositionMap(display_name), [Diagnostic(Span(display_name, 1, 1), "yaml-syntax", message)]
    # Aliased blocks are built once per use, so their problems would repeat.
    return data, positions, list(dict.fromkeys(builder.diagnostics))


def _too_large_file(file: str) -> Diagnostic:
    return Diagnostic(
        Span(file, 1, 1), "file-too-large", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB"
    )


def load_yaml(path: pathlib.Path, display_name: str) -> tuple[object, PositionMap, list[Diagnostic]]:
    """Load a YAML file like `load_yaml_text`, refusing files over 1 MiB before reading them."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return (
            None,
            PositionMap(display_name),
            [Diagnostic(Span(display_name, 1, 1), "file-unreadable", f"cannot read the file: {reason}")],
        )
    return load_yaml_bytes(raw, display_name)


def load_yaml_bytes(raw: bytes, display_name: str) -> tuple[object, PositionMap, list[Diagnostic]]:
    """Load YAML from the bytes of a file (over 1 MiB is refused) like `load_yaml_text`."""
    if len(raw) > MAX_FILE_BYTES:
        return None, PositionMap(display_name), [_too_large_file(display_name)]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        diag = Diagnostic(
            Span(display_name, line, column),
            "yaml-encoding",
            "the file is not valid UTF-8 text",
            hint="save it as UTF-8",
        )
        return None, PositionMap(display_name), [diag]
    return load_yaml_text(text, display_name)
