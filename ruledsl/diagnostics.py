"""Diagnostics: every problem found in a game's files, with the place the designer must edit."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Literal, Mapping, Sequence

from .printable import display_width, printable

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file: 1-based line and column, end inclusive of the last character."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def as_dict(self) -> dict[str, object]:
        """Where the span is, as plain data: file, line, column, end_line, end_column."""
        return {"file": self.file, "line": self.line, "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column}

    def __post_init__(self) -> None:
        if self.end_line == 0:
            object.__setattr__(self, "end_line", self.line)
        if self.end_column == 0:
            object.__setattr__(self, "end_column", self.column)


@dataclass(frozen=True)
class Related:
    """Another place that explains a diagnostic, such as the data line a wrong type comes from.

    Shown as a `note:` under the diagnostic; an editor shows it as the diagnostic's related
    information (LSP `relatedInformation`: a location and a message).
    """

    span: Span
    message: str

    def as_dict(self) -> dict[str, object]:
        """The note as plain data, for `--format json`."""
        return {**self.span.as_dict(), "message": self.message}


@dataclass(frozen=True)
class Diagnostic:
    """One problem: where it is, how bad, a stable code, the message and an optional fix.

    `related` lists other places that explain it (see `Related`), in the order they are shown.
    """

    span: Span
    code: str
    message: str
    severity: Severity = "error"
    hint: str | None = None
    related: tuple[Related, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The diagnostic as plain data, for `--format json`."""
        return {
            **self.span.as_dict(),
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "related": [r.as_dict() for r in self.related],
        }


@dataclass
class DiagnosticBag:
    """Collects diagnostics so that a pass reports every problem instead of stopping at the first."""

    items: list[Diagnostic] = field(default_factory=list)
    # has_errors looks at each diagnostic once, however often it is asked (50,000 warnings and a
    # question after each would otherwise be quadratic); items appended directly are seen too.
    _seen: int = field(default=0, init=False, repr=False, compare=False)
    _errors: int = field(default=0, init=False, repr=False, compare=False)
    _counted: int = field(default=0, init=False, repr=False, compare=False)  # id() of the list counted

    def error(self, span: Span, code: str, message: str, hint: str | None = None,
              related: tuple[Related, ...] = ()) -> None:
        """Record an error."""
        self.items.append(Diagnostic(span, code, message, "error", hint, related))

    def warning(self, span: Span, code: str, message: str, hint: str | None = None,
                related: tuple[Related, ...] = ()) -> None:
        """Record a warning."""
        self.items.append(Diagnostic(span, code, message, "warning", hint, related))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        """Add diagnostics found by another pass."""
        self.items.extend(other)

    @property
    def has_errors(self) -> bool:
        """True when at least one diagnostic is an error."""
        if self._counted != id(self.items) or self._seen > len(self.items):  # replaced or cut: count again
            self._counted, self._seen, self._errors = id(self.items), 0, 0
        for d in self.items[self._seen:]:
            self._errors += d.severity == "error"
        self._seen = len(self.items)
        return self._errors > 0


def an(noun: object) -> str:
    """The noun with its article: 'an int', 'a str', 'a list[int]'."""
    text = str(noun)
    return ("an " if text[:1] in ("a", "e", "i", "o", "u") else "a ") + text


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint for a misspelt name, or None when nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.7)
    return f"did you mean '{close[0]}'?" if close else None


def copies_hint(text: str, ids: Iterable[object]) -> str | None:
    """The hint for an item's id written without its copy number (`grain` for `grain-1`...), or None."""
    numbered = sorted((int(i.rsplit("-", 1)[1]), i) for i in {str(x) for x in ids}
                      if i.startswith(f"{text}-") and i.rsplit("-", 1)[1].isdigit())
    if not numbered:
        return None
    first, last = numbered[0][1], numbered[-1][1]
    which = first if len(numbered) == 1 else f"{first} or {last}" if len(numbered) == 2 else \
        f"one of {first} to {last}"
    return f"'{text}' stands for {len(numbered)} copies, each with its own id: write {which}"


MAX_SHOWN_LINE = 160
"""The most characters of a source line quoted under a diagnostic; longer lines show a window."""
MAX_MESSAGE = 400
"""The most characters of a message (and of its hint) printed; a 1 MiB name must not flood a terminal."""


