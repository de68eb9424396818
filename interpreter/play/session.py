"""A text-mode session: humans and bots at one table, saved after every choice."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import render
from ruledsl.printable import printable

from ..agents import Agent, MCTSAgent, bot_seed, make_agent
from ..core.decision import Decision, Option
from ..core.engine import Engine
from ..core.journal import Journal, replay
from ..core.view import view

HELP = """Answer with the option's number, or its name (e.g. 'housing' or 'kind:housing').
Other commands:
  board       show the board again
  log [N]     the last N lines of the game's log (default 20)
  hint        what the strongest bot would choose here, from what you can see
  help        this text
  quit        save and stop; resume later with the command shown"""


@dataclass
class Seat:
    """Who sits at a seat: a human at this terminal, or a bot."""

    kind: str
    name: str


class Quit(Exception):
    """The player asked to stop; the session is saved."""


def option_columns(labels: list[str], width: int = 100) -> str:
    """Numbered options, in as many columns as fit: long lists stay on one screen."""
    entries = [f"{k:>3}. {label}" for k, label in enumerate(labels, 1)]
    if len(entries) <= 12:
        return "\n".join(entries)
    cell = max(len(e) for e in entries) + 2
    columns = max(1, width // cell)
    rows = -(-len(entries) // columns)
    lines = []
    for r in range(rows):
        row = [entries[c * rows + r] for c in range(columns) if c * rows + r < len(entries)]
        lines.append("".join(e.ljust(cell) for e in row).rstrip())
    return "\n".join(lines)


def parse_answer(text: str, options: tuple[Option, ...]) -> Option | None:
    """The option a typed answer means: its number, its id, the part after ':', or a unique prefix."""
    text = text.strip()
    if text.isdigit():
        k = int(text)
        return options[k - 1] if 1 <= k <= len(options) else None
    lowered = text.lower()
    for o in options:
        if lowered in (o.id.lower(), o.id.split(":", 1)[-1].lower(), o.label.lower()):
            return o
    matches = [o for o in options if o.label.lower().startswith(lowered) and lowered]
    return matches[0] if len(matches) == 1 else None


class Session:
    """Runs a game between the terminal's humans and bots, journaling every choice."""

    def __init__(self, engine: Engine, journal: Journal, seats: list[Seat], save_path: Path,
                 read: Callable[[str], str] = input, write: Callable[[str], None] = print):
        self.engine = engine
        self.journal = journal
        self.seats = seats
        self.save_path = save_path
        self.read = read
        self.write = write
        self.bots: dict[int, Agent] = {i: make_agent(s.kind, bot_seed(journal.seed, i))
                                       for i, s in enumerate(seats) if s.kind != "human"}
        self.humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        self.has_private_fields = any(f.visible == "owner" for f in engine.game.seat_fields)
        self.state = replay(engine, journal)
        self.shown_log = 0

    def run(self) -> dict[str, Any]:
        """Play until the game ends or a human quits; returns the last state."""
        try:
            while not self.engine.is_over(self.state):
                self.step()
        except Quit:
            self.save()
            self.write(f"\nSaved. Resume with:  cityrules play --resume {self.save_path}")
            return self.state
        self.save()
        self.show_end()
        return self.state

    def step(self) -> None:
        """Answer the next open seat of the pending decision."""
        decision = self.engine.pending(self.state)
        if not isinstance(decision, Decision):
            return
        bots = [s for s in decision.seats if s in self.bots]
        seat = bots[0] if bots else decision.seats[0]
        if seat in self.bots:
            k = self.bots[seat].pick(self.engine, self.state, seat)
            option = self.engine.option_id(self.state, seat, k)
        else:
            option = self.ask(seat, decision)
        self.engine.apply_inplace(self.state, option, seat)
        self.journal.choices.append((seat, option))
        self.save()

    def ask(self, seat: int, decision: Decision) -> str:
        """Show a human their view and read their answer until it is a legal option."""
        name = self.seats[seat].name
        # With several people at one screen, a seat's own view (its hand, its secret vote) is shown
        # only after the others have looked away.
        private = len(self.humans) > 1 and (decision.secret or self.has_private_fields)
        if private:
            self.write("\n" * 3 + f"=== {name}, your secret choice: others look away. ===")
            try:
                self.read(f"{name}, press Enter when only you can see the screen. ")
            except EOFError:
                raise Quit() from None
        self.show(seat)
        options = decision.options(seat)
        self.write(f"\n{name}: {decision.prompt(seat)}" + ("  (secret)" if decision.secret else ""))
        self.write(option_columns([o.label for o in options]))
        while True:
            try:
                text = self.read(f"{name}> ")
            except EOFError:
                raise Quit() from None
            command = text.strip().lower()
            if command in ("quit", "exit", "q"):
                raise Quit()
            if command in ("help", "?", "h"):
                self.write(HELP)
                continue
            if command == "board":
                self.show(seat, log_lines=0)
                continue
            if command == "hint":
                self.write(self.hint(seat, options))
                continue
            if command.startswith("log"):
                parts = command.split()
                n = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 20
                self.write("\n".join(view(self.engine, self.state, seat)["log"][-n:]))
                continue
            option = parse_answer(text, options)
            if option is not None:
                if private:
                    self.write("\n" * 40 + f"{name} has chosen.")
                return option.id
            self.write(f"  '{text.strip()}' is not one of the options: type a number from 1 to {len(options)}, "
                       "an option's name, or 'help'.")

    def hint(self, seat: int, options: tuple[Option, ...], shown: int = 3) -> str:
        """What the strongest bot would choose for this seat, searched from the seat's own view.

        The advice is seeded like a bot's decision (from the game's seed, the seat and the decision
        count), so asking twice gives the same answer; it is never saved in the journal.
        """
        advisor = MCTSAgent(bot_seed(self.journal.seed, seat) ^ 0x5EED)
        found = advisor.search(self.engine, self.state, seat)
        lines = [f"  hint: the mcts bot ({advisor.budget} playouts from what you can see) would choose:"]
        for rank, o in enumerate(found[:shown], 1):
            label = printable(options[o.index].label)
            lines.append(f"    {rank}. {label:<24} about {o.win_chance:.0%} to win ({o.visits} playouts)")
        return "\n".join(lines)

    def show(self, seat: int, log_lines: int = 12) -> None:
        """The seat's view: new log lines, the board, the seats and public facts."""
        v = view(self.engine, self.state, seat)
        new = v["log"][self.shown_log:] if log_lines else []
        if new:
            self.write("\n".join("  " + line for line in new[-log_lines:]))
        self.shown_log = len(v["log"])
        self.write("")
        badges = render.display_badges(self.engine, self.state, seat)
        self.write(render.board(self.engine.game, v, badges))
        self.write(render.public_globals(self.engine.game, v))
        self.write(render.seats_table(self.engine.game, v, seat))

    def show_end(self) -> None:
        """The final log lines and the winners."""
        v = view(self.engine, self.state, None)
        self.write("\n".join("  " + line for line in v["log"][self.shown_log:]))
        result = self.engine.result(self.state)
        self.write("\nGame over.")
        for fname, values in result.scores.items():
            self.write(f"  {fname}: " + ", ".join(f"{self.seats[i].name} {x}" for i, x in enumerate(values)))
        self.write("  Winner(s): " + ", ".join(self.seats[i].name for i in result.winners))
        self.write(f"Journal: {self.save_path}  (replay it with: cityrules replay {self.save_path})")

    def save(self) -> None:
        """Write the journal; a session killed at any moment resumes from it."""
        self.journal.result = self.state["result"]
        self.journal.save(self.save_path)
