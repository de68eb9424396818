"""Running cityrules on hostile input as an attacker would: in a child process with a time limit and a
memory limit, watching every file it opens.

`run_cli` starts `cityrules ARGS...` in a fresh Python with an audit hook that records every file
opened (for reading or writing) and every file-system change, a cap on its address space
(RLIMIT_AS) and on its CPU time, and a wall-clock timeout. A segfault, a hang or a blow-up of
memory then ends that child only, and shows as what it is. `assert_answered` holds the outcome to
what the project promises: a positioned diagnostic or a one-line error, never a traceback, a
signal, a hang, a raw terminal control character, or a file touched outside the places allowed.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
MEMORY_BYTES = 1536 * 1024 * 1024
TIMEOUT_SECONDS = 60.0

# Runs in the child: records what it opens and changes, then runs the command line it was given.
_CHILD = r"""
import json, os, sys
log_fd = int(os.environ.pop("HOSTILE_LOG_FD"))
touched = []
WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        mode, flags = args[1], args[2] or 0
        write = bool(flags & WRITES) or (isinstance(mode, str) and any(c in mode for c in "wax+"))
        touched.append(("write" if write else "read", os.fsdecode(args[0])))
    elif event in ("os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.symlink", "os.link", "os.chmod",
                   "os.truncate", "os.utime", "os.chown"):
        for a in args[:2]:
            if isinstance(a, (str, bytes)):
                touched.append(("write", os.fsdecode(a)))
def report():
    os.write(log_fd, json.dumps(touched).encode())
import atexit
atexit.register(report)
sys.addaudithook(hook)
from interpreter.cli import main
sys.exit(main(sys.argv[1:]))
"""


@dataclass
class Outcome:
    """What a child run did."""

    args: list[str]
    cwd: Path
    returncode: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    touched: list[tuple[str, str]] = field(default_factory=list)  # ("read" | "write", path)


def _limits(memory: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(TIMEOUT_SECONDS) + 5
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_cli(args: list[str], cwd: Path, cache: Path | None = None, timeout: float = TIMEOUT_SECONDS,
            memory: int = MEMORY_BYTES, stdin: str = "") -> Outcome:
    """`cityrules ARGS` in a child process under the limits; the cache goes to `cache` (else off)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITYRULES_", "PYTEST_"))}
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONIOENCODING"] = "utf-8"
    if cache is None:
        env["CITYRULES_NO_CACHE"] = "1"
    else:
        env["CITYRULES_CACHE_DIR"] = str(cache)
    with tempfile.TemporaryFile() as log:
        env["HOSTILE_LOG_FD"] = str(log.fileno())
        try:
            done = subprocess.run([sys.executable, "-c", _CHILD, *args], cwd=cwd, env=env, input=stdin,
                                  capture_output=True, text=True, encoding="utf-8", errors="backslashreplace",
                                  timeout=timeout, preexec_fn=lambda: _limits(memory), pass_fds=(log.fileno(),))
            code: int | None = done.returncode
            out, err = done.stdout, done.stderr
        except subprocess.TimeoutExpired as expired:
            code = None
            out = _text(expired.stdout)
            err = _text(expired.stderr)
        log.seek(0)
        raw = log.read()
    touched = [(kind, path) for kind, path in json.loads(raw)] if raw else []
    return Outcome(args, cwd, code, out, err, touched)


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", "backslashreplace")


# Names the cache uses inside its folder: entries, parser tables, their temporary files, the tree folder.
_CACHE_ENTRY = re.compile(r"\.?(?:[0-9a-f]{64}(?:(?:\.trials)?\.json)?|lark-[0-9a-f]+\.json"
                          r"|(?:ast|checked|schema-valid)-[0-9a-f]+)(?:\.[0-9a-f]+\.tmp)?")
_POSITIONED = re.compile(r"^\S.*:\d+:\d+: (error|warning)\[[a-z-]+\]: ", re.MULTILINE)
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def allowed_reads(folder: Path, cache: Path | None) -> list[Path]:
    """Where a cityrules run may read: the game, the project's own code and Python's, its cache."""
    roots = [folder.resolve(), ROOT, Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(),
             Path(sys.exec_prefix).resolve(), Path(os.devnull)]
    roots += [Path(p).resolve() for p in sys.path if p and Path(p).is_dir()]
    if cache is not None:
        roots.append(cache.resolve())
    return roots


def assert_answered(outcome: Outcome, folder: Path, cache: Path | None = None, codes: set[int] | None = None,
                    writes: list[Path] | None = None) -> None:
    """The run ended by itself, with a positioned diagnostic or a one-line error, and touched nothing
    it should not have: reads inside the game, the project, Python and the cache; writes only in the
    cache (and `writes`)."""
    shown = f"cityrules {' '.join(outcome.args)}\n--- stdout\n{outcome.stdout[-3000:]}\n--- stderr\n{outcome.stderr[-3000:]}"
    assert outcome.returncode is not None, f"no answer within the time limit: a hang\n{shown}"
    assert outcome.returncode >= 0, f"killed by signal {-outcome.returncode}\n{shown}"
    assert outcome.returncode in (codes or {0, 1, 2}), f"exit status {outcome.returncode}\n{shown}"
    for stream in (outcome.stdout, outcome.stderr):
        assert "Traceback (most recent call last)" not in stream, shown
        assert "MemoryError" not in stream and "RecursionError" not in stream, shown
        assert _RAW_CONTROL.search(stream) is None, f"a raw control character reached the terminal\n{shown!r}"
    if outcome.returncode == 1 and "--format" not in outcome.args:
        assert _POSITIONED.search(outcome.stdout) or outcome.stderr.strip(), shown
    if outcome.returncode == 2:
        lines = [line for line in outcome.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, f"a usage error is one line\n{shown}"
    reads = allowed_reads(folder, cache)
    may_write = ([cache.resolve()] if cache is not None else []) + [p.resolve() for p in writes or []]
    made = [p for p in (cache.resolve().parents if cache is not None else ()) if p.is_dir()]
    for kind, path in outcome.touched:
        if cache is not None and _CACHE_ENTRY.fullmatch(path):
            continue  # a name inside the cache folder, reached through its handle (ruledsl.user_cache)
        full = Path(os.path.abspath(os.path.join(outcome.cwd, path)))
        if kind == "write":
            assert _inside(full, may_write) or full in made, f"wrote {full}\n{shown}"
        elif os.path.lexists(full):  # opening what does not exist reads nothing (Python's import probes)
            assert _inside(full, reads), f"read {full}, outside the game folder\n{shown}"


IN_PROCESS_MEMORY = 1024 * 1024 * 1024
"""How much more address space an in-process check may take than the test process already has."""


def address_space() -> int | None:
    """This process's virtual memory size in bytes (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def limited(seconds: float = TIMEOUT_SECONDS, memory: int = IN_PROCESS_MEMORY) -> Iterator[None]:
    """Run a block of the test process under a deadline and a cap on new memory.

    The deadline (SIGALRM) fails the test as a hang; pytest.fail raises a BaseException, so no
    `except Exception` in the code under test hides it. The memory cap lowers the soft
    RLIMIT_AS to what the process has plus `memory`, so that a blow-up is a MemoryError in the
    test, not a machine brought to its knees; both are restored afterwards.
    """
    import pytest

    def expired(signum: int, frame: FrameType | None) -> None:
        pytest.fail(f"no answer within {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = address_space()
    if used is not None:
        cap = used + memory
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
