"""The parts of `play --watch`: what counts as a change of the game folder, and the input that notices one."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from interpreter.play import watch as watch_module
from interpreter.play.session import Reload
from interpreter.play.watch import FolderWatch, watched_input


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "tests").mkdir()
    (tmp_path / "game.yaml").write_text("name: x\n", encoding="utf-8")
    (tmp_path / "x.rules").write_text("phase main:\n", encoding="utf-8")
    return tmp_path


def test_a_rule_or_data_file_changed_added_or_removed_is_a_change(tmp_path: Path) -> None:
    watch = FolderWatch(_folder(tmp_path))
    assert not watch.changed()
    (tmp_path / "x.rules").write_text("phase main:\n    pass\n", encoding="utf-8")
    assert watch.changed() and not watch.changed()  # seen once
    (tmp_path / "cards.yaml").write_text("items: []\n", encoding="utf-8")
    assert watch.changed()
    (tmp_path / "cards.yaml").unlink()
    assert watch.changed()


def test_scenarios_hidden_files_and_editor_backups_are_not_rules(tmp_path: Path) -> None:
    watch = FolderWatch(_folder(tmp_path))
    (tmp_path / "tests" / "first.yaml").write_text("x: 1\n", encoding="utf-8")
    (tmp_path / ".x.rules.swp").write_text("...", encoding="utf-8")
    (tmp_path / "x.rules~").write_text("...", encoding="utf-8")
    assert not watch.changed()


def test_the_input_reads_lines_and_says_when_the_input_ends(tmp_path: Path) -> None:
    watch = FolderWatch(_folder(tmp_path))
    r, w = os.pipe()
    shown: list[str] = []
    read = watched_input(watch, r, shown.append, poll=0.01)
    os.write(w, "1\r\nhouse\nlast".encode())
    os.close(w)
    assert [read("A> "), read("B> "), read("C> ")] == ["1", "house", "last"]
    assert shown == ["A> ", "B> ", "C> "]
    with pytest.raises(EOFError):
        read("D> ")
    os.close(r)


def test_a_file_being_saved_is_seen_once_it_is_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A settling time far above the pauses of this save, so a busy machine cannot make it look finished.
    monkeypatch.setattr(watch_module, "SETTLE", 0.5)
    watch = FolderWatch(_folder(tmp_path))
    rules = tmp_path / "x.rules"
    whole = "phase main:\n    pass\n" * 10

    def save() -> None:       # an editor's save: the file emptied, then written in pieces
        with rules.open("w", encoding="utf-8") as f:
            for line in whole.splitlines(keepends=True):
                f.write(line)
                f.flush()
                time.sleep(0.002)

    saving = threading.Thread(target=save)
    saving.start()
    while rules.stat().st_size == len("phase main:\n"):
        time.sleep(0.001)      # the save has begun
    assert watch.changed()
    saving.join()
    assert watch.seen[str(rules)][1] == len(whole)   # what the change reported is the whole file
    assert not watch.changed()                        # and it is reported once


def test_a_change_while_the_prompt_waits_raises_reload(tmp_path: Path) -> None:
    watch = FolderWatch(_folder(tmp_path))
    r, w = os.pipe()
    read = watched_input(watch, r, lambda text: None, poll=0.01)
    edit = threading.Timer(0.1, lambda: (tmp_path / "x.rules").write_text("phase main:\n  end\n", encoding="utf-8"))
    edit.start()
    with pytest.raises(Reload):
        read("A> ")  # nothing typed: only the edit can end the wait
    edit.join()
    os.write(w, b"2\n")
    assert read("A> ") == "2"  # the change was seen once; the next prompt reads as usual
    (tmp_path / "game.yaml").write_text("name: y\n", encoding="utf-8")
    with pytest.raises(Reload):
        read("A> ")  # changed before the prompt: noticed before anything is read
    os.close(r)
    os.close(w)
