"""Nothing a seat may not see reaches what it is shown: its screen, its question, the log, explain.

For every game with secrets (hidden fields or secret choices), at many moments of a seeded game and
for every seat (and a spectator), a twin state is made that differs only in what that seat may not
see: the items of every hidden place (other seats' hands and piles, the decks) are dealt out again
among themselves, and the answers other seats gave to a secret choice still open are changed. The
seat's whole screen must be the same on both, byte for byte.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter.core.engine import Engine
from interpreter.core.game import FieldSpec
from interpreter.core.state import copy_state
from interpreter.core.view import view
from interpreter.play import explain as X
from interpreter.play.frame import as_text, seat_screen
from interpreter.play.scores import score_lines
from interpreter.play.screen import Screens
from play_screens_helpers import engine_of, positions
from twin_helpers import back_of

# The shipped games with something hidden (City has no hidden field and no secret choice).
SECRET_GAMES = ("downtown", "london", "examples/harbour")


def _leaf_type(type_text: str) -> str:
    """The type of the values at the bottom of a field's lists and maps: `list[list[card]]` -> card."""
    t = type_text.strip().rstrip("?")
    while True:
        if t.startswith("list[") and t.endswith("]"):
            t = t[5:-1]
        elif t.startswith("map[") and t.endswith("]"):
            t = t[4:-1].split(",", 1)[1].strip()
        else:
            return t


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every value at the bottom of nested lists and maps."""
    out: list[tuple[Any, Any]] = []
    items = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ()
    for key, v in items:
        if isinstance(v, (list, dict)):
            out += _slots(v)
        else:
            out.append((value, key))
    return out


def _hidden_from(game: Any, seat: int | None, state: dict[str, Any]) -> list[tuple[FieldSpec, Any]]:
    """Each hidden field part as (field, its value in `state`): what `seat` may not see."""
    parts: list[tuple[FieldSpec, Any]] = []
    parts += [(f, state["global"][f.name]) for f in game.global_fields if f.visible != "all"]
    for f in game.seat_fields:
        if f.visible != "all":
            parts += [(f, state["seat"][f.name][owner]) for owner in range(state["seats"])
                      if f.visible == "nobody" or owner != seat]
    parts += [(f, state["node"][f.name]) for f in game.node_fields if f.visible != "all"]
    for kind, fields in game.component_fields.items():
        parts += [(f, state["components"][kind][f.name]) for f in fields if f.visible != "all"]
    return parts


def twin(engine: Engine, state: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
    """A copy of `state` differing only in what `seat` may not see."""
    other = copy_state(state)
    # Values of one type change places, a card only with one whose back shows the same.
    groups: dict[tuple[str, Any], list[tuple[Any, Any]]] = {}
    for f, value in _hidden_from(engine.game, seat, other):
        kind = _leaf_type(f.type_text)
        for c, k in _slots(value):
            groups.setdefault((kind, back_of(engine, kind, c[k])), []).append((c, k))
    for slots in groups.values():
        values = [c[k] for c, k in slots]
        rng.shuffle(values)
        for (c, k), v in zip(slots, values):
            c[k] = v
    p = other["pending"]
    if p is not None and engine.program.chooses[p["spec"]].secret:
        for i, s in enumerate(p["seats"]):
            if p["done"][i] and s != seat and len(p["options"][i]) > 1:
                p["answers"][i] = next(o for o in p["options"][i] if o != p["answers"][i])
    return other


def shown(engine: Engine, screens: Screens, state: dict[str, Any], seat: int | None) -> str:
    """Everything the seat can be shown: its screen and question, its log, explain's account, what
    `score` prints (with the game's projection, run on the seat's view)."""
    lines = seat_screen(engine, state, seat, 100, None, screens)
    lines += X.explain(engine, state, [], seat, screens)
    lines += score_lines(engine, state, seat, screens)
    return as_text(lines, 100) + "\n" + "\n".join(view(engine, state, seat)["log"])


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_a_seat_is_shown_the_same_whatever_it_may_not_see(game: str) -> None:
    engine = engine_of(game)
    screens = Screens(engine, strict=True)
    rng = random.Random(7)
    seats = 3
    compared = differed = 0
    for state in positions(engine, seats, 5, every=2 if game == "examples/harbour" else 7):
        if state["result"] is not None:
            break
        for seat in [*range(seats), None]:
            other = twin(engine, state, seat, rng)
            if other == state:
                continue
            assert shown(engine, screens, state, seat) == shown(engine, screens, other, seat), (game, seat)
            compared += 1
            # The test can fail: the twin differs in what somebody (or the rules) holds.
            if seat is not None and any(shown(engine, screens, state, s) != shown(engine, screens, other, s)
                                        for s in range(seats) if s != seat):
                differed += 1
    assert compared > 20
    if game == "london":  # hands are seen by their owners: the twins differ on their screens
        assert differed > 10


def test_the_twins_differ_where_the_owner_looks() -> None:
    """The check above is not blind: a hand dealt out again changes its owner's screen."""
    engine = engine_of("london")
    state = next(s for s in positions(engine, 3, 5) if s["global"]["turn_number"] > 3)
    other = twin(engine, state, 1, random.Random(1))
    screens = Screens(engine, strict=True)
    assert shown(engine, screens, state, 0) != shown(engine, screens, other, 0)
    assert shown(engine, screens, state, 1) == shown(engine, screens, other, 1)
