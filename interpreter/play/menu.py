"""The options of a prompt as a player sees them and what a typed answer means: one numbering only.

The rule, the same for every game:

- When no option's label is a whole number, the options are numbered 1, 2, 3... by position, and a
  typed whole number is a position.
- When some option's label is a whole number (a lot `9`, a count `0`), the options are not numbered:
  each is shown by its label, and the player types the label. A typed number is then an option's
  name, never a position: `8` picks the option labelled 8, or nothing.
- When labels that are numbers are not all different, the options are lettered a, b, c... instead.

In every case an option's full id (`lot:9`) works, and so does a label or the part of the id after
the `:` that is not a number and names one option only, or a unique start of a label. Only ASCII
digits make a number: `١` or `²` is text, matched against labels like any other.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from rich.cells import cell_len

from ..core.decision import Option

_NUMBER = re.compile(r"-?[0-9]+")
_MAX_NUMBER_DIGITS = 9
MAX_LISTED = 6
"""Options listed at most when a typed answer fits several."""


def is_number(text: str) -> bool:
    """A whole number written with ASCII digits (and an optional minus)."""
    return _NUMBER.fullmatch(text) is not None


def _letters(k: int) -> str:
    """a, b, ..., z, aa, ab, ... for the k-th option (from 0)."""
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = string.ascii_lowercase[r] + out
    return out


@dataclass(frozen=True)
class Menu:
    """The options of one prompt, with the key a player types for each."""

    options: tuple[Option, ...]
    mode: str            # "numbers" (1, 2, ... by position), "names" (the labels) or "letters"
    keys: tuple[str, ...]

    @staticmethod
    def of(options: tuple[Option, ...]) -> "Menu":
        """The menu for these options, keyed by the rule in the module's docstring."""
        labels = [o.label for o in options]
        if not any(is_number(label) for label in labels):
            return Menu(options, "numbers", tuple(str(k) for k in range(1, len(options) + 1)))
        if len({label.lower() for label in labels}) == len(labels):
            return Menu(options, "names", tuple(labels))
        return Menu(options, "letters", tuple(_letters(k) for k in range(len(options))))

    def lines(self, width: int = 100) -> list[str]:
        """The options as lines, each with what it means (its detail) after a dash, in as many
        columns as fit `width` without cutting an entry; one entry too long for the screen is
        wrapped under itself."""
        if self.mode == "names":
            keys = [f"  {label}" for label in self.keys]
        else:
            sep = "." if self.mode == "numbers" else ")"
            keys = [f"{key:>3}{sep} {o.label}" for key, o in zip(self.keys, self.options)]
        indent = 8
        if any(o.detail for o in self.options):
            pad = min(max(cell_len(k) for k in keys), 32)
            entries = [(_pad(k, pad) + f" — {o.detail}" if o.detail else k).rstrip()
                       for k, o in zip(keys, self.options)]
            # A long detail goes on under itself, when that leaves it room enough.
            indent = pad + 3 if width - pad - 3 >= 30 else indent
        else:
            entries = keys
        if len(entries) <= 12 and self.mode != "names":
            return [line for e in entries for line in _wrap(e, width, indent)]
        cell = max(cell_len(e) for e in entries) + 2
        columns = max(1, width // cell)
        if columns == 1:
            return [line for e in entries for line in _wrap(e, width, indent)]
        rows = -(-len(entries) // columns)
        out = []
        for r in range(rows):
            row = [entries[c * rows + r] for c in range(columns) if c * rows + r < len(entries)]
            out.append("".join(_pad(e, cell) for e in row).rstrip())
        return out

    def hint(self) -> str:
        """What a player may type, for the message after an answer that is not an option."""
        if self.mode == "numbers":
            return f"type a number from 1 to {len(self.options)}, an option's name"
        if self.mode == "letters":
            return f"type a letter from a to {self.keys[-1]}"
        example = next((k for k in self.keys if is_number(k)), self.keys[0])
        return f"type an option as it is shown (e.g. '{example}')"

    def parse(self, text: str) -> Option | None:
        """The option a typed answer means, or None when it means no option or several."""
        found = self.candidates(text)
        return found[0] if len(found) == 1 else None

    def candidates(self, text: str) -> list[Option]:
        """The options a typed answer could mean: one when it says which, several when it fits more
        than one (a start of two labels), none when it fits no option."""
        text = text.strip()
        if not text:
            return []
        lowered = text.lower()
        if self.mode != "names" and lowered in self.keys:
            return [self.options[self.keys.index(lowered)]]
        if is_number(text):
            # A number is a position (numbers), a name (names), or nothing at all (letters).
            if self.mode != "names" or len(text) > _MAX_NUMBER_DIGITS:
                return []
            return [o for o in self.options if is_number(o.label) and len(o.label) <= _MAX_NUMBER_DIGITS
                    and int(o.label) == int(text)]
        for o in self.options:
            if lowered == o.id.lower():
                return [o]
        exact = [o for o in self.options
                 if lowered == o.label.lower() or (lowered == o.id.split(":", 1)[-1].lower())]
        if exact:
            return exact
        return [o for o in self.options if o.label.lower().startswith(lowered) and not is_number(o.label)]

    def several(self, text: str, found: list[Option]) -> str:
        """What to say when `text` fits several options: which they are, and how to pick one."""
        keys = [self.keys[self.options.index(o)] for o in found]
        shown = keys if self.mode != "names" else [f"'{k}'" for k in keys]
        which = ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
        listed = "; ".join(f"{k}. {o.label}" if self.mode != "names" else k
                           for k, o in zip(keys[:MAX_LISTED], found[:MAX_LISTED]))
        more = f"; and {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
        how = "type its number" if self.mode == "numbers" else "type its letter" if self.mode == "letters" \
            else "type it whole"
        if self.mode == "names":
            return f"'{text}' matches {which}: {how}, or more of its name."
        return f"'{text}' matches {which} ({listed}{more}): {how}, or more of its name."


def chars_within(text: str, width: int) -> int:
    """How many of the first characters fit in `width` terminal cells (wide characters take two)."""
    cells = 0
    for k, char in enumerate(text):
        cells += cell_len(char)
        if cells > width:
            return k
    return len(text)


def _pad(text: str, width: int) -> str:
    """`text` followed by spaces up to `width` terminal cells."""
    return text + " " * max(0, width - cell_len(text))


def _wrap(entry: str, width: int, indent: int = 8) -> list[str]:
    """One option too long for the screen, cut at spaces, the rest indented under it."""
    if cell_len(entry) <= width or width < indent + 20:
        return [entry]
    out = []
    while cell_len(entry) > width:
        fit = chars_within(entry, width)
        cut = entry.rfind(" ", indent + 1, fit)
        if cut <= indent:
            cut = max(fit, 1)
        out.append(entry[:cut].rstrip())
        entry = " " * indent + entry[cut:].lstrip()
    return out + [entry]
