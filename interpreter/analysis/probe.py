"""Probing strategies: restricted play run automatically over the option families of a game.

An option id names its family by its prefixes (`action:buy:shop-3` is in `action:*` and in
`action:buy:*`, see tally.option_keys). A free batch shows which families offer a choice between
two or more members (an id or a smaller family). For each member M of such a family, two batches
restrict one seat, on the free batch's seeds:

- "always M": the seat is forbidden the family's other members, so it takes M whenever it may (a
  decision offering none but them is then played freely, as restricted play does);
- "never M": the seat is forbidden M.

Each probe's effect is the restricted seat's win rate minus its win rate in free play, paired game
by game (common random numbers). Its interval is widened for the number of probes by Holm's
step-down (the probe of rank r among m, by p-value, gets a 1 - 0.05/(m - r + 1) interval), and
"significant" is Holm's verdict at a family-wise 5 %. A probe is flagged

- dominant: always taking M wins at least DOMINANT times the fair share (1/seats), significantly
  more than free play;
- never worth taking: never taking M wins significantly more than free play;
- winning impossible: the restricted seat won no game although it won some in free play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable

from ..core.state import default_names
from .batch import BatchSpec
from .parallel import BatchResult
from .restrict import Restriction
from .statistics import holm, paired_difference, t_quantile

DOMINANT = 1.5
"""A constant choice winning this many times the fair share (1/seats) is flagged dominant."""
ALPHA = 0.05
"""Family-wise error of the probes' verdicts (Holm)."""


@dataclass(frozen=True)
class Probe:
    """One restricted batch: which member of which family, always or never, and the restrictions."""

    family: str
    member: str
    kind: str                       # "always" or "never"
    restrictions: tuple[Restriction, ...]

    @property
    def text(self) -> str:
        """The probe in words."""
        return f"{self.kind} {self.member}"


def glob_escape(text: str) -> str:
    """A glob pattern matching exactly `text` (option ids may hold `*`, `?` or `[`)."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def member_pattern(member: str) -> str:
    """The glob pattern of a family member: an id exactly, or every id of a smaller family."""
    return glob_escape(member[:-1]) + "*" if member.endswith(":*") else glob_escape(member)


def parent(key: str) -> str:
    """The family an option key belongs to directly ('' for a top-level key)."""
    base = key[:-2] if key.endswith(":*") else key
    head, sep, _ = base.rpartition(":")
    return head + ":*" if sep else ""


def plan(options: dict[str, list[int]], seat: int, most: int) -> list[Probe]:
    """The probes of the families with a choice, the most chosen first, at most `most` of them."""
    members: dict[str, list[str]] = {}
    for key in options:
        if parent(key):
            members.setdefault(parent(key), []).append(key)
    chosen = {k: v[0] for k, v in options.items()}
    probes: list[Probe] = []
    for family in sorted((f for f, m in members.items() if len(m) >= 2), key=lambda f: (-chosen.get(f, 0), f)):
        kids = sorted(members[family], key=lambda k: (-chosen[k], k))
        for member in kids:
            others = tuple(Restriction(seat, member_pattern(k)) for k in kids if k != member)
            probes.append(Probe(family, member, "always", others))
            probes.append(Probe(family, member, "never", (Restriction(seat, member_pattern(member)),)))
    return probes[:most]


def run_probes(spec: BatchSpec, play: Callable[[BatchSpec, str], BatchResult], most: int, seat: int = 0
               ) -> dict[str, Any]:
    """Free play, then each probe on the same seeds; the figures, ranked by effect (largest first)."""
    free = play(replace(spec, restrictions=(), keep_games=True), "free play")
    base = _wins(free, seat)
    probes = plan(free.tally.options, seat, most)
    rows: list[dict[str, Any]] = []
    for probe in probes:
        result = play(replace(spec, restrictions=probe.restrictions, keep_games=True), f"probe: {probe.text}")
        wins = _wins(result, seat)
        diffs = [b - a for a, b in zip(base, wins)]
        diff = paired_difference(len(diffs), sum(diffs), sum(d * d for d in diffs))
        rows.append({"family": probe.family, "member": probe.member, "kind": probe.kind,
                     "restrict": [r.text for r in probe.restrictions], "games": len(wins),
                     "win_rate": sum(wins) / len(wins) if wins else None,
                     "effect": diff.estimate if diff else None, "p": diff.p if diff else 1.0,
                     "forced": result.tally.forced, "forced_games": result.tally.forced_games,
                     "_n": len(diffs), "_sd": _sd(diffs)})
    _holm_intervals(rows)
    fair = 1 / spec.seats
    free_rate = sum(base) / len(base) if base else None
    for row in rows:
        row["flags"] = _flags(row, fair, sum(base))
    rows.sort(key=lambda r: (-(r["effect"] or 0.0), r["kind"], r["member"]))
    for row in rows:
        del row["_n"], row["_sd"]
    names = default_names(spec.seats)
    return {"seat": seat, "name": names[seat], "seats": spec.seats, "games": len(base), "fair_share": fair,
            "free_win_rate": free_rate, "probes": rows, "families": sorted({p.family for p in probes}),
            "planned_all": len(plan(free.tally.options, seat, 10**9)),
            "correction": f"intervals and 'significant' corrected for {len(rows)} probes (Holm, family-wise "
                          f"{100 * ALPHA:g} %)",
            "caution": "bots, not people, played these games: an effect says what a restriction does to these "
                       "bots' results"}


def _wins(result: BatchResult, seat: int) -> list[float]:
    per_game = result.tally.per_game or {}
    return list(per_game.get(f"win:{seat}", []))


def _sd(diffs: list[float]) -> float:
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))


def _holm_intervals(rows: list[dict[str, Any]]) -> None:
    """Each row's interval at its Holm step's level, and Holm's verdict."""
    m = len(rows)
    verdicts = holm([r["p"] for r in rows], ALPHA)
    order = sorted(range(m), key=lambda i: rows[i]["p"])
    for rank, i in enumerate(order):
        row = rows[i]
        row["significant"] = verdicts[i]
        n, effect = row["_n"], row["effect"]
        if effect is None or n < 2:
            row["ci"] = None
            continue
        half = t_quantile(n - 1, 1 - ALPHA / (m - rank)) * row["_sd"] / math.sqrt(n)
        row["ci"] = [max(-1.0, effect - half), min(1.0, effect + half)]


