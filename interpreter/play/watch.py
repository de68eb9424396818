"""`cityrules play GAME --watch`: a game that goes on across edits of its rules and data.

Between prompts (and while a prompt waits for its answer) the files of the game folder are polled
for changes. On a change the folder is checked like `validate` checks it: with errors, the
diagnostics are printed and the old rules kept, and they are printed again under every screen,
just above its prompt, until the files are fixed (a full redraw would scroll them away at once); clean, the journal is replayed onto the new rules
(`core/replay_check.py`) and the game continues from the same point. Where a recorded choice is no
longer legal the replay stops there, the report says which choice and why, and the session offers
to continue from that point under the new rules, in a new file: a saved game is never overwritten.
`play --resume` makes the same offer for a journal made with older rules.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

from ruledsl.diagnostics import render_all
from ruledsl.printable import printable

from ..core.engine import Engine
from ..core.errors import RuleError
from ..core.journal import Journal
from ..core.replay_check import ReplayReport, may_be_private, replay_checked
from ..core.savefile import SaveExists
from ..load.loader import check_game
from .session import Reload, Seat, Session

# How often a waiting prompt looks at the files (seconds).
POLL = 0.3
# A change counts once the files stay the same this long (seconds), waiting at most SETTLE_AT_MOST
# for a folder that keeps changing (an editor saving many files, a checkout).
SETTLE = 0.05
SETTLE_AT_MOST = 2.0
# Folders of a game that hold no rules or data: its scenarios (`cityrules test`) and caches.
IGNORED = ("tests", "__pycache__")


class FolderWatch:
    """The files of a game folder, by modification time and size: `changed()` says when they differ."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.seen = self.snapshot()

    def snapshot(self) -> dict[str, tuple[int, int]]:
        """Every rule or data file under the folder (hidden files and IGNORED folders left out)."""
        found: dict[str, tuple[int, int]] = {}
        for root, dirs, files in os.walk(self.folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in IGNORED)
            for name in files:
                if name.startswith(".") or name.endswith("~"):
                    continue
                path = os.path.join(root, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue  # removed while we looked: seen as removed
                found[path] = (st.st_mtime_ns, st.st_size)
        return found

    def changed(self) -> bool:
        """Did any file change, appear or go since the last call? A change is reported once the files
        have stayed the same for SETTLE seconds: a file being saved is first emptied, then written,
        and the half-saved folder would be checked (and its errors shown) before the whole one."""
        now = self.snapshot()
        if now == self.seen:
            return False
        deadline = time.monotonic() + SETTLE_AT_MOST
        while time.monotonic() < deadline:
            time.sleep(SETTLE)
            again = self.snapshot()
            if again == now:
                break
            now = again
        self.seen = now
        return True


def watched_input(watch: FolderWatch, fileno: int | None = None, write: Callable[[str], None] | None = None,
                  poll: float = POLL) -> Callable[[str], str]:
    """An `input` that raises Reload when the game's files change, before or while it waits.

    It waits with select on the input's file descriptor (a terminal or a pipe) and reads lines
    itself; where there is none to wait on, it checks the files only before each prompt.
    """
    buffered = bytearray()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def read(prompt: str) -> str:
        if watch.changed():
            raise Reload()
        fd = fileno
        if fd is None:
            try:
                fd = sys.stdin.fileno()
            except (AttributeError, OSError, ValueError):
                return input(prompt)
        (write or _write)(prompt)
        while b"\n" not in buffered:
            ready, _, _ = select.select([fd], [], [], poll)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    if buffered:
                        break
                    raise EOFError()
                buffered.extend(chunk)
            elif watch.changed():
                (write or _write)("\n")
                raise Reload()
        line, _, rest = bytes(buffered).partition(b"\n")
        buffered[:] = rest
        return decoder.decode(line).rstrip("\r")
    return read


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def shown_seats(engine: Engine, kinds: Sequence[str], report: ReplayReport) -> bool | list[int]:
    """Whose options a report may list at this terminal: everyone's when nothing in the game is
    private, else only those of a seat that is the one human here (a bot's options may show its hand)."""
    if not may_be_private(engine.game):
        return True
    humans = [i for i, k in enumerate(kinds) if k == "human"]
    return humans if len(humans) == 1 else []


def continue_from(report: ReplayReport, journal: Journal, path: Path, ask: Callable[[str], str],
                  say: Callable[[str], None]) -> tuple[Journal, Path] | None:
    """Offer to go on from the last legal point; yes: the new journal, saved in a new file beside `path`."""
    assert report.stop is not None
    try:
        answer = ask(f"Continue from choice {report.played} with the rules as they are now, in a new file? [y/N] ")
    except (EOFError, KeyboardInterrupt):
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        return None
    kept = Journal(journal.game, journal.seats, journal.seed, list(journal.names), list(journal.agents),
                   list(journal.choices[:report.played]), None, journal.variant)
    new_path = fork_file(path, report.played, kept)
    say(f"Continuing in {new_path}, from choice {report.played}; {path} is kept as it was.")
    return kept, new_path


def fork_file(path: Path, played: int, journal: Journal) -> Path:
    """Save `journal` in a new file named after `path` and the point it continues from; never replaces one."""
    stem = path.stem.split("-from-")[0]
    for k in range(1, 1000):
        candidate = path.with_name(f"{stem}-from-{played}{'' if k == 1 else f'-{k}'}.json")
        if candidate.exists():
            continue
        try:
            journal.save(candidate, new=True)
        except SaveExists:
            continue
        return candidate
    raise SaveExists(f"{path.parent}: no free name for a continued game")


class Watched:
    """A session that follows the game folder: reloads, replays, and carries on (see the module doc)."""

    def __init__(self, engine: Engine, journal: Journal, seats: list[Seat], path: Path, folder: Path, cap: int,
                 read: Callable[[str], str] = input, say: Callable[[str], None] = print):
        self.engine, self.journal, self.seats, self.path = engine, journal, seats, path
        self.folder, self.cap = folder, cap
        self.plain_read = read
        self.write = say
        self.watch = FolderWatch(folder)
        self.problems: list[str] = []   # why the last edit was not taken: shown above each prompt until fixed

    def say(self, text: str) -> None:
        """Print text that may hold rule-file or journal content: control characters escaped."""
        self.write(printable(text, newlines=True))

    def run(self) -> None:
        """Play until the game ends or a human quits, reloading the rules whenever they change."""
        read = self.reading(watched_input(self.watch))
        self.say(f"Watching {self.folder}: edits of its rules and data apply to this game as you save them.")
        while True:
            session = Session(self.engine, self.journal, self.seats, self.path, read=read, cap=self.cap)
            try:
                session.run()
                return
            except Reload:
                self.reload()

    def reading(self, read: Callable[[str], str]) -> Callable[[str], str]:
        """`read`, with the problems of the last edit shown again just above each prompt."""
        def prompted(prompt: str) -> str:
            if self.problems:
                self.say("\n".join(["", "Still in the game's files (the game goes on with the rules as they were; "
                                     "this stays until they are fixed):", *self.problems]))
            return read(prompt)
        return prompted

    def refused(self, headline: str, details: list[str]) -> None:
        """An edit not taken: say why now, and keep saying it above each prompt until the files are fixed."""
        self.say(headline)
        for text in details:
            self.say(text)
        self.problems = details or [headline.strip()]

    def reload(self) -> None:
        """The files changed: take the new rules if they are clean and the journal still replays."""
        game, diags, sources = check_game(self.folder, self.journal.variant)
        if game is None:
            self.refused("\nThe game's files changed, but they have errors: the game goes on with the rules as they were.",
                         list(render_all([d for d in diags if d.severity == "error"], sources)))
            return
        engine = Engine(game)
        try:
            report = replay_checked(engine, self.journal.seats, self.journal.seed, self.journal.names,
                                    self.journal.choices)
        except RuleError as err:
            self.refused(f"\nThe new rules fail before the first choice, so the game goes on with the rules as they "
                         f"were:\n{err.report()}", [])
            return
        except ValueError as err:  # the game is no longer for this many seats
            self.refused(f"\nThe new rules cannot seat this game ({err}), so it goes on with the rules as they were.",
                         [])
            return
        if self.problems:
            self.problems = []
            self.say("\nThe game's files are free of errors again.")
        if report.stop is None:
            self.engine = engine
            self.say(f"\nThe rules changed: {report.played} choice(s) replayed onto them; the game goes on.")
            return
        kinds = [s.kind for s in self.seats]
        self.say("\nThe rules changed. " + report.stop.describe(self.journal.names,
                                                                shown_seats(engine, kinds, report)))
        fork = continue_from(report, self.journal, self.path, self.plain_read, self.say)
        if fork is None:
            self.say("The game goes on with the rules as they were; save the files again to try other rules.")
            return
        self.engine = engine
        self.journal, self.path = fork


def check_resume(engine: Engine, journal: Journal, kinds: Sequence[str], path: Path,
                 read: Callable[[str], str] = input, say: Callable[[str], None] = print) -> tuple[Journal, Path] | None:
    """`play --resume` of a journal the rules may no longer accept: the journal and file to go on with.

    Unchanged when every recorded choice still replays; else the report is shown and the player may
    continue from the last legal point in a new file (None: they did not, nothing was written).
    """
    report = replay_checked(engine, journal.seats, journal.seed, journal.names, journal.choices)
    if report.stop is None:
        return journal, path
    say(printable(f"{path} was recorded with other rules. "
                  + report.stop.describe(journal.names, shown_seats(engine, kinds, report)), newlines=True))
    return continue_from(report, journal, path, read, lambda text: say(printable(text, newlines=True)))
