"""Trial games: seeded bot games that also build every prompt, label and screen a person would see.

`cityrules validate` plays a few of these by default (and `--fuzz N` more), so that a game that
never ends, a rule that fails at run time, or a prompt, an option label, a board drawing or a
display formula that cannot be built is found before anyone sits down to play. The bots are the
ones `cityrules simulate` uses with the same seeds, so `simulate -n 1 --players P --seed S` plays
the very same game.

Screens are what the terminal session shows, made by the same functions (play/frame.py): at each
decision, the deciding seat's screen (board, fields, seats, notes, changes since its last screen)
and its question with the options' labels and details, and what `score` prints for it; at the end,
the final screen, the result and each seat's score part by part. They are built for the first `SCREEN_DECISIONS`
decisions of a game (all of the first SCREEN_ALL, then every SCREEN_EVERY-th); prompts and labels
are built for every decision.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from ruledsl.compiler import MODULE_NAME
from ruledsl.diagnostics import Severity, Span

from ..agents import RandomAgent, bot_seed
from ..core.decision import Decision
from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.state import default_names
from ..core.view import view
from .frame import seat_screen
from .menu import Menu
from .scores import score_lines
from .screen import ScreenError, Screens

SCREEN_DECISIONS = 2_000
"""Decisions of a game for which full screens are drawn (prompts and labels are built for all)."""
SCREEN_ALL = 40
SCREEN_EVERY = 8
"""The full screen is drawn at each of a game's first SCREEN_ALL decisions, then at every
SCREEN_EVERY-th (and at the end): a screen costs ten times a decision, and validate's trial games
have a second of CPU time."""


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
    severity: Severity = "error"  # a game stopped by the clock may be slow rather than endless: a warning


class _ScreenFailed(Exception):
    """Building something a person sees failed: what was being built, and where the rules say so."""

    def __init__(self, what: str, span: Span | None, error: BaseException):
        super().__init__(what)
        self.what = what
        self.span = span
        self.error = error


def trial_game(engine: Engine, seats: int, seed: int, cap: int, deadline: float | None = None,
               screens: int = SCREEN_DECISIONS) -> Finding | None:
    """Play one seeded bot game to its end (or `cap` decisions, or the `deadline` in CPU seconds of
    `time.process_time`), building what people would see; the first problem found, or None."""
    variant = engine.game.variant
    names = default_names(seats)
    bots = [RandomAgent(bot_seed(seed, s)) for s in range(seats)]
    shows = _Screens(engine)

    def finding(code: str, message: str, span: Span | None, decisions: int, severity: Severity = "error") -> Finding:
        return Finding(code, message, span, seats, seed, variant, decisions, severity)

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
            if deadline is not None and time.process_time() > deadline:
                return finding("no-end", f"the game did not end in the time allowed ({made:,} decisions played)",
                               None, made, "warning")
            seat = engine.first_open_seat(state)
            shows.decision(state, seat, full=made < screens and (made < SCREEN_ALL or made % SCREEN_EVERY == 0))
            k = bots[seat].pick(engine, state, seat)
            engine.apply_index(state, seat, k)
        shows.end(state)
    except RuleError as err:
        return finding("runtime", err.message, err.span, state["decisions"])
    except _ScreenFailed as err:
        return finding("screen", f"{err.what} failed: {_explain(err.error)}", err.span, state["decisions"])
    return None


class _Screens:
    """Builds, and throws away, what the terminal session would show."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.game = engine.game
        self.screens = Screens(engine, strict=True)   # a failing screen formula raises ScreenError
        self.seen: dict[int | None, dict[str, Any]] = {}   # each seat's view at its last screen

    def decision(self, state: dict[str, Any], seat: int, full: bool) -> None:
        """The prompts and option labels of every open seat; with `full`, the deciding seat's screen."""
        spec = self.engine.program.chooses[state["pending"]["spec"]]
        try:
            decision = self.shown("the options' labels of this choice", spec.span, lambda: self.engine.pending(state))
        except RuleError as err:  # pending() evaluates the prompts: only a prompt's text can fail there
            raise _ScreenFailed("the prompt of this choice", err.span or spec.span, err) from err
        if not isinstance(decision, Decision):
            return
        self.shown("the list of options", spec.span, lambda: Menu.of(decision.options(seat)).lines())
        if full:
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
        self.seen[seat] = v

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


def _explain(err: BaseException) -> str:
    if isinstance(err, RuleError):
        return err.message
    return f"{type(err).__name__}: {err}"


GAME_SECONDS = 10.0
"""A default trial game still running after this long is stopped and reported (a warning)."""


@dataclass
class TrialReport:
    """What a series of trial games found, and how many were played."""

    findings: list[Finding]
    played: int


def trial_games(engines: list[Engine], rounds: int, cap: int, budget: float | None) -> TrialReport:
    """Seeds 0.. `rounds`-1 at every seat count of every engine (a game and its variants).

    The order covers every variant and seat count before a second seed. With a `budget` in CPU
    seconds, no game starts after it is spent (the first always does) and a game is stopped after
    GAME_SECONDS; without, every game is played to its end or `cap`. One finding per engine and seat
    count is enough: the rest of its games are skipped.
    """
    start = time.process_time()
    report = TrialReport([], 0)
    failed: set[tuple[int, int]] = set()
    for seed in range(rounds):
        for seats in range(min(e.game.min_seats for e in engines), max(e.game.max_seats for e in engines) + 1):
            for n, engine in enumerate(engines):
                if not engine.game.min_seats <= seats <= engine.game.max_seats or (n, seats) in failed:
                    continue
                now = time.process_time()
                if budget is not None and report.played and now - start > budget:
                    return report
                deadline = now + GAME_SECONDS if budget is not None else None
                found = trial_game(engine, seats, seed, cap, deadline)
                report.played += 1
                if found is not None:
                    report.findings.append(found)
                    failed.add((n, seats))
    return report