def source_lines(file: str, source: str) -> list[str]:
    """The lines of a file, split where its positions count a new line.

    YAML counts CR, LF, CRLF, U+0085, U+2028 and U+2029 (as `str.splitlines` does, which also splits
    at controls YAML refuses); the rules count LF alone, so a stray U+2028 in a rules text stays
    inside its line.
    """
    if file.endswith((".yaml", ".yml")):
        return source.splitlines()
    return [line[:-1] if line.endswith("\r") else line for line in source.split("\n")]


def render(diag: Diagnostic, source: str | None, sources: Mapping[str, str] | None = None) -> str:
    """Format a diagnostic the way compilers do: position, message, the line and a caret.

    Its related places follow as `note:` lines, each with its own line and caret when `sources`
    (file name -> text) holds its file.
    """
    def lines_of(file: str) -> list[str] | None:
        text = source if file == diag.span.file else (sources or {}).get(file)
        return source_lines(file, text) if text is not None else None

    return _render(diag, lines_of)


def render_all(diags: Iterable[Diagnostic], sources: Mapping[str, str]) -> Iterator[str]:
    """`render` for many diagnostics, splitting each source file into lines only once."""
    split: dict[str, list[str] | None] = {}

    def lines_of(file: str) -> list[str] | None:
        if file not in split:
            text = sources.get(file)
            split[file] = source_lines(file, text) if text is not None else None
        return split[file]

    for d in diags:
        yield _render(d, lines_of)


def _shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _render(diag: Diagnostic, lines_of: Callable[[str], Sequence[str] | None]) -> str:
    s = diag.span
    head = f"{s.file}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {_shorten(diag.message)}"
    if diag.hint:
        head += f" ({_shorten(diag.hint)})"
    # Everything printed came from files a stranger may have written: no control character
    # (ESC, BEL, OSC...) reaches the terminal unescaped.
    parts = [printable(head) + _quote(s, lines_of(s.file))]
    for note in diag.related:
        parts.append(f"  note: {printable(_shorten(note.message))}" + _quote(note.span, lines_of(note.span.file)))
    return "\n".join(parts)


def _quote(s: Span, lines: Sequence[str] | None) -> str:
    """The source line of a span, escaped, with a caret under it, after a line break ('' when unknown)."""
    if lines is None or not 1 <= s.line <= len(lines):
        return ""
    text = lines[s.line - 1]
    width = 1
    if s.end_line == s.line and s.end_column >= s.column:
        width = s.end_column - s.column + 1
    start = max(0, min(s.column - 1, len(text)))
    before, marked, after = text[:start], text[start:start + width], text[start + width:]
    if len(text) > MAX_SHOWN_LINE:
        before, marked, after = _window(before, marked, after)
    shown_before, shown_marked = printable(before), printable(marked)
    gutter = f"{s.line:>5} | "
    caret = (" " * (len(gutter) - 2) + "| " + " " * display_width(shown_before)
             + "^" * max(1, display_width(shown_marked)))
    return f"\n{gutter}{shown_before}{shown_marked}{printable(after)}\n{caret}"


def _window(before: str, marked: str, after: str) -> tuple[str, str, str]:
    """The part of a long line around the marked text, with '...' where it is cut."""
    lead = 40
    if len(before) > lead:
        before = "..." + before[-lead:]
    room = MAX_SHOWN_LINE - len(before)
    if len(marked) > room:
        marked, after = marked[:room], "..."
    elif len(after) > room - len(marked):
        after = after[:max(0, room - len(marked))] + "..."
    return before, marked, after


class RuleFileError(Exception):
    """Raised when a game cannot be loaded: carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = diagnostics
        self.sources = sources or {}
        first = diagnostics[0] if diagnostics else None
        super().__init__(
            f"{len(diagnostics)} problem(s) in the game files"
            + (f"; first: {first.span.file}:{first.span.line}:{first.span.column}: {first.message}" if first else "")
        )

    def report(self) -> str:
        """Every diagnostic, rendered with its source line."""
        return "\n".join(render_all(self.diagnostics, self.sources))
