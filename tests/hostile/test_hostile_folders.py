"""Hostile game folders, each validated in a child process under a time and a memory limit.

Every case is a folder an attacker (or an unlucky designer) could hand over: YAML that kills
libyaml's recursive composer or expands without end, links that lead out of the folder, files that
are pipes, numbers and types that break Python's own limits, texts with terminal escapes, lone
surrogates and odd line breaks, tens of thousands of errors, games that never end or whose prompt
cannot be written. For each, `cityrules validate` must answer with a positioned diagnostic (the
code and file given here) or a one-line error: never a traceback, a signal, a hang, a raw control
character on the terminal, or a file read or written outside the game folder (see
`hostile_helpers.assert_answered`). In-process cases of the same kind are in test_hostile_files.py.

Left to the run-time work budget (issue 11, the `speed` part): rules that loop on big numbers
(`n = n * n`), nested comprehensions of 10^5 x 10^5, a 100k shuffle or 100k log lines per pass,
and `x = x + x`; the cases here that loop (`while true`, phases running each other) are those the
step budget already stops.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hostile_helpers import ROOT, Outcome, assert_answered, run_cli
from lang_helpers import write_game

END = "    end winners seats\n"
SECRET = "TOP-SECRET-LINE-4417"
GAME_YAML = "name: tiny\ntitle: Tiny\nseats: {min: 1, max: 2}\nrules: [x.rules]\nstart: main\nstate: {}\n"
ITEMS_YAML = ("name: tiny\ntitle: Tiny\nseats: {min: 1, max: 2}\nrules: [x.rules]\nstart: main\n"
              "components:\n  card: {file: cards.yaml, collection: deck}\nstate: {}\n")


@dataclass(frozen=True)
class Case:
    """A hostile folder: how to make it, and the diagnostic validate must give (code, file name)."""

    make: Callable[[Path, Path], None]  # (game folder, a folder outside it)
    expect: tuple[str, str] | None      # None: validate must pass
    status: int = 1


CASES: dict[str, Case] = {}


def case(name: str, expect: tuple[str, str] | None, status: int = 1) -> Callable[[Callable[[Path, Path], None]],
                                                                                Callable[[Path, Path], None]]:
    def register(make: Callable[[Path, Path], None]) -> Callable[[Path, Path], None]:
        CASES[name] = Case(make, expect, status if expect is not None else 0)
        return make
    return register


def tiny(folder: Path, rules: str = "phase main:\n" + END, game: str = GAME_YAML) -> None:
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "x.rules").write_text(rules, encoding="utf-8")


def with_table(folder: Path, text: str) -> None:
    tiny(folder, game=GAME_YAML + "tables:\n" + text)


# ------------------------------------------------------------------ YAML that kills or swells


@case("dashes 40000 deep on one line", ("yaml-too-deep", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, "  t:\n    " + "- " * 40_000 + "1\n")


@case("question marks 40000 deep", ("yaml-too-deep", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML + "? " * 40_000 + "x\n")


@case("question marks and dashes 20000 deep", ("yaml-too-deep", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML + "? - " * 20_000 + "x\n")


@case("a file of nothing but dashes", ("yaml-too-deep", "board.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML + "board: board.yaml\n")
    (folder / "board.yaml").write_text("- " * 100_000 + "1\n", encoding="utf-8")


@case("brackets 100000 deep", ("yaml-too-deep", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, "  t: " + "[" * 100_000 + "]" * 100_000 + "\n")


@case("merge keys 9 levels of 9", ("yaml-too-large", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    lines = ["  a0: &a0 {" + ", ".join(f"k{i}: 1" for i in range(9)) + "}\n"]
    lines += [f"  a{n}: &a{n} {{<<: [" + ", ".join([f"*a{n - 1}"] * 9) + "]}\n" for n in range(1, 10)]
    with_table(folder, "".join(lines))


@case("aliases 9 levels of 9", ("yaml-too-large", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    lines = ["  a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]\n"]
    lines += [f"  a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]\n" for n in range(1, 10)]
    with_table(folder, "".join(lines))


@case("a key of 1 MiB", ("yaml-syntax", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, "  " + "k" * (1024 * 1024 - 400) + ": 1\n")


@case("a game.yaml over 1 MiB", ("file-too-large", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML + ("# padding\n" * 110_000))


@case("a 10001-digit number in YAML", ("yaml-bad-value", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, "  t: 1" + "0" * 10_000 + "\n")


@case("a 400000-character sexagesimal number", ("yaml-bad-value", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, "  t: 1" + ":1" * 200_000 + "\n")


@case("a lone surrogate in a key", ("yaml-bad-value", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, '  "a\\ud800b": 1\n')


@case("a lone surrogate in the title", ("yaml-bad-value", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML.replace("title: Tiny", 'title: "T\\udc00"'))


@case("10000 duplicate keys", ("duplicate-key", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, "  t:\n" + "    a: 1\n" * 10_000)


@case("a recursive merge", ("yaml-recursive-alias", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    with_table(folder, "  m: &m {a: 1, <<: *m}\n")


@case("escapes in the title and a key", ("schema", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML.replace("title: Tiny", 'title: "\\e]0;owned\\a\\e[2J\\x9b"')
         + 'tables:\n  "\\e[31mred\\a": 1\n')


@case("CR-only line ends in game.yaml", None)
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML.replace("\n", "\r"))


# ------------------------------------------------------------------ names and values that break Python's limits


@case("non-text key in state", ("schema", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML.replace("state: {}", "state: {7: {}}"))


@case("'no' as a part of state", ("schema", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML.replace("state: {}", "state:\n  no: {}"))


@case("'no' as a global field", ("schema", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML.replace("state: {}", "state:\n  global:\n    no: {type: int, initial: 1}"))


@case("a number as an item's attribute", ("schema", "cards.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=ITEMS_YAML)
    (folder / "cards.yaml").write_text("items:\n  - {id: a, 7: 3, name: x}\n", encoding="utf-8")


@case("'no' as an item's attribute", ("schema", "cards.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=ITEMS_YAML)
    (folder / "cards.yaml").write_text("items:\n  - {id: a, no: 3, name: x}\n", encoding="utf-8")


@case("a type nested 5000 deep", ("type", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    deep = "list[" * 5000 + "int" + "]" * 5000
    tiny(folder, game=GAME_YAML.replace("state: {}", f"state:\n  global:\n    d: {{type: \"{deep}\", initial: []}}"))


@case("board cells negative and a million wide", ("schema", "board.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML + "board: board.yaml\n")
    (folder / "board.yaml").write_text("nodes:\n  - {id: 1, cells: [[-1, 0]]}\n  - {id: 2, cells: [[1000000, 1000000]]}\n"
                                       "edges: [[1, 2]]\n", encoding="utf-8")


# ------------------------------------------------------------------ rules text


@case("a 10001-digit literal", ("syntax", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    let x = 1" + "0" * 10_000 + "\n    log \"{x}\"\n" + END)


@case("a 121-digit number inside a text's braces", ("syntax", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    log \"{" + "1" * 121 + "}\"\n" + END)


@case("5000 elifs", ("too-deep", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    elifs = "".join(f"    elif x == {i}:\n        pass\n" for i in range(1, 5001))
    tiny(folder, "phase main:\n    let x = 1\n    if x == 0:\n        pass\n" + elifs + END)


@case("U+2028 inside a text", ("syntax", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    log \"a\u2028b\"\n" + END)


@case("CR-only line ends in the rules", ("syntax", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, ("phase main:\n    log \"x\"\n" + END).replace("\n", "\r"))


@case("terminal escapes in the rules", ("syntax", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    log \"\x1b]0;owned\x07\x1b[2J\"\n    let y = \x1b[31m\n" + END)


@case("20000 errors", ("unknown-name", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n" + "    log \"{nothing}\"\n" * 20_000 + END)


@case("a NUL byte", ("syntax", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    let x = 1\x00\n" + END)


# ------------------------------------------------------------------ games that run badly


@case("an endless loop", ("runtime", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    while true:\n        pass\n" + END)


@case("phases running each other forever", ("runtime", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    run ping\n" + END + "\nphase ping:\n    run pong\n\nphase pong:\n    run ping\n")


@case("a prompt that cannot be written", ("screen", "x.rules"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, "phase main:\n    let names = [\"a\"]\n    for i in range(3):\n"
                 "        choose x from [1, 2] by seats[0] \"{names[i]}?\"\n        log \"{x}\"\n" + END)


@case("Downtown without 'run place(lot, winner)'", ("no-end", "buying.rules"))
def _(folder: Path, outside: Path) -> None:
    shutil.rmtree(folder)
    shutil.copytree(ROOT / "games" / "downtown", folder)
    rules = (folder / "round.rules").read_text(encoding="utf-8")
    assert "    run place(lot, winner)\n" in rules
    (folder / "round.rules").write_text(rules.replace("    run place(lot, winner)\n", ""), encoding="utf-8")


# ------------------------------------------------------------------ files outside the folder


def secret_outside(outside: Path, name: str = "secret.txt") -> Path:
    target = outside / name
    target.write_text(f"{SECRET}\nphase main:\n    log \"{SECRET}\"\n" + END, encoding="utf-8")
    return target


@case("a rules file linked outside", ("file-outside", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").unlink()
    (folder / "x.rules").symlink_to(secret_outside(outside))


@case("a rules file linked to /etc/shadow", ("file-outside", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").unlink()
    (folder / "x.rules").symlink_to("/etc/shadow")


@case("a component file linked to /proc/self/status", ("file-outside", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=ITEMS_YAML)
    (folder / "cards.yaml").symlink_to("/proc/self/status")


@case("a board linked to /dev/zero", ("file-outside", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder, game=GAME_YAML + "board: board.yaml\n")
    (folder / "board.yaml").symlink_to("/dev/zero")


@case("game.yaml linked outside", ("file-outside", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    target = outside / "game.yaml"
    target.write_text(GAME_YAML + f"# {SECRET}\n", encoding="utf-8")
    (folder / "game.yaml").unlink()
    (folder / "game.yaml").symlink_to(target)


@case("a link to a link that leads outside", ("file-outside", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").unlink()
    (folder / "inner.rules").symlink_to(secret_outside(outside))
    (folder / "x.rules").symlink_to("inner.rules")


@case("a scenario file linked outside", ("file-outside", "x.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "tests").mkdir()
    (folder / "tests" / "x.yaml").symlink_to(secret_outside(outside, "x.yaml"))


@case("a tests folder linked outside", ("file-outside", "x.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    secret_outside(outside, "x.yaml")
    (folder / "tests").symlink_to(outside)


@case("a link to itself", ("file-loop", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").unlink()
    (folder / "x.rules").symlink_to("x.rules")


@case("two links in a loop", ("file-loop", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").unlink()
    (folder / "x.rules").symlink_to("y.rules")
    (folder / "y.rules").symlink_to("x.rules")


@case("a named pipe for the rules", ("file-unreadable", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").unlink()
    os.mkfifo(folder / "x.rules")


@case("a folder for the rules", ("file-unreadable", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").unlink()
    (folder / "x.rules").mkdir()


@case("a path out of the folder in game.yaml", ("schema", "game.yaml"))
def _(folder: Path, outside: Path) -> None:
    secret_outside(outside, "x.rules")
    tiny(folder, game=GAME_YAML.replace("rules: [x.rules]", f"rules: [../{outside.name}/x.rules]"))


@case("a link to another file of the folder", None)
def _(folder: Path, outside: Path) -> None:
    tiny(folder)
    (folder / "x.rules").rename(folder / "real.rules")
    (folder / "x.rules").symlink_to("real.rules")


@case("a game folder that is a link", None)
def _(folder: Path, outside: Path) -> None:
    shutil.rmtree(folder)
    write_game(outside, "phase main:\n" + END)
    folder.symlink_to(outside)


# ------------------------------------------------------------------ the test


@pytest.fixture(scope="session")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the session's children: the parser tables are built once, not in every child."""
    return tmp_path_factory.mktemp("hostile-cache") / "cache"


