"""Scenario files (`GAME/tests/*.yaml`): their shape, read into steps that keep their positions.

A file holds a list of scenarios; each sets up a game (seats, seed, names, variant, fixed chance,
fields set before the first decision is computed, or once it is) and lists steps: choices to play, fields to set, dice and
shuffles to fix, decisions to answer automatically, and what to expect. docs/scenarios.md
describes the format; this module checks only its shape. What the names mean in the game is
checked by `check.py`, what happens when it is played by `runner.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ruledsl.diagnostics import Diagnostic, Span, did_you_mean

from ..load.files import Unreadable, read_game_file, real_folder
from ..load.yamlsource import MAX_FILE_BYTES, PositionMap, load_yaml_bytes
from .where import Problem, Y, kind_of

FILE_KEYS = ("about", "shared", "defaults", "scenarios")
DEFAULT_KEYS = ("seats", "seed", "names", "variant")
SCENARIO_KEYS = ("name", *DEFAULT_KEYS, "roll", "shuffle", "setup", "set", "steps", "known_failure")
STEP_KEYS = ("play", "set", "roll", "shuffle", "auto", "expect")
EXPECT_KEYS = ("decision", "asks", "options", "offered", "not_offered", "fields", "events",
               "events_in_any_order", "no_events",
               "winners")
MAX_AUTO = 100_000
AUTO_END = "end"         # `auto: end` plays the game to its end (`end` cannot name a decision)


@dataclass(frozen=True)
class Answer:
    """One seat's answer: an option id or label, and the seat when the scenario names it."""

    seat: Y | None
    option: Y


@dataclass(frozen=True)
class Play:
    """Answer the pending decisions, in the order written."""

    answers: tuple[Answer, ...]
    y: Y


@dataclass(frozen=True)
class SetFields:
    """Change fields of the state as it is: `path: value` pairs, in the order written."""

    entries: tuple[tuple[Y, Y], ...]
    y: Y


@dataclass(frozen=True)
class Rolls:
    """The next rolls of the game give these faces, in order."""

    faces: tuple[Y, ...]
    y: Y


@dataclass(frozen=True)
class Shuffles:
    """The next shuffle of each field puts these elements first, in this order."""

    orders: tuple[tuple[Y, Y], ...]
    y: Y


@dataclass(frozen=True)
class Auto:
    """Answer with first options until the decision `until` is asked for the `count`-th time."""

    until: Y
    count: int
    y: Y


@dataclass(frozen=True)
class Expect:
    """Checks of the game as it is now, in the order written."""

    checks: tuple[tuple[str, Y], ...]
    y: Y


Step = Play | SetFields | Rolls | Shuffles | Auto | Expect
Chance = Rolls | Shuffles


@dataclass(frozen=True)
class Scenario:
    """One scenario of a file: how the game is set up and what is played and checked."""

    file: str
    name: str
    y: Y
    seats: Y | None
    seed: Y | None
    names: Y | None
    variant: Y | None
    chance: tuple[Chance, ...]
    steps: tuple[Step, ...]
    known_failure: Y | None = None     # why the game does not do this yet: the scenario must fail
    setup: SetFields | None = None     # fields set before the first decision's options are computed

    @property
    def span(self) -> Span:
        """Where the scenario's name is written."""
        return self.y.at("name").span if "name" in self.y.value else self.y.span

    def given(self, key: str) -> Any:
        """A setup value as written (None when not given)."""
        found = getattr(self, key)
        return None if found is None else found.value


def read_file(path: Path, shown: str) -> tuple[list[Scenario], list[Diagnostic], str]:
    """The scenarios of one file, every problem with their shape, and the file's text.

    The file is in the game's `tests/` folder: like every file of a game, it must be inside the
    game folder (a link leading out is refused unread).
    """
    raw = read_game_file(real_folder(path.parent.parent), f"{path.parent.name}/{path.name}", MAX_FILE_BYTES)
    if isinstance(raw, Unreadable):
        return [], [Diagnostic(Span(shown, 1, 1), raw.code, raw.message, hint=raw.hint)], ""
    source = raw.decode("utf-8", errors="replace")
    data, pos, diags = load_yaml_bytes(raw, shown)
    if any(d.severity == "error" for d in diags):
        return [], [_id_hint(d, source) for d in diags], source
    scenarios, problems = parse(data, pos)
    return scenarios, diags + problems, source


_ENDS_AN_ID = re.compile(r"[\w-]:\s*([}\],].*|#.*)?$")


