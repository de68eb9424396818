"""Hot seat: each person answers all their questions of one step in one sitting where the rules
allow, so a Downtown round needs at most one hand-over per human per step."""

from __future__ import annotations

import random
import re
from pathlib import Path

from interpreter.core.decision import Decision
from interpreter.play.menu import Menu
from play_helpers import Table

STEPS = re.compile(r"is up for zoning|Buy parcels on which lot")


def _play(tmp_path: Path, seed: int) -> tuple[Table, list[tuple[str, str]]]:
    """A Downtown game, two people and a bot, answered at random; the questions and hand-overs in
    order, as (who, what) with who 'hand' for a hand-over."""
    asked: list[tuple[str, str]] = []
    rng = random.Random(seed)

    def answer(table: Table, seat: int | None, prompt: str) -> str:
        if "press Enter" in prompt:
            asked.append(("hand", prompt))
            return ""
        decision = table.question()
        assert seat is not None and isinstance(decision, Decision)
        asked.append((table.session.seats[seat].name, decision.prompt(seat)))
        if len(asked) > 300:
            raise EOFError
        return rng.choice(Menu.of(decision.options(seat)).keys)

    table = Table("downtown", ["human", "human", "bot"], seed, tmp_path / "j.json", answer)
    table.run()
    return table, asked


def test_a_person_answers_lot_and_parcels_in_one_sitting_and_a_step_hands_over_once_per_person(
        tmp_path: Path) -> None:
    for seed in (1, 2):
        table, asked = _play(tmp_path / str(seed), seed)
        parcels = [k for k, (_, what) in enumerate(asked) if what.startswith("How many parcels")]
        assert len(parcels) > 5
        for k in parcels:
            # The same person's lot question just before, with no hand-over between.
            assert asked[k - 1][0] == asked[k][0] and asked[k - 1][1].startswith("Buy parcels"), asked[k - 3:k + 1]
        # Steps: each lot's zoning (vote, lobby) and each round's purchase (lot, parcels). Two people
        # need at most two hand-overs a step, plus one for each mayor's pile.
        steps = sum(1 for k, (who, what) in enumerate(asked) if STEPS.search(what)
                    and not any(STEPS.search(w) and w == what for _, w in asked[max(0, k - 3):k]))
        rounds = sum(1 for line in table.out if re.search(r"Round \d+: .* is mayor", line))
        handovers = sum(1 for who, _ in asked if who == "hand")
        assert handovers <= 2 * steps + rounds, (handovers, steps, rounds)
        # Fewer than before (every question of a step handed over to each person in turn: 4 a lot).
        assert handovers < 1.5 * steps, (handovers, steps)
        assert any("asked now so that the keyboard need not come back" in line for line in table.out)
