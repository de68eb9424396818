"""Tampered journals and odd paths: a one-line error naming what is wrong, never a traceback or a stray file."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from interpreter.core.journal import Journal
from interpreter.core.savefile import SaveError, write_atomic
from play_helpers import cli

GOOD = {"format": "cityrules-journal", "version": 1, "game": "downtown", "seats": 3, "seed": 4,
        "names": ["Ana", "Ben", "Chloé"], "agents": ["human", "bot", "bot"], "variant": None,
        "choices": [[0, "side:west"]], "result": None}


def _journal(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "j.json"
    path.write_text(text, encoding="utf-8")
    return path


def _one_line_error(run_args: list[str], expected: str, stdin: str = "quit\n") -> None:
    run = cli(*run_args, stdin=stdin, timeout=60)
    assert run.returncode in (1, 2), run.stdout
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr
    assert expected in run.stderr, run.stderr


@pytest.mark.parametrize("change, expected", [
    ({"names": "ABC"}, "'names' must be a list of texts"),
    ({"seed": 5.7}, "'5.7' is not a whole number"),
    ({"seed": True}, "'seed' must be a whole number, not true"),
    ({"seed": 10 ** 30}, "'seed' is 1000000000000000000000000000000: it must be from"),
    ({"version": 99}, "journal format version 99: this cityrules reads version 1"),
    ({"seats": "3"}, "'seats' must be a whole number, not \"3\""),
    ({"seats": 0}, "'seats' is 0: it must be from 1"),
    ({"agents": ["human", "bot"]}, "'agents' lists 2 entries for 3 seats"),
    ({"names": ["Ana", "Ana", "Ben"]}, "two seats the same name"),
    ({"names": ["Ana", "", "Ben"]}, "an empty name"),
    ({"choices": [[7, "side:west"]]}, "choice 1 must be [seat number, option id]"),
    ({"choices": {"a": 1}}, "'choices' must be a list"),
    ({"result": {"winners": [9]}}, "'result' must be null or hold the winners' seat numbers"),
    ({"game": 7}, "'game' must name a game or a game folder"),
    ({"variant": ["x"]}, "'variant' must be a text or null"),
])
def test_values_a_journal_must_not_smuggle_in_are_refused(tmp_path: Path, change: dict[str, object],
                                                          expected: str) -> None:
    path = _journal(tmp_path, json.dumps({**GOOD, **change}))
    with pytest.raises(ValueError) as err:
        Journal.load(path)
    assert expected in str(err.value) and "\n" not in str(err.value)
    _one_line_error(["replay", str(path)], expected)
    _one_line_error(["play", "--resume", str(path)], expected)


@pytest.mark.parametrize("text, expected", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"seed": 1e999}', "'1e999' is not a whole number"),
    ('{"seed": Infinity}', "'Infinity' is not a number a journal holds"),
    ('{"seed": NaN}', "'NaN' is not a number a journal holds"),
    ('{"seed": ' + "9" * 5000 + "}", "not a readable journal"),
    ("\xff\xfe", "not a readable journal"),
    ("{}", "not a cityrules journal"),
])
def test_tampered_journal_texts_get_a_one_line_error(tmp_path: Path, text: str, expected: str) -> None:
    path = _journal(tmp_path, text)
    _one_line_error(["replay", str(path)], expected)
    _one_line_error(["play", "--resume", str(path)], expected)


def test_an_unknown_agent_is_refused_not_made_human(tmp_path: Path) -> None:
    path = _journal(tmp_path, json.dumps({**GOOD, "agents": ["human", "alien", "bot"]}))
    _one_line_error(["play", "--resume", str(path)], "unknown seat kind 'alien'")


def test_resume_names_the_game_folder_it_is_about_to_run(tmp_path: Path) -> None:
    path = _journal(tmp_path, json.dumps(GOOD))
    run = cli("play", "--resume", str(path), stdin="quit\n")
    assert run.returncode == 0
    first = run.stdout.splitlines()[0]
    assert first.startswith(f"Resuming {path}: the game in ") and first.rstrip(".").endswith("downtown, 1 choice(s) made")


@pytest.mark.parametrize("special, expected", [
    ("/dev/zero", "cannot read it: it is a device"),
    ("/dev/null", "cannot read it: it is a device"),
    ("FOLDER", "cannot read it: it is a folder"),
    ("FIFO", "cannot read it: it is a pipe"),
    ("MISSING", "cannot read it: no such file or folder"),
])
def test_a_journal_that_is_not_a_regular_file_is_refused_without_reading_it(tmp_path: Path, special: str,
                                                                            expected: str) -> None:
    path = {"FOLDER": tmp_path, "FIFO": tmp_path / "fifo", "MISSING": tmp_path / "none.json"}.get(special,
                                                                                                Path(special))
    if special == "FIFO":
        os.mkfifo(path)
    _one_line_error(["replay", str(path)], expected)
    _one_line_error(["play", "--resume", str(path)], expected)


def test_a_huge_journal_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with open(path, "wb") as f:
        f.truncate(64 * 1024 * 1024)
    _one_line_error(["replay", str(path)], "too large")


@pytest.mark.parametrize("where, expected", [
    ("UNDER_FILE", "is a file, not a folder"),
    ("FOLDER", "it is a folder"),
    ("/sys/cityrules.json", "cannot save here"),
    ("/dev/full", "it is a device"),
    ("/proc/self/cityrules.json", "cannot save here"),
    ("SYMLINK", "it is a symbolic link"),
])
def test_odd_journal_paths_are_refused_before_the_game_and_leave_nothing(tmp_path: Path, where: str,
                                                                        expected: str) -> None:
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "target.json").write_text("precious")
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    path = {"UNDER_FILE": str(tmp_path / "file.txt" / "j.json"), "FOLDER": str(tmp_path),
            "SYMLINK": str(tmp_path / "link.json")}.get(where, where)
    before = sorted(os.listdir(tmp_path))
    _one_line_error(["play", "downtown", "--seats", "human,bot,bot", "--journal", path], expected)
    assert sorted(os.listdir(tmp_path)) == before
    assert (tmp_path / "target.json").read_text() == "precious"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_journals_folder_that_is_a_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("x")
    _one_line_error(["simulate", "--bots", "random", "downtown", "-n", "1", "--journals", str(tmp_path / "file.txt")],
                    "this is a file, not a folder")
    _one_line_error(["simulate", "--bots", "random", "downtown", "-n", "1", "--journals", str(tmp_path / "file.txt" / "sub")],
                    "cannot make this folder")


def test_writers_racing_on_one_path_never_show_a_reader_a_torn_file(tmp_path: Path) -> None:
    path = tmp_path / "j.json"
    texts = [json.dumps({"writer": w, "pad": "x" * 20_000 * (w + 1)}) for w in range(3)]
    write_atomic(path, texts[0])
    problems: list[str] = []
    stop = threading.Event()

    def write(text: str) -> None:
        for _ in range(30):
            try:
                write_atomic(path, text)
            except SaveError as err:  # pragma: no cover - would be the bug
                problems.append(str(err))

    def read() -> None:
        while not stop.is_set():
            if path.read_text() not in texts:
                problems.append("torn")

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(t,)) for t in texts]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    stop.set()
    reader.join()
    assert problems == []
    assert sorted(os.listdir(tmp_path)) == ["j.json"]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
