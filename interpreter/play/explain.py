"""`explain` and the final breakdown: how the rules arrived at the scores, from the game's event log.

Nothing here knows a game. The session marks, at every decision, how long the log was and what each
seat's score fields held; `explain` finds the last stretch of play between two decisions in which a
score changed, and shows the events of that stretch the seat may read, each with its text and its
recorded facts (the `log` statement's fields), then each seat's change. At the end of a game, each
seat's final score is broken down by the game's `breakdown` formula when it has one, else by the
events of the final stretch that concern the seat; a score kept with a ledger also shows what was
paid and gained over the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from ruledsl.printable import printable

from ..core.engine import Engine
from ..core.game import FieldSpec, Game
from ..core.view import masked_from_view, view
from .palette import DIM, HEADING, seat_colour
from .screen import Screens


@dataclass(frozen=True)
class Mark:
    """The table at one decision: the log's length and each scored field's values, by seat."""

    decisions: int
    log: int
    values: tuple[tuple[Any, ...], ...]


def scored_fields(game: Game) -> list[FieldSpec]:
    """The seat fields `explain` follows: the score, the currency, any whole-number ledger field and
    the fields the game's `screen: follow` names, when everybody sees them."""
    names = [game.score_field, game.currency] + [f.name for f in game.seat_fields if f.ledger] \
        + list(game.screen.follow)
    found = []
    for f in game.seat_fields:
        if f.name in names and f.visible == "all" and f.type_text == "int" and f not in found:
            found.append(f)
    return found


def mark(game: Game, state: dict[str, Any]) -> Mark:
    """The mark of `state`."""
    return Mark(state["decisions"], len(state["log"]),
                tuple(tuple(state["seat"][f.name]) for f in scored_fields(game)))


def readable(event: dict[str, Any], seat: int | None) -> bool:
    """True when `seat` may read this log event (the same rule as `view`)."""
    return event["to"] is None or (seat is not None and seat in event["to"])


def event_lines(engine: Engine, event: dict[str, Any], names: list[str], hide_seats: bool = False) -> list[Text]:
    """An event as its text, then its recorded facts: `lot 8 · value 6 · owners Ana, Ben` (without
    the facts that are seats, with `hide_seats`)."""
    lines = [Text("  " + printable(event["text"]))]
    seats = engine.program.event_seats.get(event["kind"], frozenset())
    facts = []
    for key, value in event["data"].items():
        if hide_seats and key in seats:
            continue
        facts.append(f"{key.replace('_', ' ')} {printable(_fact(value, key in seats, names))}")
    if facts:
        lines.append(Text("      " + " · ".join(facts), style=DIM))
    return lines


def _fact(value: Any, is_seat: bool, names: list[str]) -> str:
    if isinstance(value, list):
        return ", ".join(_fact(v, is_seat, names) for v in value) or "none"
    if is_seat and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)


def explain(engine: Engine, state: dict[str, Any], marks: list[Mark], seat: int | None,
            screens: Screens | None = None) -> list[Text]:
    """The last stretch of play in which a score changed: its events and each seat's change; then,
    when the game has a `projection` (and `screens` to run it), what each seat
    would score if the game ended now, from what `seat` may see."""
    fields = scored_fields(engine.game)
    if not fields:
        return [Text("  This game keeps no score on the seats that explain could follow.")]
    points = marks + [mark(engine.game, state)]
    for k in range(len(points) - 1, 0, -1):
        a, b = points[k - 1], points[k]
        if a.values == b.values:
            continue
        events = [e for e in state["log"][a.log:b.log] if readable(e, seat)]
        names = state["names"]
        out = [Text(f"How the last change of {' and '.join(f.name for f in fields)} came about "
                    f"(after decision {a.decisions}):", style=HEADING)]
        for event in events:
            out += event_lines(engine, event, names)
        for f, before, after in zip(fields, a.values, b.values):
            moves = [f"{printable(names[i])} {x} → {y} ({y - x:+d})" for i, (x, y) in enumerate(zip(before, after))
                     if x != y]
            if moves:
                out.append(Text(f"  {f.name}: " + ", ".join(moves)))
        return out + projected_line(engine, state, seat, screens)
    return [Text("  No score has changed yet: nothing to explain.")]


def projected(engine: Engine, state: dict[str, Any], seat: int | None,
              screens: Screens | None) -> list[list[tuple[str, int]]] | None:
    """Each seat's projection, a list of (text, points) parts, run on what `seat` may see; None when
    the game has none, is over, or the formula failed."""
    name = engine.game.screen.projection
    if not name or screens is None or state["result"] is not None:
        return None
    masked = masked_from_view(engine, view(engine, state, seat))
    found = [screens.formula(masked, name, i) for i in range(state["seats"])]
    return found if all(isinstance(parts, list) for parts in found) else None


def projected_line(engine: Engine, state: dict[str, Any], seat: int | None, screens: Screens | None) -> list[Text]:
    """'If the game ended now: Ana 14, Ben 9', from what `seat` may see ([] without a projection)."""
    found = projected(engine, state, seat, screens)
    if found is None:
        return []
    totals = [f"{printable(name)} {sum(p for _, p in parts)}" for name, parts in zip(state["names"], found)]
    return [Text(f"  If the game ended now: {', '.join(totals)} (from what you can see; 'score' shows each part).",
                 style=DIM)]


def breakdown(engine: Engine, state: dict[str, Any], marks: list[Mark], seat: int, screens: Any) -> list[Text]:
    """One seat's final score, part by part, as the rules computed it (see the module's docstring)."""
    game = engine.game
    names = state["names"]
    score = game.score_field
    head = Text("  ")
    head.append(printable(names[seat]), style=seat_colour(seat))
    if score:
        head.append(f": {state['seat'][score][seat]} {score}")
    out = [head]
    if game.screen.breakdown:
        # The game is over: nothing is secret any more (the seed that rebuilds it all is shown too).
        parts = screens.formula(state, game.screen.breakdown, seat)
        if isinstance(parts, list):
            for text, points in parts:
                out.append(Text(f"      {points:>+5}  {printable(str(text))}"))
            out.append(Text(f"      {'=' + str(sum(p for _, p in parts)):>5}", style=DIM))
            return out
    last = marks[-1].log if marks else 0
    mine = [e for e in state["log"][last:] if seat in e["seats"] and readable(e, None)]
    # Events that record the score itself are the final scoring's; without any, the whole stretch.
    scoring = [e for e in mine if score in e["data"]]
    for event in scoring or mine:
        out += [Text("    " + line.plain) for line in event_lines(engine, event, names, hide_seats=True)]
    for f in scored_fields(game):
        ledger = state["ledger"].get(f.name)
        if ledger is not None:
            paid, gained = ledger[0][seat], ledger[1][seat]
            start = f.initial if isinstance(f.initial, int) else 0
            out.append(Text(f"      {f.name}: {start} at the start, {gained:+d} gained, {-paid:+d} paid "
                            f"= {state['seat'][f.name][seat]}", style=DIM))
    return out
