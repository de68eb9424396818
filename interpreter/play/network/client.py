"""A seat's (or a spectator's) terminal at a networked table: prints what the host sends, reads answers.

The client knows nothing of the game: it prints the screens and questions the host drew from its
seat's view, and reads its own answers. A mistyped answer gets a hint and the same prompt (the
options' keys are the terminal session's, play/menu.py); nothing reaches the host but the chosen
option's id. The session's commands (play/commands.py) work at the prompt and while the seat waits
for the others: the host answers them from the seat's view; `undo` is refused with its reason.

An answer typed before its question was shown (while the table waited for another seat) is never
taken for the next question: on a terminal it is set aside with a one-line notice. Piped input is a
script that answers the questions in order, so its lines wait for the next question instead.
"""

from __future__ import annotations

import asyncio
import re
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable

from rich.console import Console
from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.text import Text

from ruledsl.printable import printable

from ...core.decision import Option
from ..commands import COMMANDS, echo, find, near_miss
from ..menu import Menu
from .protocol import MAX_FROM_HOST, VERSION, Closed, ProtocolError, encode, read_message

PING = 20.0  # seconds between the messages that tell the host this client is still there
CONNECT_TIMEOUT = 10.0
ANSWERS = """Answer with an option as the list shows it: its number, or its name where the options are
listed by name. An option's full id ('kind:housing') or a unique start of its name works too.
A command is taken before an option of the same name: type the option's number or id instead.
What you type while others play is not taken as an answer: answer once your question is shown."""
# What the session's commands mean at a networked table, where it differs from `play`.
AT_A_TABLE = {
    "undo": "not at a networked table: the other players have seen your choice",
    "quit": "leave the table (Ctrl-C and Ctrl-D do the same); your seat is kept: join again with "
            "the same command",
}
WATCHING = {"quit": "stop watching (Ctrl-C does the same); watch again with the same command"}
LOCAL = ("help", "quit", "undo")  # answered here; every other command is answered by the host
UNDO_REFUSED = ("  Undo refused: at a networked table the other players have already seen your choice, "
                "so it cannot be taken back.")
KEPT = "Your seat is kept: join again with the same command."
WATCH_AGAIN = "Watch again with the same command."

EXIT_OK, EXIT_LOST, EXIT_REFUSED = 0, 1, 2


def help_text(watching: bool) -> str:
    """What `help` prints at a networked table: how to answer (for a seat), then the session's commands."""
    lines = [] if watching else [ANSWERS]
    lines.append("Commands, at any time:" if watching else "Commands, at your prompt and while you wait:")
    shown = [c for c in COMMANDS if not (watching and c.names[0] in ("hint", "undo"))]
    width = max(len(c.usage) for c in shown) + 2
    for c in shown:
        meaning = (WATCHING if watching else {}).get(c.names[0]) or AT_A_TABLE.get(c.names[0]) or c.help
        lines.append(f"  {c.usage:<{width}}{meaning}")
    return "\n".join(lines)


def left_text(watching: bool) -> str:
    """What a player (or a spectator) is told on leaving with quit or Ctrl-C."""
    return "Stopped watching. " + WATCH_AGAIN if watching else "Left the table. " + KEPT


def stdin_lines(loop: asyncio.AbstractEventLoop) -> asyncio.Queue[str | None]:
    """Lines of standard input as they come (None at its end), read by a thread so the table keeps going."""
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        try:
            for line in sys.stdin:
                loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\n"))
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, daemon=True).start()
    return queue


def prompt_stdout(text: str) -> None:
    """Show a prompt on standard output, without a newline, at once."""
    sys.stdout.write(text)
    sys.stdout.flush()


STYLE = re.compile(r"[a-z0-9_ ]{1,40}")


def styled_text(text: str, styles: Any) -> Text | None:
    """The host's screen with its colours, for a terminal; None when anything in it is not as the
    host draws it (then it is printed plain, escaped). Only plain colour and emphasis words are
    taken from the host: nothing that would make the terminal do more than colour text."""
    if printable(text, newlines=True) != text or not isinstance(styles, list):
        return None
    out = Text(text)
    for span in styles:
        if not (isinstance(span, list) and len(span) == 3 and type(span[0]) is int and type(span[1]) is int
                and isinstance(span[2], str) and STYLE.fullmatch(span[2]) and "link" not in span[2].split()):
            return None
        try:
            out.stylize(Style.parse(span[2]), span[0], span[1])
        except StyleSyntaxError:
            return None
    return out


