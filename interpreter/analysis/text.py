"""The figures of a batch as lines of text a designer reads (the CLI prints them)."""

from __future__ import annotations

from typing import Any

from ruledsl.printable import printable

# An option family is listed id by id when it has at most this many members.
LISTED = 12


def pct(x: float | None) -> str:
    """A rate as a percentage."""
    return "-" if x is None else f"{100 * x:.1f} %"


def pct_ci(ci: list[float] | None) -> str:
    """A rate's interval in percent."""
    return "-" if ci is None else f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f} %"


def num(x: float | None, digits: int = 1) -> str:
    """A number, or '-' when there is none."""
    return "-" if x is None else f"{x:.{digits}f}"


def num_ci(ci: list[float] | None, digits: int = 1) -> str:
    """A mean's interval."""
    return "-" if ci is None else f"{ci[0]:.{digits}f}–{ci[1]:.{digits}f}"


def seed_text(ranges: list[list[int]]) -> str:
    """Runs of seeds: 0..99, 120..199."""
    return ", ".join(f"{a}..{b}" if a != b else f"{a}" for a, b in ranges) or "none"


def first_seat_sentence(data: dict[str, Any], name: str) -> str:
    """Whether the seat that starts is favoured, in words (`name`: the first seat's)."""
    f = data["first_seat_advantage"]
    if f["value"] is None or f["ci"] is None:
        return "First-seat advantage: not measured (no finished game)."
    lo, hi = f["ci"]
    points = f"{100 * f['value']:+.1f} points (95 % CI {100 * lo:+.1f} to {100 * hi:+.1f})"
    starters = [(n, c) for n, c in zip(data["names"], f.get("starters") or []) if c]
    if len(starters) == 1:
        who = f"{starters[0][0]}, who starts,"
    elif starters:
        total = sum(c for _, c in starters)
        who = ("the seat that starts (" + ", ".join(f"{n} {pct(c / total)}" for n, c in starters)
               + " of the games)")
    else:
        who = f"{name}, who starts,"
    if lo > 0:
        verdict = f"{who} is favoured"
    elif hi < 0:
        verdict = f"{who} is at a disadvantage"
    else:
        verdict = "no clear advantage for starting: the interval holds zero"
    return f"First-seat advantage: {points} over the other seats' average win rate: {verdict}."


def batch_lines(data: dict[str, Any]) -> list[str]:
    """The text report of `simulate`."""
    k = data["seats"]
    names = data["names"]
    score = data["score_field"] or "score"
    variant = f", variant {data['variant']}" if data["variant"] else ""
    bots = ", ".join(sorted(set(data["bots"])))
    rotate = ", rotated" if data["rotate"] else ""
    lines = [printable(f"{data['title']}{variant}: {data['games']} games, {k} players ({bots} bots{rotate}), "
                       f"seeds {seed_text(data['seeds']['played'])}")]
    if data.get("warning"):
        lines.append(f"  note: {data['warning']}")
    if data["restrictions"]:
        lines.append("  restricted play: " + ", ".join(
            printable(f"{names[int(r.split(':', 1)[0])]} may not choose {r.split(':', 1)[1]}")
            for r in data["restrictions"]))
    # A custom player is named by its file's path: the column fits it.
    wide = 8 if data["rotate"] else max(8, *(len(b) for b in data["bots"]))
    lines.append(f"  {'seat':<8} {'bot':<{wide}} {'wins':>6} {'win rate':>9} {'95 % CI':>14}"
                 f" {'mean ' + score:>12} {'95 % CI':>13}")
    for i in range(k):
        lines.append(printable(
            f"  {names[i]:<8} {data['bots'][i] if not data['rotate'] else '(turns)':<{wide}} {data['wins'][i]:>6} "
            f"{pct(data['win_rate'][i]):>9} {pct_ci(data['win_rate_ci'][i]):>14} "
            f"{num(data['mean_score'][i]):>12} {num_ci(data['mean_score_ci'][i]):>13}"))
    sw = data["shared_win_rate"]
    if data["shared_wins"]:
        lines.append(f"  Shared wins: {data['shared_wins']} games ({pct(sw['rate'])}, {pct_ci(sw['ci'])}) had "
                     f"more than one winner; every winner counts, so the win rates add up to "
                     f"{pct(data['win_rate_total'])}.")
    else:
        lines.append("  Shared wins: none; the win rates add up to "
                     f"{pct(data['win_rate_total'])} (unfinished games have no winner).")
    lines.append("  " + printable(first_seat_sentence(data, names[0])))
    lines.extend(_length_lines(data, score))
    un = data["unfinished_rate"]
    cap = f" at the cap of {data['cap']} decisions" if data["cap"] else ""
    lines.append(f"  Unfinished games{cap}: {data['unfinished']} ({pct(un['rate'])}, {pct_ci(un['ci'])}), "
                 "never counted as wins" + (f"; seeds {', '.join(map(str, data['unfinished_seeds']))}"
                                            if data["unfinished_seeds"] else ""))
    if data["restricted"] is not None:
        r = data["restricted"]
        lines.append(f"  Restriction left a seat no option {r['forced_decisions']} time(s) in {r['games']} game(s): "
                     "those decisions were played freely." if r["forced_decisions"] else
                     "  The restrictions always left the seat an option.")
    lines.extend(option_lines(data["options"]))
    if data["option_patterns"]:
        lines.append("  Option patterns (--option):")
        lines.extend(_option_row(o, 0) for o in data["option_patterns"])
    lines.extend(economy_lines(data["economy"], names))
    if len(data["by_bot"]) > 1:
        lines.extend(bot_lines(data["by_bot"]))
    return lines


