"""A seat's (or a spectator's) terminal at a networked table: prints what the host sends, reads answers.

The client knows nothing of the game: it prints the screens the host drew from its seat's view,
and answers its own questions. A mistyped answer gets a hint and the same prompt (the options'
keys are the terminal session's, play/menu.py); nothing reaches the host but the chosen option's id.
"""

from __future__ import annotations

import asyncio
import re
import sys
import threading
from typing import Any, Callable

from rich.console import Console
from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.text import Text

from ruledsl.printable import printable

from ...core.decision import Option
from ..commands import echo, near_miss
from ..menu import Menu
from .protocol import MAX_FROM_HOST, VERSION, Closed, ProtocolError, encode, read_message

PING = 20.0  # seconds between the messages that tell the host this client is still there
CONNECT_TIMEOUT = 10.0
QUIT = ("quit", "exit", "q")
HELP = """Answer with an option as the list shows it: its number, or its name where the options are
listed by name. An option's full id ('kind:housing') or a unique start of its name works too.
A command is taken before an option of the same name: type the option's number or id instead.
Commands, at any prompt:
  board       your screen again
  log [N]     the last N lines of the game's log you may read (default 20)
  info NAME   anything named in the game (a card or other item, a place on the board, a table,
              a seat, a field): its attributes and ability text
  hint        what the strongest bot would choose here, from what you can see
  help        this text
  quit        leave the table (your seat stays: join again with the same command)
(undo is not offered at a networked table: the other players have seen your choice.)"""
# Commands the host answers (from this seat's view), by every name they may be typed as.
REMOTE = {"log": "log", "info": "info", "i": "info", "hint": "hint"}
LOCAL = ("board", "help", "?", "h", *QUIT)

EXIT_OK, EXIT_LOST, EXIT_REFUSED = 0, 1, 2


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