def _id_hint(diag: Diagnostic, source: str) -> Diagnostic:
    """A YAML error at the ':' that ends an option id (`Ana: offer:`) says how to write the id."""
    lines = source.splitlines()
    if diag.severity != "error" or not 0 < diag.span.line <= len(lines):
        return diag
    line = lines[diag.span.line - 1]
    at = diag.span.column - 1
    if not line[at:at + 1] == ":" or not _ENDS_AN_ID.match(line, at - 1):
        return diag
    word = re.search(r"[\w:-]*$", line[:at]).group()  # type: ignore[union-attr]  # always matches
    return replace(diag, hint=f"an option id ending in ':' needs quotes after a key: \"{word}:\" (in a list, "
                   "or as a step of its own, it needs none)")


def parse(data: Any, pos: PositionMap) -> tuple[list[Scenario], list[Diagnostic]]:
    """Scenarios from a file's data; those with a problem are left out, and the problem reported."""
    root = Y(data, (), pos)
    problems: list[Diagnostic] = []
    try:
        _mapping(root, FILE_KEYS, "a scenario file", required=("scenarios",))
        defaults = root.at("defaults") if "defaults" in data else None
        if defaults is not None:
            _mapping(defaults, DEFAULT_KEYS, "defaults")
        listed = _list(root.at("scenarios"), "scenarios")
    except Problem as err:
        return [], [err.diagnostic]
    scenarios = []
    seen: dict[str, Span] = {}
    for item in listed.elements():
        try:
            scenario = _scenario(item, defaults)
        except Problem as err:
            problems.append(err.diagnostic)
            continue
        if scenario.name in seen:
            problems.append(Diagnostic(scenario.span, "duplicate", f"two scenarios are called '{scenario.name}' "
                                       f"(the first at line {seen[scenario.name].line})", "error",
                                       "give each a name of its own: failures are reported by name"))
            continue
        seen[scenario.name] = scenario.span
        scenarios.append(scenario)
    return scenarios, problems


def _scenario(y: Y, defaults: Y | None) -> Scenario:
    _mapping(y, SCENARIO_KEYS, "a scenario", required=("name",))
    name = y.at("name")
    if not isinstance(name.value, str) or not name.value.strip():
        raise Problem(name.span, "schema", "a scenario's name is a text", "name: what the scenario shows")

    def setup(key: str) -> Y | None:
        if key in y.value:
            return y.at(key)
        if defaults is not None and key in defaults.value:
            return defaults.at(key)
        return None

    seats, seed, names, variant = (setup(k) for k in DEFAULT_KEYS)
    for number in (seats, seed):
        if number is not None and (not isinstance(number.value, int) or isinstance(number.value, bool)):
            raise Problem(number.span, "schema", f"this must be a whole number, not {kind_of(number.value)}")
    if names is not None:
        _list(names, "names")
        for n in names.elements():
            if not isinstance(n.value, str) or not n.value:
                raise Problem(n.span, "schema", "a seat's name is a text")
        if len(set(names.value)) != len(names.value):
            raise Problem(names.span, "schema", "two seats have the same name")
    if variant is not None and not isinstance(variant.value, str):
        raise Problem(variant.span, "schema", "a variant is named by a text")
    chance: list[Chance] = []
    if "roll" in y.value:
        chance.append(_rolls(y.at("roll")))
    if "shuffle" in y.value:
        chance.append(_shuffles(y.at("shuffle")))
    steps: list[Step] = []
    if "set" in y.value:
        steps.append(_set(y.at("set")))
    if "steps" in y.value:
        steps.extend(_step(s) for s in _flat(_list(y.at("steps"), "steps")))
    setup_fields = _set(y.at("setup")) if "setup" in y.value else None
    known = y.at("known_failure") if "known_failure" in y.value else None
    if known is not None:
        _text(known, "the reason the game fails this scenario today")
    return Scenario(name.pos.file, name.value.strip(), y, seats, seed, names, variant, tuple(chance), tuple(steps),
                    known, setup_fields)


def _flat(steps: Y) -> list[Y]:
    """The steps, a list among them standing for its own steps (a YAML alias of shared steps)."""
    found: list[Y] = []
    for s in steps.elements():
        found += _flat(s) if isinstance(s.value, list) else [s]
    return found


def bare_id(value: Any) -> str | None:
    """An option id ending in ':' written unquoted (`- offer:`), which YAML reads as a mapping of
    one key to nothing: the id as written, else None."""
    if isinstance(value, dict) and len(value) == 1:
        (key, part), = value.items()
        if isinstance(key, str) and part is None:
            return f"{key}:"
    return None


def _ids_as_written(y: Y) -> None:
    """Turn each unquoted id ending in ':' of a list of option ids back into its text, in place."""
    lists = list(y.value.values()) if isinstance(y.value, dict) else [y.value]
    for ids in lists:
        for i, value in enumerate(ids if isinstance(ids, list) else ()):
            ids[i] = bare_id(value) or value