def _length_lines(data: dict[str, Any], score: str) -> list[str]:
    lines = []
    m = data["margin"]
    if m["mean"] is not None:
        q = m["quantiles"]
        lines.append(f"  Winning margin ({printable(score)}): mean {num(m['mean'])} ({num_ci(m['ci'])}), "
                     f"median {q['median']}, 90 % of games within {q['p90']}")
    sc = data["score"]
    lows = [s["quantiles"] for s in sc if s["quantiles"]]
    if lows:
        lines.append(f"  Final {printable(score)}: median by seat " + ", ".join(str(q['median']) for q in lows)
                     + "; 10–90 % range by seat " + ", ".join(f"{q['p10']}–{q['p90']}" for q in lows))
    if data["rounds"] is not None and data["rounds"]["mean"] is not None:
        r = data["rounds"]
        q = r["quantiles"]
        lines.append(f"  Game length: {num(r['mean'], 2)} rounds ({num_ci(r['ci'], 2)}), median {q['median']}, "
                     f"range {q['min']}–{q['max']}")
    d = data["decisions"]
    lines.append(f"  Decisions per game: {num(d['mean'])} ({num_ci(d['ci'])})"
                 + (f"; per round {num(data['decisions_per_round'])}" if data["decisions_per_round"] else "")
                 + f"; options per decision {num(data['options_per_decision']['mean'], 2)} "
                 f"({num_ci(data['options_per_decision']['ci'], 2)})")
    lead = data["lead_changes"]
    if lead is not None and lead["mean"] is not None:
        lines.append(f"  Lead changes per game (sole leader on {printable(score)}, between rounds): "
                     f"{num(lead['mean'], 2)} ({num_ci(lead['ci'], 2)})")
    return lines


def _parent(key: str) -> str:
    base = key[:-2] if key.endswith(":*") else key
    head, sep, _ = base.rpartition(":")
    return head + ":*" if sep else ""


def option_lines(options: list[dict[str, Any]]) -> list[str]:
    """Option ids and families, a family listed member by member when it is small."""
    if not options:
        return []
    children: dict[str, list[dict[str, Any]]] = {}
    for o in options:
        children.setdefault(_parent(o["id"]), []).append(o)
    lines = ["  Options (times chosen per game; win rate of the seats that chose it, and of those that did not;",
             "  associations, not causes: a seat that chose an option may have been winning already):"]

    def walk(parent: str, depth: int) -> None:
        kids = sorted(children.get(parent, []), key=lambda o: (-o["chosen"], o["id"]))
        if parent and len(kids) > LISTED:
            lines.append(f"    {'  ' * depth}({len(kids)} options under {printable(parent)}: see --json)")
            return
        for o in kids:
            lines.append(_option_row(o, depth))
            if o["id"].endswith(":*"):
                walk(o["id"], depth + 1)
    walk("", 0)
    return lines


def _option_row(o: dict[str, Any], depth: int) -> str:
    return printable(f"    {'  ' * depth}{o['id']:<{max(8, 30 - 2 * depth)}} {num(o['per_game'], 2):>7}/game  "
                     f"wins {pct(o['win_rate']):>7} ({pct_ci(o['win_rate_ci'])})  "
                     f"without {pct(o['win_rate_without'])}")


def economy_lines(economy: list[dict[str, Any]], names: list[str]) -> list[str]:
    """Mean paid and gained per game, by ledger field, phase and seat."""
    if not economy:
        return []
    lines = ["  Economy (per game, by the phase where pay/gain is written: paid out / gained, by seat):"]
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in economy:
        rows.setdefault((e["field"], e["phase"]), []).append(e)
    for (fld, phase), seats in rows.items():
        cells = "  ".join(f"{names[e['seat']]} {num(e['paid'])} / {num(e['gained'])}" for e in seats)
        lines.append(printable(f"    {fld:<8} {phase:<22} {cells}"))
    return lines


def bot_lines(by_bot: list[dict[str, Any]]) -> list[str]:
    """Win rate of each bot over the seat-games it played."""
    lines = ["  By bot (win rate over the seats it played; a fair share would be "
             f"{pct(by_bot[0]['fair_share'])}):"]
    wide = max(10, *(len(b["bot"]) for b in by_bot))
    for b in by_bot:
        lines.append(printable(f"    {b['bot']:<{wide}} {b['wins']:>6} wins of {b['seat_games']:<6} "
                               f"{pct(b['win_rate'])} ({pct_ci(b['win_rate_ci'])})"))
    return lines
