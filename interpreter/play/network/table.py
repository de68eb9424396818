"""The host's game: state, journal, bots and the seats' open questions; no networking here.

It follows the terminal session's rules: in a secret choice the bots answer only after every
human (`answer_order.py`, shared with the session), and the answers to a secret choice several seats make at once reach the journal only when
the last is in (a journal read during the vote holds nobody's vote). Everything a client is shown
has been saved first, so a host killed at any moment resumes from what the players last saw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text

from ruledsl.printable import printable

from ...agents import Agent, bot_seed, make_agent
from ...core.decision import Decision, IllegalChoice
from ...core.engine import Engine
from ...core.journal import Journal
from ...core.view import view
from .. import advice, explain as X, phases
from ..answer_order import bots_to_answer
from ..commands import log_text
from ..info import info
from ..menu import Menu
from ..saved import journal_answer
from ..scores import score_lines
from ..screen import Screens, fitted
from . import screens

NOT_ASKED = ("  'rules' tells about the question you are asked: type it when it is your turn "
             "('info NAME' and 'explain' work at any time).")


class Table:
    """One game kept by the host, answered by the seats' clients and the bots."""

    def __init__(self, engine: Engine, journal: Journal, kinds: list[str], path: Path, cap: int):
        self.engine = engine
        # The bots think off the host's event loop, on an engine of their own (an engine's runtime is
        # not to be shared between threads); the game is the same compiled, immutable one.
        self.bot_engine = Engine(engine.game)
        self.screens = Screens(engine)  # the session's screens, drawn on the host's loop only
        self.journal = journal
        self.kinds = kinds
        self.path = path
        self.cap = cap
        self.bots: dict[int, Agent] = {i: make_agent(k, bot_seed(journal.seed, i))
                                       for i, k in enumerate(kinds) if k != "human"}
        self.marks: list[X.Mark] = []  # the table at each decision, for explain (as the session keeps them)
        self.state = engine.new_game(journal.seats, journal.seed, journal.names)
        for seat, option in journal.choices:
            self.marks.append(X.mark(engine.game, self.state))
            engine.apply_inplace(self.state, option, seat)
        self.held: list[tuple[int, str]] = []
        self.unsaved = 0
        self.moves = 0  # answers applied since the host started: numbers the questions
        self.asked: dict[int, int] = {}  # a human seat's open question -> its number

    @property
    def names(self) -> list[str]:
        """The seats' names."""
        return list(self.journal.names)

    def over(self) -> bool:
        """The game has ended."""
        return self.engine.is_over(self.state)

    def capped(self) -> bool:
        """The game has not ended within the decision cap: the host stops it, saved."""
        return not self.over() and self.state["decisions"] >= self.cap

    def _decision(self) -> Decision | None:
        if self.over() or self.capped():
            return None
        d = self.engine.pending(self.state)
        return d if isinstance(d, Decision) else None

    def bot_turn(self) -> int | None:
        """The bot's seat that may answer now; None when none may (the humans must answer first)."""
        d = self._decision()
        if d is None:
            return None
        bots = bots_to_answer(d, self.bots)
        return bots[0] if bots else None

    def bot_pick(self, seat: int, state: dict[str, Any]) -> str:
        """The option `seat`'s bot chooses in `state` (a copy of the table's, made when the bot began).

        Runs off the host's event loop, on the bots' own engine: nothing here touches the table,
        so screens can be drawn and messages answered while the bot thinks.
        """
        return self.bot_engine.option_id(state, seat, self.bots[seat].pick(self.bot_engine, state, seat))

    def bot_answer(self, seat: int, option: str) -> None:
        """Apply the option `seat`'s bot chose (for the state as it still is: nothing moved meanwhile)."""
        d = self._decision()
        if d is None or seat not in d.seats:
            raise RuntimeError("the table moved while a bot was thinking")
        self._apply(d, seat, option)

    def open_humans(self) -> list[int]:
        """The human seats that must answer now."""
        d = self._decision()
        return [s for s in d.seats if s not in self.bots] if d is not None else []

    def _asking(self, seat: int) -> Decision | None:
        """The decision that waits for human `seat`'s answer (None: nothing is asked of it now)."""
        d = self._decision()
        return None if d is None or seat in self.bots or seat not in d.seats else d

    def question_number(self, seat: int) -> int | None:
        """The number of `seat`'s open question (None: it has none), given once and kept until it is answered."""
        if self._asking(seat) is None:
            return None
        return self.asked.setdefault(seat, self.moves)

    def question(self, seat: int, width: int = screens.WIDTH) -> dict[str, Any] | None:
        """The `ask` message for `seat`'s open question, laid out for `width`."""
        number = self.question_number(seat)
        return None if number is None else screens.question(self.screens, self.state, seat, number, width)

    def command(self, seat: int | None, name: str, argument: str, width: int,
                before: dict[str, Any] | None = None, absent: frozenset[int] = frozenset()) -> list[Text]:
        """The answer to a read-only command a seat's client (or a spectator's) typed, as the session
        prints it: from the seat's view only (`before`: its view at its last question, for `board`'s
        marks of what changed; `absent`: the seats to mark disconnected)."""
        v = view(self.engine, self.state, seat)
        if name == "log":
            return [Text(line) for line in printable(log_text(v["log"], argument), newlines=True).split("\n")]
        if name == "info":
            return fitted(info(self.screens, v, argument[:200], width), width)
        if name == "board":
            everything = argument.strip().lower() == "all"
            return screens.main_lines(self.screens, v, seat, before, width, absent, everything)
        if name == "score":
            return fitted(score_lines(self.engine, self.state, seat, self.screens), width)
        if name == "explain":
            return fitted(X.explain(self.engine, self.state, self.marks, seat, self.screens), width)
        if name == "rules":
            # Where the rules are paused is not in a seat's view: only the seat asked may learn it, as in play.
            if seat is None or self._asking(seat) is None:
                return [Text(NOT_ASKED)]
            return fitted(phases.where(self.engine.game, self.state), width)
        return [Text(f"  '{printable(name[:20])}' is not a command of a networked table")]

    def hint_menu(self, seat: int) -> Menu | None:
        """The menu of `seat`'s open question, to hint on (None: it has none)."""
        d = self._asking(seat)
        return None if d is None else Menu.of(d.options(seat))

    def hint(self, seat: int, state: dict[str, Any], menu: Menu) -> str:
        """The session's hint for `seat` (from its view only), on a copy of the state; runs off the
        host's loop on the bots' engine, like a bot's decision."""
        return advice.hint(self.bot_engine, state, seat, self.journal.seed, menu)

    def answer(self, seat: int, ask: int | None, option: str) -> str | None:
        """Apply a client's answer to its open question; the reason it is refused, or None."""
        d = self._asking(seat)
        if d is None:
            return "it is not your turn"
        if ask != self.asked.get(seat):
            return "that answer was to an earlier question"
        if option not in {o.id for o in d.options(seat)}:
            return "that is not one of your options"
        try:
            self._apply(d, seat, option)
        except IllegalChoice as err:
            return str(err)
        return None

    def _apply(self, d: Decision, seat: int, option: str) -> None:
        collecting = self.state["pending"]
        self.marks.append(X.mark(self.engine.game, self.state))
        self.engine.apply_inplace(self.state, option, seat)
        self.moves += 1
        self.asked.pop(seat, None)
        # A seat no longer asked (the decision moved on) has no open question to number.
        now = self._decision()
        still = set(now.seats) if now is not None and self.state["pending"] is collecting else set()
        for other in list(self.asked):
            if other not in still:
                del self.asked[other]
        if not journal_answer(self.journal, self.held, seat, option,
                              d.secret and d.simultaneous and self.state["pending"] is collecting):
            return
        self.unsaved += 1

    def save(self) -> None:
        """Write the journal if it holds choices not yet on disk (owner-only, atomic)."""
        if self.unsaved or self.over():
            self.journal.result = self.state["result"]
            self.journal.save(self.path)
            self.unsaved = 0
