"""What a player may not know never reaches the screen, the journal or the seed line before its time."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.core.decision import Decision
from interpreter.core.journal import Journal, replay
from interpreter.core.savefile import FileLock, SaveError
from interpreter.play.menu import Menu
from play_helpers import ROOT, Table, cli


def test_a_seed_nobody_typed_is_secret_random_and_shown_only_when_the_game_is_over(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    seeds = []
    for _ in range(2):
        run = cli("play", "downtown", "--seats", "human,bot,bot", stdin="quit\n", env=env)
        assert run.returncode == 0, run.stderr
        files = sorted((tmp_path / "cityrules" / "sessions").glob("*.json"), key=os.path.getmtime)
        journal = Journal.load(files[-1])
        assert str(journal.seed) not in run.stdout + run.stderr
        assert "seed" not in files[-1].name
        seeds.append(journal.seed)
    # Drawn from the system's secure source over 63 bits, not from the clock in a million values.
    assert seeds[0] != seeds[1] and max(seeds) > 10 ** 9
    done = cli("play", "downtown", "--seats", "random,random,random", env=env)
    assert done.returncode == 0, done.stderr
    newest = max((tmp_path / "cityrules" / "sessions").glob("*.json"), key=os.path.getmtime)
    seed = str(Journal.load(newest).seed)
    assert done.stdout.index(seed) > done.stdout.index("Game over")


def test_a_seed_the_player_typed_is_theirs_to_see(tmp_path: Path) -> None:
    run = cli("play", "downtown", "--seats", "human,bot,bot", "--seed", "77", "--journal", str(tmp_path / "j.json"),
              stdin="quit\n")
    assert run.returncode == 0 and "seed 77" in run.stdout


def _answered_in_file(table: Table) -> list[int]:
    """Seats whose answer to the pending choice the journal on disk holds (not counting lone options)."""
    state = replay(table.engine, Journal.load(table.path))
    p = state["pending"]
    return [s for s, done, options in zip(p["seats"], p["done"], p["options"]) if done and len(options) > 1]


@pytest.mark.parametrize("kinds", [["human", "bot", "bot"], ["bot", "human", "human"]])
def test_the_journal_read_at_a_secret_prompt_holds_no_answer_to_it(tmp_path: Path, kinds: list[str]) -> None:
    checked = []
    others_answered = 0

    def answer(table: Table, seat: int | None, prompt: str) -> str:
        nonlocal others_answered
        if "press Enter" in prompt:
            return ""
        assert seat is not None
        decision = table.engine.pending(table.session.state)
        assert isinstance(decision, Decision)
        if decision.secret and decision.simultaneous:
            p = table.session.state["pending"]
            in_room = [s for s, done, options in zip(p["seats"], p["done"], p["options"]) if done and len(options) > 1]
            assert not any(s in table.session.bots for s in in_room), "a bot answered before a human"
            others_answered += len(in_room)
            assert _answered_in_file(table) == [], f"the journal reveals an answer to '{decision.name}'"
            checked.append(decision.name)
        if len(checked) > 12:
            raise EOFError
        return table.first_key(seat)

    table = Table("downtown", kinds, 5, tmp_path / "j.json", answer)
    table.run()
    assert len(checked) > 12
    if kinds.count("human") > 1:
        assert others_answered, "no prompt came after another seat's answer: nothing was checked"


def test_bots_answer_a_secret_choice_after_every_human(tmp_path: Path) -> None:
    order: list[tuple[int, bool]] = []

    def answer(table: Table, seat: int | None, prompt: str) -> str:
        if "press Enter" in prompt:
            return ""
        assert seat is not None
        p = table.session.state["pending"]
        if table.engine.program.chooses[p["spec"]].secret:
            answered = [s for s, done in zip(p["seats"], p["done"]) if done]
            order.append((seat, any(s in table.session.bots for s in answered)))
        if len(order) > 10:
            raise EOFError
        return table.first_key(seat)

    Table("downtown", ["bot", "human", "bot"], 3, tmp_path / "j.json", answer).run()
    assert order and not any(bot_first for _, bot_first in order)


def test_journals_are_owner_only_and_leave_no_temporary_file(tmp_path: Path) -> None:
    def answer(table: Table, seat: int | None, prompt: str) -> str:
        if len(table.prompts) > 8:
            raise EOFError
        assert seat is not None
        return table.first_key(seat)

    Table("downtown", ["human", "bot", "bot"], 2, tmp_path / "j.json", answer).run()
    assert stat.S_IMODE(os.stat(tmp_path / "j.json").st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.json"]


def test_two_sessions_never_write_one_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.json"
    first = cli("play", "downtown", "--seats", "human,bot,bot", "--journal", str(path), stdin="quit\n")
    assert first.returncode == 0
    with FileLock(path):
        with pytest.raises(SaveError, match="another session is playing this game"):
            FileLock(path).acquire()
        second = cli("play", "--resume", str(path), stdin="quit\n")
        assert second.returncode == 2 and "another session is playing this game" in second.stderr
        assert second.stderr.count("\n") == 1
    again = cli("play", "--resume", str(path), stdin="quit\n")
    assert again.returncode == 0, again.stderr


def test_a_new_session_never_overwrites_a_saved_one(tmp_path: Path) -> None:
    path = tmp_path / "j.json"
    first = cli("play", "downtown", "--seats", "human,bot,bot", "--seed", "7", "--journal", str(path),
                stdin="1\n1\nquit\n")
    before = path.read_text()
    assert len(json.loads(before)["choices"]) >= 2
    second = cli("play", "downtown", "--seats", "human,bot,bot", "--seed", "7", "--journal", str(path),
                 stdin="quit\n")
    assert second.returncode == 2 and "never overwritten" in second.stderr and "Traceback" not in second.stderr
    assert path.read_text() == before
    # Without --journal, each session gets a new file, even started in the same second.
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    for _ in range(2):
        assert cli("play", "downtown", "--seats", "human,bot,bot", "--seed", "7", env=env, stdin="quit\n").returncode == 0
    assert len(list((tmp_path / "state" / "cityrules" / "sessions").glob("*.json"))) == 2
    assert first.returncode == 0


def test_resume_alone_lists_sessions_newest_first_and_latest_resumes_the_newest(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    assert "No saved sessions" in cli("play", "--resume", env=env).stdout
    cli("play", "downtown", "--seats", "human,bot,bot", env=env, stdin="quit\n")
    cli("play", "london", "--seats", "human,bot", env=env, stdin="quit\n")
    folder = tmp_path / "cityrules" / "sessions"
    older, newer = sorted(folder.glob("*.json"), key=lambda p: p.name.startswith("london"))
    os.utime(older, (1_000_000_000, 1_000_000_000))
    listing = cli("play", "--resume", env=env).stdout
    assert listing.index(newer.name) < listing.index(older.name)
    resumed = cli("play", "--resume", "latest", env=env, stdin="quit\n")
    assert resumed.returncode == 0
    assert f"Resuming {newer}: the game in {ROOT / 'games' / 'london'}" in resumed.stdout


def test_ctrl_c_and_ctrl_d_at_a_prompt_save_and_print_the_resume_command(tmp_path: Path) -> None:
    for stop in (KeyboardInterrupt, EOFError):
        def answer(table: Table, seat: int | None, prompt: str, stop: type[BaseException] = stop) -> str:
            if len(table.prompts) > 3:
                raise stop()
            assert seat is not None
            return table.first_key(seat)

        path = tmp_path / f"{stop.__name__}.json"
        table = Table("downtown", ["human", "bot", "bot"], 8, path, answer)
        table.run()
        assert any(f"Resume with:  cityrules play --resume {path}" in line for line in table.out)
        assert len(Journal.load(path).choices) >= 3


CHILD = """
import os, stat, sys, time
from interpreter.cli import main
from interpreter.play import session
session.BOT_SAVE_EVERY = 100  # bots' answers saved every 100 decisions: several saves in one game
real = os.fsync
saves = 0

