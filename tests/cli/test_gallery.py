"""The gallery of broken games (examples/broken): what `cityrules validate` prints for each entry,
and an entry for every diagnostic code the validator can emit."""

from __future__ import annotations

import ast
import difflib
import re
import shlex
import shutil
from functools import cache
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.load.base import MAX_RULES_BYTES
from interpreter.load.yamlsource import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "examples" / "broken"
SOURCE_DIRS = (ROOT / "ruledsl", ROOT / "interpreter")
# Calls that take a diagnostic code, and the position of the code among their arguments.
EMITTERS = {"error": 1, "warning": 1, "err": 1, "Diagnostic": 1, "Unreadable": 0, "finding": 0}
MARKER = b"# Mistake:"

# Codes that no game folder can produce through `cityrules validate`. Each needs a reason.
EXCLUDED: dict[str, str] = {
    # Compiler._simple's fallback for a statement class it does not know: every statement the
    # grammar can build is handled before it, so only a bug in the compiler reaches it.
    "internal": "a guard for compiler bugs",
    # `choose` is turned into a waiting point before `_simple` sees it: a phase holding a choose
    # is always compiled as resumable, and in a formula the statement is refused as not-in-formula
    # first. The check is a second line of defence, unreachable from rules text.
    "choose-not-allowed": "unreachable: not-in-formula or the resumable compile comes first",
    # Reported only when the operating system refuses to read a file that exists (permissions,
    # I/O errors). The loader checks is_file() first, so a directory in the file's place gives
    # missing-file instead. chmod cannot be committed (git keeps only the x bit), does not stop a
    # process running as root and does not exist on Windows.
    "file-unreadable": "needs an OS permission error, which cannot be made portably",
    # Comes from the --variant option of play and simulate. `validate` has no --variant: it checks
    # every variant that game.yaml declares, so the name it asks for always exists.
    "unknown-variant": "comes from a command-line option of play/simulate, not from the files",
    # A scenario that does not go as it says when it is played: reported by `cityrules test`, never
    # by validate (which checks a scenario's names, not its outcome). tests/workbench checks them.
    "expect-failed": "reported by `cityrules test` when a scenario is played, not by validate",
    "not-offered": "reported by `cityrules test` when a scenario is played, not by validate",
    "chance-unused": "reported by `cityrules test` when a scenario is played, not by validate",
}

TIMING = re.compile(r"\b\d+ ms\)$", re.MULTILINE)


def entries() -> list[str]:
    """The gallery's entries: every folder of examples/broken."""
    return sorted(p.name for p in GALLERY.iterdir() if p.is_dir())


def expected_text(entry: str) -> str:
    """What the entry's expected.txt says `cityrules validate` prints."""
    return (GALLERY / entry / "expected.txt").read_text(encoding="utf-8")


def entry_args(entry: str) -> list[str]:
    """The extra command-line arguments in the entry's optional args.txt."""
    path = GALLERY / entry / "args.txt"
    return shlex.split(path.read_text(encoding="utf-8")) if path.is_file() else []


def normalise(output: str) -> str:
    """The output with its timing, the only part that changes from run to run, made constant."""
    return TIMING.sub("N ms)", output)


def grow(file: Path) -> None:
    """Pad a file with comment lines until it is over the size limit (no huge file is committed)."""
    limit = max(MAX_RULES_BYTES, MAX_FILE_BYTES)
    with file.open("a", encoding="utf-8") as handle:
        while file.stat().st_size <= limit:
            handle.write("# padding: the file must be over the size limit\n" * 10_000)
            handle.flush()


