"""`hint`: what the strongest bot would choose for a seat, searched from that seat's own view.

Shared by the terminal session and the networked table's host, so both give the same advice.
"""

from __future__ import annotations

from typing import Any

from ruledsl.printable import printable

from ..agents import MCTSAgent, bot_seed
from ..core.engine import Engine
from .menu import Menu

SHOWN = 3


def hint(engine: Engine, state: dict[str, Any], seat: int, seed: int, menu: Menu, shown: int = SHOWN) -> str:
    """The best few of `menu`'s options for `seat`, as the mcts bot ranks them from what the seat may see.

    The advice is seeded like a bot's decision (from the game's seed, the seat and the decision count),
    so asking twice gives the same answer; nothing of the seed shows in it, and it is never journaled.
    """
    advisor = MCTSAgent(bot_seed(seed, seat) ^ 0x5EED)
    found = advisor.search(engine, state, seat)
    lines = [f"  hint: the mcts bot ({advisor.budget} playouts from what you can see) would choose:"]
    for o in found[:shown]:
        option = f"{menu.keys[o.index]}. {printable(menu.options[o.index].label)}" if menu.mode != "names" \
            else menu.keys[o.index]
        lines.append(f"    {option:<28} about {o.win_chance:.0%} to win ({o.visits} playouts)")
    return "\n".join(lines)
