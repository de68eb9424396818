"""One game folder as an editor sees it: checked from the editor's texts, re-checked only where they changed.

The game (game.yaml, the board, component and rules files) is checked as a whole by
`check_game`, with the open buffers given in place of the files on disk; it is checked again only
when one of those texts, or a file on disk, changed. Scenario files (`tests/*.yaml`) are checked
one by one against the game, each again only when its text or the game changed. The diagnostics
are validate's: the same codes, messages, hints and positions.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ruledsl.diagnostics import Diagnostic, Span

from ..core.game import Game
from ..load.base import display_name
from ..load.files import Unreadable, read_game_file
from ..load.loader import DataMemo, check_game
from ..load.yamlsource import MAX_FILE_BYTES, load_yaml_text
from ..workbench.check import TESTS_FOLDER, check_scenario, scenario_files
from ..workbench.scenario import Scenario, parse
from ..workbench.suite import display_path

GAME_FILE = "game.yaml"


def game_folder(path: Path) -> Path | None:
    """The game folder a file belongs to: the nearest folder above it that holds a game.yaml."""
    path = path.resolve()
    if path.name == GAME_FILE:
        return path.parent
    for folder in list(path.parents)[:3]:
        if (folder / GAME_FILE).is_file():
            return folder
    return None


def is_scenario(folder: Path, path: Path) -> bool:
    """True for a scenario file of the folder (`tests/*.yaml`)."""
    return path.parent == folder / TESTS_FOLDER and path.suffix == ".yaml"


def file_of(shown: str) -> Path:
    """The file a diagnostic names (names are relative to the working folder, as validate prints them)."""
    return (Path.cwd() / shown).resolve()


@dataclass
class Report:
    """What one check found: diagnostics by file, every file's text, and the game when it loads."""

    game: Game | None
    diagnostics: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    game_checked: bool = False          # False when the game's result was reused as it was
    scenarios_checked: int = 0          # scenario files checked again (the others were reused)


@dataclass
class _GameResult:
    key: object
    game: Game | None
    diagnostics: list[Diagnostic]
    sources: dict[str, str]


class GameProject:
    """A game folder, checked from the editor's texts; remembers the last results to re-check only what changed."""

    def __init__(self, folder: Path, variants: bool = True):
        self.folder = folder.resolve()
        self.variants = variants
        self._game: _GameResult | None = None
        self._scenarios: dict[Path, tuple[object, list[Diagnostic], str]] = {}
        self._parsed: dict[Path, tuple[str, list[Diagnostic], list[Diagnostic], list[Scenario]]] = {}
        self._data = DataMemo()   # the game's data as last read: a keystroke in a rules file reads none again

    def check(self, texts: Mapping[Path, str]) -> Report:
        """Every diagnostic of the folder, the open buffers' texts read in place of their files."""
        game_texts = {p: t for p, t in texts.items() if not is_scenario(self.folder, p)}
        texts_key = sorted((str(p), t) for p, t in game_texts.items())
        report = Report(None)
        if self._game is None or self._game.key != (texts_key, self._disk_stamp(game_texts)):
            self._game = self._check_game(game_texts)
            # The files on disk as they were when read: those the check read (known only now).
            self._game.key = (texts_key, self._disk_stamp(game_texts))
            report.game_checked = True
        result = self._game
        report.game = result.game
        report.sources.update(result.sources)
        for d in result.diagnostics:
            report.diagnostics.setdefault(file_of(d.span.file), []).append(d)
        paths = set(scenario_files(self.folder)) | {p for p in texts if is_scenario(self.folder, p)}
        for path in sorted(paths):
            text = self._scenario_text(path, texts)
            skey = (text, id(result))
            cached = self._scenarios.get(path)
            if cached is None or cached[0] != skey:
                if isinstance(text, Unreadable):   # named as the link, never as where it leads
                    shown = display_name(self.folder, f"{TESTS_FOLDER}/{path.name}")
                    cached = (skey, [Diagnostic(Span(shown, 1, 1), text.code, text.message, hint=text.hint)], shown)
                else:
                    cached = (skey, *self._check_scenarios(path, text, result.game))
                self._scenarios[path] = cached
                report.scenarios_checked += 1
            _, diags, shown = cached
            report.sources[shown] = "" if isinstance(text, Unreadable) else text
            for d in diags:
                report.diagnostics.setdefault(path if isinstance(text, Unreadable) else file_of(d.span.file), []).append(d)
        for path in list(self._scenarios):
            if path not in paths:
                del self._scenarios[path]
                self._parsed.pop(path, None)
        return report

    def _check_game(self, texts: Mapping[Path, str]) -> _GameResult:
        # The server never runs the game: its rules are checked, not compiled (unless asked to run).
        game, diags, sources = check_game(self.folder, texts=texts, check_only=True, memo=self._data)
        if self.variants:
            # validate checks every variant too: a table a variant replaces may break a rule.
            for variant in game.variants if game else ():
                _, more, more_sources = check_game(self.folder, variant, texts, check_only=True, memo=self._data)
                sources.update(more_sources)
                diags += [d for d in more if d not in diags]
        return _GameResult(None, game, diags, sources)

    def _disk_stamp(self, texts: Mapping[Path, str]) -> tuple[tuple[str, int], ...]:
        """When the game's files that are not open were last changed (an edit outside the editor)."""
        known = self._game.sources if self._game is not None else {}
        paths = {file_of(shown) for shown in known} | {self.folder / GAME_FILE}
        stamps = []
        for path in sorted(paths - set(texts)):
            try:
                stamps.append((str(path), os.stat(path).st_mtime_ns))
            except OSError:
                stamps.append((str(path), -1))
        return tuple(stamps)

    def _scenario_text(self, path: Path, texts: Mapping[Path, str]) -> str | Unreadable:
        """A scenario file's text: the editor's, or the disk's; like every file of a game, only a
        file inside the game folder is read (a link leading out is refused unread, as validate does)."""
        name = f"{TESTS_FOLDER}/{path.name}"
        try:
            inside = (self.folder / name).resolve().is_relative_to(self.folder)
        except (OSError, RuntimeError):
            inside = False
        if inside and path in texts:
            return texts[path]
        raw = read_game_file(self.folder, name, MAX_FILE_BYTES)
        return raw if isinstance(raw, Unreadable) else raw.decode("utf-8", errors="replace")

    def _check_scenarios(self, path: Path, text: str, game: Game | None) -> tuple[list[Diagnostic], str]:
        """The problems of one scenario file's text: its shape, and its names when the game loads."""
        shown = display_path(path)
        parsed = self._parsed.get(path)
        if parsed is None or parsed[0] != text:
            # Read again only when its text changed; its names are checked again whenever the game is.
            data, pos, diags = load_yaml_text(text, shown)
            if any(d.severity == "error" for d in diags):
                parsed = (text, diags, [], [])
            else:
                scenarios, problems = parse(data, pos)
                parsed = (text, diags, problems, scenarios)
            self._parsed[path] = parsed
        _, diags, problems, scenarios = parsed
        if any(d.severity == "error" for d in diags):
            return list(diags), shown
        found = diags + problems
        if game is not None:
            for scenario in scenarios:
                found += check_scenario(game, scenario)
        return found, shown
