"""A seeded mutation fuzz of the shipped games: validate every mutant, then play it, and count what breaks.

A mutant is a copy of one shipped game with one blind change to one of its files: a line deleted,
doubled, moved or re-indented, a character deleted or inserted (a YAML or rules symbol, a tab, a
terminal escape, a line separator), a number made huge or negative, a name swapped for another
name of the game, a word replaced by one YAML reads specially, the file cut short. Unlike
tests/load/test_validate_mutations.py, which makes structured changes and checks where the
diagnostics point, this fuzz checks only that every mutant is answered: by diagnostics that render,
or, when it validates clean, by a trial game (interpreter.play.trial: the bots of simulate,
building every screen) that ends or reports a positioned problem. Never by a traceback, a crash,
or a hang.

Mutants run in worker processes (`run_mutants`), each under a memory limit; a mutant that takes
longer than its time limit has its worker killed and counts as a hang, one whose worker dies
counts as a crash. The same seed always makes the same mutant. Used by
tests/hostile/test_mutation_fuzz.py (a few hundred) and benchmarks/bench_fuzz.py (10,000).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import resource
import shutil
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable

from hostile_helpers import address_space

GAMES = ("downtown", "london", "city")
# What a mutant's worker may take on top of what it holds as it starts (a forked worker starts with
# its parent's address space: a pytest worker that has loaded PyTorch and Ray holds over 1 GiB of
# it, and an absolute limit left its forks nothing, so they failed at random, even with a segfault).
MEMORY_BYTES = 1536 * 1024 * 1024
CAP = 3_000          # decisions of a trial game before it counts as never ending
SCREENS = 300        # decisions of a trial game whose full screen is drawn (as --fuzz draws them)
HOSTILE_CHARS = list(":[]{}-?*&!|>\"'#,% \t\n0\x1b\x07\u2028\u00e9()=+<")
HOSTILE_NUMBERS = ["0", "-1", "-99999", "99999999999", str(2**63), str(10**40), "1" + "0" * 120]
YAML_WORDS = ["yes", "no", "null", "~", "true", "off", ".inf", ".nan", "&a", "*a", "!!str", "<<", "[]", "{}"]


# ------------------------------------------------------------------ making mutants


@cache
def game_files(game: str) -> dict[str, str]:
    """The text files of a shipped game, by name."""
    from interpreter.load.games import games_root

    folder = games_root() / game
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())
            if p.suffix in (".yaml", ".rules")}


@cache
def _words(game: str) -> list[str]:
    return sorted({w for text in game_files(game).values() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)})


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _mutate(rng: random.Random, game: str, text: str) -> tuple[str, str]:
    """One blind change to `text`; returns the new text and what was done."""
    lines = _lines(text)
    row = rng.randrange(len(lines))
    how = rng.choice(["delete line", "double line", "move line", "indent", "delete char", "insert char",
                      "number", "swap name", "yaml word", "cut", "delete word"])
    if how == "delete line":
        del lines[row]
    elif how == "double line":
        lines.insert(row, lines[row])
    elif how == "move line":
        other = min(len(lines) - 1, max(0, row + rng.choice([-3, -1, 1, 3])))
        lines[row], lines[other] = lines[other], lines[row]
    elif how == "indent":
        delta = rng.choice([-4, -2, -1, 1, 2, 4])
        stripped = lines[row].lstrip(" ")
        lines[row] = " " * max(0, len(lines[row]) - len(stripped) + delta) + stripped
    elif how in ("delete char", "insert char"):
        at = rng.randrange(len(text) + 1)
        new = text[:at] + text[at + 1:] if how == "delete char" else text[:at] + rng.choice(HOSTILE_CHARS) + text[at:]
        return new, f"{how} at {at}"
    elif how == "cut":
        at = rng.randrange(len(text) + 1)
        return text[:at], f"cut at {at}"
    else:
        found = list(re.finditer(r"-?\d+" if how == "number" else r"[A-Za-z_][A-Za-z0-9_]*", text))
        if not found:
            return text + "\n" + rng.choice(YAML_WORDS), f"{how}: appended a word"
        match = rng.choice(found)
        replacement = {"number": lambda: rng.choice(HOSTILE_NUMBERS), "swap name": lambda: rng.choice(_words(game)),
                       "yaml word": lambda: rng.choice(YAML_WORDS), "delete word": lambda: ""}[how]()
        return text[:match.start()] + replacement + text[match.end():], f"{how} at {match.start()}"
    return "\n".join(lines), f"{how} at line {row + 1}"


@dataclass(frozen=True)
class Mutant:
    """One mutated copy of a shipped game: the game, the file changed, its new text, the change."""

    seed: int
    game: str
    file: str
    text: str
    change: str


def mutant(seed: int) -> Mutant:
    """The mutant of this seed (one to three changes to one file)."""
    rng = random.Random(seed)
    game = rng.choice(GAMES)
    file = rng.choice(sorted(game_files(game)))
    text = game_files(game)[file]
    changes = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text, change = _mutate(rng, game, text)
        changes.append(change)
    return Mutant(seed, game, file, text, "; ".join(changes))


# ------------------------------------------------------------------ answering a mutant


def check_mutant(m: Mutant, where: Path) -> str:
    """Validate the mutant as `cityrules validate` does, then play it; the kind of answer.

    "errors" (diagnostics, every one rendered), else the first trial game's finding code
    ("runtime", "screen", "no-end") or "clean". Any exception escaping is a traceback: raised.
    """
    from interpreter.core.engine import Engine
    from interpreter.load.loader import check_game, games_root
    from interpreter.play.trial import THOROUGH, Sampling, trial_game
    from ruledsl.diagnostics import render_all

    folder = where / f"mutant-{m.seed}"
    shutil.copytree(games_root() / m.game, folder)
    (folder / m.file).write_text(m.text, encoding="utf-8")
    try:
        game, diags, sources = check_game(folder)
        games = [game] if game is not None else []
        for variant in game.variants if game else ():
            other, more, more_sources = check_game(folder, variant)
            diags += more
            sources.update(more_sources)
            games += [other] if other is not None else []
        for text in render_all(diags, sources):
            text.encode("utf-8")  # what print() needs: no lone surrogate
        if any(d.severity == "error" for d in diags) or not games:
            return "errors"
        rng = random.Random(m.seed)
        chosen = rng.choice(games)
        seats = rng.randint(chosen.min_seats, chosen.max_seats)
        found = trial_game(Engine(chosen), seats, m.seed, CAP, screens=Sampling(THOROUGH.first, THOROUGH.every, SCREENS))
        return "clean" if found is None else found.code
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ------------------------------------------------------------------ many mutants, in worker processes


@dataclass
class Summary:
    """What a fuzz run found: answers by kind, and every mutant that broke something."""

    answers: Counter[str] = field(default_factory=Counter)
    tracebacks: list[tuple[int, str]] = field(default_factory=list)
    hangs: list[int] = field(default_factory=list)
    crashes: list[tuple[int, int | None]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failures(self) -> int:
        """Tracebacks, hangs and crashes together."""
        return len(self.tracebacks) + len(self.hangs) + len(self.crashes)

    def describe(self, limit: int = 5) -> str:
        """The failures, each with the command that shows its mutant."""
        parts = [f"seed {seed}: traceback\n{text}" for seed, text in self.tracebacks[:limit]]
        parts += [f"seed {seed}: no answer in time (a hang)" for seed in self.hangs[:limit]]
        parts += [f"seed {seed}: the worker died (exit {code})" for seed, code in self.crashes[:limit]]
        return "\n".join(parts) + ("\n(see a mutant with: python benchmarks/bench_fuzz.py --show SEED)" if parts else "")


def _worker(conn: Connection, memory: int, cache_dir: str) -> None:
    limit = (address_space() or 0) + memory
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ["CITYRULES_CACHE_DIR"] = cache_dir
    os.environ.pop("CITYRULES_NO_CACHE", None)
    with tempfile.TemporaryDirectory(prefix="cityrules-fuzz-") as where:
        while True:
            seed = conn.recv()
            if seed is None:
                return
            try:
                conn.send(("ok", check_mutant(mutant(seed), Path(where))))
            except BaseException:  # a traceback is the finding: send it, and carry on
                conn.send(("traceback", traceback.format_exc(limit=-8)))


class _Worker:
    def __init__(self, context: Any, memory: int, cache_dir: str):
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_worker, args=(theirs, memory, cache_dir), daemon=True)
        self.process.start()
        theirs.close()
        self.seed: int | None = None
        self.started = 0.0

    def stop(self, politely: bool = False) -> None:
        """End the worker: asked to finish (it then removes its temporary folder), or killed."""
        if politely and self.process.is_alive():
            try:
                self.conn.send(None)
                self.process.join(timeout=10)
            except OSError:
                pass
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def run_mutants(seeds: list[int], workers: int = 2, timeout: float = 60.0, memory: int = MEMORY_BYTES,
                progress: Callable[[int, Summary], None] | None = None) -> Summary:
    """Check every mutant of `seeds` in `workers` processes, each mutant within `timeout` seconds."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    summary = Summary()
    todo = list(reversed(seeds))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cityrules-fuzz-cache-") as cache_dir:
        pool = [_Worker(context, memory, cache_dir) for _ in range(max(1, min(workers, len(seeds))))]
        try:
            while True:
                for i, w in enumerate(pool):
                    if w.seed is None and todo:
                        w.seed, w.started = todo.pop(), time.perf_counter()
                        w.conn.send(w.seed)
                busy = [w for w in pool if w.seed is not None]
                if not busy:
                    break
                for w in multiprocessing.connection.wait([w.conn for w in busy], timeout=1.0):
                    worker = next(x for x in busy if x.conn is w)
                    _collect(worker, summary, pool, context, memory, cache_dir)
                for i, w in enumerate(pool):
                    if w.seed is not None and time.perf_counter() - w.started > timeout:
                        summary.hangs.append(w.seed)
                        w.stop()
                        pool[i] = _Worker(context, memory, cache_dir)
                if progress is not None:
                    progress(len(seeds) - len(todo), summary)
        finally:
            for w in pool:
                w.stop(politely=w.seed is None)
    summary.seconds = time.perf_counter() - started
    return summary


def _collect(worker: _Worker, summary: Summary, pool: list[_Worker], context: Any, memory: int,
             cache_dir: str) -> None:
    seed = worker.seed
    assert seed is not None
    try:
        kind, detail = worker.conn.recv()
    except (EOFError, OSError):
        worker.process.join()
        summary.crashes.append((seed, worker.process.exitcode))
        pool[pool.index(worker)] = _Worker(context, memory, cache_dir)
        return
    worker.seed = None
    if kind == "traceback":
        summary.tracebacks.append((seed, detail))
    else:
        summary.answers[detail] += 1
