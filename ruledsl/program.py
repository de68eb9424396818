"""What compiling a game's rules produces: the Program the engine runs, and its parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from . import ast as A
from .diagnostics import Span
from .types import Type

MODULE_NAME = "<rules>"


@dataclass(frozen=True)
class ChooseSpec:
    """Static facts about one `choose` statement."""

    var: str
    label: Callable[[Any, list[str]], str]   # an option's text for people
    ident: Callable[[Any], str]              # an option's stable id text (after "var:")
    secret: bool
    each: bool
    span: Span
    prompt_function: str = ""
    label_function: str = ""                 # the choice's `label` template, when it has one


@dataclass(frozen=True)
class AbilityCode:
    """An ability of a component kind: its parameters and, per item, the code written in its file."""

    kind: str
    ability: str
    params: tuple[A.Param, ...]          # declared in game.yaml; `this` comes first
    bodies: tuple[A.Phase | None, ...]   # by item index; copies share one body


@dataclass
class PhaseCode:
    """A compiled phase: a plain function, or resumable blocks run by the engine."""

    name: str
    params: list[str]
    resumable: bool
    function: Callable[..., Any] | None = None
    blocks: list[Callable[..., int]] = field(default_factory=list)


@dataclass
class Program:
    """Everything the engine needs to run a game's rules."""

    phases: dict[str, PhaseCode]
    chooses: list[ChooseSpec]
    loop_spans: list[Span]
    source: str
    line_spans: list[Span | None]
    prompts: list[Callable[..., str]] = field(default_factory=list)
    # by choice: its `label` function (runtime, locals, seat, option) -> text, or None for the default
    labels: list[Callable[..., str] | None] = field(default_factory=list)
    # name -> (function taking the runtime then the arguments, parameter types, result type)
    formulas: dict[str, tuple[Callable[..., Any], list[Type], Type]] = field(default_factory=dict)
    # event kind -> the data fields its `log` statements record (see events.py)
    events: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # choose variable -> the names its options can be, when they are texts the names pass knows
    option_names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def span_of_line(self, lineno: int) -> Span | None:
        """Where in the rule files a line of generated code came from."""
        if 1 <= lineno <= len(self.line_spans):
            return self.line_spans[lineno - 1]
        return None
