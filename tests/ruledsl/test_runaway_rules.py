"""Runaway rules end with a rule error at their place, never a hang, an OverflowError or a MemoryError.

Each hostile game runs in a child process with a memory limit and a CPU-time limit (and a timeout
as well), both as people play it (`new_game` / `apply`, the rules pausing at every decision) and
as bots do (`play_bots`, the rules running straight through, the event log off). Both must stop
with the same positioned rule error. The limits themselves are described in docs/language.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from lang_helpers import write_game
from ruledsl.runtime_support import LIST_LIMIT, TEXT_LIMIT

ROOT = Path(__file__).resolve().parents[2]
MEMORY = 1 << 30          # bytes the child may use
CPU_SECONDS = 60          # CPU time the child may use
TIMEOUT = 120             # wall time before the test calls it a hang

_CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))
from interpreter.analysis.simulate import play_bots
from interpreter.core.engine import Engine
from interpreter.core.errors import RuleError
from interpreter.load.loader import load_game

engine = Engine(load_game(sys.argv[1]))

def outcome(run):
    try:
        run()
    except RuleError as err:
        span = err.span
        return {{"error": err.message, "where": [span.line, span.column] if span else None}}
    except BaseException as err:  # reported to the parent, which fails the test
        return {{"crash": type(err).__name__ + ": " + str(err)[:300]}}
    return {{"finished": True}}

def people():
    state = engine.new_game(1, seed=1)
    while state["result"] is None:
        engine.apply_inplace(state, engine.option_id(state, 0, 0), 0)

print(json.dumps({{"people": outcome(people), "bots": outcome(lambda: play_bots(engine, 1, 1, log=False))}}))
"""

# The first decision makes the start phase one that waits: both compiled forms of it are run.
ASK = "    choose go from [1, 2] by seats[0]\n"


def main(body: str) -> str:
    """`phase main:` with a first decision, then the body (written at any indentation)."""
    return "phase main:\n" + ASK + textwrap.indent(textwrap.dedent(body), "    ")


def run_hostile(folder: Path) -> dict[str, dict[str, object]]:
    """Play the game in a limited child process; how each way of playing it ended."""
    script = _CHILD.format(memory=MEMORY, cpu=CPU_SECONDS)
    done = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def stopped_at(folder: Path, rules: str, line: int | tuple[int, ...], words: str, **fields: Any) -> None:
    """The game stops with a rule error at `line` (one of them) saying `words`, whoever plays it."""
    write_game(folder, rules, seats=(1, 1), **fields)
    lines = line if isinstance(line, tuple) else (line,)
    found = run_hostile(folder)
    for way, result in found.items():
        assert "error" in result, (way, result)
        assert isinstance(result["where"], list) and result["where"][0] in lines, (way, result)
        assert words in str(result["error"]), (way, result)
        assert "Overflow" not in str(result["error"]) and "Memory" not in str(result["error"])
    assert found["people"] == found["bots"]


def test_a_number_squared_without_end(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let n = 2
        while true:
            n = n * n
        end winners seats
    """), 5, "limit of 10^18")


def test_a_negated_number_squared_without_end(tmp_path: Path) -> None:
    """A minus in front of the product hides nothing from the limit."""
    stopped_at(tmp_path, main("""\
        let n = 2
        while true:
            n = -(n * n)
        end winners seats
    """), 5, "limit of 10^18")


def test_a_number_doubled_without_end(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let n = 1
        while n > 0:
            n = n + n
        end winners seats
    """), 5, "limit of 10^18")


def test_a_huge_number_written_in_the_rules(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let n = 100000000000000000000
        end winners seats
    """), 3, "limit of 10^18")


def test_nested_comprehensions_of_a_hundred_thousand_squared(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let big = range(100000)
        let pairs = [len([a for a in big if a > b]) for b in big]
        end winners seats
    """), 4, "steps")


def test_unique_over_a_huge_list_again_and_again(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let big = range(100000)
        let total = 0
        while true:
            total = len(unique(big))
        end winners seats
    """), 5, "steps")


def test_a_shuffle_of_a_hundred_thousand_at_every_pass(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let deck = range(100000)
        while true:
            shuffle deck
        end winners seats
    """), 4, "steps")


def test_a_hundred_thousand_log_lines_in_one_decision(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        for i in range(100000):
            log line(i=i) "line {i} of a flood"
        end winners seats
    """), 3, "steps")


def test_a_list_doubled_without_end(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let x = [1]
        while true:
            x = x + x
        end winners seats
    """), 5, f"limit of {LIST_LIMIT:,}")


def test_a_text_doubled_without_end(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let x = "ab"
        while true:
            x = x + x
        end winners seats
    """), 5, f"limit of {TEXT_LIMIT:,}")


def test_copies_of_a_big_list_piling_up(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        let big = range(100000)
        let pile = []
        while true:
            add big to pile
        end winners seats
    """), 5, "steps")


def test_a_list_kept_across_decisions_grows_only_to_its_limit(tmp_path: Path) -> None:
    stopped_at(tmp_path, """\
        phase main:
            while true:
                choose go from [1, 2] by seats[0]
                for i in range(1000):
                    add i to heap
            end winners seats
        """, 5, f"at most {LIST_LIMIT:,}", global_={"heap": ("list[int]", [])})


def test_phases_that_run_themselves_twice_over(tmp_path: Path) -> None:
    stopped_at(tmp_path, main("""\
        run grow(0)
        end winners seats
        """) + textwrap.dedent("""\

        phase grow(n: int):
            if n < 60:
                run grow(n + 1)
                run grow(n + 1)
        """), (6, 7, 8, 9), "steps")


def test_formulas_that_call_each_other_twice_over(tmp_path: Path) -> None:
    formulas = "formula f0(n: int) = n + 1\n" + "".join(
        f"formula f{k}(n: int) = f{k - 1}(n) + f{k - 1}(n)\n" for k in range(1, 41))
    stopped_at(tmp_path, formulas + "\n" + main("""\
        let x = f40(1)
        end winners seats
        """), 45, "steps")
