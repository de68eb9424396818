"""HTML reports with plots (matplotlib): one batch (`cityrules report`) or two side by side (`compare --report`).

The page is `DIR/index.html` with its plots as PNG files beside it: nothing is fetched from the
network, so it opens offline. A small script on the page marks every plot that loaded and warns
when one did not (the test reads that mark in headless Chromium).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Callable, Sequence

from .text import batch_lines

# How many option ids the option plot shows (the most chosen ones).
OPTIONS_SHOWN = 20
COLOURS = ("#4c72b0", "#dd8452")


def _figure(width: float = 6.4, height: float = 3.6) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ValueError("the report needs matplotlib: pip install 'cityrules[report]'") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig: Any, folder: Path, name: str) -> str:
    fig.savefig(folder / name, format="png")
    return name


def _errors(values: Sequence[float | None], cis: Sequence[Sequence[float] | None]) -> list[list[float]]:
    lows, highs = [], []
    for v, ci in zip(values, cis):
        lows.append(0.0 if v is None or ci is None else max(0.0, v - ci[0]))
        highs.append(0.0 if v is None or ci is None else max(0.0, ci[1] - v))
    return [lows, highs]


def plot_win_rates(sides: Sequence[dict[str, Any]], folder: Path) -> str:
    """Win rate per seat with 95 % intervals (one bar per side per seat)."""
    fig = _figure()
    ax = fig.subplots()
    k = sides[0]["seats"]
    width = 0.8 / len(sides)
    for j, data in enumerate(sides):
        xs = [i + (j - (len(sides) - 1) / 2) * width for i in range(k)]
        rates = [r or 0.0 for r in data["win_rate"]]
        ax.bar(xs, [100 * r for r in rates], width, color=COLOURS[j], label=data.get("_label") or None,
               yerr=[[100 * e for e in row] for row in _errors(data["win_rate"], data["win_rate_ci"])], capsize=4)
    ax.axhline(100 / k, color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(k), sides[0]["names"])
    ax.set_ylabel("win rate (%)")
    ax.set_title("Win rate per seat, with 95 % intervals")
    ax.legend()
    return _save(fig, folder, "win_rate.png")


def _hist_values(histogram: dict[str, int]) -> tuple[list[float], list[int]]:
    keys = sorted(histogram, key=float)
    return [float(k) for k in keys], [histogram[k] for k in keys]


def plot_scores(sides: Sequence[dict[str, Any]], folder: Path) -> str:
    """Final score distribution of every seat (one panel per side)."""
    fig = _figure(6.4 * len(sides), 3.6)
    axes = fig.subplots(1, len(sides), squeeze=False)[0]
    for ax, data in zip(axes, sides):
        for s, seat in enumerate(data["score"]):
            xs, counts = _hist_values(seat["histogram"] or {})
            if xs:
                ax.hist(xs, bins=min(30, max(5, len(xs))), weights=counts, histtype="step", linewidth=1.5,
                        label=data["names"][s])
        ax.set_xlabel(f"final {data['score_field'] or 'score'}")
        ax.set_ylabel("games")
        ax.set_title(("Final score by seat " + data.get("_label", "")).strip())
        ax.legend()
    return _save(fig, folder, "scores.png")


def plot_length(sides: Sequence[dict[str, Any]], folder: Path) -> str:
    """Game length: rounds when the game counts them, else decisions."""
    fig = _figure()
    ax = fig.subplots()
    key = "rounds" if sides[0]["rounds"] is not None else "decisions"
    for j, data in enumerate(sides):
        xs, counts = _hist_values(data[key]["histogram"] or {})
        if xs:
            ax.hist(xs, bins=min(40, max(5, len(xs))), weights=counts, alpha=0.6, color=COLOURS[j],
                    label=data.get("_label") or None)
    ax.set_xlabel(key + " per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    if len(sides) > 1:
        ax.legend()
    return _save(fig, folder, "length.png")


def _top_options(data: dict[str, Any]) -> list[dict[str, Any]]:
    ids = [o for o in data["options"] if not o["id"].endswith(":*") and o["seat_games"]]
    return sorted(ids, key=lambda o: (-o["chosen"], o["id"]))[:OPTIONS_SHOWN]


def plot_options(sides: Sequence[dict[str, Any]], folder: Path) -> str:
    """Win rate of the seats that chose each of the most chosen options, with intervals."""
    shown = [o["id"] for o in _top_options(sides[0])]
    fig = _figure(7.5, max(3.0, 0.32 * len(shown) + 1.2))
    ax = fig.subplots()
    height = 0.8 / len(sides)
    for j, data in enumerate(sides):
        by_id = {o["id"]: o for o in data["options"]}
        rows = [by_id.get(i) for i in shown]
        rates = [(o["win_rate"] or 0.0) if o else 0.0 for o in rows]
        cis = [o["win_rate_ci"] if o else None for o in rows]
        ys = [i + (j - (len(sides) - 1) / 2) * height for i in range(len(shown))]
        ax.barh(ys, [100 * r for r in rates], height, color=COLOURS[j], label=data.get("_label") or None,
                xerr=[[100 * e for e in row] for row in _errors(rates, cis)], capsize=3)
    ax.axvline(100 / sides[0]["seats"], color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_yticks(range(len(shown)), shown)
    ax.invert_yaxis()
    ax.set_xlabel("win rate of the seats that chose it (%)")
    ax.set_title(f"Options: the {len(shown)} most chosen")
    ax.legend()
    return _save(fig, folder, "options.png")


def plot_lead(sides: Sequence[dict[str, Any]], folder: Path) -> str:
    """How often the lead changes hands at each round."""
    fig = _figure()
    ax = fig.subplots()
    for j, data in enumerate(sides):
        lead = data["lead_changes"]
        if lead is None:
            ax.text(0.5, 0.5, "the game declares no rounds field", ha="center", transform=ax.transAxes)
            continue
        xs = [int(r) for r in lead["by_round"]]
        ax.plot(xs, [100 * v for v in lead["by_round"].values()], marker="o", color=COLOURS[j],
                label=data.get("_label") or None)
    ax.set_xlabel("round")
    ax.set_ylabel("games whose lead changes (%)")
    ax.set_title("Lead changes over the game")
    if len(sides) > 1:
        ax.legend()
    return _save(fig, folder, "lead.png")


def plot_differences(comparison: dict[str, Any], folder: Path) -> str:
    """Every compared metric's B - A with its interval (rates in points)."""
    rows = [m for m in comparison["metrics"] if m["ci"] is not None]
    fig = _figure(7.5, max(3.0, 0.35 * len(rows) + 1.2))
    ax = fig.subplots()
    for i, m in enumerate(rows):
        scale = 100 if m["name"].startswith(("win:", "first_seat", "shared", "finished")) else 1
        colour = "#c44e52" if m["significant"] else "#4c72b0"
        ax.errorbar([m["difference"] * scale], [i], xerr=[[(m["difference"] - m["ci"][0]) * scale],
                                                          [(m["ci"][1] - m["difference"]) * scale]],
                    fmt="o", color=colour, capsize=3)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(rows)), [m["label"] for m in rows])
    ax.invert_yaxis()
    ax.set_xlabel("B - A (rates in points); red: significant")
    ax.set_title("Differences with 95 % intervals")
    return _save(fig, folder, "differences.png")


