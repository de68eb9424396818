"""Who answers a decision next, for every table (the terminal session and the networked host).

In a secret choice the bots answer only after every human: a person's answer must never wait on a
bot that has seen the table change, and a bot answering last knows nothing more than the rules show
it. In any other choice the bots answer first, so that people are asked only once the bots are done.
"""

from __future__ import annotations

from typing import Collection

from ..core.decision import Decision


def bots_to_answer(decision: Decision, bots: Collection[int]) -> list[int]:
    """The bots' seats that may answer `decision` now, in seat order (empty: a human answers next)."""
    if decision.secret and any(s not in bots for s in decision.seats):
        return []
    return [s for s in decision.seats if s in bots]
