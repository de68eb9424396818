"""A player's client offers the session's read-only commands; the host answers them from that seat's view."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path

from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from interpreter.core.view import view
from interpreter.load.loader import load_game
from interpreter.play import advice, explain as X, phases
from interpreter.play.commands import COMMANDS
from interpreter.play.frame import as_text, question_lines
from interpreter.play.info import info
from interpreter.play.menu import Menu
from interpreter.play.network.client import Client, styled_text
from interpreter.play.network.screens import styled
from interpreter.play.scores import score_lines
from interpreter.play.screen import Screens, fitted
from net_helpers import SEED, new_table, start_host
from twin_helpers import reverse_alike, swap_alike


def test_every_command_of_play_works_at_a_networked_prompt_and_says_what_play_says(tmp_path: Path) -> None:
    table, codes = new_table("london", ["human", "random"], tmp_path / "j.json")
    engine, state = table.engine, table.state
    assert table.open_humans() == [0]  # Ana is asked first: what she is told below is of this state
    decision = engine.pending(state)
    assert isinstance(decision, Decision)
    menu = Menu.of(decision.options(0))
    v = view(engine, state, 0)
    # What the terminal session prints for each, for the same state and seat.
    expected = {
        "log 3": "\n".join(v["log"][-3:]),
        "info hand": as_text(fitted(info(Screens(engine), v, "hand", 80), 80)),
        "hint": advice.hint(engine, copy.deepcopy(state), 0, table.journal.seed, menu),
        "board": as_text(fitted(Screens(engine).main(v, 0, v, 80), 80)),
        "score": as_text(fitted(score_lines(engine, state, 0, Screens(engine)), 80)),
        "explain": as_text(fitted(X.explain(engine, state, [], 0, Screens(engine)), 80)),
        "rules": as_text(fitted(phases.where(engine.game, state), 80)),
    }
    question = as_text(fitted(question_lines(decision, 0, "Ana", 80), 80))
    assert " — " in question  # the options say what they mean, as in play
    written: list[str] = []
    prompts: list[str] = []
    typed = ["help", *expected, "lgo", "undo", menu.keys[0], "quit"]

    async def main() -> int:
        host, task = await start_host(table, codes)
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        for line in typed:
            lines.put_nowait(line)  # piped: every line waits for the question
        client = Client(lines, written.append, prompts.append, type_ahead=True)
        status = await asyncio.wait_for(client.run("127.0.0.1", host.port, codes[0]), 60)
        task.cancel()
        return status

    assert asyncio.run(main()) == 0
    out = "\n".join(written)
    assert question in written
    for c in COMMANDS:                                                         # help: play's commands
        assert c.usage in out
    assert "the other players have seen your choice" in out
    for command, text in expected.items():
        assert text in written, command
    assert "'lgo' is not one of the options" in out and "did you mean 'log'?" in out
    assert "Undo refused: at a networked table the other players have already seen your choice" in out
    # One prompt when the question is shown, one after each command's answer, none in between;
    # then the next question's.
    assert prompts == ["Ana> "] * len(typed)
    assert table.journal.choices[0] == (0, menu.options[0].id)
    assert "Left the table. Your seat is kept" in out


def test_the_hint_is_the_same_whatever_the_other_seat_holds() -> None:
    """Twin states that differ only in the other seat's hand and the deck: the same advice."""
    engine = Engine(load_game("london"))
    state = engine.new_game(2, SEED, ["Ana", "Ben"])
    twin = copy.deepcopy(state)
    hand, deck = twin["seat"]["hand"][1], twin["global"]["deck"]
    swap_alike(engine, "card", hand, 0, deck)
    reverse_alike(engine, "card", deck)
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
