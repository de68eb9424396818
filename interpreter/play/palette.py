"""Who is who on a screen: a colour and a one-character tag per seat, and text cut to a width.

Tags stand for seats where space is short (a board box, a lot's parcels): each is one character,
and no two seats share one, so `ABC` always says whose parcels they are. The legend under the
board says which tag is whom.
"""

from __future__ import annotations

import functools

from rich.cells import cell_len, set_cell_size

# Distinct on dark and light backgrounds, in the order seats take them (12 seats at most).
SEAT_COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow",
                "bright_red", "bright_blue", "bright_green", "bright_magenta", "bright_cyan", "dark_orange")
CHANGED = "reverse"        # what changed since the seat's last turn
NOTE = "bold yellow"       # the game's notes (final round, warnings)
HEADING = "bold"
DIM = "dim"


def seat_colour(seat: int) -> str:
    """The colour of a seat on every screen."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_tags(names: list[str]) -> list[str]:
    """One character per seat, all different: the first letter of the name that no earlier seat
    took (upper case), else a letter of the name, else the seat's number or a free letter."""
    return list(_tags(tuple(names)))


@functools.lru_cache(maxsize=64)
def _tags(names: tuple[str, ...]) -> tuple[str, ...]:
    tags: list[str] = []
    for k, name in enumerate(names):
        letters = [ch.upper() for ch in name if ch.isalnum()]
        candidates = letters + [str(k + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        tags.append(next(c for c in candidates if c not in tags and len(c) == 1 and cell_len(c) == 1))
    return tuple(tags)


def fit(text: str, width: int) -> str:
    """`text` cut to `width` terminal cells (a wide character counts two); never longer."""
    if width <= 0:
        return ""
    if len(text) <= width and text.isascii() or cell_len(text) <= width:
        return text
    return set_cell_size(text, width)


def centre(text: str, width: int) -> str:
    """`text` cut to `width` cells and centred in them."""
    text = fit(text, width)
    room = width - cell_len(text)
    return " " * (room // 2) + text + " " * (room - room // 2)