def slow(fd):
    global saves
    if stat.S_ISREG(os.fstat(fd).st_mode):
        saves += 1
        if saves == int(sys.argv[2]):
            print("saving", flush=True)
            time.sleep(60)
    real(fd)

os.fsync = slow
sys.exit(main(["play", "london", "--seats", "random,random,random", "--seed", "4", "--journal", sys.argv[1]]))
"""


def test_a_session_killed_during_a_save_resumes_to_the_same_game(tmp_path: Path) -> None:
    reference = tmp_path / "reference.json"
    assert cli("play", "london", "--seats", "random,random,random", "--seed", "4", "--journal", str(reference)).returncode == 0
    path = tmp_path / "killed.json"
    # The 3rd save: the file is made at the start, then bots' answers are saved every 100 decisions.
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), "3"], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True)
    assert child.stdout is not None
    while child.stdout.readline().strip() != "saving":
        pass
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    # Killed inside the save: its temporary file is there, and the journal is the last whole one.
    assert [p.name for p in tmp_path.glob(".killed.json.*.tmp")]
    torn = Journal.load(path)
    assert 0 < len(torn.choices) < len(Journal.load(reference).choices) and torn.result is None
    resumed = cli("play", "--resume", str(path))
    assert resumed.returncode == 0, resumed.stderr
    final, whole = Journal.load(path), Journal.load(reference)
    assert final.choices == whole.choices and final.result == whole.result is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["killed.json", "reference.json"]


def test_london_pile_choice_reads_new_pile_or_cover_pile_n_and_1_is_the_first_listed(tmp_path: Path) -> None:
    labels: list[str] = []

    def answer(table: Table, seat: int | None, prompt: str) -> str:
        assert seat is not None
        decision = table.engine.pending(table.session.state)
        assert isinstance(decision, Decision)
        shown = [o.label for o in decision.options(seat)]
        if decision.name == "pile":
            labels.extend(shown)
            return "1"
        if len(table.prompts) > 400:
            raise EOFError
        return "develop" if "develop" in shown else table.first_key(seat)

    table = Table("london", ["human", "bot"], 11, tmp_path / "l.json", answer)
    table.run()
    assert "new pile" in labels
    assert any(label.startswith("cover pile 1 (") and label.endswith(")") for label in labels)
    assert not any(label in ("-1", "0", "1") for label in labels)
    asked = labels.count("new pile")
    chosen = [c for s, c in Journal.load(table.path).choices if s == 0 and c.startswith("pile:")]
    # '1' typed at each pile prompt: the first option shown, a new pile, never pile number 1.
    assert asked > 1 and chosen[-asked:] == ["pile:-1"] * asked


def test_downtown_buy_prompt_takes_the_lot_the_player_named(tmp_path: Path) -> None:
    expected: list[str] = []

    def answer(table: Table, seat: int | None, prompt: str) -> str:
        assert seat is not None
        decision = table.engine.pending(table.session.state)
        assert isinstance(decision, Decision)
        options = decision.options(seat)
        if decision.name == "target":
            # Preferably a lot whose name is not its place in the list: its name must buy there.
            named = [o for k, o in enumerate(options, 1) if o.label != str(k)] or list(options)
            expected.append(named[-1].id)
            return named[-1].label
        if len(expected) >= 4:
            raise EOFError
        return Menu.of(options).keys[0]

    table = Table("downtown", ["human", "bot", "bot"], 6, tmp_path / "j.json", answer)
    table.run()
    made = [c for s, c in Journal.load(table.path).choices if s == 0 and c.startswith("target:")]
    assert len(expected) >= 4 and made == expected[: len(made)] and len(made) >= 3
    assert any(o.split(":")[1] != str(k) for k, o in enumerate(expected, 1))
