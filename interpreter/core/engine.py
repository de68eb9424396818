"""Run a compiled game: `pending(state)` says who must decide, `apply` answers and advances.

The state is plain data (see `state.py`). `apply` never touches its input; `apply_inplace` is the
same rules without the copy. Bots that answer at once use `play`/`playout` instead: every decision
is put to a picker while the rules run straight through, without pausing (see `runtime.py`).
"""

from __future__ import annotations

import traceback
from typing import Any, Callable, Protocol, Sequence

from ruledsl.diagnostics import Span
from ruledsl.program import MODULE_NAME, ChooseSpec
from ruledsl.runtime_support import RuleRuntimeError

from .decision import Decision, GameOver, NotYourTurn, Option, Result, UnknownOption
from .errors import RuleError
from .game import Game
from .runtime import (
    CALL,
    MAX_DEPTH,
    SECRET_OPTIONS,
    STEP_BUDGET,
    BotError,
    Capped,
    Ended,
    Located,
    Picker,
    Runtime,
    bind_answers,
)
from .state import copy_state, initial_state, start_data

__all__ = ["BotError", "ChanceHook", "Engine", "MAX_DEPTH", "Picker", "SECRET_OPTIONS", "STEP_BUDGET"]


# Option ids kept by option_text, at most (a game whose options are numbers may have many).
_KEPT_TEXTS = 10_000


class ChanceHook(Protocol):
    """Fixed chance for scenario tests: sees every roll and shuffle after the seeded generator.

    The generator is used as always, so forcing one roll leaves every other draw of the game
    as it was; the hook may only replace the outcome.
    """

    def roll(self, faces: list[Any], k: int) -> int:
        """The index of the face to give instead of the k-th (the generator's pick)."""

    def shuffled(self, state: dict[str, Any], items: list[Any]) -> None:
        """Reorder a list the rules have just shuffled, in place."""

