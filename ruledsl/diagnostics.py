"""Diagnostics: every problem found in a game's files, with the place the designer must edit."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file: 1-based line and column, end inclusive of the last character."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __post_init__(self) -> None:
        if self.end_line == 0:
            object.__setattr__(self, "end_line", self.line)
        if self.end_column == 0:
            object.__setattr__(self, "end_column", self.column)


@dataclass(frozen=True)
class Diagnostic:
    """One problem: where it is, how bad, a stable code, the message and an optional fix."""

    span: Span
    code: str
    message: str
    severity: Severity = "error"
    hint: str | None = None

    def as_dict(self) -> dict[str, object]:
        """The diagnostic as plain data, for `--format json`."""
        return {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


@dataclass
class DiagnosticBag:
    """Collects diagnostics so that a pass reports every problem instead of stopping at the first."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        """Record an error."""
        self.items.append(Diagnostic(span, code, message, "error", hint))

    def warning(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        """Record a warning."""
        self.items.append(Diagnostic(span, code, message, "warning", hint))

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


def render(diag: Diagnostic, source: str | None) -> str:
    """Format a diagnostic the way compilers do: position, message, the line and a caret."""
    s = diag.span
    head = f"{s.file}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {diag.message}"
    if diag.hint:
        head += f" ({diag.hint})"
    if source is None:
        return head
    lines = source.splitlines()
    if not 1 <= s.line <= len(lines):
        return head
    text = lines[s.line - 1]
    width = 1
    if s.end_line == s.line and s.end_column >= s.column:
        width = s.end_column - s.column + 1
    gutter = f"{s.line:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * (s.column - 1) + "^" * max(1, width)
    return f"{head}\n{gutter}{text}\n{caret}"


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
        return "\n".join(render(d, self.sources.get(d.span.file)) for d in self.diagnostics)