PLOTS: tuple[tuple[str, Callable[[Sequence[dict[str, Any]], Path], str]], ...] = (
    ("Win rate per seat", plot_win_rates), ("Score distributions", plot_scores), ("Game length", plot_length),
    ("Option win rates", plot_options), ("Lead changes over the game", plot_lead))

_CHECK = """<script>
window.addEventListener('load', function () {
  var plots = document.querySelectorAll('img.plot'), ok = 0;
  plots.forEach(function (img) {
    var loaded = img.complete && img.naturalWidth > 0;
    img.setAttribute('data-loaded', loaded ? 'yes' : 'no');
    if (loaded) { ok++; }
  });
  document.body.setAttribute('data-plots-loaded', ok + '/' + plots.length);
  if (ok < plots.length) {
    document.getElementById('status').textContent = (plots.length - ok) + ' plot(s) did not load: ' +
      'keep the PNG files beside index.html.';
  }
});
</script>"""


def _page(title: str, sections: list[tuple[str, str]], text: str, texts: Sequence[tuple[str, str]] = ()) -> str:
    body = "\n".join(f'<h2>{html.escape(h)}</h2>\n<img class="plot" src="{html.escape(src)}" alt="{html.escape(h)}">'
                     for h, src in sections)
    more = "".join(f"<h2>{html.escape(h)}</h2>\n<pre>{html.escape(t)}</pre>\n" for h, t in texts)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:80em;margin:2em auto;padding:0 1em}}
img.plot{{max-width:100%;border:1px solid #ddd}} pre{{background:#f6f6f6;padding:1em;overflow-x:auto}}
#status{{color:#c44e52;font-weight:bold}}</style></head>
<body><h1>{html.escape(title)}</h1><p id="status"></p>
{body}
<h2>Figures</h2>
<pre>{html.escape(text)}</pre>
{more}{_CHECK}
</body></html>
"""


def write_report(folder: str | Path, data: dict[str, Any], texts: Sequence[tuple[str, str]] = ()) -> Path:
    """DIR/index.html and its plots for one batch's figures, then sections of text (`texts`: heading,
    text); returns the page's path."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    sections = [(title, plot([data], out)) for title, plot in PLOTS]
    variant = f", variant {data['variant']}" if data["variant"] else ""
    page = out / "index.html"
    page.write_text(_page(f"{data['title']}{variant}: {data['games']} games", sections, "\n".join(batch_lines(data)),
                          texts), encoding="utf-8")
    return page


def write_compare_report(folder: str | Path, comparison: dict[str, Any], a: dict[str, Any], b: dict[str, Any]
                         ) -> Path:
    """DIR/index.html comparing two batches side by side, with the differences' plot first."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    sides = [dict(a, _label="A"), dict(b, _label="B")]
    sections = [("Differences B - A", plot_differences(comparison, out))]
    sections += [(title, plot(sides, out)) for title, plot in PLOTS]
    lines = [f"{m['label']}: {m['verdict']}" for m in comparison["metrics"]]
    text = "\n".join([f"A: {a['title']} {a['variant'] or ''} {' '.join(a['restrictions'])}".rstrip(),
                      f"B: {b['title']} {b['variant'] or ''} {' '.join(b['restrictions'])}".rstrip(),
                      comparison["correction"], "", *lines])
    page = out / "index.html"
    page.write_text(_page(f"{a['title']}: A and B, {comparison['games']} games each", sections, text),
                    encoding="utf-8")
    return page