class Engine:
    """Plays one compiled game."""

    def __init__(self, game: Game):
        self.game = game
        self.program = game.program
        self.blocks = {name: p.blocks for name, p in game.program.phases.items() if p.resumable}
        # None in play: scenario tests set it to fix dice and shuffles (see ChanceHook).
        self.chance: ChanceHook | None = None
        # None in play: balance figures set it to see each pay/gain as it happens (see analysis/economy.py).
        self.ledger_hook: Callable[[dict[str, Any], str, int, int, bool], None] | None = None
        self.runtime = Runtime(self)
        self._texts: dict[tuple[int, type, Any], str] = {}  # see option_text
        self._starts: dict[int, bytes | None] = {}  # by number of seats: the game's data at the start (state.start_data)

    # ------------------------------------------------------------ public API
    def new_game(self, seats: int, seed: int = 0, names: list[str] | None = None) -> dict[str, Any]:
        """A fresh game, advanced to its first decision."""
        g = self.game
        if not g.min_seats <= seats <= g.max_seats:
            raise ValueError(f"{g.title} is for {g.min_seats} to {g.max_seats} seats, not {seats}")
        state = initial_state(g, seats, seed, names, self._start_data(seats))
        start = self.program.phases[g.start]
        if start.resumable:
            state["stack"] = [[g.start, 0, {}]]
            self._run(state, self.runtime)
        else:
            self._run_direct(state, start.function, self.runtime)
        return state

    def play(self, seats: int, seed: int, pickers: Sequence[Picker], names: list[str] | None = None, *,
             journal: list[tuple[int, str]] | None = None, log: bool = True,
             max_decisions: int | None = None) -> dict[str, Any]:
        """A whole game in which every decision is answered at once by its seat's picker (bots).

        The same game as `new_game` followed by `apply` of the same answers, without ever pausing:
        the rules run straight through as ordinary calls. `journal`, when given, receives every
        answer as (seat, option id); `log=False` skips the event log (nobody reads it in a
        simulation; the game is otherwise identical). A game stopped by `max_decisions` is left
        unfinished and cannot be continued.
        """
        g = self.game
        if not g.min_seats <= seats <= g.max_seats:
            raise ValueError(f"{g.title} is for {g.min_seats} to {g.max_seats} seats, not {seats}")
        state = initial_state(g, seats, seed, names, self._start_data(seats))
        c = Runtime(self, pickers, journal, max_decisions, log)
        self._run_direct(state, self.program.phases[g.start].direct, c)
        return state

    def playout(self, state: dict[str, Any], pickers: Sequence[Picker], *,
                journal: list[tuple[int, str]] | None = None, log: bool = True,
                max_decisions: int | None = None) -> None:
        """Play a game on from any decision to its end, in place, every answer given by the pickers.

        What a search bot does with a copy of a state (`copy_state`); see `play` for the options.
        """
        if state["result"] is not None:
            return
        c = Runtime(self, pickers, journal, max_decisions, log)
        c.bind(state)
        p = state["pending"]
        try:
            for i, seat in enumerate(p["seats"]):
                if not p["done"][i]:
                    p["answers"][i] = p["options"][i][c.pick(p["spec"], seat, p["options"][i])]
                    p["done"][i] = True
                    p["left"] -= 1
        except Capped:
            return
        self._resume(state, c)

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
        detail_of = self.program.details[p["spec"]] if self.program.details else None
        for i, s in enumerate(p["seats"]):
            if not p["done"][i]:
                try:
                    if label_of is None and detail_of is None:
                        choices[s] = tuple(self._option(spec, v, state["names"]) for v in p["options"][i])
                    else:  # the choice's `label` and `detail` templates, run per option (only when a person looks)
                        choices[s] = tuple(Option(
                            f"{spec.var}:{spec.ident(v)}",
                            spec.label(v, state["names"]) if label_of is None else str(label_of(self.runtime, L, s, v)),
                            v, "" if detail_of is None else str(detail_of(self.runtime, L, s, v)))
                            for v in p["options"][i])
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
    def _start_data(self, seats: int) -> bytes | None:
        if seats not in self._starts:
            self._starts[seats] = start_data(self.game, seats)
        return self._starts[seats]

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

    def option_text(self, spec_id: int, value: Any) -> str:
        """The id of an option of a choice: `var:value-id`."""
        # Journaled at every decision of a batch: kept once made (an id depends on the value alone;
        # its type is part of the key, so that 1 and true never share one).
        key = (spec_id, type(value), value)
        try:
            text = self._texts.get(key)
        except TypeError:  # a list or map: not kept
            return self._new_text(spec_id, value)
        if text is None:
            text = self._new_text(spec_id, value)
            if len(self._texts) < _KEPT_TEXTS:
                self._texts[key] = text
        return text

    def _new_text(self, spec_id: int, value: Any) -> str:
        spec = self.program.chooses[spec_id]
        return f"{spec.var}:{spec.ident(value)}"

    def _answer(self, state: dict[str, Any], i: int, k: int) -> None:
        p = state["pending"]
        p["answers"][i] = p["options"][i][k]
        p["done"][i] = True
        p["left"] -= 1
        state["decisions"] += 1
        if not p["left"]:
            self._resume(state, self.runtime)

    def _resume(self, state: dict[str, Any], c: Runtime) -> None:
        """Every seat has answered the pending decision: hand the answers to the rules and go on."""
        p = state["pending"]
        spec = self.program.chooses[p["spec"]]
        state["pending"] = None
        L = state["stack"][-1][2]
        bind_answers(state["seats"], spec, L, p["seats"], p["answers"], p["options"])
        self._run(state, c)

    def _run(self, state: dict[str, Any], c: Runtime) -> None:
        """Run the phases on the stack until a decision is pending or the game ends."""
        c.bind(state)
        stack = state["stack"]
        blocks = self.blocks
        try:
            while stack:
                frame = stack[-1]
                nxt = blocks[frame[0]][frame[1]](c, frame[2])
                if nxt < 0:
                    stack.pop()
                    c.depth -= 1
                    continue
                frame[1] = nxt
                if c.action:
                    action, c.action = c.action, 0
                    if action == CALL:
                        stack.append(c.new_frame)
                        c.depth += 1
                    else:
                        return
            raise RuleError(f"the phase '{self.game.start}' finished without 'end winners'", None)
        except Ended:
            state["stack"] = []
            state["pending"] = None
        except Capped:
            state["stack"] = []
            state["pending"] = None
        except (RuleError, KeyboardInterrupt, BotError):
            raise
        except Exception as err:
            raise self._locate(err) from err

    def _run_direct(self, state: dict[str, Any], function: Any, c: Runtime) -> None:
        """Run a phase that never pauses (or any phase, in agent mode) until the game ends."""
        c.bind(state)
        try:
            function(c)
            raise RuleError(f"the phase '{self.game.start}' finished without 'end winners'", None)
        except (Ended, Capped):
            state["stack"] = []
        except (RuleError, KeyboardInterrupt, BotError):
            raise
        except Exception as err:
            raise self._locate(err) from err

    def _locate(self, err: Exception) -> RuleError:
        if isinstance(err, Located):
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
    if isinstance(err, (RuleRuntimeError, Located)):
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
