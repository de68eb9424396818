"""Run a compiled game: `pending(state)` says who must decide, `apply` answers and advances.

The state is plain data (see `state.py`). `apply` never touches its input; `apply_inplace` is the
same rules without the copy, for simulations.
"""

from __future__ import annotations

import traceback
from typing import Any, Protocol

from ruledsl.compiler import MODULE_NAME, ChooseSpec
from ruledsl.diagnostics import Span
from ruledsl.runtime_support import RuleRuntimeError

from . import rng
from .decision import Decision, GameOver, NotYourTurn, Option, Result, UnknownOption
from .errors import RuleError
from .game import Game
from .state import copy_state, initial_state

STEP_BUDGET = 2_000_000
MAX_DEPTH = 200
_CALL = 1
_SUSPEND = 2


class ChanceHook(Protocol):
    """Fixed chance for scenario tests: sees every roll and shuffle after the seeded generator.

    The generator is used as always, so forcing one roll leaves every other draw of the game
    as it was; the hook may only replace the outcome.
    """

    def roll(self, faces: list[Any], k: int) -> int:
        """The index of the face to give instead of the k-th (the generator's pick)."""

    def shuffled(self, state: dict[str, Any], items: list[Any]) -> None:
        """Reorder a list the rules have just shuffled, in place."""


class _Ended(Exception):
    """Raised by `end winners` to unwind every running phase."""


class _Located(Exception):
    """A runtime rule error that already knows its place in the rules."""

    def __init__(self, message: str, span: Span):
        super().__init__(message)
        self.span = span


class Runtime:
    """The object generated rule code calls (`c` in the generated source)."""

    def __init__(self, engine: "Engine"):
        self.engine = engine
        self.specs = engine.game.program.chooses
        self.loop_spans = engine.game.program.loop_spans
        self.node_ids = engine.game.node_ids
        self.action = 0
        self.steps = STEP_BUDGET
        self.new_frame: list[Any] = []
        # A phase's `return VALUE` (set by rule code just before its frame is popped, read by the phase
        # that ran it when that one resumes: nothing runs in between, so it is never part of a state).
        self.returned: Any = None
        self.nseats = 0
        self.seats: list[int] = []

    def bind(self, state: dict[str, Any]) -> None:
        """Point the runtime at the state to run."""
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

    # -- called from generated code
    def seats_from(self, first: int) -> list[int]:
        """Every seat in turn order, starting with `first`."""
        return list(range(first, self.nseats)) + list(range(0, first))

    def choose(self, spec_id: int, L: dict[str, Any], by: int, options: list[Any]) -> None:
        """Ask one seat; a single legal option is taken without asking."""
        spec = self.specs[spec_id]
        if not options:
            raise _Located(f"no legal option for '{spec.var}' ({self.names[by]} has nothing to choose)", spec.span)
        if len(options) == 1:
            L[spec.var] = options[0]
            return
        self.state["pending"] = {"spec": spec_id, "seats": [by], "options": [options],
                                 "answers": [None], "done": [False], "left": 1}
        self.action = _SUSPEND

    def choose_each(self, spec_id: int, L: dict[str, Any], seats: list[int], options_of: Any) -> None:
        """Ask several seats at once; their answers stay hidden until every one is in."""
        spec = self.specs[spec_id]
        seats = list(seats)
        options = [options_of(s) for s in seats]
        answers: list[Any] = [None] * len(seats)
        done = [False] * len(seats)
        left = len(seats)
        for i, opts in enumerate(options):
            if not opts:
                raise _Located(f"no legal option for '{spec.var}' ({self.names[seats[i]]} has nothing to choose)",
                               spec.span)
            if len(opts) == 1:
                answers[i] = opts[0]
                done[i] = True
                left -= 1
        if not left:
            self.engine._bind_answers(self.state, spec, L, seats, answers)
            return
        self.state["pending"] = {"spec": spec_id, "seats": seats, "options": options,
                                 "answers": answers, "done": done, "left": left}
        self.action = _SUSPEND

    def call(self, phase: str, L: dict[str, Any]) -> None:
        """Enter a phase that may wait for decisions."""
        if len(self.state["stack"]) >= MAX_DEPTH:
            raise RuleRuntimeError(f"phases run each other more than {MAX_DEPTH} deep: does this 'run' ever stop?")
        self.new_frame = [phase, 0, L]
        self.action = _CALL

    def run_ability(self, phase: str | None, L: dict[str, Any]) -> None:
        """Run an item's ability: enter it if it may wait for a decision, else call it at once."""
        if phase is None:
            return
        code = self.engine.program.phases[phase]
        if code.resumable:
            self.call(phase, L)
        elif code.function is not None:
            code.function(self, *[L[p] for p in code.params])

    def end(self, winners: list[int]) -> None:
        """Finish the game."""
        self.state["result"] = {"winners": sorted(set(winners))}
        raise _Ended()

    def log(self, kind: str, data: dict[str, Any], seats: list[int], text: str, to: list[int] | None) -> None:
        """Append an event to the game's log."""
        self.state["log"].append({"kind": kind, "text": text, "seats": seats, "data": data, "to": to})

    def transfer(self, seat: int, field: str, amount: int, is_payment: bool) -> None:
        """pay/gain: move an amount between a seat and the bank, recorded in the ledger."""
        if amount < 0:
            raise RuleRuntimeError(f"cannot {'pay' if is_payment else 'gain'} a negative amount ({amount})")
        column = self.S[field]
        ledger = self.state["ledger"].setdefault(field, [[0] * self.nseats, [0] * self.nseats])
        if is_payment:
            if amount > column[seat]:
                raise RuleRuntimeError(f"{self.names[seat]} cannot pay {amount} {field}: has {column[seat]}")
            column[seat] -= amount
            ledger[0][seat] += amount
        else:
            column[seat] += amount
            ledger[1][seat] += amount

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
        raise _Located(f"this loop ran more than {STEP_BUDGET:,} steps without a decision: "
                       "does it ever end?", self.loop_spans[loop])


