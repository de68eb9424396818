"""Restricted play (Jaffe et al., AIIDE 2012): forbid a seat the options whose id matches a pattern.

`0:use_lobby:yes` forbids seat 0 to play its lobby token; `1:develop:*hospital*` forbids seat 1
every option of the decision `develop` whose id mentions a hospital. Comparing a batch played
so with free play measures what a rule, an action or a card is worth to a seat.

Patterns are shell-style globs (`*`, `?`, `[...]`) matched against the whole option id, case
sensitive. When every legal option of a decision is forbidden, the seat still has to answer:
that decision is played freely and counted, and the figures say how often it happened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import translate
from typing import Sequence


class RestrictionError(ValueError):
    """A `--restrict` argument that cannot be read."""


@dataclass(frozen=True)
class Restriction:
    """One seat's forbidden options."""

    seat: int
    pattern: str

    @property
    def text(self) -> str:
        """As written on the command line."""
        return f"{self.seat}:{self.pattern}"

    def forbids(self, seat: int, option_id: str) -> bool:
        """True if this restriction forbids `seat` the option with this id."""
        return seat == self.seat and matches(self.pattern, option_id)


_CACHE: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    found = _CACHE.get(pattern)
    if found is None:
        found = _CACHE[pattern] = re.compile(translate(pattern))
    return found


def matches(pattern: str, option_id: str) -> bool:
    """True if the whole option id matches the glob pattern."""
    return _compiled(pattern).match(option_id) is not None


def parse_restriction(text: str, seats: int) -> Restriction:
    """`SEAT:PATTERN` -> Restriction; the seat is a number from 0 to seats - 1."""
    seat_text, sep, pattern = text.partition(":")
    if not sep or not pattern:
        raise RestrictionError(f"--restrict '{text}': write SEAT:PATTERN, as in 0:use_lobby:yes or '1:develop:*'")
    try:
        seat = int(seat_text)
    except ValueError:
        raise RestrictionError(f"--restrict '{text}': the seat must be a number from 0 to {seats - 1}, "
                               f"not '{seat_text}'") from None
    if not 0 <= seat < seats:
        raise RestrictionError(f"--restrict '{text}': there is no seat {seat} in a {seats}-player game "
                               f"(seats are 0 to {seats - 1})")
    return Restriction(seat, pattern)


def parse_restrictions(texts: Sequence[str] | None, seats: int) -> tuple[Restriction, ...]:
    """Every `--restrict` argument, checked against the number of seats."""
    return tuple(parse_restriction(t, seats) for t in texts or ())


def allowed_indices(restrictions: Sequence[Restriction], seat: int, option_ids: Sequence[str]) -> list[int]:
    """Indices of the options the restrictions leave to `seat` (possibly none)."""
    mine = [r for r in restrictions if r.seat == seat]
    if not mine:
        return list(range(len(option_ids)))
    return [i for i, oid in enumerate(option_ids) if not any(r.forbids(seat, oid) for r in mine)]
