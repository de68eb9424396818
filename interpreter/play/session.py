"""A text-mode session: humans and bots at one table, saved after every choice.

Secrets stay with their seat. With several people at one terminal (hot seat) and anything private
in the game, the keyboard is handed over whenever another person must answer: the screen and its
scrollback are cleared with the terminal's own sequences, the typing history is forgotten, and
nothing private is shown before the next person has confirmed they are alone. In a secret choice
made by several seats at once, the bots answer only after every human, and the journal receives the
answers only once all are in: a journal read during the vote holds nobody's vote.

The session is the terminal's side of play: it reads what people type, writes screens, hands the
keyboard over and keeps the journal. What a screen shows is built elsewhere (`screen.Screens`, from
one seat's view alone); the commands people may type are listed in `commands.COMMANDS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from rich.text import Text

from ruledsl.printable import printable

from ..agents import Agent, CustomPlayerError, bot_seed, make_agent
from ..core.decision import DEFAULT_CAP, Decision
from ..core.engine import Engine
from ..core.game import Game
from ..core.journal import Journal
from ..core.savefile import FileLock, remove_stale_temps
from ..core.state import copy_state
from ..core.view import view
from . import advice, ahead, commands, explain as X, phases, undo as U
from .answer_order import bots_to_answer
from .frame import end_lines, question_lines
from .info import info
from .menu import Menu
from .overview import overview
from .palette import DIM, HEADING
from .saved import journal_answer
from .scores import score_lines
from .screen import Screens, fitted
from .terminal import Output, clear_screen

HELP = commands.help_text()

QUIT = ("quit", "exit", "q")
CTRL_D = "\x04"
IGNORED = "  (ignored what was typed before the question was shown)"
BOT_SAVE_EVERY = 1000
NEW_LINES_SHOWN = 14
"""Log lines shown as "since your last turn" above a screen; `log N` shows more."""


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


def log_lines_of(log: list[str]) -> list[Text]:
    """Log lines as shown, indented; a new line written in a line's text goes on indented under it."""
    return [Text("  " + part) for line in log for part in printable(line, newlines=True).split("\n")]