class Engine:
    """Plays one compiled game."""

    def __init__(self, game: Game):
        self.game = game
        self.program = game.program
        self.blocks = {name: p.blocks for name, p in game.program.phases.items() if p.resumable}
        # None in play: scenario tests set it to fix dice and shuffles (see ChanceHook).
        self.chance: ChanceHook | None = None
        self.runtime = Runtime(self)

    # ------------------------------------------------------------ public API
    def new_game(self, seats: int, seed: int = 0, names: list[str] | None = None) -> dict[str, Any]:
        """A fresh game, advanced to its first decision."""
        g = self.game
        if not g.min_seats <= seats <= g.max_seats:
            raise ValueError(f"{g.title} is for {g.min_seats} to {g.max_seats} seats, not {seats}")
        state = initial_state(g, seats, seed, names)
        start = self.program.phases[g.start]
        if start.resumable:
            state["stack"] = [[g.start, 0, {}]]
            self._run(state)
        else:
            self._run_direct(state, start.function)
        return state

    def pending(self, state: dict[str, Any]) -> Decision | Result:
        """Who must decide now and their options, or the result of a finished game."""
        if state["result"] is not None:
            return self.result(state)
        p = state["pending"]
        spec = self.program.chooses[p["spec"]]
        open_seats = tuple(self.open_seats(state))
        choices = {}
        prompts = {}
        prompt_of = self.program.prompts[p["spec"]]
        self.runtime.bind(state)
        L = state["stack"][-1][2]
        label_of = self.program.labels[p["spec"]] if self.program.labels else None
        for i, s in enumerate(p["seats"]):
            if not p["done"][i]:
                try:
                    if label_of is None:
                        choices[s] = tuple(self._option(spec, v, state["names"]) for v in p["options"][i])
                    else:  # the choice's `label` template, run per option (only when a person looks)
                        choices[s] = tuple(Option(f"{spec.var}:{spec.ident(v)}", str(label_of(self.runtime, L, s, v)),
                                                  v) for v in p["options"][i])
                    prompts[s] = prompt_of(self.runtime, L, s)
                except Exception as err:
                    raise self._locate(err) from err
        return Decision(spec.var, open_seats, spec.secret, spec.each, prompts, choices)

    def result(self, state: dict[str, Any]) -> Result:
        """The result of a finished game."""
        r = state["result"]
        scores = {f.name: list(state["seat"][f.name]) for f in self.game.seat_fields
                  if f.visible == "all" and f.type_text == "int"}
        return Result(tuple(r["winners"]), scores, state["decisions"])

    def is_over(self, state: dict[str, Any]) -> bool:
        """True once the game has a result."""
        return state["result"] is not None

    def apply(self, state: dict[str, Any], option_id: str, seat: int | None = None) -> dict[str, Any]:
        """A new state with the choice made; the given state is left as it was."""
        self._validate(state, option_id, seat)
        new = copy_state(state)
        self.apply_inplace(new, option_id, seat)
        return new

    def apply_inplace(self, state: dict[str, Any], option_id: str, seat: int | None = None) -> None:
        """Make the choice in place (simulations); raises IllegalChoice without changing anything."""
        i, k = self._validate(state, option_id, seat)
        self._answer(state, i, k)

    def apply_index(self, state: dict[str, Any], seat: int, k: int) -> None:
        """Fast path for bots: answer with the k-th legal option of `seat`, in place."""
        p = state["pending"]
        i = p["seats"].index(seat)
        self._answer(state, i, k)

    def option_count(self, state: dict[str, Any], seat: int) -> int:
        """How many legal options `seat` has now (bots use it with apply_index)."""
        p = state["pending"]
        return len(p["options"][p["seats"].index(seat)])

    def first_open_seat(self, state: dict[str, Any]) -> int:
        """The first seat that still has to answer (bots answer in this order)."""
        p = state["pending"]
        done = p["done"]
        for i, seat in enumerate(p["seats"]):
            if not done[i]:
                return int(seat)
        raise ValueError("no seat has to answer")

    def open_seats(self, state: dict[str, Any]) -> list[int]:
        """Seats that still have to answer the pending decision."""
        p = state["pending"]
        return [s for s, d in zip(p["seats"], p["done"]) if not d]

    def option_id(self, state: dict[str, Any], seat: int, k: int) -> str:
        """The id of the k-th option of `seat`."""
        p = state["pending"]
        spec = self.program.chooses[p["spec"]]
        value = p["options"][p["seats"].index(seat)][k]
        return f"{spec.var}:{spec.ident(value)}"

    # ------------------------------------------------------------ internals
    def _option(self, spec: ChooseSpec, value: Any, names: list[str]) -> Option:
        return Option(f"{spec.var}:{spec.ident(value)}", spec.label(value, names), value)

    def _validate(self, state: dict[str, Any], option_id: str, seat: int | None) -> tuple[int, int]:
        if state["result"] is not None:
            raise GameOver("the game is over; no more choices can be made")
        p = state["pending"]
        open_seats = self.open_seats(state)
        if seat is None:
            if len(open_seats) != 1:
                raise NotYourTurn(f"several seats are choosing ({', '.join(state['names'][s] for s in open_seats)}): "
                                  "say which seat answers")
            seat = open_seats[0]
        if seat not in open_seats:
            who = ", ".join(state["names"][s] for s in open_seats)
            name = state["names"][seat] if 0 <= seat < len(state["names"]) else f"seat {seat}"
            raise NotYourTurn(f"it is not {name}'s choice now (waiting for {who})")
        i = p["seats"].index(seat)
        spec = self.program.chooses[p["spec"]]
        for k, value in enumerate(p["options"][i]):
            if f"{spec.var}:{spec.ident(value)}" == option_id:
                return i, k
        ids = [f"{spec.var}:{spec.ident(v)}" for v in p["options"][i]]
        raise UnknownOption(f"'{option_id}' is not a legal choice here; legal: {', '.join(ids[:12])}"
                            + (" ..." if len(ids) > 12 else ""))

    def _answer(self, state: dict[str, Any], i: int, k: int) -> None:
        p = state["pending"]
        p["answers"][i] = p["options"][i][k]
        p["done"][i] = True
        p["left"] -= 1
        state["decisions"] += 1
        if p["left"]:
            return
        spec = self.program.chooses[p["spec"]]
        state["pending"] = None
        L = state["stack"][-1][2]
        if spec.each:
            self._bind_answers(state, spec, L, p["seats"], p["answers"])
        else:
            L[spec.var] = p["answers"][0]
        self._run(state)

    def _bind_answers(self, state: dict[str, Any], spec: ChooseSpec, L: dict[str, Any], seats: list[int],
                      answers: list[Any]) -> None:
        values: list[Any] = [None] * state["seats"]
        for s, a in zip(seats, answers):
            values[s] = a
        L[spec.var] = values

    def _run(self, state: dict[str, Any]) -> None:
        c = self.runtime
        c.bind(state)
        stack = state["stack"]
        blocks = self.blocks
        try:
            while stack:
                frame = stack[-1]
                nxt = blocks[frame[0]][frame[1]](c, frame[2])
                if nxt < 0:
                    stack.pop()
                    continue
                frame[1] = nxt
                if c.action:
                    action, c.action = c.action, 0
                    if action == _CALL:
                        stack.append(c.new_frame)
                    else:
                        return
            raise RuleError(f"the phase '{self.game.start}' finished without 'end winners'", None)
        except _Ended:
            state["stack"] = []
            state["pending"] = None
        except (RuleError, KeyboardInterrupt):
            raise
        except Exception as err:
            raise self._locate(err) from err

    def _run_direct(self, state: dict[str, Any], function: Any) -> None:
        c = self.runtime
        c.bind(state)
        try:
            function(c)
            raise RuleError(f"the phase '{self.game.start}' finished without 'end winners'", None)
        except _Ended:
            state["stack"] = []
        except (RuleError, KeyboardInterrupt):
            raise
        except Exception as err:
            raise self._locate(err) from err

    def _locate(self, err: Exception) -> RuleError:
        if isinstance(err, _Located):
            span: Span | None = err.span
        else:
            span = None
            for frame, lineno in traceback.walk_tb(err.__traceback__):
                if frame.f_code.co_filename == MODULE_NAME:
                    span = self.program.span_of_line(lineno) or span
        message = _explain(err)
        source = self.game.sources.get(span.file) if span else None
        return RuleError(message, span, source)


def _explain(err: Exception) -> str:
    if isinstance(err, (RuleRuntimeError, _Located)):
        return str(err)
    if isinstance(err, IndexError):
        return "a list index is out of range"
    if isinstance(err, KeyError):
        return f"no entry {err.args[0]!r} in this map or table"
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return "a value is none here (nothing was set, or the list had no such element)"
    if isinstance(err, RecursionError):
        return "phases call each other too deeply"
    return f"{type(err).__name__}: {err}"