class Client:
    """Plays one seat (or watches) until the game ends, the player quits or the connection is lost."""

    def __init__(self, lines: asyncio.Queue[str | None] | None, write: Callable[[str], None] = print,
                 prompt: Callable[[str], None] | None = None, width: int = 80, console: Console | None = None):
        self.lines = lines
        self.width = width
        self.console = console  # a terminal's: screens in colour, as play shows them
        self.last: dict[str, Any] = {}
        self.write = write
        self.prompt = prompt or prompt_stdout
        self.name = ""
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.writer: asyncio.StreamWriter | None = None
        self.problem = ""
        self._input_ended = False
        self._line_task: asyncio.Future[str | None] | None = None
        self._message_task: asyncio.Future[dict[str, Any] | None] | None = None

    def say(self, text: str) -> None:
        """Print text from the host: control characters escaped."""
        self.write(printable(text, newlines=True))

    def show_screen(self, message: dict[str, Any]) -> None:
        """A `screen` (or `end`) message: the new log lines, the screen the host drew, who is awaited."""
        log = [str(x) for x in message.get("log", [])]
        if log:
            self.say("\n".join("  " + line for line in log))
        self.say("")
        text = str(message.get("text", ""))
        shown = styled_text(text, message.get("styles", [])) if self.console is not None else None
        if self.console is not None and shown is not None:
            self.console.print(shown, soft_wrap=True)
        else:
            self.say(text)
        waiting = [str(x) for x in message.get("waiting", [])]
        if waiting:
            self.say("Waiting for: " + ", ".join(waiting))

    async def run(self, host: str, port: int, code: str | None) -> int:
        """Join with `code` (None: watch); the exit status."""
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
        tasks = [asyncio.ensure_future(self._receive(reader)), asyncio.ensure_future(self._ping())]
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
            message = await self._next_message()
            if message is None:
                return self._lost()
            done = await self._handle(message)
            if done is not None:
                return done

    def _lost(self) -> int:
        why = f" ({self.problem})" if self.problem else ""
        self.say(f"\nThe connection to the table was lost{why}. Join again with the same command: "
                 "your seat is kept.")
        return EXIT_LOST

    async def _handle(self, message: dict[str, Any]) -> int | None:
        kind = message.get("type")
        if kind == "welcome":
            seat_name = message.get("name")
            self.name = str(seat_name) if seat_name is not None else ""
            who = f"as {self.name}" if self.name else "as a spectator (public information only)"
            self.say(f"Joined {message.get('title', 'the table')} {who}. Players: "
                     + ", ".join(str(n) for n in message.get("names", [])))
        elif kind == "screen":
            self.last = message
            self.show_screen(message)
        elif kind == "ask":
            return await self._ask(message)
        elif kind == "reply":
            self.say(str(message.get("text", "")))
        elif kind == "refused_answer":
            self.say(f"  The host refused that answer: {message.get('reason', '')}.")
        elif kind == "end":
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

    async def _ask(self, message: dict[str, Any]) -> int | None:
        """Show the question and read lines until one is an option; host messages meanwhile are kept."""
        options = tuple(Option(str(o[0]), str(o[1])) for o in message.get("options", [])
                        if isinstance(o, list) and len(o) == 2)
        if not options or self.lines is None:
            return None
        menu = Menu.of(options)
        secret = "  (secret)" if message.get("secret") else ""
        self.say(f"\n{self.name}: {message.get('prompt', '')}{secret}")
        if menu.mode == "names":
            self.say("(type an option as it is shown)")
        self.say("\n".join(menu.lines(self.width)))
        while True:
            self.prompt(printable(f"{self.name}> "))
            got = await self._next_line()
            if isinstance(got, dict) or got is None:
                if got is None and self._input_ended:
                    self.say("\nInput ended: leaving the table. Your seat is kept: join again with the same command.")
                    return EXIT_OK
                if got is None:
                    return self._lost()
                done = await self._handle(got)  # the end, or an error: the question is over
                if done is not None or got.get("type") == "ask":
                    return done
                continue
            words = got.strip().split(None, 1)
            command = words[0].lower() if words else ""
            if command in REMOTE:
                self.send({"type": "command", "name": REMOTE[command], "arg": words[1] if len(words) > 1 else ""})
                over, done = await self._await_reply()
                if over:
                    return done
                continue
            command = got.strip().lower()
            if command in QUIT:
                self.say("Left the table. Your seat is kept: join again with the same command.")
                return EXIT_OK
            if command in ("help", "?", "h"):
                self.say(HELP)
                continue
            if command == "board":
                self.show_screen(self.last)
                continue
            option = menu.parse(got)
            if option is not None:
                self.send({"type": "answer", "ask": message.get("ask"), "option": option.id})
                return None
            near = near_miss(got, [*REMOTE, *LOCAL])
            self.say(f"  '{echo(got)}' is not one of the options: {menu.hint()}, or 'help'."
                     + (f" (A command? {near})" if near else ""))

    async def _await_reply(self) -> tuple[bool, int | None]:
        """Wait for the host's reply to a command (what is typed meanwhile waits); (True, status)
        when the question ended instead (the end of the game, a lost connection, a new question)."""
        while True:
            message = await self._next_message()
            if message is None:
                return True, self._lost()
            kind = message.get("type")
            if kind == "screen":
                self.last = message  # another seat moved: kept for 'board'
                continue
            done = await self._handle(message)
            if kind == "reply":
                return False, None
            if done is not None or kind == "ask":
                return True, done

    async def _next_message(self) -> dict[str, Any] | None:
        """The next message from the host (None: the connection ended)."""
        if self._message_task is None:
            self._message_task = asyncio.ensure_future(self.inbox.get())
        task, self._message_task = self._message_task, None
        return await task

    async def _next_line(self) -> str | dict[str, Any] | None:
        """The next typed line, or a message from the host that came first (None: input or connection ended).

        The reads left waiting are kept for the next call, so nothing typed or received is lost.
        """
        while True:
            if self._line_task is None and self.lines is not None:
                self._line_task = asyncio.ensure_future(self.lines.get())
            if self._message_task is None:
                self._message_task = asyncio.ensure_future(self.inbox.get())
            waiting = {t for t in (self._line_task, self._message_task) if t is not None}
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if self._message_task in done:
                message = self._message_task.result()
                self._message_task = None
                if message is not None and message.get("type") == "screen":
                    # Another seat moved while this one decides: kept for 'board', the question stands.
                    self.last = message
                    continue
                return message
            if self._line_task is not None and self._line_task in done:
                line = self._line_task.result()
                self._line_task = None
                if line is None:
                    self._input_ended = True
                return line
