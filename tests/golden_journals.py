"""Golden journals: stored games of every shipped game and examples/harbour, with their event logs.

Each case is a bot game (several seeds and seat counts per game, City's advanced variant too),
kept as two files in tests/data/golden/:

  NAME.journal   the journal (game, variant, seats, seed, names, every choice by option id)
  NAME.events.jsonl   one line per event of the log (kind, seats, data, text, to), then a last
                      line with the result, the number of decisions and a digest of the game's
                      final data (fields, ledger, generator)

`tests/games/test_golden_journals.py` replays every journal and compares the event log byte for
byte. The files change only on purpose, when a game's rules change:

    make goldens                        # every game
    .venv/bin/python tests/golden_journals.py london city   # only some games
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden"
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from interpreter.analysis.simulate import play_bots  # noqa: E402
from interpreter.core.engine import Engine  # noqa: E402
from interpreter.core.journal import Journal, replay  # noqa: E402
from interpreter.load.loader import load_game  # noqa: E402

# game reference (a shipped game's name, or a folder relative to the repository) -> variants
GAMES: dict[str, tuple[str | None, ...]] = {
    "downtown": (None,),
    "london": (None,),
    "city": (None, "advanced", "advanced-4-laps"),
    "examples/harbour": (None,),
}
SEEDS = (1, 2)
# The parts of the final state a digest covers: the game's own data, not the engine's bookkeeping.
DIGESTED = ("seat", "node", "global", "components", "ledger", "rng", "result", "decisions")


@dataclass(frozen=True)
class Case:
    """One stored game."""

    game: str
    variant: str | None
    seats: int
    seed: int

    @property
    def name(self) -> str:
        """The files' common stem: downtown-4p-seed1, city-advanced-3p-seed2, harbour-2p-seed1."""
        parts = [Path(self.game).name] + ([self.variant] if self.variant else [])
        return "-".join(parts + [f"{self.seats}p", f"seed{self.seed}"])

    def folder(self) -> str:
        """What load_game takes: a shipped game's name or a path."""
        return str(ROOT / self.game) if "/" in self.game else self.game


def cases() -> list[Case]:
    """Every stored game: each seat count of each game and variant, with each seed."""
    out = []
    for game, variants in GAMES.items():
        for variant in variants:
            g = load_game(Case(game, variant, 0, 0).folder(), variant)
            for seats in range(g.min_seats, g.max_seats + 1):
                out.extend(Case(game, variant, seats, seed) for seed in SEEDS)
    return out


_ENGINES: dict[tuple[str, str | None], Engine] = {}


def engine_for(case: Case) -> Engine:
    """One engine per game and variant, shared by the cases."""
    key = (case.game, case.variant)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(load_game(case.folder(), case.variant))
    return _ENGINES[key]


def digest(state: dict[str, Any]) -> str:
    """A short fingerprint of the game's final data."""
    data = {k: state[k] for k in DIGESTED}
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def events_text(state: dict[str, Any]) -> str:
    """The event log, one JSON line per event, then the final line."""
    lines = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in state["log"]]
    final = {"final": {"result": state["result"], "decisions": state["decisions"], "digest": digest(state)}}
    lines.append(json.dumps(final, sort_keys=True))
    return "\n".join(lines) + "\n"


def load_journal(case: Case) -> Journal:
    """The stored journal of a case."""
    return Journal.load(GOLDEN / f"{case.name}.journal")


def replayed(case: Case) -> dict[str, Any]:
    """The final state of the stored journal, replayed choice by choice through `apply`."""
    return replay(engine_for(case), load_journal(case))


def write(case: Case) -> None:
    """Play the case's bot game and store its journal and event log."""
    engine = engine_for(case)
    _, record = play_bots(engine, case.seats, case.seed, keep_journal=True)
    journal = record.journal
    assert journal is not None
    journal.game = case.game  # portable: a name or a path relative to the repository
    GOLDEN.mkdir(parents=True, exist_ok=True)
    (GOLDEN / f"{case.name}.journal").write_text(journal.dumps(), encoding="utf-8")
    (GOLDEN / f"{case.name}.events.jsonl").write_text(events_text(replayed(case)), encoding="utf-8")


def main(argv: list[str]) -> int:
    """Regenerate the golden files of the games named (all when none is)."""
    wanted = set(argv)
    chosen = [c for c in cases() if not wanted or Path(c.game).name in wanted or c.game in wanted]
    if not chosen:
        print(f"no such game among {', '.join(GAMES)}", file=sys.stderr)
        return 2
    for case in chosen:
        write(case)
        print(f"wrote {case.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
