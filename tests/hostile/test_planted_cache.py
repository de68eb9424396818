"""A cache file planted by another local user is never loaded, and nothing in a cache can run code.

The attack: another user of the machine writes a file where cityrules will look for a cache, and
waits for someone to run any `cityrules` command. Lark's own `cache=True` unpickled a file of a
predictable name in the shared temporary folder; the project's caches now live in a private
folder (mode 0700, checked before use) as JSON that can only build syntax trees and parser
tables. Each test plants what an attacker would and shows it is ignored.
"""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from ruledsl import user_cache
from ruledsl.syntax import parse_cache, parser, parser_tables
from ruledsl.syntax.parser import parse_rules

TEXT = 'phase main:\n    log "the real rules"\n    end winners seats\n'
PLANTED = 'phase main:\n    log "planted"\n    end winners seats\n'
ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = 65534

pytestmark = pytest.mark.skipif(os.name != "posix", reason="owners and modes are POSIX")


def fresh_process_state() -> None:
    """Forget every folder handle, parser and parse held in memory."""
    user_cache._handle.cache_clear()
    parser._parser.cache_clear()
    parser._parse_rules_cached.cache_clear()


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache folder a test's process will use (not created yet)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CITYRULES_CACHE_DIR", str(folder))
    monkeypatch.delenv("CITYRULES_NO_CACHE", raising=False)
    fresh_process_state()
    yield folder
    fresh_process_state()


def plant_entry(folder: Path, text: str, tree_text: str) -> Path:
    """An entry that serves the parse of `tree_text` for `text`, as the project would have written it."""
    os.environ["CITYRULES_NO_CACHE"] = "1"  # parsing here must not make the cache folder itself
    try:
        tree, diags = parser._parse_rules(tree_text, "x.rules", 1, 1)
    finally:
        del os.environ["CITYRULES_NO_CACHE"]
        fresh_process_state()
    entry = folder / f"ast-{parse_cache._code_version()}" / parse_cache._entry(("rules", text, "x.rules", 1, 1))
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(parse_cache.CODEC.dumps([("rules", text, "x.rules", 1, 1), (tree, tuple(diags))]))
    return entry


def logged(text: str) -> str:
    tree, diags = parse_rules(text, "x.rules")
    assert tree is not None, diags
    log = tree.phases[0].body[0]
    return log.text.text  # type: ignore[attr-defined, no-any-return]


def test_a_planted_entry_in_a_proper_folder_would_be_served(cache: Path) -> None:
    """The control: the planting below is right, so only the checks stop it."""
    cache.mkdir(mode=0o700)
    plant_entry(cache, TEXT, PLANTED)
    assert logged(TEXT) == "planted"


def loosen(folder: Path, how: str) -> None:
    if how == "world-writable":
        folder.chmod(0o777)
    elif how == "group-writable":
        folder.chmod(0o770)
    elif how == "foreign owner":
        os.chown(folder, NOBODY, NOBODY)
    else:
        raise AssertionError(how)


HOW = ["world-writable", "group-writable",
       pytest.param("foreign owner", marks=pytest.mark.skipif(not IS_ROOT, reason="os.chown to another user needs root"))]


@pytest.mark.parametrize("how", HOW)
def test_a_cache_folder_others_can_write_is_never_read(cache: Path, how: str) -> None:
    cache.mkdir(mode=0o700)
    plant_entry(cache, TEXT, PLANTED)
    loosen(cache, how)
    assert logged(TEXT) == "the real rules"
    # ... nor written: nothing of this process lands in a folder others control.
    assert not list(cache.glob("lark-*.json"))


@pytest.mark.parametrize("how", HOW)
def test_an_entry_others_could_have_written_is_never_read(cache: Path, how: str) -> None:
    cache.mkdir(mode=0o700)
    entry = plant_entry(cache, TEXT, PLANTED)
    if how == "foreign owner":
        os.chown(entry, NOBODY, NOBODY)
    else:
        entry.chmod(0o666 if how == "world-writable" else 0o660)
    assert logged(TEXT) == "the real rules"


