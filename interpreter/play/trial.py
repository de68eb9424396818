"""Trial games: seeded bot games that also build every prompt, label and screen a person would see.

`cityrules validate` plays a fixed few of these by default (and `--fuzz N` more), so that a game that
never ends, a rule that fails at run time, or a prompt, an option label, a board drawing or a
display formula that cannot be built is found before anyone sits down to play. The bots are the
ones `cityrules simulate` uses with the same seeds, so `simulate -n 1 --players P --seed S` plays
the very same game. Which games are played never depends on the clock: the same files give the same
report on any machine, however busy; the games are shared out over the machine's cores.

Screens are what the terminal session shows, made by the same functions (play/frame.py): at each
decision, the deciding seat's screen (board, fields, seats, notes, changes since its last screen)
and its question with the options' labels and details, and what `score` prints for it; at the end,
the final screen, the result and each seat's score part by part. Screens are drawn at a sample of
a game's decisions (see Sampling: `--fuzz` draws more of them); prompts and labels are built for
every decision.
"""

from __future__ import annotations

import multiprocessing
import traceback
from dataclasses import dataclass, replace
from typing import Any, Callable

from ruledsl.compiler import MODULE_NAME
from ruledsl.diagnostics import Severity, Span

from ..agents import RandomAgent, bot_seed
from ..agents.evaluation import seat_formula
from ..core.decision import Decision
from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.state import default_names
from ..core.view import masked_reading, view
from ..core.workers import Workers
from .frame import seat_screen
from .menu import Menu
from .scores import score_lines
from .screen import ScreenError, Screens


@dataclass(frozen=True)
class Sampling:
    """At which decisions of a game the deciding seat's full screen and its list of options are drawn
    (prompts and option labels are built at every decision): each of the first `first`, then every
    `every`-th up to `last` (and the end). A screen costs ten times a decision."""

    first: int
    every: int
    last: int

    def draws(self, made: int) -> bool:
        """Whether the screen is drawn at a game's decision number `made` (from 0)."""
        return made < self.last and (made < self.first or made % self.every == 0)


THOROUGH = Sampling(40, 8, 2_000)
"""What `validate --fuzz` draws."""
QUICK = Sampling(12, 48, 2_000)
"""What validate's default trial games draw: they are played after every edit."""


@dataclass(frozen=True)
class Finding:
    """A problem a trial game ran into: where in the rules (if known), what, and how to see it again."""

    code: str          # "runtime" (a rule failed), "screen" (something shown failed), "no-end"
    message: str
    span: Span | None
    seats: int
    seed: int
    variant: str | None
    decisions: int
    severity: Severity = "error"
    hint: str | None = None   # what to do, when replaying the game would not show it (validate's own)


class _ScreenFailed(Exception):
    """Building something a person sees failed: what was being built, and where the rules say so."""

    def __init__(self, what: str, span: Span | None, error: BaseException, hint: str | None = None):
        super().__init__(what)
        self.what = what
        self.span = span
        self.error = error
        self.hint = hint


def trial_game(engine: Engine, seats: int, seed: int, cap: int, screens: Sampling = THOROUGH,
               into_formulas: bool = True) -> Finding | None:
    """Play one seeded bot game to its end (or `cap` decisions), building what people would see;
    the first problem found, or None. With `into_formulas`, a rule failing inside a one-expression
    formula is placed in the formula (see _in_formula)."""
    variant = engine.game.variant
    names = default_names(seats)
    bots = [RandomAgent(bot_seed(seed, s)) for s in range(seats)]
    shows = _Screens(engine)

    def finding(code: str, message: str, span: Span | None, decisions: int, hint: str | None = None) -> Finding:
        return Finding(code, message, span, seats, seed, variant, decisions, hint=hint)

    state: dict[str, Any] = {"decisions": 0}
    try:
        state = engine.new_game(seats, seed, names)
        while state["result"] is None:
            made = state["decisions"]
            if made >= cap:
                # Shown at the choice the game keeps asking, in the loop that does not end, rather
                # than at `start:`, which says nothing of where the game goes round.
                asking = engine.program.chooses[state["pending"]["spec"]].span
                return finding("no-end", f"the game did not end within {cap:,} decisions: it was still asking "
                               "this choice", asking, made)
            seat = engine.first_open_seat(state)
            shows.decision(state, seat, full=screens.draws(made))
            k = bots[seat].pick(engine, state, seat)
            engine.apply_index(state, seat, k)
        shows.end(state)
    except RuleError as err:
        found = finding("runtime", err.message, err.span, state["decisions"])
        return _in_formula(engine, found, cap, screens) if into_formulas and err.span is not None else found
    except _ScreenFailed as err:
        return finding("screen", f"{err.what} failed: {_explain(err.error)}", err.span, state["decisions"], err.hint)
    return None


