"""Skill gap: how much the game rewards skill, as a strong bot's win rate against random bots."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .batch import BatchSpec
from .lineup import strongest_bot


def skill_gap_spec(spec: BatchSpec, strong: str | None = None) -> BatchSpec | None:
    """The batch that measures it: one strong bot and random bots, turned round the seats game by game.

    None when this build has no bot stronger than random.
    """
    strong = strong or strongest_bot()
    if strong is None:
        return None
    bots = (strong,) + ("random",) * (spec.seats - 1)
    return replace(spec, bots=bots, rotate=True, restrictions=(), journals=None, keep_games=False)


def skill_gap_figure(figures: dict[str, Any], strong: str) -> dict[str, Any]:
    """The strong bot's win rate (with its interval) beside the fair share, from that batch's figures."""
    row = next(b for b in figures["by_bot"] if b["bot"] == strong)
    fair = row["fair_share"]
    lo, hi = row["win_rate_ci"]
    return {"bot": strong, "against": "random", "games": figures["games"], "win_rate": row["win_rate"],
            "win_rate_ci": row["win_rate_ci"], "fair_share": fair,
            "ratio_to_fair": round(row["win_rate"] / fair, 3) if row["win_rate"] is not None else None,
            "rewards_skill": lo > fair, "below_fair": hi < fair}
