"""Play a scenario and check what it expects: each failure points at the line of the scenario file.

The game is driven only through the engine's public door (`new_game`, `pending`, `apply_inplace`),
as players and bots drive it; fields are set on the plain-data state between decisions, and dice
and shuffles are fixed through the engine's chance hook.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ruledsl.diagnostics import Diagnostic, Span

from ..core.decision import Decision, IllegalChoice, Option, Result
from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.game import Game
from .chance import ForcedChance
from .check import list_edit, seat_names
from .events import EventMatcher
from .names import Names, Target
from .places import Placer, PlacingStep
from .scenario import AUTO_END, MAX_AUTO, Answer, Auto, Expect, Play, Rolls, Scenario, SetFields, Shuffles, Step
from .where import Failure, Problem, Y

SHOWN_OPTIONS = 15


class Stop(Exception):
    """Ends a scenario at the first step that fails; carries every failure of that step."""

    def __init__(self, failures: list[Failure]):
        super().__init__(failures[0].diagnostic.message if failures else "")
        self.failures = failures


def _fail(span: Span, code: str, message: str, hint: str | None = None, details: tuple[str, ...] = ()) -> Stop:
    return Stop([Failure(Diagnostic(span, code, message, "error", hint), details)])


@dataclass
class Run:
    """One scenario being played."""

    game: Game
    scenario: Scenario
    names: Names = field(init=False)
    engine: Engine = field(init=False)
    chance: ForcedChance = field(init=False)
    placer: Placer = field(init=False)
    state: dict[str, Any] = field(init=False, default_factory=dict)
    mark: int = 0

    def __post_init__(self) -> None:
        self.names = Names(self.game, seat_names(self.game, self.scenario))
        self.engine = Engine(self.game)
        self.chance = ForcedChance(self.names)
        self.engine.chance = self.chance
        self.placer = Placer(self.game, self.names)

    def play(self) -> list[Failure]:
        """Every failure of the scenario (empty when it passes); it stops at the first failing step."""
        sc = self.scenario
        try:
            for part in sc.chance:
                self.step(part)
            seats = sc.given("seats") or self.game.min_seats
            try:
                self.state = self.engine.new_game(seats, sc.given("seed") or 0, self.names.seats)
            except RuleError as err:
                raise _rule_error(sc.span, "the rules stopped while the game was set up", err) from None
            self._chance_problems()
            if sc.setup is not None:
                self.setup(sc.setup)
            for step in sc.steps:
                self.step(step)
        except Stop as stop:
            return stop.failures
        return [Failure(d) for d in self.chance.unused()]

    def step(self, step: Step) -> None:
        """Play one step; raises Stop when it fails."""
        try:
            if isinstance(step, Play):
                for answer in step.answers:
                    self.answer(answer)
            elif isinstance(step, SetFields):
                self.set_fields(step)
            elif isinstance(step, Rolls):
                self.chance.add_rolls(step.faces)
            elif isinstance(step, Shuffles):
                for path, order in step.orders:
                    self.chance.add_shuffle(path, order)
            elif isinstance(step, Auto):
                self.auto(step)
            elif isinstance(step, Expect):
                failures = self.expect(step)
                if any(key in ("events", "events_in_any_order", "no_events") for key, _ in step.checks):
                    self.mark = len(self.state["log"])
                if failures:
                    raise Stop(failures)
        except Problem as problem:
            raise Stop([Failure(problem.diagnostic)]) from None
        except RuleError as err:
            raise _rule_error(_span_of(step), "the rules stopped with an error", err) from None

    # ------------------------------------------------------------------ playing
    def decision(self, where: Span, what: str, code: str = "not-offered") -> Decision:
        """The pending decision; a failure (with this code) when the game is over."""
        pending = self.engine.pending(self.state)
        if isinstance(pending, Result):
            winners = ", ".join(self.names.seats[s] for s in pending.winners) or "nobody"
            raise _fail(where, code, f"the game is over (winners: {winners}): {what}")
        return pending

    def answer(self, answer: Answer) -> None:
        """Answer the pending decision for one seat, with an option id or label."""
        y = answer.option
        d = self.decision(y.span, f"'{y.value}' cannot be played")
        if answer.seat is not None:
            seat = self.names.seat_of(answer.seat)
            if seat not in d.seats:
                raise _fail(answer.seat.key_span, "not-offered", f"it is not {self.names.seats[seat]}'s choice now: "
                            f"the game waits for {self._waiting(d)}")
        elif len(d.seats) > 1:
            raise _fail(y.span, "not-offered", f"several seats are choosing now ({self._waiting(d)}): say which "
                        f"seat plays '{y.value}'", f"write it as  {self.names.seats[d.seats[0]]}: {y.value}")
        else:
            seat = d.seats[0]
        option = self._match(y, d.options(seat), seat, d)
        try:
            self.engine.apply_inplace(self.state, option.id, seat)
        except IllegalChoice as err:
            raise _fail(y.span, "not-offered", str(err)) from None
        except RuleError as err:
            raise _rule_error(y.span, f"the rules stopped with an error after {option.id}", err) from None
        self._chance_problems()

    def _waiting(self, d: Decision) -> str:
        return f"{', '.join(self.names.seats[s] for s in d.seats)} to choose '{d.name}'"

    def _match(self, y: Y, options: tuple[Option, ...], seat: int, d: Decision) -> Option:
        """The option an answer means: its id, else its label, else the part of its id after ':'."""
        text = str(y.value)
        ways: tuple[Callable[[Option], bool], ...] = (
            lambda o: o.id == text, lambda o: o.label == text, lambda o: o.id.split(":", 1)[1] == text)
        for pick in ways:
            found = [o for o in options if pick(o)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise _fail(y.span, "not-offered", f"'{text}' could be any of {', '.join(o.id for o in found)}",
                            "write the option's id")
        ids = [o.id for o in options]
        shown = ", ".join(ids[:SHOWN_OPTIONS]) + (f" ... ({len(ids)} in all)" if len(ids) > SHOWN_OPTIONS else "")
        raise _fail(y.span, "not-offered", f"'{text}' is not offered to {self.names.seats[seat]} now "
                    f"(decision '{d.name}')", None, (f"offered: {shown}",))

    def auto(self, step: Auto) -> None:
        """Answer with first options until the decision is asked for the count-th time (`end`: the game ends)."""
        seen = 0
        before: Any = None
        for _ in range(MAX_AUTO):
            if step.until.value == AUTO_END and self.engine.is_over(self.state):
                return
            d = self.decision(step.until.span, f"it ended before '{step.until.value}' was asked "
                              f"{'' if step.count == 1 else f'{step.count} times'}".rstrip())
            if d.name == step.until.value and self.state["pending"] is not before:
                seen += 1
                if seen == step.count:
                    return
            before = self.state["pending"]
            seat = d.seats[0]
            try:
                self.engine.apply_inplace(self.state, d.options(seat)[0].id, seat)
            except RuleError as err:
                raise _rule_error(step.y.span, "the rules stopped with an error", err) from None
            self._chance_problems()
        what = "the game did not end" if step.until.value == AUTO_END else f"'{step.until.value}' was not asked"
        raise _fail(step.y.span, "expect-failed", f"{what} within {MAX_AUTO:,} decisions")

    def setup(self, step: SetFields) -> None:
        """Set fields as if the game had been in this position when its first decision was made:
        the pending decision's options are worked out again from the new state."""
        if self.engine.is_over(self.state):
            raise _fail(step.y.span, "expect-failed", "the game ended before its first decision: there is "
                        "nothing to set up")
        self.step(step)
        p = self.state["pending"]
        spec = self.game.program.chooses[p["spec"]]
        options_of = self.game.program.option_functions[p["spec"]]
        if options_of is None:
            return
        runtime = self.engine.runtime
        runtime.bind(self.state)
        frame = self.state["stack"][-1][2]
        try:
            options = [list(options_of(runtime, frame, s)) for s in p["seats"]]
        except Exception as err:  # the rules' own error, as the engine would report it while playing
            raise _rule_error(step.y.span, f"the options of '{spec.var}' cannot be worked out after setup",
                              self.engine._locate(err)) from None
        for seat, offered in zip(p["seats"], options):
            if not offered:
                raise _fail(step.y.span, "expect-failed", f"after setup, {self.names.seats[seat]} has no option "
                            f"for '{spec.var}'")
        p["options"] = options
        p["done"] = [len(o) == 1 for o in options]
        p["answers"] = [o[0] if len(o) == 1 else None for o in options]
        p["left"] = p["done"].count(False)
        if p["left"] == 0:
            # The rules take a single option without asking: so does a setup that leaves one.
            last = len(options) - 1
            p["done"][last], p["answers"][last], p["left"] = False, None, 1
            d = self.engine.pending(self.state)
            assert isinstance(d, Decision)
            seat = p["seats"][last]
            try:
                self.engine.apply_inplace(self.state, d.options(seat)[0].id, seat)
            except RuleError as err:
                raise _rule_error(step.y.span, "the rules stopped with an error after setup", err) from None
            self._chance_problems()

    def set_fields(self, step: SetFields) -> None:
        """Change the state's fields, in the order written, keeping pieces in one place each."""
        placing = PlacingStep()
        for path, value in step.entries:
            for target in self.names.targets(path):
                try:
                    self._set(target, value, placing)
                except (KeyError, IndexError, TypeError):
                    raise _fail(path.span, "expect-failed", f"{target.text} does not exist in the game as it is "
                                "now (a map key or a list position too far)") from None
        self.placer.finish(self.state, placing)
        wrong = self.placer.misplaced(self.state)
        if wrong:
            raise _fail(step.y.span, "expect-failed", "after this step, some pieces are not in exactly one place",
                        None, tuple(wrong))

    def _set(self, target: Target, value: Y, placing: PlacingStep) -> None:
        """One field of a `set`: a whole value, or elements moved to the top or bottom of a list."""
        if list_edit(target, value):
            top, bottom = self._moved(target.type.args[0], value)
            rest = [v for v in target.get(self.state) if v not in top and v not in bottom]
            self.placer.assign(self.state, target, top + rest + bottom, value, placing, named=top + bottom)
        else:
            self.placer.assign(self.state, target, self.names.value(value, target.type), value, placing)

    def _moved(self, elem: Any, value: Y) -> tuple[list[Any], list[Any]]:
        """The elements a list edit moves to the top and to the bottom (`{top: [...], bottom: [...]}`)."""
        top = [self.names.value(e, elem) for e in value.at("top").elements()] if "top" in value.value else []
        bottom = [self.names.value(e, elem) for e in value.at("bottom").elements()] if "bottom" in value.value else []
        return top, bottom

    def _chance_problems(self) -> None:
        if self.chance.problems:
            problems, self.chance.problems = self.chance.problems, []
            raise Stop([Failure(p) for p in problems])

    # ------------------------------------------------------------------ checking
    def expect(self, step: Expect) -> list[Failure]:
        """Every check of an `expect` that fails."""
        failures: list[Failure] = []
        events = EventMatcher(self.names, self.state["log"][self.mark:])
        if any(key == "events" for key, _ in step.checks):
            failures += events.match(dict(step.checks)["events"])
        if any(key == "events_in_any_order" for key, _ in step.checks):
            failures += events.match(dict(step.checks)["events_in_any_order"], in_order=False)
        for key, part in step.checks:
            try:
                if key == "decision":
                    self._expect_decision(part)
                elif key == "asks":
                    self._expect_asks(part)
                elif key in ("options", "offered", "not_offered"):
                    failures += self._expect_options(key, part)
                elif key == "fields":
                    failures += self._expect_fields(part)
                elif key == "no_events":
                    failures += events.absent(part)
                elif key == "winners":
                    self._expect_winners(part)
            except Stop as stop:
                failures += stop.failures
        return failures

    def _expect_decision(self, y: Y) -> None:
        d = self.decision(y.span, f"no decision '{y.value}' is pending", "expect-failed")
        if d.name != y.value:
            raise _fail(y.span, "expect-failed", f"the game waits for {self._waiting(d)}, not '{y.value}'")

    def _expect_asks(self, y: Y) -> None:
        d = self.decision(y.span, "nobody is asked", "expect-failed")
        wanted = {self.names.seat_of(e) for e in y.elements()}
        if wanted != set(d.seats):
            raise _fail(y.span, "expect-failed", f"the game waits for {self._waiting(d)}, not for "
                        + (", ".join(self.names.seats[s] for s in sorted(wanted)) or "nobody"))

    def _expect_options(self, key: str, y: Y) -> list[Failure]:
        d = self.decision(y.span, "no options are offered", "expect-failed")
        if isinstance(y.value, dict):
            per_seat = [(self.names.seat_of(s), ids) for s, ids in y.items()]
        else:
            per_seat = [(s, y) for s in d.seats]
        failures = []
        for seat, ids in per_seat:
            offered = [o.id for o in d.options(seat)]
            who = self.names.seats[seat]
            if seat not in d.seats:
                failures.append(Failure(Diagnostic(ids.span, "expect-failed", f"{who} is not asked now: the game "
                                                   f"waits for {self._waiting(d)}")))
                continue
            wanted = [str(e.value) for e in ids.elements()]
            if key == "options" and sorted(wanted) != sorted(offered):
                missing = [w for w in wanted if w not in offered]
                extra = [o for o in offered if o not in wanted]
                said = "; ".join(part for part in (f"not offered: {', '.join(missing)}" if missing else "",
                                                   f"also offered: {', '.join(extra)}" if extra else "") if part)
                failures.append(Failure(Diagnostic(ids.span, "expect-failed", f"{who}'s options differ ({said})"),
                                        (f"offered: {', '.join(offered)}",)))
            for e in ids.elements() if key != "options" else ():
                there = str(e.value) in offered
                if there != (key == "offered"):
                    failures.append(Failure(Diagnostic(e.span, "expect-failed", f"{e.value} is "
                                                       + ("not offered" if key == "offered" else "offered")
                                                       + f" to {who} (decision '{d.name}')"),
                                            (f"offered: {', '.join(offered)}",)))
        return failures

    def _expect_fields(self, y: Y) -> list[Failure]:
        failures = []
        for path, value in y.items():
            for target in self.names.targets(path):
                wanted = self.names.value(value, target.type)
                try:
                    actual = target.get(self.state)
                except (KeyError, IndexError, TypeError):
                    failures.append(Failure(Diagnostic(path.span, "expect-failed", f"{target.text} does not exist "
                                                       "in the game as it is now")))
                    continue
                if actual != wanted:
                    failures.append(Failure(Diagnostic(value.span, "expect-failed",
                                                       f"{target.text} is {self.names.show(actual, target.type)}, "
                                                       f"expected {self.names.show(wanted, target.type)}")))
        return failures

    def _expect_winners(self, y: Y) -> None:
        pending = self.engine.pending(self.state)
        wanted = {self.names.seat_of(e) for e in y.elements()}
        if isinstance(pending, Decision):
            raise _fail(y.span, "expect-failed", f"the game is not over: it waits for {self._waiting(pending)}")
        if set(pending.winners) != wanted:
            got = ", ".join(self.names.seats[s] for s in pending.winners) or "nobody"
            raise _fail(y.span, "expect-failed", f"the winners are {got}")


def _span_of(step: Step) -> Span:
    return step.y.span


def _rule_error(where: Span, what: str, err: RuleError) -> Stop:
    """A failure at the scenario's step, with the rule's own report (its file, line and caret) below."""
    return _fail(where, "runtime", f"{what}: {err.message}", None, tuple(err.report().splitlines()))
