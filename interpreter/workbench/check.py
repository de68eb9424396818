"""What `validate` can check of scenarios without playing them: every name they use means something.

Seats, fields, node and item ids, values against the fields' types, decisions (the variables of
the rules' `choose` statements) and the prefixes of option ids, event kinds and their data fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from ruledsl.diagnostics import Diagnostic, did_you_mean

from ..core.game import Game
from ..core.state import default_names
from .chance import ForcedChance
from .names import Names, Target
from .scenario import AUTO_END, Auto, Expect, Play, Rolls, Scenario, SetFields, Shuffles, read_file
from .where import Problem, Y

TESTS_FOLDER = "tests"
LIST_EDITS = ("top", "bottom")


def scenario_files(folder: Path) -> list[Path]:
    """The scenario files of a game folder: `tests/*.yaml`, in name order."""
    tests = folder / TESTS_FOLDER
    return sorted(p for p in tests.glob("*.yaml") if p.is_file()) if tests.is_dir() else []


def seat_names(game: Game, scenario: Scenario) -> list[str]:
    """The seat names of a scenario: as written, or the default names for its number of seats."""
    names = scenario.given("names")
    if names is not None:
        return [str(n) for n in names]
    seats = scenario.given("seats")
    return default_names(seats if isinstance(seats, int) else game.min_seats)


def check_scenario(game: Game, scenario: Scenario) -> list[Diagnostic]:
    """Every problem with the names a scenario uses (empty when it may be played)."""
    found: list[Diagnostic] = []
    seats = scenario.given("seats")
    seats = game.min_seats if seats is None else seats
    if not game.min_seats <= seats <= game.max_seats:
        found.append(Diagnostic(scenario.seats.span if scenario.seats else scenario.span, "schema",
                                f"{game.title} is for {game.min_seats} to {game.max_seats} seats, not {seats}"))
        return found
    names = scenario.given("names")
    if names is not None and len(names) != seats:
        found.append(Diagnostic(scenario.names.span if scenario.names else scenario.span, "schema",
                                f"{seats} seats need {seats} names, not {len(names)}"))
        return found
    variant = scenario.given("variant")
    if variant is not None and variant not in game.variants:
        hint = did_you_mean(variant, game.variants) or (
            f"its variants: {', '.join(game.variants)}" if game.variants else "the game has no variants")
        found.append(Diagnostic(scenario.variant.span if scenario.variant else scenario.span, "unknown-name",
                                f"{game.title} has no variant '{variant}'", "error", hint))
    checker = _Checker(game, Names(game, seat_names(game, scenario)))
    setup = (scenario.setup,) if scenario.setup is not None else ()
    for part in (*scenario.chance, *setup, *scenario.steps):
        found += checker.step(part)
    return found


def check_folder(folder: Path, game: Game | None, shown: Callable[[Path], str]) -> tuple[list[Diagnostic], dict[str, str]]:
    """Every problem in a game folder's scenario files (shapes only when the game did not load)."""
    found: list[Diagnostic] = []
    sources: dict[str, str] = {}
    for path in scenario_files(folder):
        name = shown(path)
        scenarios, diags, source = read_file(path, name)
        sources[name] = source
        found += diags
        if game is not None:
            for scenario in scenarios:
                found += check_scenario(game, scenario)
    found.sort(key=lambda d: (d.span.file, d.span.line, d.span.column))
    return found, sources