def validate(folder: Path, cache: Path, *extra: str) -> Outcome:
    return run_cli(["validate", *extra, str(folder)], cwd=folder.parent, cache=cache)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_folder_gets_a_diagnostic(name: str, tmp_path: Path, cache: Path) -> None:
    if any(word in name for word in ("/etc/shadow", "/proc/self", "/dev/zero")) and not Path(
            name.split(" ")[-1]).exists():
        pytest.skip("the target does not exist on this system")
    folder, outside = tmp_path / "game", tmp_path / "elsewhere"
    folder.mkdir()
    outside.mkdir()
    case = CASES[name]
    case.make(folder, outside)
    outcome = validate(folder, cache)
    assert_answered(outcome, folder, cache, codes={case.status})
    for stream in (outcome.stdout, outcome.stderr):
        assert SECRET not in stream, "a file outside the folder was quoted"
    assert not any(str(outside) in path for _, path in outcome.touched if not name.startswith("a game folder")), (
        [p for _, p in outcome.touched if str(outside) in p])
    if case.expect is None:
        assert "ok (0 error(s)" in outcome.stdout, outcome.stdout
        return
    code, file = case.expect
    marker = f"/{file}:"
    found = [line for line in outcome.stdout.splitlines() if f": error[{code}]: " in line and marker in line]
    assert found, f"no error[{code}] in {file}:\n{outcome.stdout[-2000:]}"


def test_json_output_escapes_what_a_terminal_would_obey(tmp_path: Path, cache: Path) -> None:
    CASES["escapes in the title and a key"].make(tmp_path, tmp_path)
    outcome = validate(tmp_path, cache, "--format", "json")
    assert_answered(outcome, tmp_path, cache, codes={1})
    assert "\\u001b" in outcome.stdout or "\\\\e" in outcome.stdout, outcome.stdout


def test_a_missing_game_is_a_one_line_error(tmp_path: Path, cache: Path) -> None:
    outcome = validate(tmp_path / "nothing-here", cache)
    assert_answered(outcome, tmp_path, cache, codes={2})
