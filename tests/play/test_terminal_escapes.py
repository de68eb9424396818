"""Control characters from rule files, journals and typing reach the terminal escaped, never raw."""

from __future__ import annotations

import json
from pathlib import Path

from play_helpers import cli

# ESC (clear screen), BEL, OSC 52 (write the clipboard), C1 CSI, a bidi override.
NASTY = "\x1b[2J\x07\x1b]52;c;SGVsbG8=\x07\x9b31m\u202e"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def _game(folder: Path) -> None:
    text = json.dumps(NASTY)  # a YAML double-quoted string with the characters escaped
    (folder / "game.yaml").write_text(
        f"name: nasty\ntitle: {text}\nseats: {{min: 2, max: 2}}\nrules: [main.rules]\nstart: main\n"
        "tables:\n"
        f"  words: [{text}, plain]\n"
        "state:\n  seat:\n    score: {type: int, initial: 0}\n", encoding="utf-8")
    (folder / "main.rules").write_text(
        "phase main:\n"
        "    let w = words[0]\n"
        "    log \"said {w}\"\n"
        "    choose x from words by seats[0] \"Pick {w}\" label \"{x}!\"\n"
        "    choose y from words by seats[1] \"Again {w}\"\n"
        "    end winners seats\n", encoding="utf-8")


def _clean(text: str) -> None:
    for ch in RAW:
        assert ch not in text, f"{ch!r} reached the terminal raw"
    assert "\\x1b[2J" in text  # shown, escaped: the player sees what the file holds


def test_play_shows_titles_rule_texts_names_and_typed_answers_escaped(tmp_path: Path) -> None:
    _game(tmp_path)
    journal = tmp_path / "j.json"
    run = cli("play", str(tmp_path), "--seats", "human,human", "--journal", str(journal),
              stdin=f"\n{NASTY}\n1\n\nquit\n")
    assert run.returncode == 0, run.stderr
    _clean(run.stdout)
    assert "is not one of the options" in run.stdout
    # A journal whose seat names hold escapes (mailed around, edited) is shown escaped too.
    data = json.loads(journal.read_text())
    data["names"] = [f"Ana{NASTY}", "Ben"]
    journal.write_text(json.dumps(data))
    resumed = cli("play", "--resume", str(journal), stdin="\n1\n")
    assert resumed.returncode == 0, resumed.stderr
    _clean(resumed.stdout)
    assert "Ana\\x1b[2J" in resumed.stdout


def test_text_replay_shows_log_lines_and_names_escaped(tmp_path: Path) -> None:
    _game(tmp_path)
    journal = tmp_path / "j.json"
    assert cli("simulate", "--bots", "random", str(tmp_path), "-n", "1", "--journals", str(tmp_path / "out")).returncode == 0
    made = next((tmp_path / "out").glob("*.json"))
    data = json.loads(made.read_text())
    data["names"] = [f"Ana{NASTY}", "Ben"]
    journal.write_text(json.dumps(data))
    run = cli("replay", str(journal))
    assert run.returncode == 0, run.stderr
    _clean(run.stdout)
    assert "said \\x1b[2J" in run.stdout and "Winner(s): Ana\\x1b[2J" in run.stdout
    assert "Traceback" not in run.stderr


def test_usage_errors_escape_what_they_quote() -> None:
    run = cli("play", "downtown", "--seats", f"human,{NASTY}")
    assert run.returncode == 2 and "\\x1b" in run.stderr
    assert not any(ch in run.stderr for ch in RAW)
