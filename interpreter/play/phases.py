"""`rules`: where the game is, in the designer's own words: the comment written above the phase
being played (and above the choice being asked) in the rules files.

The rules files are read as they were loaded (`Game.sources`); a phase is found by its `phase NAME`
line, and its description is the block of `#` lines right above it. Lines of that block written
`##` are the designer's own notes (where a ruling comes from, why a number was chosen): they are
never quoted to players, nor are `# allow:` lines, which speak to the checker.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from ruledsl.printable import printable

from ..core.game import Game
from .palette import DIM, HEADING

_PHASE = re.compile(r"^phase\s+([A-Za-z_][A-Za-z0-9_]*)")

DESIGNER_NOTE = "##"
"""A comment line that starts with this is for designers only: nothing quotes it to players."""


def for_players(comment_line: str) -> bool:
    """True when a `#` line of a rules file may be quoted to players: not a designer's `##` note, not
    an `# allow:` line for the checker."""
    stripped = comment_line.lstrip()
    return not stripped.startswith(DESIGNER_NOTE) and not stripped[1:].strip().lower().startswith("allow:")


def comment_above(lines: list[str], index: int) -> list[str]:
    """The `#` lines right above line `index` (0-based) that players may read, without the `#`, in order."""
    found: list[str] = []
    k = index - 1
    while k >= 0 and lines[k].lstrip().startswith("#"):
        if for_players(lines[k]):
            found.append(lines[k].lstrip()[1:].strip())
        k -= 1
    return list(reversed(found))


def phase_of_line(lines: list[str], index: int) -> tuple[str, int] | None:
    """The phase a line belongs to: its name and the line (0-based) of its `phase` header."""
    for k in range(min(index, len(lines) - 1), -1, -1):
        found = _PHASE.match(lines[k])
        if found:
            return found.group(1), k
        if lines[k] and not lines[k][0].isspace() and not lines[k].startswith("#") and k != index:
            return None  # a formula or another top-level line: the choice is not in a phase here
    return None


def file_comment(lines: list[str]) -> list[str]:
    """The comment a rules file opens with (its first block of `#` lines)."""
    end = 0
    while end < len(lines) and lines[end].lstrip().startswith("#"):
        end += 1
    return comment_above(lines, end)


def phase_comment(game: Game, name: str) -> list[str]:
    """The comment above `phase NAME` in the game's rules files; without one, the comment its
    file opens with ([] when there is neither)."""
    for file, text in game.sources.items():
        if not file.endswith(".rules"):
            continue
        lines = text.splitlines()
        for k, line in enumerate(lines):
            found = _PHASE.match(line)
            if found and found.group(1) == name:
                return comment_above(lines, k) or file_comment(lines)
    return []


def where(game: Game, state: dict[str, Any]) -> list[Text]:
    """What `rules` prints: the phases being played, outermost first, then the current one's
    comment and the comment above the choice being asked."""
    out: list[Text] = []
    running = [str(frame[0]) for frame in state.get("stack") or []
               if isinstance(frame, (list, tuple)) and frame and isinstance(frame[0], str)]
    shown = [name if "#" not in name else f"the {name.split('.')[0]}'s {name.split('.')[-1].split('#')[0]} ability"
             for name in running]
    if shown:
        out.append(Text("Now: " + " › ".join(printable(n.replace("_", " ")) for n in shown), style=HEADING))
    p = state.get("pending")
    said = False
    if p is not None:
        span = game.program.chooses[p["spec"]].span
        text = game.sources.get(span.file, "")
        lines = text.splitlines()
        index = span.line - 1
        if 0 <= index < len(lines):
            phase = phase_of_line(lines, index) if span.file.endswith(".rules") else None
            if phase is not None:
                comment = comment_above(lines, phase[1]) or file_comment(lines)
                out.append(Text(f"The phase '{printable(phase[0])}'" + (":" if comment else
                                " (its rules file says nothing about it above the phase)."), style=HEADING))
                out += [Text("  " + printable(line)) for line in comment]
                said = bool(comment)
            choice = comment_above(lines, index)
            if choice:
                out.append(Text("This choice:", style=HEADING))
                out += [Text("  " + printable(line)) for line in choice]
                said = True
    if not said:
        for name in reversed(running):
            comment = phase_comment(game, name)
            if comment:
                out.append(Text(f"The phase '{printable(name)}':", style=HEADING))
                out += [Text("  " + printable(line)) for line in comment]
                said = True
                break
    if not said:
        out.append(Text("  The rules files say nothing in words about this part of the game.", style=DIM))
    return out
