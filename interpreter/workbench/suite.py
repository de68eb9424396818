"""Every scenario of a game folder: load the game, check the scenarios' names, play them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ruledsl.diagnostics import Diagnostic, render

from ..core.game import Game
from ..load.loader import check_game
from .check import check_scenario, scenario_files
from .runner import Run
from .scenario import Scenario, read_file
from .where import Failure


def display_path(path: Path) -> str:
    """A file's name as messages show it: relative to the working folder when it is inside it."""
    full = path.resolve()
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(full)


@dataclass
class Outcome:
    """One scenario's result."""

    scenario: Scenario
    failures: list[Failure]
    seconds: float
    known: list[Failure] = field(default_factory=list)   # the failures a `known_failure` scenario had

    @property
    def passed(self) -> bool:
        """True when nothing failed (a known failure that still fails counts as passed)."""
        return not self.failures


@dataclass
class FolderReport:
    """What testing one game folder found."""

    folder: Path
    problems: list[Diagnostic] = field(default_factory=list)   # the game's or the files' own errors
    outcomes: list[Outcome] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    files: int = 0

    @property
    def ok(self) -> bool:
        """True when the game loaded, every file was well formed and every scenario passed."""
        return not any(d.severity == "error" for d in self.problems) and all(o.passed for o in self.outcomes)

    def render(self, failure: Failure) -> str:
        """A failure as validate prints a diagnostic, followed by what did happen, indented."""
        text = render(failure.diagnostic, self.sources.get(failure.diagnostic.span.file))
        return "\n".join([text, *(f"    {line}" for line in failure.details)])


class _Games:
    """The game loaded once per variant the scenarios play."""

    def __init__(self, folder: Path, base: Game):
        self.folder = folder
        self.loaded: dict[str | None, Game | None] = {None: base}

    def get(self, variant: str | None) -> Game | None:
        if variant not in self.loaded:
            self.loaded[variant] = check_game(self.folder, variant)[0]
        return self.loaded[variant]


def run_folder(folder: Path, only: str | None = None) -> FolderReport:
    """Load a game and play every scenario in its tests folder (those whose name contains `only`)."""
    report = FolderReport(folder)
    game, diags, sources = check_game(folder)
    report.sources.update(sources)
    if game is None:
        report.problems += [d for d in diags if d.severity == "error"]
        return report
    games = _Games(folder, game)
    for path in scenario_files(folder):
        report.files += 1
        scenarios, problems, source = read_file(path, display_path(path))
        report.sources[display_path(path)] = source
        report.problems += problems
        for scenario in scenarios:
            if only is not None and only not in scenario.name:
                continue
            started = time.perf_counter()
            static = check_scenario(game, scenario)
            played = games.get(scenario.given("variant"))
            if static or played is None:
                failures = [Failure(d) for d in static] or [Failure(Diagnostic(
                    scenario.span, "runtime", f"the variant '{scenario.given('variant')}' does not load"))]
            else:
                failures = Run(played, scenario).play()
            outcome = Outcome(scenario, failures, time.perf_counter() - started)
            if scenario.known_failure is not None and not static:
                outcome.known, outcome.failures = failures, [] if failures else [Failure(Diagnostic(
                    scenario.known_failure.span, "expect-failed", "this scenario passes now: remove its "
                    "known_failure, the game does what it says"))]
            report.outcomes.append(outcome)
    return report