class _Checker:
    """Checks the steps of one scenario against one game."""

    def __init__(self, game: Game, names: Names):
        self.game = game
        self.names = names
        self.decisions = sorted({c.var for c in game.program.chooses})
        self.events = game.program.events

    def step(self, step: object) -> list[Diagnostic]:
        return [p.diagnostic for p in self._problems(step)]

    def _problems(self, step: object) -> Iterator[Problem]:
        if isinstance(step, Play):
            for answer in step.answers:
                yield from self._try(lambda: self._seat(answer.seat) if answer.seat else None)
                yield from self._try(lambda: self.option(answer.option, label_allowed=True))
        elif isinstance(step, SetFields):
            for path, value in step.entries:
                yield from self._try(lambda: self.assignment(path, value))
        elif isinstance(step, Shuffles):
            chance = ForcedChance(self.names)
            for path, order in step.orders:
                yield from self._try(lambda: chance.add_shuffle(path, order))
        elif isinstance(step, Auto) and step.until.value != AUTO_END:
            yield from self._try(lambda: self.decision(step.until))
        elif isinstance(step, Expect):
            for key, part in step.checks:
                yield from self._expect(key, part)
        elif not isinstance(step, (Rolls, Auto)):
            raise TypeError(step)

    @staticmethod
    def _try(check: Callable[[], object]) -> Iterator[Problem]:
        try:
            check()
        except Problem as problem:
            yield problem

    def _seat(self, y: Y) -> int:
        return self.names.seat_of(y)

    def assignment(self, path: Y, value: Y, edits: bool = True) -> list[Target]:
        """The places a `set` (edits: `{top: [...]}` allowed) or `fields` entry names, its value checked."""
        targets = self.names.targets(path)
        for t in targets:
            if edits and list_edit(t, value):
                for key, part in value.items():
                    for e in part.elements():
                        self.names.value(e, t.type.args[0])
            else:
                self.names.value(value, t.type)
        return targets

    def decision(self, y: Y) -> None:
        """A decision's name: the variable of some `choose` of the rules."""
        if y.value not in self.decisions:
            raise Problem(y.span, "unknown-name", f"no decision '{y.value}': the rules choose "
                          + ", ".join(self.decisions), did_you_mean(str(y.value), self.decisions))

    def option(self, y: Y, label_allowed: bool = False) -> None:
        """An option id `NAME:VALUE` whose NAME is a decision (a label, without ':', is checked in play)."""
        text = str(y.value)
        if ":" not in text:
            if label_allowed:
                return
            raise Problem(y.span, "unknown-name", f"'{text}' is not an option id (NAME:VALUE)",
                          "options are checked by id, like kind:housing")
        prefix, value = text.split(":", 1)
        if prefix not in self.decisions:
            raise Problem(y.span, "unknown-name", f"no decision '{prefix}' in the rules: '{text}' is never offered",
                          did_you_mean(prefix, self.decisions) or "an option id starts with the name of a "
                          "choose variable: " + ", ".join(self.decisions))
        # The names the rules' checks know the options of this decision to be (texts only).
        names = self.game.program.option_names.get(prefix)
        if names is not None and value not in names:
            ids = [f"{prefix}:{n}" for n in names]
            raise Problem(y.span, "unknown-value", f"'{text}' is never offered: the options of '{prefix}' are "
                          "among " + ", ".join(ids), did_you_mean(text, ids))

    def _expect(self, key: str, part: Y) -> Iterator[Problem]:
        if key == "decision":
            yield from self._try(lambda: self.decision(part))
        elif key in ("asks", "winners"):
            for e in part.elements():
                yield from self._try(lambda: self._seat(e))
        elif key in ("options", "offered", "not_offered"):
            lists = part.items() if isinstance(part.value, dict) else iter([(None, part)])
            for seat, ids in lists:
                if seat is not None:
                    yield from self._try(lambda: self._seat(seat))
                if not isinstance(ids.value, list):
                    yield Problem(ids.span, "schema", "a list of option ids")
                    continue
                for e in ids.elements():
                    yield from self._try(lambda: self.option(e))
        elif key == "fields":
            for path, value in part.items():
                yield from self._try(lambda: self.assignment(path, value, edits=False))
        elif key in ("events", "events_in_any_order"):
            for e in part.elements():
                yield from self._try(lambda: self.event(e))
        elif key == "no_events":
            for e in part.elements():
                yield from self._try(lambda: self.event_kind(e))

    def event_kind(self, y: Y) -> str:
        """An event kind some `log` of the rules writes."""
        if not isinstance(y.value, str) or y.value not in self.events:
            raise Problem(y.span, "unknown-name", f"the rules log no event '{y.value}'",
                          did_you_mean(str(y.value), list(self.events))
                          or "events: " + ", ".join(self.events))
        return y.value

    def event(self, y: Y) -> None:
        """An expected event: its kind, or `kind: {field: value, ...}` with fields its log writes."""
        if isinstance(y.value, str):
            self.event_kind(y)
            return
        if not isinstance(y.value, dict) or len(y.value) != 1:
            raise Problem(y.span, "schema", "an event is its kind, or kind: {field: value, ...}")
        (kind_y, data), = y.items()
        kind = self.event_kind(kind_y)
        if data.value is None:
            return
        if not isinstance(data.value, dict):
            raise Problem(data.span, "schema", "an event's data is a mapping: {field: value, ...}")
        for field, _ in data.items():
            if field.value not in self.events[kind]:
                raise Problem(field.span, "unknown-field", f"the '{kind}' event has no field '{field.value}'",
                              did_you_mean(str(field.value), self.events[kind])
                              or "its fields: " + (", ".join(self.events[kind]) or "none"))


def list_edit(target: Target, value: Y) -> bool:
    """`{top: [...]}` or `{bottom: [...]}` given for a list: move these elements to one end."""
    return (target.type.kind == "list" and isinstance(value.value, dict) and bool(value.value)
            and all(k in LIST_EDITS for k in value.value)
            and all(isinstance(v, list) for v in value.value.values()))
