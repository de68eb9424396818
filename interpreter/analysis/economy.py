"""Money in and out per phase and per seat, for every ledger field (`pay`/`gain`).

The engine's ledger keeps, per field, what each seat paid and gained over the whole game. To say
*where* the money moved, `PhaseLedger` is set as the engine's `ledger_hook`: at each pay or gain it
finds the phase whose compiled code made the call (the innermost phase on the Python stack, by
the code objects of the program's phases) and adds the amount there. Nothing in the game or the
engine knows about it; the game played is the same with or without it.
"""

from __future__ import annotations

import sys
from types import CodeType
from typing import Any

from ruledsl.program import Program

OTHER = "(outside any phase)"
# Generated code calls transfer from a phase's own function: a few frames at most.
_MAX_FRAMES = 40


def phase_codes(program: Program) -> dict[CodeType, str]:
    """Every code object of every compiled phase, mapped to the phase's name.

    A phase may be compiled to several functions (a plain one, resumable blocks, a direct one for
    bots); whatever callables its PhaseCode holds are taken. Copies of an item's ability
    (`card.on_activate#3`) are one phase for the figures (`card.on_activate`).
    """
    out: dict[CodeType, str] = {}
    for name, code in program.phases.items():
        shown = name.split("#", 1)[0]
        for value in vars(code).values():
            for item in value if isinstance(value, list) else [value]:
                c = getattr(item, "__code__", None)
                if isinstance(c, CodeType):
                    out[c] = shown
    return out


class PhaseLedger:
    """Tallies one game's transfers by (field, phase): paid and gained per seat."""

    def __init__(self, program: Program):
        self.codes = phase_codes(program)
        self.flows: dict[tuple[str, str], tuple[list[int], list[int]]] = {}

    def reset(self) -> None:
        """Start a new game."""
        self.flows = {}

    def phase_of_caller(self) -> str:
        """The innermost compiled phase on the call stack."""
        frame = sys._getframe(2)
        codes = self.codes
        for _ in range(_MAX_FRAMES):
            if frame is None:
                break
            name = codes.get(frame.f_code)
            if name is not None:
                return name
            frame = frame.f_back  # type: ignore[assignment]
        return OTHER

    def __call__(self, state: dict[str, Any], field: str, seat: int, amount: int, is_payment: bool) -> None:
        """The engine's ledger hook: one pay or gain that has just happened."""
        # Most transfers are made by a phase's own code, the frame just above `transfer`: looked at
        # here before walking the stack (this runs at every pay and gain of a batch).
        name = self.codes.get(sys._getframe(2).f_code)
        key = (field, name if name is not None else self.phase_of_caller())
        flow = self.flows.get(key)
        if flow is None:
            seats = state["seats"]
            flow = self.flows[key] = ([0] * seats, [0] * seats)
        flow[0 if is_payment else 1][seat] += amount
