"""The rules at a glance, before the first question and on `rules all`: how the game goes, the
choices players make, and how it ends, all in the words the designer wrote in the game's files.

Nothing is made up here and no state is read: the overview is built from the rules files as loaded
(`Game.sources`), generically for any game:

- how the game goes: the phases reached from the start phase through `run`, in the order the rules
  first run them, each with the comment written above it (phases.py finds it);
- the choices: the prompt of each `choose` of those phases, a value of the game's data written in
  (`{target_score}` reads 35), anything that depends on the moment as `…`;
- how it ends: for each `end`, the comment above it in its phase, else the log line written just
  before it.

It is kept to a screenful: a few lines per part, each cut to the screen's width.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from ruledsl.printable import printable

from ..core.game import Game
from . import phases
from .palette import DIM, HEADING
from .screen import wrapped

MAX_PHASES = 5
MAX_CHOICES = 7
MAX_ENDS = 3
MAX_TEXT = 160
"""The longest text one entry keeps (a long comment says the rest under `rules`)."""

_PHASE = re.compile(r"^phase\s+([A-Za-z_][A-Za-z0-9_]*)")
_RUN = re.compile(r"^\s+run\s+([A-Za-z_][A-Za-z0-9_]*)")
_CHOOSE = re.compile(r"^\s+choose\s.*?\bby\b.*?\"((?:[^\"\\]|\\.)*)\"")
_LOG = re.compile(r"^\s+log\b.*?\"((?:[^\"\\]|\\.)*)\"")
_END = re.compile(r"^\s+end\b")
_HOLE = re.compile(r"\{([^{}]*)\}")


def overview(game: Game, width: int = 80) -> list[Text]:
    """The overview of `game` as lines for a screen `width` columns wide."""
    bodies = _phase_bodies(game)
    order = _reached(game.start, bodies)
    seats = f"{game.min_seats}" if game.min_seats == game.max_seats else f"{game.min_seats} to {game.max_seats}"
    out = [Text(f"{printable(game.title)}, for {seats} players: the rules at a glance", style=HEADING)]
    out += _part("How the game goes:", _steps(game, order, bodies), width)
    out += _part("The choices you will make:", _choices(game, order, bodies), width)
    out += _part("How it ends:", _ends(game, order, bodies), width)
    out.append(Text("  ('rules' says where the game is; 'info NAME' explains anything named; 'help' lists "
                    "what you can type.)", style=DIM))
    return [part for line in out for part in wrapped(line, width, 4)]


def _part(title: str, entries: list[str], width: int) -> list[Text]:
    if not entries:
        return []
    return [Text(title, style=HEADING)] + [Text("  - " + printable(e)) for e in entries]


def _phase_bodies(game: Game) -> dict[str, tuple[str, list[str], int]]:
    """Each phase of the rules files: (its file, the file's lines, the line of its `phase` header)."""
    found: dict[str, tuple[str, list[str], int]] = {}
    for file, text in game.sources.items():
        if not file.endswith(".rules"):
            continue
        lines = text.splitlines()
        for k, line in enumerate(lines):
            match = _PHASE.match(line)
            if match and match.group(1) not in found:
                found[match.group(1)] = (file, lines, k)
    return found


def _body(lines: list[str], header: int) -> list[str]:
    """The lines of the phase whose header is at `header`: up to the next line that is not indented."""
    end = header + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0].isspace() or lines[end].startswith("#")):
        if lines[end].startswith("#") and end + 1 < len(lines) and lines[end + 1] and not lines[end + 1][0].isspace():
            break  # a comment above the next top-level line belongs to that line
        end += 1
    return lines[header + 1:end]


def _reached(start: str, bodies: dict[str, tuple[str, list[str], int]]) -> list[str]:
    """The phases run from `start`, each where the rules first run it (depth first, as play goes)."""
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order or name not in bodies:
            return
        order.append(name)
        _, lines, header = bodies[name]
        for line in _body(lines, header):
            match = _RUN.match(line)
            if match:
                visit(match.group(1))

    visit(start)
    return order


def _steps(game: Game, order: list[str], bodies: dict[str, tuple[str, list[str], int]]) -> list[str]:
    """Each phase's comment once (phases of one file often share its opening comment)."""
    steps: list[str] = []
    for name in order:
        comment = " ".join(phases.phase_comment(game, name))
        if comment and _cut(comment) not in steps:
            steps.append(_cut(comment))
        if len(steps) == MAX_PHASES:
            break
    return steps


def _choices(game: Game, order: list[str], bodies: dict[str, tuple[str, list[str], int]]) -> list[str]:
    found: list[str] = []
    for name in order:
        _, lines, header = bodies[name]
        for line in _body(lines, header):
            match = _CHOOSE.match(line)
            if match:
                text = _filled(game, match.group(1)) + (" (secret)" if re.search(r"\bsecret\b", line) else "")
                if text not in found:
                    found.append(text)
    if len(found) > MAX_CHOICES:
        return found[:MAX_CHOICES] + [f"... and {len(found) - MAX_CHOICES} more"]
    return found


def _ends(game: Game, order: list[str], bodies: dict[str, tuple[str, list[str], int]]) -> list[str]:
    found: list[str] = []
    for name in order:
        _, lines, header = bodies[name]
        body = _body(lines, header)
        for k, line in enumerate(body):
            if not _END.match(line):
                continue
            said = _said_before(game, body, k)
            if said and said not in found:
                found.append(said)
    return found[:MAX_ENDS]


def _said_before(game: Game, body: list[str], k: int) -> str:
    """What the rules say of the `end` at `body[k]`: the nearest comment above it in the phase, else
    the log line just before it."""
    for j in range(k - 1, -1, -1):
        if body[j].lstrip().startswith("#"):
            block = phases.comment_above(body, j + 1)
            return _cut(" ".join(block))
    for j in range(k - 1, max(-1, k - 4), -1):
        match = _LOG.match(body[j])
        if match:
            return _filled(game, match.group(1))
    return ""


def _filled(game: Game, template: str) -> str:
    """A prompt or log template for people: a name of the game's data by its value, the rest `…`."""
    tables = game.world.tables

    def hole(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        if name in tables:
            value: Any = tables[name][1]
            if isinstance(value, (int, str)) and not isinstance(value, bool):
                return str(value)
        return "…"

    return _cut(_HOLE.sub(hole, template.replace('\\"', '"')))


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1].rstrip() + "…"
