"""`validate` answers from the cache of a folder's check exactly what it answers without it.

A warm run reports an unchanged folder from the cache (interpreter/load/check_cache.py) without
loading it; these tests show the report is byte for byte the cold one, every diagnostic with its
position, and that any change to the folder, or where the command runs, is checked again.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter.cli import main, validate
from interpreter.load import check_cache
from ruledsl import user_cache
from ruledsl.diagnostics import Diagnostic, Span
from ruledsl.syntax import parser

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "examples" / "broken"
_MS = re.compile(r", \d+ ms\)$", re.MULTILINE)


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty private cache folder for this test's runs."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CITYRULES_CACHE_DIR", str(folder))
    monkeypatch.delenv("CITYRULES_NO_CACHE", raising=False)
    user_cache._handle.cache_clear()
    parser._parse_rules_cached.cache_clear()
    yield folder
    user_cache._handle.cache_clear()


def validate_output(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`cityrules validate ARGS`: exit status, output (without the time each folder took), errors."""
    capsys.readouterr()
    code = main(["validate", *args])
    out = capsys.readouterr()
    return code, _MS.sub(", N ms)", out.out), out.err


def uncached(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    """The same with no cache at all: every folder loaded and checked."""
    with monkeypatch.context() as patch:
        patch.setenv("CITYRULES_NO_CACHE", "1")
        return validate_output(capsys, *args)


def from_cache_only(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
                    ) -> tuple[int, str, str]:
    """The same where checking a folder for real fails the test: every report comes from the cache."""
    def no_check(folder: Path, check_only: bool = False) -> object:
        raise AssertionError(f"{folder} was checked again")

    with monkeypatch.context() as patch:
        patch.setattr(validate, "_check", no_check)
        return validate_output(capsys, *args)


def entries(cache: Path) -> list[Path]:
    """The stored checks in the cache folder."""
    return list(cache.glob("checked-*/*.json"))


def assert_warm_is_cold(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                        targets: list[str]) -> None:
    for form in ("text", "json"):
        cold = uncached(capsys, monkeypatch, "--no-play", "--format", form, *targets)
        first = validate_output(capsys, "--no-play", "--format", form, *targets)  # fills the cache
        warm = from_cache_only(capsys, monkeypatch, "--no-play", "--format", form, *targets)
        assert first == cold
        assert warm == cold


def test_the_shipped_games_report_the_same_from_the_cache(cache: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert_warm_is_cold(capsys, monkeypatch, ["downtown", "london", "city"])
    assert len(entries(cache)) == 3


def test_every_broken_example_reports_the_same_from_the_cache(cache: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Each has its diagnostics (file, line, column, end, notes, hint): the warm report must keep every one.
    # The examples made of links (file-loop, file-outside) are never cached: checked every time.
    folders = sorted(p for p in BROKEN.iterdir() if p.is_dir())
    linked = [p.name for p in folders if any(f.is_symlink() for f in p.rglob("*"))]
    monkeypatch.chdir(BROKEN)
    cold = uncached(capsys, monkeypatch, "--no-play", *(p.name for p in folders))
    assert cold[1].count("error[") > 50  # the examples do report their problems
    validate_output(capsys, "--no-play", *(p.name for p in folders))
    assert len(entries(cache)) == len(folders) - len(linked) and linked
    for form in ("text", "json"):
        cold = uncached(capsys, monkeypatch, "--no-play", "--format", form, *(p.name for p in folders))
        with monkeypatch.context() as patch:
            real = validate._check
            patch.setattr(validate, "_check", lambda folder, check_only=False: real(folder, check_only)
                          if folder.name in linked else pytest.fail(f"{folder} was checked again"))
            warm = validate_output(capsys, "--no-play", "--format", form, *(p.name for p in folders))
        assert warm == cold


def test_a_game_with_errors_is_reported_from_the_cache_without_no_play(
        cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing is played when the check finds an error, so the cached check is the whole answer.
    target = str(BROKEN / "unknown-field")
    cold = validate_output(capsys, target)
    assert cold[0] == 1 and "error[unknown-field]" in cold[1]
    assert from_cache_only(capsys, monkeypatch, target) == cold


def test_a_clean_game_is_still_played(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    validate_output(capsys, "--no-play", "downtown")
    code, out, _ = validate_output(capsys, "--fuzz", "1", "downtown")
    assert code == 0 and "game(s) played" in out


def game_copy(tmp_path: Path, name: str = "type-comparison") -> Path:
    """A copy of a broken example (one warning) to change freely."""
    folder = tmp_path / "games" / name
    shutil.copytree(BROKEN / name, folder)
    return folder


def test_a_changed_added_or_removed_file_is_checked_again(cache: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path)
    rules = folder / "round.rules"
    scenario = folder / "tests" / "cases.yaml"
    answers = []

    def same_either_way() -> str:
        answer = validate_output(capsys, "--no-play", str(folder))
        assert answer == uncached(capsys, monkeypatch, "--no-play", str(folder))
        answers.append(answer[1])
        return answer[1]

    assert "warning[type]" in same_either_way()
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("if stand == 1:", "if   stand==1:"), encoding="utf-8")  # the same size
    assert "round.rules:26:10: warning[type]" in same_either_way()
    rules.write_text(text.replace("if stand == 1:", "if stand.id == 1:"), encoding="utf-8")
    assert "0 warning(s)" in same_either_way()
    scenario.parent.mkdir()
    scenario.write_text("scenarios:\n  - name: one\n    steps:\n      - expect: {nobody: 1}\n", encoding="utf-8")
    assert "cases.yaml" in same_either_way()
    (folder / "notes.txt").write_text("a file no rule names\n", encoding="utf-8")
    same_either_way()
    scenario.unlink()
    assert "0 warning(s)" in same_either_way()
    assert len(set(answers)) == 4 and answers[5] == answers[2]


def test_where_the_command_runs_is_part_of_the_key(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Messages name files relative to the working folder.
    folder = game_copy(tmp_path)
    monkeypatch.chdir(folder.parent)
    near = validate_output(capsys, "--no-play", str(folder))
    monkeypatch.chdir(tmp_path)
    far = validate_output(capsys, "--no-play", str(folder))
    assert "\ntype-comparison/round.rules:26:8" in "\n" + near[1]
    assert "\ngames/type-comparison/round.rules:26:8" in "\n" + far[1]
    assert far == uncached(capsys, monkeypatch, "--no-play", str(folder))


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="links")
def test_a_folder_with_a_link_is_never_cached(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path)
    (folder / "more.rules").symlink_to(folder / "round.rules")
    answer = validate_output(capsys, "--no-play", str(folder))
    assert answer == uncached(capsys, monkeypatch, "--no-play", str(folder))
    assert entries(cache) == []


def test_a_damaged_or_foreign_entry_is_ignored(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path)
    right = validate_output(capsys, "--no-play", str(folder))
    [entry] = entries(cache)
    where = check_cache.key(str(folder), folder)
    assert where is not None
    odd: list[object] = [Diagnostic(Span("x", "1", 1), "c", "m"),  # type: ignore[arg-type]
                         Diagnostic(Span("x", 1, 1), "c", "m", "fatal"),  # type: ignore[arg-type]
                         Diagnostic(Span("x", 1, 1), "c", "m", related=(1,))]  # type: ignore[arg-type]
    for text in ["{not json", check_cache.CODEC.dumps(["0" * 64, [], {}]),
                 check_cache.CODEC.dumps([where.digest, [right[1]], {}]),
                 check_cache.CODEC.dumps([where.digest, [], {"x": 1}]),
                 *(check_cache.CODEC.dumps([where.digest, [d], {}]) for d in odd)]:
        entry.write_text(text, encoding="ascii")
        assert validate_output(capsys, "--no-play", str(folder)) == right


def test_a_folder_too_big_or_too_deep_is_checked_every_time(cache: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path)
    deep = folder.joinpath(*["d"] * (check_cache.MAX_DEPTH + 2))
    deep.mkdir(parents=True)
    answer = validate_output(capsys, "--no-play", str(folder))
    assert answer == uncached(capsys, monkeypatch, "--no-play", str(folder)) and "warning[type]" in answer[1]
    assert entries(cache) == []
    shutil.rmtree(folder / "d")
    monkeypatch.setattr(check_cache, "MAX_FILES", len(list(folder.iterdir())) - 1)
    assert validate_output(capsys, "--no-play", str(folder)) == answer
    assert entries(cache) == []
    monkeypatch.setattr(check_cache, "MAX_FILES", len(list(folder.iterdir())))
    assert validate_output(capsys, "--no-play", str(folder)) == answer
    assert len(entries(cache)) == 1


def test_only_the_latest_checks_are_kept(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_cache, "MAX_ENTRIES", 2)
    folders = [game_copy(tmp_path / str(i)) for i in range(4)]
    for i, folder in enumerate(folders):
        validate_output(capsys, "--no-play", str(folder))
        newest = max(entries(cache), key=lambda p: p.stat().st_mtime_ns)
        os.utime(newest, ns=(0, (i + 1) * 10**9))  # written in this order, however coarse the clock
    assert len(entries(cache)) == 2
    from_cache_only(capsys, monkeypatch, "--no-play", str(folders[-1]))
    with pytest.raises(AssertionError, match="checked again"):
        from_cache_only(capsys, monkeypatch, "--no-play", str(folders[0]))


def test_what_the_trial_games_found_is_kept_until_a_file_changes(cache: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path)
    first = validate_output(capsys, str(folder))
    assert first[0] == 0 and "game(s) played" in first[1]
    with monkeypatch.context() as patch:
        patch.setattr(validate, "_play", lambda *a: pytest.fail("the trial games were played again"))
        assert validate_output(capsys, str(folder)) == first
    played = []
    real = validate._play
    monkeypatch.setattr(validate, "_play", lambda *a: played.append(1) or real(*a))
    rules = folder / "round.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    assert validate_output(capsys, str(folder)) == first and played == [1]
    assert validate_output(capsys, "--fuzz", "1", str(folder))[0] == 0 and played == [1, 1]  # other games


def test_the_trial_games_report_the_same_over_one_process_or_two(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path)
    alone = uncached(capsys, monkeypatch, "--jobs", "1", "--fuzz", "2", str(folder))
    assert alone[0] == 0 and "game(s) played" in alone[1]
    assert uncached(capsys, monkeypatch, "--jobs", "2", "--fuzz", "2", str(folder)) == alone
