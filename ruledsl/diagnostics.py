"""Diagnostics: every problem found in a game's files, with the place the designer must edit."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Callable, Iterable, Literal, Mapping

from .printable import printable

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
        return any(d.severity == "error" for d in self.items)


def an(noun: object) -> str:
    """The noun with its article: 'an int', 'a str', 'a list[int]'."""
    text = str(noun)
    return ("an " if text[:1] in ("a", "e", "i", "o", "u") else "a ") + text


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint for a misspelt name, or None when nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.7)
    return f"did you mean '{close[0]}'?" if close else None


def render(diag: Diagnostic, source: str | None, sources: Mapping[str, str] | None = None) -> str:
    """Format a diagnostic the way compilers do: position, message, the line and a caret.

    Its related places follow as `note:` lines, each with its own line and caret when `sources`
    (file name -> text) holds its file.
    """
    s = diag.span
    head = f"{s.file}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {diag.message}"
    if diag.hint:
        head += f" ({diag.hint})"
    parts = [head + _quote(s, source)]
    for note in diag.related:
        found = sources.get(note.span.file) if sources is not None else None
        parts.append(f"  note: {printable(note.message)}" + _quote(note.span, found, printable))
    return "\n".join(parts)


def _quote(s: Span, source: str | None, clean: Callable[[str], str] = lambda text: text) -> str:
    """The source line of a span with a caret under it, after a line break ('' when unknown)."""
    if source is None:
        return ""
    lines = source.splitlines()
    if not 1 <= s.line <= len(lines):
        return ""
    text = lines[s.line - 1]
    width = 1
    if s.end_line == s.line and s.end_column >= s.column:
        width = s.end_column - s.column + 1
    gutter = f"{s.line:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * (s.column - 1) + "^" * max(1, width)
    return f"\n{gutter}{clean(text)}\n{caret}"


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
        return "\n".join(render(d, self.sources.get(d.span.file), self.sources) for d in self.diagnostics)
