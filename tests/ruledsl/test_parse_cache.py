"""The disk cache of parsed rules: same trees as a fresh parse, and never a reason to fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruledsl.syntax import parse_cache, parser
from ruledsl.syntax.parser import parse_block, parse_rules

TEXT = "formula double(x: int) = x * 2\n\nphase main:\n    let y = double(3)\n    log \"{y}\"\n"


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of its own, and no in-memory parses left from other tests."""
    monkeypatch.setenv("CITYRULES_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CITYRULES_NO_CACHE", raising=False)
    parser._parse_rules_cached.cache_clear()
    return tmp_path


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("ast-*/*.json"))


def test_a_parse_is_stored_and_served_back_equal(cache: Path) -> None:
    first, diags = parse_rules(TEXT, "x.rules")
    assert diags == [] and first is not None
    assert len(entries(cache)) == 1
    parser._parse_rules_cached.cache_clear()
    again, _ = parse_rules(TEXT, "x.rules")
    assert again == first
    assert again is not first  # it came from the disk, not from memory


def test_the_key_holds_the_file_and_the_position(cache: Path) -> None:
    a, _ = parse_rules(TEXT, "a.rules")
    b, _ = parse_rules(TEXT, "b.rules")
    assert a is not None and b is not None
    assert a.phases[0].span.file == "a.rules" and b.phases[0].span.file == "b.rules"
    block, _ = parse_block("pass\n", "cards.yaml", 10, 7)
    moved, _ = parse_block("pass\n", "cards.yaml", 20, 7)
    assert block is not None and moved is not None
    assert (block.body[0].span.line, moved.body[0].span.line) == (10, 20)
    assert len(entries(cache)) == 4


def test_syntax_errors_come_back_the_same(cache: Path) -> None:
    broken = "phase main\n    pass\n"
    _, first = parse_rules(broken, "x.rules")
    parser._parse_rules_cached.cache_clear()
    _, again = parse_rules(broken, "x.rules")
    assert first == again and first[0].code == "syntax"


def test_a_damaged_entry_is_parsed_again(cache: Path) -> None:
    tree, _ = parse_rules(TEXT, "x.rules")
    for entry in entries(cache):
        entry.write_bytes(b"not a cached value")
    parser._parse_rules_cached.cache_clear()
    again, diags = parse_rules(TEXT, "x.rules")
    assert diags == [] and again == tree


def test_an_unwritable_cache_only_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("CITYRULES_CACHE_DIR", str(blocker))
    parser._parse_rules_cached.cache_clear()
    tree, diags = parse_rules(TEXT, "x.rules")
    assert diags == [] and tree is not None


def test_the_cache_can_be_switched_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITYRULES_NO_CACHE", "1")
    parse_rules(TEXT, "x.rules")
    assert entries(cache) == []
    assert parse_cache.cache_dir() is None


def test_a_change_to_the_parser_code_uses_another_folder(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = parse_cache.cache_dir()
    monkeypatch.setattr(parse_cache, "_code_version", lambda: "another")
    assert parse_cache.cache_dir() != before


def test_a_text_no_file_holds_is_not_written(cache: Path) -> None:
    # An editor's buffer, new at every keystroke (the language server says so): parsed, not stored.
    tree, _ = parse_rules(TEXT, "x.rules", kept=False)
    block, _ = parse_block("pass\n", "cards.yaml", 10, 7, kept=False)
    assert tree is not None and block is not None and entries(cache) == []
    again, _ = parse_rules(TEXT, "x.rules")          # saved: kept from then on
    assert again == tree and len(entries(cache)) == 1
    parser._parse_rules_cached.cache_clear()
    assert parse_rules(TEXT, "x.rules", kept=False)[0] == tree   # a stored tree is still read