def test_a_cache_folder_that_is_a_link_is_never_followed(cache: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    plant_entry(elsewhere, TEXT, PLANTED)
    cache.symlink_to(elsewhere)
    assert logged(TEXT) == "the real rules"
    assert sorted(p.name for p in elsewhere.iterdir()) == [f"ast-{parse_cache._code_version()}"]


def test_an_entry_that_is_a_link_is_never_followed(cache: Path, tmp_path: Path) -> None:
    cache.mkdir(mode=0o700)
    entry = plant_entry(cache, TEXT, PLANTED)
    target = tmp_path / "target.json"
    entry.rename(target)
    entry.symlink_to(target)
    assert logged(TEXT) == "the real rules"


def test_a_cache_under_a_folder_others_can_write_is_not_used(cache: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Not sticky like /tmp: another user could swap the cache folder after it was checked.
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("CITYRULES_CACHE_DIR", str(shared / "cache"))
    (shared / "cache").mkdir(mode=0o700)
    plant_entry(shared / "cache", TEXT, PLANTED)
    fresh_process_state()
    assert logged(TEXT) == "the real rules"


def test_planted_parser_tables_are_never_read(cache: Path) -> None:
    cache.mkdir(mode=0o700)
    grammar = resources.files("ruledsl.syntax").joinpath("rules.lark").read_text(encoding="utf-8")
    name = parser_tables._name(grammar)
    (cache / name).write_text("this is not a parser")
    cache.chmod(0o777)
    assert logged(TEXT) == "the real rules"


def test_the_folder_is_made_private_and_a_loose_folder_of_ours_is_tightened(cache: Path) -> None:
    logged(TEXT)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    for path in cache.rglob("*"):
        assert stat.S_IMODE(path.stat().st_mode) in (0o700, 0o600), path
        assert path.suffix == ".json" or path.is_dir(), path
    fresh_process_state()
    cache.chmod(0o755)  # what earlier versions made: readable by others, writable by nobody else
    logged(TEXT)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700


def test_nothing_is_cached_as_pickle(cache: Path) -> None:
    logged(TEXT)
    for path in cache.rglob("*.json"):
        assert not path.read_bytes().startswith(b"\x80"), path


# ------------------------------------------------------------------ Lark's own cache in the shared temp folder


LARK_WITH_CACHE = ("from importlib import resources; from lark import Lark; from ruledsl.syntax import parser\n"
                   "g = resources.files('ruledsl.syntax').joinpath('rules.lark').read_text(encoding='utf-8')\n"
                   "Lark(g, parser='lalr', start=['start', 'expr'], postlex=parser._RulesIndenter(),\n"
                   "     propagate_positions=True, maybe_placeholders=True, cache=True)\n")


def lark_cache_name(tmp: Path) -> Path:
    """The file Lark's `cache=True` reads for the rules grammar, found by letting Lark write it."""
    subprocess.run([sys.executable, "-c", LARK_WITH_CACHE], env={**os.environ, "TMPDIR": str(tmp)}, check=True,
                   cwd=ROOT, timeout=120)
    [found] = tmp.glob(".lark_cache*")
    return found


class _Payload:
    """Unpickling this runs os.mkdir: what an attacker's pickle would do, harmlessly."""

    def __init__(self, target: str):
        self.target = target

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.mkdir, (self.target,))


def test_a_pickle_planted_in_the_temp_folder_is_never_loaded(tmp_path: Path) -> None:
    shared_tmp = tmp_path / "tmp"
    shared_tmp.mkdir()
    planted = lark_cache_name(shared_tmp)
    proof = tmp_path / "code-ran"
    digest = planted.read_bytes().split(b"\n", 1)[0]
    planted.write_bytes(digest + b"\n" + pickle.dumps(_Payload(str(proof))) + pickle.dumps(_Payload(str(proof))))
    planted.chmod(0o666)
    # The control: the parser as it was built before (Lark's cache=True) runs the planted code.
    subprocess.run([sys.executable, "-c", LARK_WITH_CACHE], env={**os.environ, "TMPDIR": str(shared_tmp)},
                   check=True, cwd=ROOT, timeout=120)
    assert proof.is_dir()
    proof.rmdir()
    env = {**os.environ, "TMPDIR": str(shared_tmp), "CITYRULES_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", "downtown"], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert not proof.exists(), "the planted pickle ran"
    assert sorted(p.name for p in shared_tmp.iterdir()) == [planted.name], "cityrules wrote to the shared folder"
