"""What compiling a game's rules produces: the Program the engine runs, and its parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .diagnostics import Span
from .syntax import ast as A
from .types import ANY, Type

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
    elem: Type = ANY                         # the options' type (bots walk option values with it)
    options_function: str = ""               # the options of one seat from the locals, (c, L, seat)
    detail_function: str = ""                # the choice's `detail` template, when it has one


@dataclass(frozen=True)
class AbilityCode:
    """An ability of a component kind: its parameters and, per item, the code written in its file."""

    kind: str
    ability: str
    params: tuple[A.Param, ...]          # declared in game.yaml; `this` comes first
    bodies: tuple[A.Phase | None, ...]   # by item index; copies share one body


@dataclass
class PhaseCode:
    """A compiled phase: a plain function, or resumable blocks run by the engine.

    `direct` runs the whole phase as one call when every decision is answered at once (agent
    mode): the phase's own function when it never waits, else a function of its own.
    """

    name: str
    params: list[str]
    resumable: bool
    function: Callable[..., Any] | None = None
    blocks: list[Callable[..., int]] = field(default_factory=list)
    direct: Callable[..., Any] | None = None


@dataclass
class ProgramCode:
    """The generated code of a game's rules, compiled and ready to run."""

    phases: dict[str, PhaseCode]
    chooses: list[ChooseSpec]
    loop_spans: list[Span]
    source: str
    line_spans: list[Span | None]
    prompts: list[Callable[..., str]] = field(default_factory=list)
    # by choice: its `label` function (runtime, locals, seat, option) -> text, or None for the default
    labels: list[Callable[..., str] | None] = field(default_factory=list)
    # by choice: its `detail` function (same arguments), or None when the choice has no detail
    details: list[Callable[..., str] | None] = field(default_factory=list)
    # name -> (function taking the runtime then the arguments, parameter types, result type)
    formulas: dict[str, tuple[Callable[..., Any], list[Type], Type]] = field(default_factory=dict)
    # by choice: its options for one seat from the locals (None for a program made before they were kept)
    option_functions: list[Callable[..., list[Any]] | None] = field(default_factory=list)


class Program:
    """Everything the engine needs to run a game's rules.

    Checking the rules is all `validate` needs; the Python code is generated in full and compiled
    the first time something runs it (`build` makes it), which is most of a check's time saved.
    """

    def __init__(self, build: Callable[[], ProgramCode], formula_types: dict[str, tuple[list[Type], Type]],
                 events: dict[str, tuple[str, ...]] | None = None, chooses: list[ChooseSpec] | None = None,
                 event_seats: dict[str, frozenset[str]] | None = None):
        self._build: Callable[[], ProgramCode] | None = build
        self._code: ProgramCode | None = None
        # Static facts about each `choose`, by its number (known once the rules are checked).
        self.chooses: list[ChooseSpec] = chooses if chooses is not None else []
        # name -> (parameter types, result type), known once the rules are checked
        self.formula_types = formula_types
        # event kind -> the data fields its `log` statements record (see events.py)
        self.events: dict[str, tuple[str, ...]] = events or {}
        # event kind -> its data fields that hold a seat or a list of seats (shown by name)
        self.event_seats: dict[str, frozenset[str]] = event_seats or {}
        # choose variable -> the names its options can be, when they are texts the names pass knows
        self.option_names: dict[str, tuple[str, ...]] = {}
        # formula -> the state fields it may read, by name, itself or through the formulas it calls
        self.formula_reads: dict[str, frozenset[str]] = {}

    @property
    def code(self) -> ProgramCode:
        """The compiled code (compiled now if it was not yet)."""
        if self._code is None:
            assert self._build is not None
            self._code, self._build = self._build(), None
        return self._code

    @property
    def phases(self) -> dict[str, PhaseCode]:
        """Each phase's compiled code."""
        return self.code.phases

    @property
    def loop_spans(self) -> list[Span]:
        """Where each loop is, by its number."""
        return self.code.loop_spans

    @property
    def source(self) -> str:
        """The generated Python source."""
        return self.code.source

    @property
    def line_spans(self) -> list[Span | None]:
        """For each generated line, the place in the rules it comes from."""
        return self.code.line_spans

    @property
    def prompts(self) -> list[Callable[..., str]]:
        """Each `choose`'s prompt function."""
        return self.code.prompts

    @property
    def labels(self) -> list[Callable[..., str] | None]:
        """By choice: its `label` function, or None for the default."""
        return self.code.labels

    @property
    def details(self) -> list[Callable[..., str] | None]:
        """By choice: its `detail` function, or None when it has none."""
        return self.code.details

    @property
    def option_functions(self) -> list[Callable[..., list[Any]] | None]:
        """By choice: a `by each` choice's options for one seat, as a function of the locals (bots)."""
        return self.code.option_functions

    @property
    def formulas(self) -> dict[str, tuple[Callable[..., Any], list[Type], Type]]:
        """Each formula's function, parameter types and result type."""
        return self.code.formulas

    def span_of_line(self, lineno: int) -> Span | None:
        """Where in the rule files a line of generated code came from."""
        spans = self.line_spans
        if 1 <= lineno <= len(spans):
            return spans[lineno - 1]
        return None
