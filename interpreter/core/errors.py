"""Errors raised while a game runs, pointing at the rule that failed."""

from __future__ import annotations

from ruledsl.diagnostics import Diagnostic, Span, render


class RuleError(Exception):
    """A rule failed at run time (empty draw, runaway loop, no legal option, ...)."""

    def __init__(self, message: str, span: Span | None, source: str | None = None):
        self.message = message
        self.span = span
        self.source = source
        super().__init__(self.report())

    def report(self) -> str:
        """The error with its position and source line, like a compiler's."""
        if self.span is None:
            return f"rule error: {self.message}"
        return render(Diagnostic(self.span, "runtime", self.message), self.source)
