"""The object generated rule code calls (`c` in the generated source), in its two modes.

- Waiting mode (`pickers` is None): a `choose` with several options records a pending decision in
  the state and the engine returns to its caller; `run` of a phase that may wait pushes a frame.
- Agent mode: every decision is answered at once by the seat's picker (a bot), so the rules run
  straight through as ordinary Python calls (the phases' direct functions) until the game ends.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ruledsl.diagnostics import Span
from ruledsl.program import ChooseSpec
from ruledsl.runtime_support import LIST_LIMIT, MAX_DEPTH, NUMBER_LIMIT, STEP_BUDGET, RuleRuntimeError

from . import rng

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["MAX_DEPTH", "STEP_BUDGET", "BotError", "Capped", "Ended", "Located", "Picker", "Runtime", "SECRET_OPTIONS", "bind_answers",
           "by_seat"]

CALL = 1
# Characters of event log one decision may write (only while the log is kept).
LOG_LIMIT = 10_000_000
SUSPEND = 2

# A bot's answer in agent mode: (state, seat, the seat's legal options) -> index of the option chosen.
Picker = Callable[[dict[str, Any], int, list[Any]], int]


class BotError(Exception):
    """A picker failed or gave no valid answer (agent mode): a bug in the bot, not in the rules."""


class Ended(Exception):
    """Raised by `end winners` to unwind every running phase."""


class Capped(Exception):
    """Raised in agent mode when the decision cap is reached: the game stops unfinished."""


class Located(Exception):
    """A runtime rule error that already knows its place in the rules."""

    def __init__(self, message: str, span: Span):
        super().__init__(message)
        self.span = span


def by_seat(seats_in_game: int, seats: list[int], answers: list[Any]) -> list[Any]:
    """Answers of a simultaneous choice as a list indexed by seat number."""
    values: list[Any] = [None] * seats_in_game
    for s, a in zip(seats, answers):
        values[s] = a
    return values


# Locals key (a name no rule can write) keeping, next to a secret choice's answers, the options each
# seat had: bots resample the other seats' answers from them (agents/determinize.py).
SECRET_OPTIONS = "$options:"


def bind_answers(seats_in_game: int, spec: ChooseSpec, L: dict[str, Any], seats: list[int], answers: list[Any],
                 options: list[list[Any]]) -> None:
    """Give a paused choice's answers to the rules; a secret one keeps, by seat, the options it had."""
    L[spec.var] = by_seat(seats_in_game, seats, answers) if spec.each else answers[0]
    if spec.secret:
        L[SECRET_OPTIONS + spec.var] = [spec.each, by_seat(seats_in_game, seats, options)]


