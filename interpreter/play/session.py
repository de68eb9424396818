"""A text-mode session: humans and bots at one table, saved after every choice.

Secrets stay with their seat. With several people at one terminal (hot seat) and anything private
in the game, the keyboard is handed over whenever another person must answer: the screen and its
scrollback are cleared with the terminal's own sequences, and nothing private is shown before the
next person has confirmed they are alone. In a secret choice made by several seats at once, the
bots answer only after every human, and the journal receives the answers only once all are in:
a journal read during the vote holds nobody's vote.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ruledsl.printable import printable

from . import render
from .menu import Menu, is_number
from .terminal import clear_screen
from ..agents import Agent, MCTSAgent, bot_seed, make_agent
from ..core.decision import DEFAULT_CAP, Decision
from ..core.engine import Engine
from ..core.game import Game
from ..core.journal import Journal, replay
from ..core.savefile import FileLock, remove_stale_temps
from ..core.view import view

HELP = """Answer with an option as the list shows it: its number, or its name where the options are
listed by name (a number that is an option's name always means that option). An option's full id
('kind:housing') or a unique start of its name works too.
Other commands:
  board       show the board again
  log [N]     the last N lines of the game's log (default 20)
  hint        what the strongest bot would choose here, from what you can see
  help        this text
  quit        save and stop (Ctrl-D and Ctrl-C do the same); resume later with the command shown"""

QUIT = ("quit", "exit", "q")
MAX_ECHO = 40
MAX_LOG_LINES = 10_000
BOT_SAVE_EVERY = 1000


@dataclass
class Seat:
    """Who sits at a seat: a human at this terminal, or a bot."""

    kind: str
    name: str


class Quit(Exception):
    """The player asked to stop; the session is saved."""


class Reload(Exception):
    """Raised by the input when the game's files changed (play --watch, watch.py): saved, passed on."""


def has_secrets(game: Game) -> bool:
    """True when some seat may know what another may not: private seat fields or secret choices."""
    return any(f.visible != "all" for f in game.seat_fields) or any(c.secret for c in game.program.chooses)


def echo(text: str) -> str:
    """A typed answer quoted back: control characters escaped, long input cut."""
    text = text.strip()
    return printable(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "...")


class Session:
    """Runs a game between the terminal's humans and bots, journaling every choice."""

    def __init__(self, engine: Engine, journal: Journal, seats: list[Seat], save_path: Path,
                 read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 clear: Callable[[], None] = clear_screen, cap: int = DEFAULT_CAP):
        self.engine = engine
        self.journal = journal
        self.seats = seats
        self.save_path = save_path
        self.read = read
        self.write = write
        self.clear = clear
        self.cap = cap
        # make_agent refuses a name that is not a bot (UnknownBot, a ValueError, says which).
        self.bots: dict[int, Agent] = {i: make_agent(s.kind, bot_seed(journal.seed, i))
                                       for i, s in enumerate(seats) if s.kind != "human"}
        self.humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        self.hot_seat = len(self.humans) > 1 and has_secrets(engine.game)
        # The human who has the keyboard: nobody yet at a hot seat, else the only human.
        self.at_keyboard: int | None = None if self.hot_seat or not self.humans else self.humans[0]
        self.state = replay(engine, journal)
        self.shown_log: dict[int | None, int] = {}
        # Answers to a secret choice several seats make at once: journaled when the last is in.
        self.held: list[tuple[int, str]] = []
        self.unsaved = 0  # choices in the journal not yet written to its file

    def say(self, text: str) -> None:
        """Print text that may hold rule-file, journal or typed content: control characters escaped."""
        self.write(printable(text, newlines=True))

    def ask_line(self, prompt: str) -> str:
        """One typed line; end of input or Ctrl-C stops the session (saved)."""
        try:
            return self.read(printable(prompt))
        except (EOFError, KeyboardInterrupt):
            raise Quit() from None

    def run(self) -> dict[str, Any]:
        """Play until the game ends, a human quits or the decision cap is reached; returns the last state."""
        lock = FileLock(self.save_path).acquire()
        try:
            remove_stale_temps(self.save_path)
            return self._play()
        finally:
            lock.release()

    def _play(self) -> dict[str, Any]:
        try:
            while not self.engine.is_over(self.state):
                if self.state["decisions"] >= self.cap:
                    self.stop_unfinished()
                    return self.state
                self.step()
        except Reload:
            self.save()
            raise
        except (Quit, KeyboardInterrupt):
            self.save()
            if self.hot_seat:
                self.clear()
            note = ""
            if self.held:
                note = ("\n(The answers already given to the secret choice in progress are not saved, so that "
                        "the file reveals none of them: they are asked again.)")
            self.say(f"\nSaved. Resume with:  cityrules play --resume {self.save_path}{note}")
            return self.state
        self.save()
        self.show_end()
        return self.state

    def step(self) -> None:
        """Answer the next open seat of the pending decision."""
        decision = self.engine.pending(self.state)
        if not isinstance(decision, Decision):
            return
        humans = [s for s in decision.seats if s not in self.bots]
        bots = [s for s in decision.seats if s in self.bots]
        # In a secret choice the bots answer last, once no human is still deciding.
        first, then = (humans, bots) if decision.secret else (bots, humans)
        seat = (first or then)[0]
        if seat in self.bots:
            option = self.engine.option_id(self.state, seat, self.bots[seat].pick(self.engine, self.state, seat))
        else:
            option = self.ask(seat, decision)
        collecting = self.state["pending"]
        self.engine.apply_inplace(self.state, option, seat)
        if decision.secret and decision.simultaneous and self.state["pending"] is collecting:
            self.held.append((seat, option))  # others are still choosing: the file must not show it
            return
        self.journal.choices.extend(self.held)
        self.journal.choices.append((seat, option))
        self.held = []
        self.unsaved += 1
        # A person's answer is saved at once. Bots' answers are replayed identically from the seed,
        # so a run of them is saved now and then, and before the next person is asked.
        if seat not in self.bots or self.unsaved >= BOT_SAVE_EVERY:
            self.save()

    def hand_over(self, seat: int) -> None:
        """Clear everything the previous person saw, and wait until `seat`'s player is alone."""
        name = self.seats[seat].name
        self.clear()
        self.say(f"=== {name}'s turn. Hand the keyboard to {name}; everybody else, look away. ===")
        while True:
            text = self.ask_line(f"{name}, press Enter when only you can see the screen. ")
            command = text.strip().lower()
            if not command:
                break
            if command in QUIT:
                raise Quit()
            # Never silently dropped, never echoed (it may be the previous player's typing).
            self.say("  What you typed was not used: your options come after this. Press Enter alone.")
        self.at_keyboard = seat

    def ask(self, seat: int, decision: Decision) -> str:
        """Show a human their view and read their answer until it is a legal option."""
        if self.unsaved:
            self.save()
        if self.hot_seat and seat != self.at_keyboard:
            self.hand_over(seat)
        name = self.seats[seat].name
        self.show(seat)
        menu = Menu.of(decision.options(seat))
        self.say(f"\n{name}: {decision.prompt(seat)}" + ("  (secret)" if decision.secret else ""))
        if menu.mode == "names":
            self.say("(type an option as it is shown)")
        self.say("\n".join(menu.lines()))
        while True:
            text = self.ask_line(f"{name}> ")
            command = text.strip().lower()
            if command in QUIT:
                raise Quit()
            if command in ("help", "?", "h"):
                self.say(HELP)
                continue
            if command == "board":
                self.show(seat, log_lines=0)
                continue
            if command == "log" or command.startswith("log "):
                self.show_log(seat, command[3:].strip())
                continue
            if command == "hint":
                self.say(self.hint(seat, menu))
                continue
            option = menu.parse(text)
            if option is not None:
                return option.id
            self.say(f"  '{echo(text)}' is not one of the options: {menu.hint()}, or 'help'.")

    def hint(self, seat: int, menu: Menu, shown: int = 3) -> str:
        """What the strongest bot would choose for this seat, searched from the seat's own view.

        The advice is seeded like a bot's decision (from the game's seed, the seat and the decision
        count), so asking twice gives the same answer; it is never saved in the journal.
        """
        advisor = MCTSAgent(bot_seed(self.journal.seed, seat) ^ 0x5EED)
        found = advisor.search(self.engine, self.state, seat)
        lines = [f"  hint: the mcts bot ({advisor.budget} playouts from what you can see) would choose:"]
        for o in found[:shown]:
            option = f"{menu.keys[o.index]}. {menu.options[o.index].label}" if menu.mode != "names" \
                else menu.keys[o.index]
            lines.append(f"    {option:<28} about {o.win_chance:.0%} to win ({o.visits} playouts)")
        return "\n".join(lines)

    def show_log(self, seat: int, count: str) -> None:
        """`log N`: the last N lines this seat may read."""
        if not count:
            n = 20
        elif is_number(count) and not count.startswith("-") and len(count) <= 6 and int(count) > 0:
            n = min(int(count), MAX_LOG_LINES)
        else:
            self.say(f"  log takes a number of lines from 1 to {MAX_LOG_LINES}, e.g. 'log 30' "
                     f"(not '{echo(count)}').")
            return
        self.say("\n".join(view(self.engine, self.state, seat)["log"][-n:]))

    def show(self, seat: int, log_lines: int = 12) -> None:
        """The seat's view: the log lines it has not seen, the board, the seats and public facts."""
        v = view(self.engine, self.state, seat)
        seen = self.shown_log.get(seat, 0)
        new = v["log"][seen:] if log_lines else []
        if new:
            self.say("\n".join("  " + line for line in new[-log_lines:]))
        self.shown_log[seat] = len(v["log"])
        self.say("")
        badges = render.display_badges(self.engine, self.state, seat)
        self.say(render.board(self.engine.game, v, badges))
        self.say(render.public_globals(self.engine.game, v))
        self.say(render.seats_table(self.engine.game, v, seat))

    def show_end(self) -> None:
        """The final log lines, the winners and the seed (no longer a secret once the game is over)."""
        if self.hot_seat:
            self.clear()
        v = view(self.engine, self.state, None)
        self.say("\n".join("  " + line for line in v["log"][-20:]))
        result = self.engine.result(self.state)
        self.say("\nGame over.")
        for fname, values in result.scores.items():
            self.say(f"  {fname}: " + ", ".join(f"{self.seats[i].name} {x}" for i, x in enumerate(values)))
        self.say("  Winner(s): " + ", ".join(self.seats[i].name for i in result.winners))
        self.say(f"Seed: {self.journal.seed}.  Journal: {self.save_path}  "
                 f"(replay it with: cityrules replay {self.save_path})")

    def stop_unfinished(self) -> None:
        """The decision cap is reached: save and say so; a game that never ends must not hang."""
        self.save()
        self.say(f"\nThe game did not end within {self.cap} decisions: stopped, unfinished, and saved.\n"
                 f"Resume with:  cityrules play --resume {self.save_path} --cap {self.cap * 2}")

    def save(self) -> None:
        """Write the journal; a session killed at any moment resumes from it."""
        self.journal.result = self.state["result"]
        self.journal.save(self.save_path)
        self.unsaved = 0