def _in_formula(engine: Engine, found: Finding, cap: int, screens: Sampling) -> Finding:
    """The finding placed where the failing value is made when that is inside a one-expression
    formula: such formulas run inlined at their calls, so the game is played again from the same
    seed with every formula called as written (the same game: the bots pick by seed alone)."""
    import ruledsl.gen.exprgen as exprgen

    from ..load.loader import load_game

    exprgen.INLINING = False
    try:
        plain = Engine(load_game(str(engine.game.folder), engine.game.variant))
        again = trial_game(plain, found.seats, found.seed, cap, screens, into_formulas=False)
    except Exception:   # the folder changed or no longer loads: the first finding stands
        again = None
    finally:
        exprgen.INLINING = True
    if again is None or again.span is None or again.message != found.message or again.span == found.span:
        return found
    assert found.span is not None
    call = f"line {found.span.line}" if found.span.file == again.span.file else f"{found.span.file}:{found.span.line}"
    return replace(again, message=f"{found.message}, in a formula called at {call}")


class _Screens:
    """Builds, and throws away, what the terminal session would show."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.game = engine.game
        self.screens = Screens(engine, strict=True)   # a failing screen formula raises ScreenError
        self.seen: dict[int | None, dict[str, Any]] = {}   # each seat's view at its last screen
        bots = engine.game.bots
        # The formulas the bots judge positions by: the evaluation's and every profile's.
        self.judged_by = list(dict.fromkeys(f for terms in (bots.evaluation, *bots.profiles.values()) for f, _ in terms))

    def decision(self, state: dict[str, Any], seat: int, full: bool) -> None:
        """The prompts and option labels of every open seat; with `full`, the deciding seat's list of
        options and screen."""
        spec = self.engine.program.chooses[state["pending"]["spec"]]
        try:
            decision = self.shown("the options' labels of this choice", spec.span, lambda: self.engine.pending(state))
        except RuleError as err:  # pending() evaluates the prompts: only a prompt's text can fail there
            raise _ScreenFailed("the prompt of this choice", err.span or spec.span, err) from err
        if full and isinstance(decision, Decision):
            self.shown("the list of options", spec.span, lambda: Menu.of(decision.options(seat)).lines())
            self.screen(state, seat)

    def screen(self, state: dict[str, Any], seat: int | None) -> None:
        """What the session shows a seat (frame.seat_screen: the board, fields, seats, notes, its
        question; at the end, the scores part by part), built with the game's formulas checked."""
        before = self.seen.get(seat)
        v = self.shown("the seat's view", None, lambda: view(self.engine, state, seat))
        self.shown("the seat's screen", None,
                   lambda: seat_screen(self.engine, state, seat, 80, before, self.screens, seen=v))
        if state["result"] is None and self.game.screen.projection:
            # `score` runs the game's projection on the seat's view: check it as a screen.
            self.shown("the score command", None, lambda: score_lines(self.engine, state, seat, self.screens))
        if seat is not None and state["result"] is None:
            self.judge(state, seat)
        self.seen[seat] = v

    def judge(self, state: dict[str, Any], seat: int) -> None:
        """The bots' formulas (game.yaml `bots`) on the seat's own position, read from its view as the
        bots read it. A bot takes a formula that fails for a value it cannot know (another seat's,
        from a view where that seat's cards are blank), so it would judge every position blind
        without a word: a failure here is a finding."""
        runtime = self.engine.runtime
        if self.judged_by:
            runtime.bind(masked_reading(self.engine, state, seat))
        for name in self.judged_by:
            formula = seat_formula(self.engine, name)
            try:
                formula(runtime, seat)
            except KeyboardInterrupt:
                raise
            except Exception as err:
                span = self.rule_span(err) or (err.span if isinstance(err, RuleError) else None)
                raise _ScreenFailed(f"the bots' formula '{name}' (game.yaml `bots`), on seat {seat}'s own position",
                                    span, err, _BOTS_BLIND) from err

    def end(self, state: dict[str, Any]) -> None:
        """The last screen: everything public, the result and each seat's score part by part."""
        self.screen(state, None)

    def shown(self, what: str, span: Span | None, build: Callable[[], Any]) -> Any:
        """`build()`, whose failure is a finding about `what` (rule errors pass through as they are)."""
        try:
            return build()
        except (RuleError, KeyboardInterrupt):
            raise
        except ScreenError as err:  # one of the game's screen formulas: say which, and where it fails
            raise _ScreenFailed(err.what, self.rule_span(err.error) or span, err.error) from err
        except Exception as err:
            raise _ScreenFailed(what, self.rule_span(err) or span, err) from err

    def rule_span(self, err: BaseException) -> Span | None:
        """The rules line that raised `err`, when generated rule code is on its traceback."""
        found: Span | None = None
        for frame, lineno in traceback.walk_tb(err.__traceback__):
            if frame.f_code.co_filename == MODULE_NAME:
                found = self.engine.program.span_of_line(lineno) or found
        return found


