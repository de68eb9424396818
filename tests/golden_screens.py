"""Golden screens: what a player sees, stored as text, so that any change of it shows in review.

For each shipped game and examples/harbour, one stored golden journal (tests/data/golden/) is replayed
and the screen of the seat to answer is taken at a few moments (the first decision, a third and two
thirds of the way, the end as everybody sees it, and for some games a few chosen decisions (`MORE`),
each with what `score` prints then), exactly as `cityrules play` builds it at 80
columns (play/frame.py, without colours). They are kept in tests/data/screens/GAME.txt.

`tests/play/test_golden_screens.py` compares them; they change only on purpose:

    make goldens                                      # journals and screens of every game
    .venv/bin/python tests/golden_screens.py london   # only some games' screens
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCREENS = ROOT / "tests" / "data" / "screens"
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from interpreter.core.engine import Engine  # noqa: E402
from interpreter.core.journal import Journal  # noqa: E402
from interpreter.core.view import view  # noqa: E402
from interpreter.load.loader import load_game  # noqa: E402
from interpreter.play.frame import as_text, seat_screen  # noqa: E402
from interpreter.play.scores import score_lines  # noqa: E402
from interpreter.play.screen import Screens  # noqa: E402

# game reference -> the stored journal (tests/data/golden/) whose screens are kept
CASES = {
    "downtown": "downtown-3p-seed1",
    "london": "london-3p-seed1",
    "city": "city-3p-seed1",
    "examples/harbour": "harbour-2p-seed1",
}
# game reference -> more decisions of its journal whose screens are kept, each followed by what `score`
# prints for the seat: London's first card and first district that can only be paid with a loan
MORE = {
    "london": (52, 155),
}
WIDTH = 80


def screens_of(game: str) -> str:
    """The stored screens of one game, as one text."""
    journal = Journal.load(ROOT / "tests" / "data" / "golden" / f"{CASES[game]}.journal")
    engine = Engine(load_game(str(ROOT / game) if "/" in game else game, journal.variant))
    screens = Screens(engine, strict=True)
    total = len(journal.choices)
    moments = {0, total // 3, 2 * total // 3}
    state = engine.new_game(journal.seats, journal.seed, journal.names)
    seen: dict[int, dict[str, Any]] = {}
    parts = []
    for k, (seat, option) in enumerate(journal.choices):
        if k in moments:
            lines = seat_screen(engine, state, seat, WIDTH, seen.get(seat), screens)
            parts.append(f"=== {CASES[game]}: decision {k}, the screen of {state['names'][seat]} ===\n"
                         + as_text(lines, WIDTH))
        if k in MORE.get(game, ()):
            lines = seat_screen(engine, state, seat, WIDTH, seen.get(seat), screens)
            lines += score_lines(engine, state, seat, screens)
            parts.append(f"=== {CASES[game]}: decision {k}, the screen of {state['names'][seat]}, then 'score' ===\n"
                         + as_text(lines, WIDTH))
        seen[seat] = view(engine, state, seat)
        engine.apply_inplace(state, option, seat)
    assert state["result"] is not None, f"{CASES[game]} does not end"
    parts.append(f"=== {CASES[game]}: the end, as everybody sees it ===\n"
                 + as_text(seat_screen(engine, state, None, WIDTH, None, screens), WIDTH))
    return "\n\n".join(parts) + "\n"


def path_of(game: str) -> Path:
    """Where a game's screens are kept."""
    return SCREENS / f"{Path(game).name}.txt"


def main(games: list[str]) -> None:
    """Write the screens of these games (all when none is named)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    for game in games or list(CASES):
        game = next((g for g in CASES if Path(g).name == Path(game).name), game)
        path_of(game).write_text(screens_of(game), encoding="utf-8")
        print(f"wrote {path_of(game).relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