@dataclass(frozen=True)
class Question:
    """The question shown to this seat: the host's number for it, its menu, and when it was shown."""

    number: Any
    menu: Menu
    shown: int  # questions shown before it: a line read before it was shown carries a smaller count


class Client:
    """Plays one seat (or watches) until the game ends, the player quits or the connection is lost.

    `lines` are the typed lines (None at the end of input); `type_ahead` keeps lines typed before a
    question for it (piped input) instead of setting them aside (a terminal).
    """

    def __init__(self, lines: asyncio.Queue[str | None] | None, write: Callable[[str], None] = print,
                 prompt: Callable[[str], None] | None = None, width: int = 80, console: Console | None = None,
                 type_ahead: bool = False):
        self.lines = lines
        self.width = width
        self.console = console  # a terminal's: screens in colour, as play shows them
        self.type_ahead = type_ahead
        self.last: dict[str, Any] = {}
        self.write = write
        self.prompt = prompt or prompt_stdout
        self.name = ""
        self.watching = False
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.typed: asyncio.Queue[tuple[str | None, int]] = asyncio.Queue()
        self.writer: asyncio.StreamWriter | None = None
        self.problem = ""
        self.question: Question | None = None
        self.shown = 0          # questions shown so far (a typed line is stamped with it)
        self.replying = False   # a command was sent: what is typed meanwhile waits for its reply
        self.prompted = False   # the prompt is the last thing on the screen
        self.input_ended = False
        self.waiting: list[str] = []
        self.absent: list[str] = []
        self.told_meanwhile = False
        self._line_task: asyncio.Future[tuple[str | None, int]] | None = None
        self._message_task: asyncio.Future[dict[str, Any] | None] | None = None

    # ------------------------------------------------------------------ output
    def say(self, text: str) -> None:
        """Print text from the host (or about it): control characters escaped, below the prompt."""
        if self.prompted:
            self.write("")  # (the prompt waits for a line: what comes now starts below it)
            self.prompted = False
        self.write(printable(text, newlines=True))

    def show(self, text: str, styles: Any) -> None:
        """A text the host drew (a screen, a question, a reply), in its colours on a terminal."""
        shown = styled_text(text, styles) if self.console is not None else None
        if self.console is not None and shown is not None:
            if self.prompted:
                self.write("")
                self.prompted = False
            self.console.print(shown, soft_wrap=True)
        else:
            self.say(text)

    def ask_again(self) -> None:
        """The prompt, once, when this seat has a question open and something was printed after it."""
        if self.question is not None and not self.prompted:
            self.prompt(printable(f"{self.name}> "))
            self.prompted = True

    def waiting_line(self) -> str:
        """`Waiting for: Ben (disconnected), Cy`, as the latest screen and presence say."""
        return "Waiting for: " + ", ".join(self.waiting)

    def show_screen(self, message: dict[str, Any]) -> None:
        """A `screen` (or `end`) message: the new log lines, the screen the host drew, who is awaited."""
        log = [str(x) for x in message.get("log", [])]
        if log:
            self.say("\n".join("  " + line for line in log))
        self.say("")
        self.show(str(message.get("text", "")), message.get("styles", []))
        if self.waiting and self.waiting != [self.name] and message.get("type") == "screen":
            meanwhile = ""
            if not (self.told_meanwhile or self.watching or self.name in self.waiting or self.lines is None):
                meanwhile = "  (meanwhile 'help' lists the commands; answers wait for your question)"
                self.told_meanwhile = True
            self.say(self.waiting_line() + meanwhile)

    # ------------------------------------------------------------------ the connection
    async def run(self, host: str, port: int, code: str | None) -> int:
        """Join with `code` (None: watch); the exit status."""
        self.watching = code is None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), CONNECT_TIMEOUT)
        except (OSError, asyncio.TimeoutError) as err:
            self.say(f"Cannot reach the table at {host}:{port}: {err or 'no answer'}.")
            return EXIT_LOST
        self.writer = writer
        hello: dict[str, Any] = {"type": "watch", "version": VERSION} if code is None else \
            {"type": "join", "version": VERSION, "code": code}
        hello["width"] = self.width
        writer.write(encode(hello))
        tasks = [asyncio.ensure_future(self._receive(reader)), asyncio.ensure_future(self._ping()),
                 asyncio.ensure_future(self._read_lines())]
        try:
            return await self._loop()
        finally:
            for task in (*tasks, self._line_task, self._message_task):
                if task is not None:
                    task.cancel()
            writer.close()

    async def _receive(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                self.inbox.put_nowait(await read_message(reader, MAX_FROM_HOST))
        except (Closed, OSError, ConnectionError):
            pass
        except ProtocolError as err:
            self.problem = str(err)
        self.inbox.put_nowait(None)

    async def _read_lines(self) -> None:
        """Stamp each typed line, as it comes, with the number of questions shown by then."""
        if self.lines is None:
            return
        while True:
            line = await self.lines.get()
            self.typed.put_nowait((line, self.shown))
            if line is None:
                return

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING)
            self.send({"type": "ping"})

    def send(self, message: dict[str, Any]) -> None:
        """Send a message to the host (dropped silently once the connection is gone)."""
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(encode(message))

    async def _loop(self) -> int:
        while True:
            event = await self._next()
            if isinstance(event, tuple):
                done = self._typed(*event)
            elif event is None:
                return self._lost()
            else:
                done = self._handle(event)
            if done is not None:
                return done

    def _reading(self) -> bool:
        """Whether a typed line is taken now: not while a command's reply is awaited, and with piped
        input only when a question is open (a script's answers wait for theirs)."""
        if self.lines is None or self.input_ended or self.replying:
            return False
        return not self.type_ahead or self.watching or self.question is not None

    async def _next(self) -> tuple[str | None, int] | dict[str, Any] | None:
        """The next typed line (with its stamp) or message from the host (None: the connection ended).
        A line typed before a message came is taken first. The reads left waiting are kept for the
        next call, so nothing typed or received is lost."""
        if self._message_task is None:
            self._message_task = asyncio.ensure_future(self.inbox.get())
        if self._reading() and self._line_task is None:
            self._line_task = asyncio.ensure_future(self.typed.get())
        waiting = {self._message_task} | ({self._line_task} if self._reading() and self._line_task else set())
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if self._line_task is not None and self._line_task in done:
            line, self._line_task = self._line_task.result(), None
            return line
        message, self._message_task = self._message_task.result(), None
        return message

    def _lost(self) -> int:
        why = f" ({self.problem})" if self.problem else ""
        self.say(f"\nThe connection to the table was lost{why}. " + (WATCH_AGAIN if self.watching else
                 "Join again with the same command: your seat is kept."))
        return EXIT_LOST

    # ------------------------------------------------------------------ what the host sends
    def _handle(self, message: dict[str, Any]) -> int | None:
        kind = message.get("type")
        if kind == "welcome":
            self._welcome(message)
        elif kind == "screen":
            self.last = message
            self.waiting = [str(x) for x in message.get("waiting", [])]
            self.absent = [str(x) for x in message.get("absent", [])]
            if self.question is None:  # while this seat decides, another's move does not interrupt it
                self.show_screen(message)
        elif kind == "ask":
            self._ask(message)
        elif kind == "reply":
            self.replying = False
            self.show(str(message.get("text", "")), message.get("styles", []))
            self.ask_again()
        elif kind == "presence":
            self._presence([str(x) for x in message.get("absent", [])])
        elif kind == "refused_answer":
            self.question = None  # the host asks it again
            self.say(f"  The host refused that answer: {message.get('reason', '')}.")
        elif kind == "end":
            self.question = None
            self.waiting = []
            self.show_screen(message)
            self.say("")
            return EXIT_OK
        elif kind == "stopped":
            self.say(f"\nThe game stopped: {message.get('reason', '')}.")
            return EXIT_OK
        elif kind == "refused":
            self.say(f"The table refused to seat you: {message.get('reason', '')}.")
            return EXIT_REFUSED
        elif kind == "error":
            self.say(f"The host says: {message.get('reason', '')}.")
        return None

    def _welcome(self, message: dict[str, Any]) -> None:
        seat_name = message.get("name")
        self.name = str(seat_name) if seat_name is not None else ""
        players = ", ".join(str(n) for n in message.get("names", []))
        title = message.get("title", "the table")
        if self.name:
            self.say(f"Joined {title} as {self.name}. Players: {players}")
        else:
            self.say(f"Watching {title} as a spectator. Players: {players}\nYou see what every player may "
                     "see (no hand, no secret answer before it is revealed) and answer nothing; 'help' lists "
                     "the commands, 'quit' stops watching.")

    def _ask(self, message: dict[str, Any]) -> None:
        options = tuple(Option(str(o[0]), str(o[1]), detail=str(o[2]) if len(o) > 2 else "")
                        for o in message.get("options", []) if isinstance(o, list) and len(o) in (2, 3))
        if not options or self.lines is None:
            return
        menu = Menu.of(options)
        self.shown += 1
        self.question = Question(message.get("ask"), menu, self.shown)
        text = message.get("text")
        if isinstance(text, str) and text:
            self.show(text, message.get("styles", []))
        else:  # (the host always draws it; this is the question without the session's layout)
            self.say(f"\n{self.name}: {message.get('prompt', '')}" + ("  (secret)" if message.get("secret") else ""))
            self.say("\n".join(menu.lines(self.width)))
        self.ask_again()

    def _presence(self, absent: list[str]) -> None:
        """Who left or came back, in a line each; the waiting line again with its marks."""
        gone = [n for n in absent if n not in self.absent]
        back = [n for n in self.absent if n not in absent]
        self.absent = absent
        for name in gone:
            self.say(f"  {name} is disconnected: the table keeps their seat until they join again.")
        for name in back:
            self.say(f"  {name} has joined the table.")
        mark = " (disconnected)"
        bare = [w[:-len(mark)] if w.endswith(mark) else w for w in self.waiting]
        self.waiting = [w + mark if w in absent else w for w in bare]
        if self.waiting and self.question is None and (gone or back):
            self.say(self.waiting_line())
        self.ask_again()

    # ------------------------------------------------------------------ what the player types
    def _typed(self, line: str | None, stamp: int) -> int | None:
        self.prompted = False  # (the terminal echoed the line and its newline)
        if line is None:
            self.input_ended = True
            if self.watching:
                return None  # nothing to answer: the spectator watches on
            self.say("\nInput ended: leaving the table. " + KEPT)
            return EXIT_OK
        found = find(line)
        if found is not None:
            return self._command(found[0].names[0], found[1])
        if not line.strip():
            self.ask_again()
            return None
        if self.watching:
            self.say(f"  '{echo(line)}' was not used: a spectator answers nothing. 'help' lists the commands.")
            return None
        question = self.question
        if question is None:
            waiting = f" (waiting for {', '.join(self.waiting)})" if self.waiting else ""
            self.say(f"  '{echo(line)}' was not used: nothing is asked of you now{waiting}. "
                     "Answer once your question is shown.")
            return None
        if stamp < question.shown and not self.type_ahead:
            self.say(f"  '{echo(line)}' was not used: it was typed before this question was shown.")
            self.ask_again()
            return None
        option = question.menu.parse(line)
        if option is not None:
            self.send({"type": "answer", "ask": question.number, "option": option.id})
            self.question = None
            return None
        near = near_miss(line)
        self.say(f"  '{echo(line)}' is not one of the options: {question.menu.hint()}, or 'help'."
                 + (f" (A command? {near})" if near else ""))
        self.ask_again()
        return None

    def _command(self, name: str, argument: str) -> int | None:
        """A command typed at the prompt or while waiting: quit, help and undo here, the others by the host."""
        if name == "quit":
            self.say(left_text(self.watching))
            return EXIT_OK
        if name == "help":
            self.say(help_text(self.watching))
        elif name == "undo":
            self.say("  A spectator has nothing to take back." if self.watching else UNDO_REFUSED)
        else:
            self.send({"type": "command", "name": name, "arg": argument[:200]})
            self.replying = True
            return None
        self.ask_again()
        return None
