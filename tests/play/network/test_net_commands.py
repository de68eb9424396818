"""A player's client offers the session's read-only commands; the host answers them from that seat's view."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path

from interpreter.core.engine import Engine
from interpreter.core.view import view
from interpreter.load.loader import load_game
from interpreter.play import advice
from interpreter.play.frame import as_text
from interpreter.play.info import info
from interpreter.play.menu import Menu
from interpreter.play.network.client import Client, styled_text
from interpreter.play.network.screens import styled
from interpreter.play.screen import Screens, fitted
from net_helpers import SEED, new_table, start_host


def test_log_info_hint_help_and_a_mistyped_command_at_a_networked_prompt(tmp_path: Path) -> None:
    table, codes = new_table("london", ["human", "random"], tmp_path / "j.json")
    engine, state = table.engine, table.state
    assert table.open_humans() == [0]  # Ana is asked first: what she is told below is of this state
    decision = engine.pending(state)
    menu = Menu.of(decision.options(0))  # type: ignore[union-attr]
    log = view(engine, state, 0)["log"]
    # The session's hint, for the same state and seat: the networked one must be the same advice.
    hint = advice.hint(engine, copy.deepcopy(state), 0, table.journal.seed, menu)
    about_hand = as_text(fitted(info(Screens(engine), view(engine, state, 0), "hand", 80), 80))
    written: list[str] = []
    prompts: list[str] = []

    async def main() -> int:
        host, task = await start_host(table, codes)
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        for line in ("help", "log 3", "lgo", "info hand", "hint", "undo", "board", menu.keys[0], "quit"):
            lines.put_nowait(line)
        status = await asyncio.wait_for(Client(lines, written.append, prompts.append).run("127.0.0.1", host.port, codes[0]), 60)
        task.cancel()
        return status

    assert asyncio.run(main()) == 0
    out = "\n".join(written)
    assert "info NAME" in out and "(undo is not offered" in out                  # help
    assert "\n".join(log[-3:]) in written                                      # log 3: her own last lines
    assert "'lgo' is not one of the options" in out and "did you mean 'log'?" in out
    assert about_hand in written                                               # info: from her view
    assert hint in written                                                     # hint: the session's
    assert "'undo' is not one of the options" in out
    # Every command was answered at the same prompt, then the answer was taken.
    assert prompts[:8] == ["Ana> "] * 8
    assert table.journal.choices[0] == (0, menu.options[0].id)
    assert "Left the table" in out


def test_the_hint_is_the_same_whatever_the_other_seat_holds() -> None:
    """Twin states that differ only in the other seat's hand and the deck: the same advice."""
    engine = Engine(load_game("london"))
    state = engine.new_game(2, SEED, ["Ana", "Ben"])
    twin = copy.deepcopy(state)
    hand, deck = twin["seat"]["hand"][1], twin["global"]["deck"]
    hand[0], deck[-1] = deck[-1], hand[0]
    deck.reverse()
    assert view(engine, state, 0) == view(engine, twin, 0) and state != twin
    menu = Menu.of(engine.pending(state).options(0))  # type: ignore[union-attr]
    assert advice.hint(engine, state, 0, SEED, menu) == advice.hint(engine, twin, 0, SEED, menu)


def test_a_terminal_client_shows_the_screen_in_the_sessions_colours_and_nothing_more() -> None:
    engine = Engine(load_game("downtown"))
    before = engine.new_game(3, SEED)
    state = copy.deepcopy(before)
    for _ in range(6):
        engine.apply_index(state, engine.first_open_seat(state), 0)
    lines = fitted(Screens(engine).main(view(engine, state, 0), 0, view(engine, before, 0), 80), 80)
    text, styles = styled(lines)
    shown = styled_text(text, styles)
    assert shown is not None and any(s[2] == "reverse" for s in styles)  # what changed is marked
    assert as_text([shown], 80, colour=True) == as_text(lines, 80, colour=True)
    # A host that sends more than colours is shown plain: no links, no escape sequences of its own.
    assert styled_text(text, [[0, 4, "link https://example.com"]]) is None
    assert styled_text(text, [[0, 4, "bold\x1b[2J"]]) is None
    assert styled_text("\x1b]0;title\x07" + text, styles) is None


def test_a_hint_finished_after_the_question_changed_is_not_shown_as_advice(tmp_path: Path) -> None:
    """The game moves on while the hint is worked out: the player is told so, not given stale advice."""
    table, codes = new_table("london", ["human", "random"], tmp_path / "j.json")
    assert table.open_humans() == [0]
    table.question(0)  # the question is numbered, as when it is sent
    stale = "  STALE ADVICE"

    def moved_on(seat: int, state: object, menu: Menu) -> str:
        table.asked[seat] += 1  # what an answer followed by a new question does to the number
        return stale

    table.hint = moved_on  # type: ignore[method-assign]
    written: list[str] = []

    async def main() -> int:
        host, task = await start_host(table, codes)
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        for line in ("hint", "quit"):
            lines.put_nowait(line)
        status = await asyncio.wait_for(Client(lines, written.append).run("127.0.0.1", host.port, codes[0]), 60)
        task.cancel()
        return status

    assert asyncio.run(main()) == 0
    assert stale not in written
    assert any("moved on while the hint was worked out" in line for line in written)