class Runtime:
    """Reads and changes one state for the generated code; asks the pickers in agent mode."""

    # Fixed attributes: the generated code reads and writes `steps` and the columns very often.
    __slots__ = ("C", "N", "S", "V", "action", "bound", "cap", "depth", "engine", "journal", "logged", "logging",
                 "loop_spans", "names", "new_frame", "node_ids", "nseats", "phases", "pickers", "returned", "seats",
                 "specs", "state", "steps")

    def __init__(self, engine: "Engine", pickers: Sequence[Picker] | None = None,
                 journal: list[tuple[int, str]] | None = None, cap: int | None = None, logging: bool = True):
        self.engine = engine
        self.phases = engine.program.phases
        self.specs = engine.game.program.chooses
        self.loop_spans = engine.game.program.loop_spans
        self.node_ids = engine.game.node_ids
        self.pickers = pickers
        self.journal = journal
        self.cap = cap if cap is not None else sys.maxsize
        self.logging = logging
        self.action = 0
        self.steps = STEP_BUDGET
        self.depth = 0
        self.new_frame: list[Any] = []
        # A phase's `return VALUE` (set by rule code just before its frame is popped, read by the phase
        # that ran it when that one resumes: nothing runs in between, so it is never part of a state).
        self.returned: Any = None
        self.nseats = 0
        self.seats: list[int] = []
        # How many times a state was bound: what is read of a bound state holds until the next bind.
        self.bound = 0

    def bind(self, state: dict[str, Any]) -> None:
        """Point the runtime at the state to run."""
        self.bound += 1
        self.state = state
        self.S = state["seat"]
        self.N = state["node"]
        self.V = state["global"]
        self.C = state["components"]
        self.names = state["names"]
        if state["seats"] != self.nseats:
            self.nseats = state["seats"]
            self.seats = list(range(self.nseats))
        self.action = 0
        self.steps = STEP_BUDGET
        self.logged = 0
        # Phases that may wait and are running: frames on the stack, plus direct calls in agent mode.
        self.depth = len(state["stack"])

    # -- called from generated code
    def seats_from(self, first: int) -> list[int]:
        """Every seat in turn order, starting with `first`."""
        if 0 <= first < self.nseats:  # slices of the seats (run many times a round), same list
            seats = self.seats
            return seats[first:] + seats[:first]
        return list(range(first, self.nseats)) + list(range(0, first))

    def _empty(self, spec_id: int, seat: int) -> Located:
        spec = self.specs[spec_id]
        return Located(f"no legal option for '{spec.var}' ({self.names[seat]} has nothing to choose)", spec.span)

    def choose(self, spec_id: int, L: dict[str, Any], by: int, options: list[Any]) -> None:
        """Ask one seat; a single legal option is taken without asking."""
        if self.pickers is not None:
            L[self.specs[spec_id].var] = self.ask(spec_id, by, options)
            return
        if not options:
            raise self._empty(spec_id, by)
        if len(options) == 1:
            L[self.specs[spec_id].var] = options[0]
            return
        self.state["pending"] = {"spec": spec_id, "seats": [by], "options": [options],
                                 "answers": [None], "done": [False], "left": 1}
        self.action = SUSPEND

    def choose_each(self, spec_id: int, L: dict[str, Any], seats: list[int], options_of: Any) -> None:
        """Ask several seats at once; their answers stay hidden until every one is in."""
        if self.pickers is not None:
            L[self.specs[spec_id].var] = self.ask_each(spec_id, seats, options_of)
            return
        seats = list(seats)
        options = [options_of(s) for s in seats]
        answers: list[Any] = [None] * len(seats)
        done = [False] * len(seats)
        left = len(seats)
        for i, opts in enumerate(options):
            if not opts:
                raise self._empty(spec_id, seats[i])
            if len(opts) == 1:
                answers[i] = opts[0]
                done[i] = True
                left -= 1
        if not left:
            bind_answers(self.nseats, self.specs[spec_id], L, seats, answers, options)
            return
        self.state["pending"] = {"spec": spec_id, "seats": seats, "options": options,
                                 "answers": answers, "done": done, "left": left}
        self.action = SUSPEND

    def ask(self, spec_id: int, by: int, options: list[Any]) -> Any:
        """Agent mode: the option the seat's picker chooses (a single option is taken without asking)."""
        n = len(options)
        if n == 1:
            return options[0]
        if not n:
            raise self._empty(spec_id, by)
        k = self.pick(spec_id, by, options)
        self.steps, self.logged = STEP_BUDGET, 0  # a decision: the budget starts again
        return options[k]

    def ask_each(self, spec_id: int, seats: list[int], options_of: Any) -> list[Any]:
        """Agent mode: every seat's answer, seat by seat, as a list indexed by seat number."""
        seats = list(seats)
        options = [options_of(s) for s in seats]
        if not all(options):
            raise self._empty(spec_id, seats[[bool(o) for o in options].index(False)])
        values: list[Any] = [None] * self.nseats
        asked = False
        for s, opts in zip(seats, options):
            if len(opts) == 1:
                values[s] = opts[0]
            else:
                values[s] = opts[self.pick(spec_id, s, opts)]
                asked = True
        if asked:
            self.steps, self.logged = STEP_BUDGET, 0
        return values

    def ask_all(self, spec_id: int, options: list[Any]) -> list[Any]:
        """Agent mode: `ask_each` of every seat when all have the same options (plain values)."""
        if not options:
            raise self._empty(spec_id, 0)
        if len(options) == 1:
            return [options[0]] * self.nseats
        values = [options[self.pick(spec_id, s, options)] for s in self.seats]
        self.steps, self.logged = STEP_BUDGET, 0
        return values

    def pick(self, spec_id: int, seat: int, options: list[Any]) -> int:
        """The index of the option the seat's picker chooses; counts the decision, journals it."""
        state = self.state
        if state["decisions"] >= self.cap:
            raise Capped()
        try:
            k = self.pickers[seat](state, seat, options)  # type: ignore[index]
        except Exception as err:  # the bot's fault, not the rules': not placed in the rules
            raise BotError(f"the bot of seat {seat} failed: {type(err).__name__}: {err}") from err
        if type(k) is not int or not 0 <= k < len(options):
            raise BotError(f"the bot of seat {seat} picked option {k!r} of {len(options)}")
        if self.journal is not None:
            self.journal.append((seat, self.engine.option_text(spec_id, options[k])))
        state["decisions"] += 1
        return k

    def call(self, phase: str, L: dict[str, Any]) -> None:
        """Enter a phase that may wait for decisions (agent mode: run it through at once)."""
        if self.depth >= MAX_DEPTH:
            self.too_deep()
        if self.pickers is not None:
            self.depth += 1
            self.phases[phase].direct(self, *L.values())  # type: ignore[misc]
            self.depth -= 1
            return
        self.new_frame = [phase, 0, L]
        self.action = CALL

    def too_deep(self) -> None:
        """A phase that runs itself (through others) without end."""
        raise RuleRuntimeError(f"phases run each other more than {MAX_DEPTH} deep: does this 'run' ever stop?")

    def run_ability(self, phase: str | None, L: dict[str, Any]) -> None:
        """Run an item's ability: enter it if it may wait for a decision, else call it at once."""
        if phase is None:
            return
        code = self.phases[phase]
        if code.resumable:
            self.call(phase, L)
        elif code.function is not None:
            code.function(self, *L.values())

    def end(self, winners: list[int]) -> None:
        """Finish the game."""
        self.state["result"] = {"winners": sorted(set(winners))}
        raise Ended()

    def log(self, kind: str, data: dict[str, Any], seats: list[int], text: str, to: list[int] | None) -> None:
        """Append an event to the game's log."""
        self.logged += len(text)
        if self.logged > LOG_LIMIT:
            raise RuleRuntimeError(f"the rules wrote more than {LOG_LIMIT:,} characters of log without a "
                                   "decision: does a log line run in a loop without end?")
        self.state["log"].append({"kind": kind, "text": text, "seats": seats, "data": data, "to": to})

    def transfer(self, seat: int, field: str, amount: int, is_payment: bool) -> None:
        """pay/gain: move an amount between a seat and the bank, recorded in the ledger."""
        if amount < 0:
            raise RuleRuntimeError(f"cannot {'pay' if is_payment else 'gain'} a negative amount ({amount})")
        column = self.S[field]
        ledger = self.state["ledger"].get(field)
        if ledger is None:  # not setdefault: that would build two lists at every pay and gain
            ledger = self.state["ledger"][field] = [[0] * self.nseats, [0] * self.nseats]
        if amount > NUMBER_LIMIT or column[seat] + amount > NUMBER_LIMIT:
            raise RuleRuntimeError(f"{'paying' if is_payment else 'gaining'} {amount} {field} goes past the "
                                   "limit of 10^18 (a billion billion)")
        if is_payment:
            if amount > column[seat]:
                raise RuleRuntimeError(f"{self.names[seat]} cannot pay {amount} {field}: has {column[seat]}")
            column[seat] -= amount
            ledger[0][seat] += amount
        else:
            column[seat] += amount
            ledger[1][seat] += amount
        if self.engine.ledger_hook is not None:
            self.engine.ledger_hook(self.state, field, seat, amount, is_payment)

    def roll(self, faces: list[Any]) -> Any:
        """One element of the list, uniformly, from the game's seeded generator."""
        if not faces:
            raise RuleRuntimeError("roll from an empty list")
        self.state["rng"], k = rng.below(self.state["rng"], len(faces))
        if self.engine.chance is not None:
            k = self.engine.chance.roll(faces, k)
        return faces[k]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list with the game's seeded generator."""
        self.state["rng"] = rng.shuffle(self.state["rng"], items)
        if self.engine.chance is not None:
            self.engine.chance.shuffled(self.state, items)

    def runaway(self, loop: int) -> None:
        """A loop used up the step budget."""
        raise Located(f"this loop ran more than {STEP_BUDGET:,} steps without a decision: "
                      "does it ever end?", self.loop_spans[loop])

    def out_of_steps(self) -> None:
        """The statement being run used up the step budget (its place comes from the traceback)."""
        raise RuleRuntimeError(f"the rules did more than {STEP_BUDGET:,} steps of work without a decision: "
                               "is something repeated without end (a list, phases or formulas running each other)?")

    def too_long(self) -> None:
        """`add` to a list already at the size limit."""
        raise RuleRuntimeError(f"a list may hold at most {LIST_LIMIT:,} elements")
