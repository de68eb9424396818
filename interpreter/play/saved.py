"""Saved sessions: naming a new one without touching another's, and finding them again, newest first."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..core.journal import Journal
from ..core.savefile import SaveError, SaveExists


@dataclass(frozen=True)
class Saved:
    """One journal in the sessions folder; `journal` is None when it cannot be read (`problem` says why)."""

    path: Path
    modified: float
    journal: Journal | None
    problem: str = ""

    def describe(self) -> str:
        """One line for the list: when, which game, who, how far."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        j = self.journal
        if j is None:
            return f"{when}  {self.path}  (unreadable: {self.problem})"
        state = "finished" if j.result is not None else f"{len(j.choices)} choices made"
        return f"{when}  {self.path}  {Path(j.game).name}, {', '.join(j.names)}: {state}"


def saved_sessions(folder: Path) -> list[Saved]:
    """Every journal in `folder`, newest first."""
    found = []
    try:
        files = [p for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return []
    for path in files:
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        try:
            found.append(Saved(path, modified, Journal.load(path)))
        except ValueError as err:
            found.append(Saved(path, modified, None, str(err).split(": ")[-1]))
    return sorted(found, key=lambda s: (-s.modified, str(s.path)))


def latest_unfinished(folder: Path) -> Saved | None:
    """The most recently saved session that has not ended."""
    for saved in saved_sessions(folder):
        if saved.journal is not None and saved.journal.result is None:
            return saved
    return None


def new_session_file(folder: Path, game: str, journal: Journal) -> Path:
    """Save `journal` under a fresh name `GAME-DATE-TIME.json` in `folder`; never replaces a file.

    The name holds no seed: a seed drawn for the players is a secret until the game is over.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(1, 1000):
        path = folder / (f"{game}-{stamp}.json" if k == 1 else f"{game}-{stamp}-{k}.json")
        if path.exists():
            continue
        try:
            journal.save(path, new=True)
        except SaveExists:
            continue  # another session took the name a moment ago
        return path
    raise SaveError(f"{folder}: too many sessions started this second")


def journal_answer(journal: Journal, held: list[tuple[int, str]], seat: int, option: str, hold: bool) -> bool:
    """Journal one answer, or hold it back while others still choose in secret (`hold`): a file a
    player can read must not show a secret answer before the reveal. Held answers go in, in order,
    with the next answer journaled. True when the journal grew."""
    if hold:
        held.append((seat, option))
        return False
    journal.choices.extend(held)
    journal.choices.append((seat, option))
    held.clear()
    return True