class Session:
    """Runs a game between the terminal's humans and bots, journaling every choice.

    `read` gives one typed line for a prompt (a `terminal.LineReader` adds editing, history and
    completion); `write` takes plain text, or `console` (a rich Console) takes styled screens;
    `width` overrides the width screens are laid out in.
    """

    def __init__(self, engine: Engine, journal: Journal, seats: list[Seat], save_path: Path,
                 read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 clear: Callable[[], None] = clear_screen, cap: int = DEFAULT_CAP,
                 console: Console | None = None, width: int | None = None):
        self.engine = engine
        self.journal = journal
        self.seats = seats
        self.save_path = save_path
        self.read = read
        self.out = Output(write, console, width)
        self.clear = clear
        self.cap = cap
        # make_agent refuses a name that is not a bot (UnknownBot, a ValueError, says which).
        self.bots: dict[int, Agent] = {i: make_agent(s.kind, bot_seed(journal.seed, i))
                                       for i, s in enumerate(seats) if s.kind != "human"}
        self.humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        self.hot_seat = len(self.humans) > 1 and has_secrets(engine.game)
        # The human who has the keyboard: nobody yet at a hot seat, else the only human.
        self.at_keyboard: int | None = None if self.hot_seat or not self.humans else self.humans[0]
        self.screens = Screens(engine)
        # Per journal choice: the seat, if it answered a secret choice (for undo), else None.
        self.secret_answers: list[int | None] = []
        self.marks: list[X.Mark] = []       # the table at each decision (for explain)
        self.state = self._replay()
        self.shown_log: dict[int | None, int] = {}
        self.seen: dict[int, dict[str, Any]] = {}   # each seat's view at its last prompt
        self.checkpoints: list[U.Checkpoint] = []
        # Answers to a secret choice several seats make at once: journaled when the last is in.
        self.held: list[tuple[int, str]] = []
        self.unsaved = 0  # choices in the journal not yet written to its file
        self.changed_ahead: int | None = None  # a seat whose answer given ahead no longer fits
        self.typed = ""   # typed while no question was shown: never an answer (see take_typing)
        # Per seat, questions it answered ahead of their turn (ahead.py): (signature, option id).
        self.ahead: dict[int, list[tuple[Any, str]]] = {}
        self.hint_state: dict[str, Any] | None = None  # the table a question asked ahead is about
        self.asking: tuple[int, Decision] | None = None  # the seat being asked now, and its question

    # ------------------------------------------------------------------ output
    def say(self, text: str, wrap: bool = True) -> None:
        """Print text that may hold rule-file, journal or typed content: control characters escaped,
        long lines cut at spaces to fit the terminal (not with `wrap=False`: a command to copy)."""
        if wrap:
            self.show_lines([Text(line) for line in printable(text, newlines=True).split("\n")])
        else:
            self.out.line(printable(text, newlines=True))

    def show_lines(self, lines: list[Text]) -> None:
        """Print lines built by the screens (their texts are escaped where they are made); a line
        too long for the terminal is cut at spaces, the rest indented under it."""
        self.out.lines(fitted(lines, self.out.width))

    def ask_line(self, prompt: str) -> str:
        """One typed line; end of input or Ctrl-C stops the session (saved)."""
        try:
            return self.read(printable(prompt))
        except (EOFError, KeyboardInterrupt):
            raise Quit() from None

    def take_typing(self) -> str:
        """Take away what was typed while no question was on the screen, and return it once a
        question is shown (`ask` says it was ignored). A whole line `quit` (or Ctrl-D at a line's
        start) among it stops the session at once: people must be able to leave while bots think."""
        drain: Callable[[], str] | None = getattr(self.read, "drain", None)
        if drain is None:
            return ""
        self.typed += drain()
        *lines, partial = self.typed.replace("\r", "\n").split("\n")
        if any(line.strip().lower() in QUIT or line.startswith(CTRL_D) for line in lines) \
                or partial.startswith(CTRL_D):
            self.typed = ""
            raise Quit()
        return self.typed

    def ignore_typing(self) -> None:
        """Before a prompt: drop what was typed ahead, saying so in one line (never echoing it: it
        may be another player's typing)."""
        if self.take_typing().strip():
            self.say(IGNORED)
        self.typed = ""

    # ------------------------------------------------------------------ the table's loop
    def _replay(self) -> dict[str, Any]:
        """The journal's game replayed, marking each decision for explain and undo's checks."""
        engine = self.engine
        state = engine.new_game(self.journal.seats, self.journal.seed, self.journal.names)
        for seat, option in self.journal.choices:
            self._before_answer(state, seat)
            engine.apply_inplace(state, option, seat)
        return state

    def _before_answer(self, state: dict[str, Any], seat: int) -> None:
        """Note, before `seat` answers, what explain and undo need to know later."""
        self.marks.append(X.mark(self.engine.game, state))
        spec = self.engine.program.chooses[state["pending"]["spec"]]
        self.secret_answers.append(seat if spec.secret else None)

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
        except (Reload, CustomPlayerError):
            # A custom player's mistake ends the session with its message; every answer so far is kept.
            self.save()
            raise
        except (Quit, KeyboardInterrupt):
            self.save()
            if self.hot_seat:
                self.clear()
            note = ""
            if self.held or any(self.ahead.values()):
                note = ("\n(The answers already given to the secret choice in progress are not saved, so that "
                        "the file reveals none of them: they are asked again.)")
            self.say(f"\nSaved. Resume with:  cityrules play --resume {self.save_path}", wrap=False)
            if note:
                self.say(note)
            return self.state
        self.save()
        self.show_end()
        return self.state

    def step(self) -> None:
        """Answer the next open seat of the pending decision."""
        decision = self.engine.pending(self.state)
        if not isinstance(decision, Decision):
            return
        bots = bots_to_answer(decision, self.bots)
        humans = [s for s in decision.seats if s not in self.bots]
        if decision.secret:
            # Who answered this question ahead goes first (no keyboard needed), then whoever has the
            # keyboard now: a hot seat hands it over only when it must.
            humans.sort(key=lambda s: (self._answered_ahead(s, decision) is None, s != self.at_keyboard))
        seat = (bots or humans)[0]
        if seat in self.bots:
            if self.humans:
                self.take_typing()
            option: str | None = self.engine.option_id(self.state, seat,
                                                       self.bots[seat].pick(self.engine, self.state, seat))
        else:
            option = self._answered_ahead(seat, decision)
            if option is not None:
                self.ahead[seat].pop(0)
            else:
                if self.ahead.pop(seat, None):
                    self.changed_ahead = seat
                option = self.ask(seat, decision)
        if option is None:
            return  # taken back: the table is as it was before, and the question comes again
        collecting = self.state["pending"]
        self._before_answer(self.state, seat)
        self.engine.apply_inplace(self.state, option, seat)
        still = decision.secret and decision.simultaneous and self.state["pending"] is collecting
        if still and self.hot_seat and seat not in self.bots and seat == self.at_keyboard \
                and any(s in self.humans for s in self.engine.open_seats(self.state)):
            self.ask_ahead(seat)
        if not journal_answer(self.journal, self.held, seat, option, still):
            return
        self.unsaved += 1
        # A person's answer is saved at once. Bots' answers are replayed identically from the seed,
        # so a run of them is saved now and then, and before the next person is asked.
        if seat not in self.bots or self.unsaved >= BOT_SAVE_EVERY:
            self.save()

    # ------------------------------------------------------------------ questions asked ahead
    def _answered_ahead(self, seat: int, decision: Decision) -> str | None:
        """`seat`'s answer given ahead to exactly this question, if it gave one."""
        given = self.ahead.get(seat)
        if given and given[0][0] == ahead.signature(decision, seat) \
                and any(o.id == given[0][1] for o in decision.options(seat)):
            return given[0][1]
        return None

    def ask_ahead(self, seat: int) -> None:
        """`seat` has answered its part of a secret choice others still make: ask it now the
        questions that come next for it, when they do not depend on the others' answers (ahead.py),
        so that the keyboard need not come back to it for them."""
        before = ahead.seen(self.engine, self.state, seat)
        copies = ahead.filled(self.engine, self.state, seat)
        given: list[tuple[Any, str]] = []
        for _ in range(ahead.MAX_AHEAD):
            decision = ahead.question(self.engine, copies, seat, before)
            if decision is None:
                break
            menu = Menu.of(decision.options(seat))
            self.say("  Your next question, asked now so that the keyboard need not come back to you "
                     "(the others' answers do not change it):")
            self.hint_state = copies[0]
            try:
                option = self.answer(seat, decision, menu)
            finally:
                self.hint_state = None
            if option is None:
                break
            given.append((ahead.signature(decision, seat), option))
            ahead.advance(self.engine, copies, seat, option)
        if given:
            self.ahead[seat] = given

    # ------------------------------------------------------------------ people
    def hand_over(self, seat: int) -> None:
        """Clear everything the previous person saw, and wait until `seat`'s player is alone."""
        name = self.seats[seat].name
        self.clear()
        forget = getattr(self.read, "forget", None)
        if forget is not None:
            forget()  # the previous person's answers must not come back with the Up key
        self.say(f"=== {name}'s turn. Hand the keyboard to {name}; everybody else, look away. ===")
        self.ignore_typing()
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

    def ask(self, seat: int, decision: Decision) -> str | None:
        """Show a human their screen and read their answer until it is a legal option (None: the
        person took their previous choice back, and the table is as it was then)."""
        if self.unsaved:
            self.save()
        if self.hot_seat and seat != self.at_keyboard:
            self.hand_over(seat)
        self.checkpoint(seat)
        menu = Menu.of(decision.options(seat))
        self.show(seat)
        self.seen[seat] = view(self.engine, self.state, seat)
        if self.changed_ahead == seat:
            self.say("  The question you answered ahead turned out different once the others had answered: "
                     "answer it again.")
        self.changed_ahead = None
        return self.answer(seat, decision, menu)

    def answer(self, seat: int, decision: Decision, menu: Menu) -> str | None:
        """Put the question to `seat`, at the keyboard, and read until the answer is an option (None:
        the person took their previous choice back)."""
        name = self.seats[seat].name
        self.asking = seat, decision
        self.question(seat, decision, menu)
        offer = getattr(self.read, "offer", None)
        if offer is not None:
            offer(list(menu.keys) + [o.label for o in menu.options] + commands.command_names())
        self.ignore_typing()
        while True:
            text = self.ask_line(f"{name}> ")
            found = commands.find(text)
            if found is not None:
                command, argument = found
                if command.run(self, seat, menu, argument):
                    return None
                self.question(seat, decision, menu)
                continue
            meant = menu.candidates(text)
            if len(meant) == 1:
                return meant[0].id
            if meant:
                self.say("  " + menu.several(commands.echo(text), meant))
                continue
            near = commands.near_miss(text)
            self.say(f"  '{commands.echo(text)}' is not one of the options: {menu.hint()}, or 'help'."
                     + (f" (A command? {near})" if near else ""))

    def question(self, seat: int, decision: Decision, menu: Menu) -> None:
        """The question and its options, laid out for the screen's width."""
        self.show_lines(question_lines(decision, seat, self.seats[seat].name, self.out.width))

    def show(self, seat: int, log_lines: int = NEW_LINES_SHOWN, everything: bool = False) -> None:
        """The seat's screen: the log lines it has not seen, then the board, fields, seats and notes,
        with what changed since its last turn marked."""
        v = view(self.engine, self.state, seat)
        seen = self.shown_log.get(seat, 0)
        new = v["log"][seen:] if log_lines else []
        self.say("")
        if new:
            lines = [Text("Since your last turn:" if seen else "So far:", style=HEADING)]
            if len(new) > log_lines:
                lines.append(Text(f"  ({len(new) - log_lines} earlier lines: type 'log {len(new)}')", style=DIM))
            lines += log_lines_of(new[-log_lines:])
            self.show_lines(lines)
        self.shown_log[seat] = len(v["log"])
        self.show_lines(self.screens.main(v, seat, self.seen.get(seat), self.out.width, everything))

    # ------------------------------------------------------------------ commands
    def cmd_board(self, seat: int, argument: str) -> bool:
        """`board` / `board all`."""
        self.show(seat, log_lines=0, everything=argument.strip().lower() == "all")
        return False

    def cmd_hint(self, seat: int, menu: Menu) -> bool:
        """`hint`."""
        self.say(self.hint(seat, menu))
        return False

    def hint(self, seat: int, menu: Menu) -> str:
        """What the strongest bot would choose for this seat, searched from the seat's own view (advice.hint)."""
        state = self.hint_state if self.hint_state is not None else self.state
        return advice.hint(self.engine, state, seat, self.journal.seed, menu)

    def cmd_log(self, seat: int, count: str) -> bool:
        """`log N`: the last N lines this seat may read."""
        self.say(commands.log_text(view(self.engine, self.state, seat)["log"], count))
        return False

    def cmd_info(self, seat: int, name: str) -> bool:
        """`info NAME`."""
        self.show_lines(info(self.screens, view(self.engine, self.state, seat), name[:200], self.out.width))
        return False

    def cmd_explain(self, seat: int) -> bool:
        """`explain`: the last change of the scores, event by event."""
        self.show_lines(X.explain(self.engine, self.state, self.marks, seat, self.screens))
        return False

    def cmd_rules(self, seat: int, arg: str = "") -> bool:
        """`rules`: the current phase in the words of the rules files; `rules all`: the overview."""
        if arg.strip().lower() == "all":
            self.show_lines(overview(self.engine.game, self.out.width))
        else:
            self.show_lines(phases.where(self.engine.game, self.state))
        return False

    def cmd_score(self, seat: int) -> bool:
        """`score`: each seat's scored fields, and for a ledger what was paid and gained so far."""
        self.show_lines(score_lines(self.engine, self.state, seat, self.screens))
        return False

    def checkpoint(self, seat: int) -> None:
        """Keep the table as it is before `seat` answers, so that the answer can be taken back."""
        if len(self.humans) != 1:
            return  # with other people at the table nothing is ever taken back: keep nothing
        self.checkpoints.append(U.Checkpoint(seat, copy_state(self.state), len(self.journal.choices),
                                             list(self.held), view(self.engine, self.state, seat),
                                             len(self.secret_answers), len(self.marks)))
        del self.checkpoints[:-U.MAX_CHECKPOINTS]

    def cmd_undo(self, seat: int) -> bool:
        """`undo`: back to before this seat's previous answer, unless it has learnt something since."""
        others = [printable(self.seats[i].name) for i in self.humans if i != seat]
        if others:
            self.say(f"  Undo refused: {', '.join(others)} also play{'s' if len(others) == 1 else ''} at this "
                     "table: a choice can be taken back only when all the other seats are bots.")
            return False
        # The last checkpoint is the question being asked now; the one before, the last answer.
        if len(self.checkpoints) < 2:
            self.say("  Nothing to take back: this is your first choice (or the oldest one kept).")
            return False
        now, then = self.checkpoints[-1], self.checkpoints[-2]
        since = [s for s in self.secret_answers[then.secret_flags + 1:] if s is not None and s != seat]
        why = U.refusal(self.engine, then, self.state, now.view, since)
        if why is not None:
            self.say(f"  Undo refused: {why}.")
            return False
        self.checkpoints.pop()  # the question now is asked no more
        self.checkpoints.pop()  # the question then is asked again, and kept again when it is
        self.state = then.state
        del self.journal.choices[then.choices:]
        self.held = list(then.held)
        del self.secret_answers[then.secret_flags:]
        del self.marks[then.marks:]
        self.shown_log[seat] = len(view(self.engine, self.state, seat)["log"])
        self.save()
        self.say("  Taken back: you are asked again.")
        return True

    # ------------------------------------------------------------------ the end
    def show_end(self) -> None:
        """The final screen (everything public), each seat's score part by part, the winners, and
        the seed (no longer a secret once the game is over)."""
        if self.hot_seat:
            self.clear()
        v = view(self.engine, self.state, None)
        seen = min(self.shown_log.values(), default=0)
        self.show_lines(log_lines_of(v["log"][max(seen, len(v["log"]) - 20):]))
        self.show_lines(self.screens.main(v, None, None, self.out.width))
        self.show_lines(end_lines(self.engine, self.state, self.screens, self.marks))
        self.say(f"Seed: {self.journal.seed}.  Journal: {self.save_path}  "
                 f"(replay it with: cityrules replay {self.save_path})", wrap=False)

    def stop_unfinished(self) -> None:
        """The decision cap is reached: save and say so; a game that never ends must not hang."""
        self.save()
        self.say(f"\nThe game did not end within {self.cap} decisions: stopped, unfinished, and saved.")
        self.say(f"Resume with:  cityrules play --resume {self.save_path} --cap {self.cap * 2}", wrap=False)

    def save(self) -> None:
        """Write the journal; a session killed at any moment resumes from it."""
        self.journal.result = self.state["result"]
        self.journal.save(self.save_path)
        self.unsaved = 0