_BOTS_BLIND = ("every bot judges positions by this formula and takes a failure for a value it cannot know: "
               "it would play blind. `cityrules validate` plays this game again")


def _explain(err: BaseException) -> str:
    if isinstance(err, RuleError):
        return err.message
    return f"{type(err).__name__}: {err}"


@dataclass
class TrialReport:
    """What a series of trial games found, and how many were played."""

    findings: list[Finding]
    played: int


Trial = tuple[int, int, int]
"""One trial game: the engine's index (the game or one of its variants), the seat count, the seed."""


def every_trial(engines: list[Engine], rounds: int) -> list[Trial]:
    """Seeds 0.. `rounds`-1 at every seat count of every engine (a game and its variants), in an order
    that covers every variant and seat count before a second seed."""
    low = min(e.game.min_seats for e in engines)
    high = max(e.game.max_seats for e in engines)
    return [(n, seats, seed) for seed in range(rounds) for seats in range(low, high + 1)
            for n, e in enumerate(engines) if e.game.min_seats <= seats <= e.game.max_seats]


def sample_trials(engines: list[Engine], games: int) -> list[Trial]:
    """`games` trial games of seed 0 spread evenly over the variants and seat counts (all of them when
    there are no more than `games`): the same few games every time, whatever the machine."""
    first = every_trial(engines, 1)
    if len(first) <= games:
        return first
    return [first[i * len(first) // games] for i in range(games)]


def trial_games(engines: list[Engine], trials: list[Trial], cap: int, jobs: int = 1,
                screens: Sampling = THOROUGH) -> TrialReport:
    """Play `trials` in their order, over `jobs` processes, each to its end or `cap` decisions.

    One finding per engine and seat count is enough: a trial of an engine and seat count that an
    earlier trial found a problem with is skipped (not counted), so the report is the same whatever
    the number of processes.
    """
    report = TrialReport([], 0)
    failed: set[tuple[int, int]] = set()
    if jobs <= 1 or len(trials) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for n, seats, seed in trials:
            if (n, seats) in failed:
                continue
            _count(report, failed, (n, seats), trial_game(engines[n], seats, seed, cap, screens))
        return report
    global _ENGINES
    _ENGINES = engines  # what the forked workers play: inherited, never pickled
    try:
        with Workers[int](min(jobs, len(trials)), "fork") as pool:
            _share_out(pool, trials, cap, screens, jobs, report, failed)
    finally:
        _ENGINES = []
    return report


_ENGINES: list[Engine] = []


def _share_out(pool: Workers[int], trials: list[Trial], cap: int, screens: Sampling, jobs: int, report: TrialReport,
               failed: set[tuple[int, int]]) -> None:
    """Keep `jobs` trials in play, and take their answers in the trials' order."""
    started = 0
    for i, (n, seats, _) in enumerate(trials):
        # Trials are started ahead only while none of their engine and seat count has failed so far.
        while started < len(trials) and pool.pending() < jobs:
            if (trials[started][0], trials[started][1]) not in failed:
                pool.submit(started, _play_trial, trials[started], cap, screens)
            started += 1
        if i not in pool:
            continue
        found: Finding | None = pool.result(i)
        if (n, seats) not in failed:
            _count(report, failed, (n, seats), found)


def _play_trial(trial: Trial, cap: int, screens: Sampling) -> Finding | None:
    n, seats, seed = trial
    return trial_game(_ENGINES[n], seats, seed, cap, screens)


def _count(report: TrialReport, failed: set[tuple[int, int]], where: tuple[int, int], found: Finding | None) -> None:
    report.played += 1
    if found is not None:
        report.findings.append(found)
        failed.add(where)
