"""Replaying a journal onto rules that may have changed since it was recorded.

A journal is the game's seats, seed and every choice by option id. When the rules change, a
recorded choice may no longer be legal: the rules now ask another seat, offer other options, end
earlier, or fail. `replay_checked` replays as far as the choices stay legal and says where it
stopped and why (`ReplayStop`), so that `replay`, `play --resume` and `play --watch` can report it
and continue from the last legal point instead of failing with the engine's bare refusal.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Sequence

from ruledsl.diagnostics import did_you_mean

from .decision import Decision, IllegalChoice
from .engine import Engine
from .errors import RuleError
from .game import Game

# The most options listed in a report: a long list is cut (the count says how many there are).
MAX_LISTED = 12


@dataclass(frozen=True)
class ReplayStop:
    """The first recorded choice the rules no longer accept.

    `number` counts choices from 1, as people do; `played` choices before it were replayed. `asked`
    holds, for each seat the rules ask now, the option ids it is offered (empty when the game is
    over or the rules failed).
    """

    number: int
    seat: int
    option: str
    reason: str
    asked: dict[int, tuple[str, ...]] = field(default_factory=dict)
    suggestion: str | None = None

    @property
    def played(self) -> int:
        """How many choices were replayed before this one: the last legal point."""
        return self.number - 1

    def describe(self, names: Sequence[str], reveal: bool | Sequence[int] = True) -> str:
        """Lines for people: which choice, whose, what was recorded, why it fails, what is offered now.

        `reveal`: whether the options offered may be listed (True for all seats, or the seats whose
        options may be shown here); options can show what only their seat may see, such as its hand.
        """
        lines = [f"Choice {self.number} of the journal ({_name(names, self.seat)}: '{self.option}') is not "
                 f"legal under the rules as they are now: {self.reason}."]
        for seat, ids in self.asked.items():
            if reveal is True or (reveal is not False and seat in reveal):
                shown = ", ".join(ids[:MAX_LISTED]) + (f", ... ({len(ids)} in all)" if len(ids) > MAX_LISTED else "")
                lines.append(f"  Now offered to {_name(names, seat)}: {shown}")
                if seat == self.seat and self.suggestion:
                    lines.append(f"  {self.suggestion[:1].upper()}{self.suggestion[1:]}")
            else:
                lines.append(f"  {_name(names, seat)} is offered {len(ids)} option(s), not listed here: they may "
                             f"show what only {_name(names, seat)} may see.")
        lines.append(f"The {self.played} choice(s) before it are legal: the game can continue from there."
                     if self.played else "No recorded choice is legal: the game can start again from the beginning.")
        return "\n".join(lines)


@dataclass
class ReplayReport:
    """The state after the last legal choice, and where the replay stopped (None: every choice held)."""

    state: dict[str, Any]
    played: int
    stop: ReplayStop | None


def replay_checked(engine: Engine, seats: int, seed: int, names: list[str] | None,
                   choices: Sequence[tuple[int, str]]) -> ReplayReport:
    """Replay `choices` from a new game until one is no longer legal.

    Raises RuleError when the rules fail before the first decision (nothing can be replayed then).
    A rule that fails while a choice is applied stops the replay at that choice; the state
    returned is the one before it (replayed again, since a failing rule may have changed it).
    """
    state = engine.new_game(seats, seed, names)
    for k, (seat, option) in enumerate(choices):
        try:
            stop = _refusal(engine, state, k + 1, seat, option)
            if stop is not None:
                return ReplayReport(state, k, stop)
            engine.apply_inplace(state, option, seat)
        except (RuleError, IllegalChoice) as err:
            reason = err.message if isinstance(err, RuleError) else str(err)
            again = replay_checked(engine, seats, seed, names, choices[:k])
            return ReplayReport(again.state, k, ReplayStop(k + 1, seat, option,
                                                           f"the rules fail when it is made: {reason}"))
    return ReplayReport(state, len(choices), None)


def _refusal(engine: Engine, state: dict[str, Any], number: int, seat: int, option: str) -> ReplayStop | None:
    """Why the choice cannot be made in this state, or None when it can."""
    if state["result"] is not None:
        return ReplayStop(number, seat, option, f"the game is already over (after {number - 1} choice(s))")
    decision = engine.pending(state)
    assert isinstance(decision, Decision)
    asked = {s: tuple(o.id for o in decision.options(s)) for s in decision.seats}
    names = state["names"]
    if seat not in decision.seats:
        who = " and ".join(_name(names, s) for s in decision.seats)
        return ReplayStop(number, seat, option, f"the rules now wait for {who}, not {_name(names, seat)}", asked)
    if option not in asked[seat]:
        var = option.partition(":")[0]
        changed = [i for i in asked[seat] if i.partition(":")[0] != var]
        why = (f"this decision now chooses '{changed[0].partition(':')[0]}', not '{var}'"
               if changed and len(changed) == len(asked[seat]) else f"'{option}' is not offered")
        return ReplayStop(number, seat, option, why, asked, _closest(option, asked[seat]))
    return None


def may_be_private(game: Game) -> bool:
    """Can a seat be offered options that show what others may not see (any field not public)?"""
    fields = [*game.seat_fields, *game.global_fields, *game.node_fields,
              *(f for kind in game.component_fields.values() for f in kind)]
    return any(f.visible != "all" for f in fields)


def _closest(option: str, offered: Sequence[str]) -> str | None:
    """A "did you mean" among the offered ids; within the same choice, the values are compared (the
    shared `name:` would make every id look alike)."""
    var, _, value = option.partition(":")
    same = {i.partition(":")[2]: i for i in offered if i.partition(":")[0] == var}
    if not same:
        return did_you_mean(option, offered)
    close = difflib.get_close_matches(value, sorted(same), n=1, cutoff=0.7)
    return f"did you mean '{same[close[0]]}'?" if close else None


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"