def _step(y: Y) -> Step:
    written = bare_id(y.value)
    if written is not None and written[:-1] not in STEP_KEYS:
        y = Y(written, y.path, y.pos)
    if isinstance(y.value, str):
        return Play((Answer(None, y),), y)
    if not isinstance(y.value, dict) or len(y.value) != 1:
        raise Problem(y.span, "schema", "a step is an option to play, or a mapping with one key: "
                      + ", ".join(STEP_KEYS))
    key = next(iter(y.value))
    part = y.at(key)
    if key == "play":
        return _play(part)
    if key == "set":
        return _set(part)
    if key == "roll":
        return _rolls(part)
    if key == "shuffle":
        return _shuffles(part)
    if key == "auto":
        return _auto(part)
    if key == "expect":
        return _expect(part)
    raise Problem(part.key_span, "schema",
                  f"unknown step '{key}'", did_you_mean(str(key), STEP_KEYS) or "a step is one of "
                  + ", ".join(STEP_KEYS))


def _play(y: Y) -> Play:
    answers: list[Answer] = []
    if isinstance(y.value, list):
        _ids_as_written(y)
    items = list(y.elements()) if isinstance(y.value, list) else [y]
    for item in items:
        if isinstance(item.value, str):
            answers.append(Answer(None, item))
        elif isinstance(item.value, dict) and item.value:
            for seat, option in item.items():
                _text(option, "an option id or label")
                answers.append(Answer(seat, option))
        else:
            raise Problem(item.span, "schema", "play an option id or label, a list of them, or seat: option pairs")
    return Play(tuple(answers), y)


def _set(y: Y) -> SetFields:
    _mapping(y, None, "set")
    return SetFields(tuple(y.items()), y)


def _rolls(y: Y) -> Rolls:
    """`roll: 2` is one roll; `roll: [2, 5]` two; `roll: [[1, 2, 3]]` one roll of a face that is a list."""
    return Rolls(tuple(y.elements()) if isinstance(y.value, list) else (y,), y)


def _shuffles(y: Y) -> Shuffles:
    _mapping(y, None, "shuffle")
    for _, order in y.items():
        _list(order, "the elements a shuffle puts first")
    return Shuffles(tuple(y.items()), y)


def _auto(y: Y) -> Auto:
    if isinstance(y.value, str):
        return Auto(y, 1, y)
    _mapping(y, ("until", "count"), "auto", required=("until",))
    until = y.at("until")
    _text(until, "the name of a decision")
    count = y.value.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_AUTO:
        raise Problem(y.at("count").span, "schema", f"count is a whole number from 1 to {MAX_AUTO:,}")
    return Auto(until, count, y)


def _expect(y: Y) -> Expect:
    _mapping(y, EXPECT_KEYS, "expect")
    checks = []
    for key, part in y.items():
        if key.value in ("asks", "events", "events_in_any_order", "no_events", "winners"):
            _list(part, str(key.value))
        elif key.value in ("options", "offered", "not_offered"):
            if not isinstance(part.value, (list, dict)):
                raise Problem(part.span, "schema", f"{key.value}: a list of option ids, or seat: list pairs")
            _ids_as_written(part)
        elif key.value == "fields":
            _mapping(part, None, "fields")
        elif key.value == "decision":
            _text(part, "the name of a decision")
        checks.append((str(key.value), part))
    return Expect(tuple(checks), y)


# ---------------------------------------------------------------------- shapes


def _mapping(y: Y, keys: tuple[str, ...] | None, what: str, required: tuple[str, ...] = ()) -> None:
    if not isinstance(y.value, dict):
        raise Problem(y.span, "schema", f"{what} is a mapping (key: value pairs), not {kind_of(y.value)}")
    for key, _ in y.items():
        if not isinstance(key.value, str):
            raise Problem(key.span, "schema", f"a key of {what} is a text, not {kind_of(key.value)}",
                          "quote it")
        if keys is not None and key.value not in keys:
            raise Problem(key.span, "schema", f"unknown key '{key.value}' in {what}",
                          did_you_mean(key.value, keys) or "known keys: " + ", ".join(keys))
    for name in required:
        if name not in y.value:
            raise Problem(y.span, "schema", f"{what} needs '{name}'")


def _list(y: Y, what: str) -> Y:
    if not isinstance(y.value, list):
        raise Problem(y.span, "schema", f"{what} is a list, not {kind_of(y.value)}")
    return y


def _text(y: Y, what: str) -> None:
    if not isinstance(y.value, str) or not y.value:
        raise Problem(y.span, "schema", f"this must be {what}, a text, not {kind_of(y.value)}")