def run_entry(entry: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run `cityrules validate ENTRY ARGS...` in the gallery folder: (exit status, stdout, stderr).

    An entry with a grow.txt is copied to tmp_path first and the file it names is padded there.
    """
    where = GALLERY
    grow_list = GALLERY / entry / "grow.txt"
    if grow_list.is_file():
        shutil.copytree(GALLERY / entry, tmp_path / entry)
        for name in grow_list.read_text(encoding="utf-8").split():
            grow(tmp_path / entry / name)
        where = tmp_path
    monkeypatch.chdir(where)
    capsys.readouterr()
    status = main(["validate", entry, *entry_args(entry)])
    captured = capsys.readouterr()
    return status, normalise(captured.out), captured.err


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    if isinstance(node.func, ast.Name):
        return node.func.id
    return None


def _code_argument(node: ast.Call) -> ast.expr | None:
    at = EMITTERS[_call_name(node) or ""]
    if len(node.args) > at:
        return node.args[at]
    return next((k.value for k in node.keywords if k.arg == "code"), None)


@cache
def emitted_codes() -> dict[str, tuple[str, ...]]:
    """Every diagnostic code written as a literal in the validator's sources, with where it is written."""
    found: dict[str, list[str]] = {}
    files = sorted(f for d in SOURCE_DIRS for f in d.rglob("*.py"))
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        for node in ast.walk(tree):
            literal: ast.expr | None = None
            if isinstance(node, ast.Call) and _call_name(node) in EMITTERS:
                literal = _code_argument(node)
            if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                found.setdefault(literal.value, []).append(f"{file.relative_to(ROOT)}:{literal.lineno}")
    return {code: tuple(places) for code, places in found.items()}


def code_of(entry: str) -> str | None:
    """The code an entry shows: its name, or the longest emitted code its name starts with plus '-'."""
    fits = [c for c in emitted_codes() if entry == c or entry.startswith(c + "-")]
    return max(fits, key=len) if fits else None


def shows(text: str, code: str) -> bool:
    """Does validate's output (text or JSON) report this code?"""
    return f"error[{code}]" in text or f"warning[{code}]" in text or f'"code": "{code}"' in text


# --------------------------------------------------------------------- tests
@pytest.mark.parametrize("entry", entries())
def test_entry_prints_what_expected_txt_says(entry: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    expected = expected_text(entry)
    status, out, err = run_entry(entry, tmp_path, monkeypatch, capsys)
    diff = "".join(difflib.unified_diff(expected.splitlines(keepends=True), out.splitlines(keepends=True),
                                        f"{entry}/expected.txt", "cityrules validate output"))
    assert out == expected, f"see `cityrules validate {entry}` run in examples/broken:\n{diff}"
    assert err == ""
    strict = "--strict" in entry_args(entry)
    has_errors = "error[" in out or '"severity": "error"' in out or (strict and "warning[" in out)
    assert status == (1 if has_errors else 0)


@pytest.mark.parametrize("entry", entries())
def test_entry_is_a_small_game_with_one_explained_mistake(entry: str) -> None:
    folder = GALLERY / entry
    assert (folder / "game.yaml").is_file() and (folder / "expected.txt").is_file()
    # A link's target is not part of the entry (file-outside, file-loop are links on purpose).
    game_files = [f for f in sorted(folder.iterdir())
                  if f.name not in ("expected.txt", "args.txt", "grow.txt") and not f.is_symlink()]
    marked = [f.name for f in game_files if MARKER in f.read_bytes()]
    assert len(marked) == 1, f"{entry}: one file should say '# Mistake: ...' and '# Fix: ...', found {marked}"
    assert b"# Fix:" in (folder / marked[0]).read_bytes()
    sizes = {f.name: f.lstat().st_size for f in folder.iterdir()}
    assert max(sizes.values()) < 64 * 1024, f"{entry}: large files are grown by the test, not committed"


@pytest.mark.parametrize("entry", entries())
def test_entry_is_named_after_a_code_it_shows(entry: str) -> None:
    code = code_of(entry)
    assert code is not None, f"{entry}: no diagnostic code called like this is emitted any more"
    assert code not in EXCLUDED, f"{entry}: {code} is in EXCLUDED, yet has an entry"
    assert shows(expected_text(entry), code), f"{entry}: its expected.txt does not report {code}"


def test_every_code_has_an_entry() -> None:
    codes = emitted_codes()
    assert {"syntax", "type", "schema", "runtime", "no-end"} <= set(codes), "the source scan found too little"
    texts = [expected_text(e) for e in entries()]
    missing = {code: places for code, places in sorted(codes.items())
               if code not in EXCLUDED and not any(shows(t, code) for t in texts)}
    assert not missing, ("codes without a gallery entry in examples/broken (add a folder named after the "
                         f"code, its expected.txt and a README row): {missing}")


def test_every_exclusion_is_still_emitted() -> None:
    stale = set(EXCLUDED) - set(emitted_codes())
    assert not stale, f"EXCLUDED names codes that nothing emits any more: {sorted(stale)}"


def test_readme_lists_every_entry() -> None:
    readme = (GALLERY / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z0-9-]+)` \|", readme, re.MULTILINE))
    assert listed == set(entries())