def _flags(row: dict[str, Any], fair: float, free_wins: float) -> list[str]:
    flags = []
    rate, effect, significant = row["win_rate"], row["effect"] or 0.0, row["significant"]
    if row["kind"] == "always" and rate is not None and rate >= DOMINANT * fair and effect > 0 and significant:
        flags.append(f"dominant: always taking it wins {rate / fair:.1f}x the fair share")
    if row["kind"] == "never" and effect > 0 and significant:
        flags.append("never worth taking: the seat wins more when it never takes it")
    if rate == 0 and free_wins > 0:
        flags.append("winning impossible? the restricted seat won no game, though it won in free play")
    if row["forced"] and row["kind"] == "never":  # "always" probes leave none wherever only others are offered
        flags.append(f"the restriction left no option {row['forced']} time(s); those decisions were played freely")
    return flags


def probe_lines(data: dict[str, Any]) -> list[str]:
    """The probe as text: each restriction's effect on the restricted seat's win rate, largest first."""
    from .text import pct

    lines = [f"Probe: {data['name']} (seat {data['seat']}) restricted, {data['games']} games per probe; free play "
             f"wins {pct(data['free_win_rate'])} (a fair share is {pct(data['fair_share'])})",
             f"  {data['correction']}; {data['caution']}."]
    if data["planned_all"] > len(data["probes"]):
        lines.append(f"  {len(data['probes'])} of {data['planned_all']} probes played (--probes N plays more).")
    if not data["probes"]:
        lines.append("  No option family offered a choice between two or more options in free play.")
    for r in data["probes"]:
        ci = r["ci"]
        effect = "n/a" if r["effect"] is None else f"{100 * r['effect']:+.1f}"
        interval = f" ({100 * ci[0]:+.1f} to {100 * ci[1]:+.1f})" if ci else ""
        verdict = "significant" if r["significant"] else "not significant"
        lines.append(f"  {r['kind']:<6} {r['member']:<32} wins {pct(r['win_rate']):>7}  effect {effect} points"
                     f"{interval}, {verdict}")
        lines += [f"         ! {flag}" for flag in r["flags"]]
    return lines
