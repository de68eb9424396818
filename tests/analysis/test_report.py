"""report: an offline HTML page whose every plot loads in a real browser (headless Chromium)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from interpreter.cli import main

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# The flags this machine needs (no sandbox as root, no GPU, no background network traffic).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=5000"]


def rendered_dom(page: Path) -> str:
    """The page's DOM after its scripts ran, as Chromium sees it."""
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `make setup` (it installs Debian's chromium)")
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def plots_loaded(dom: str) -> tuple[str, list[str]]:
    found = re.search(r'data-plots-loaded="(\d+/\d+)"', dom)
    assert found, "the page's check script did not run"
    return found.group(1), re.findall(r'<img class="plot"[^>]*data-loaded="(yes|no)"', dom)


def test_report_page_loads_every_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    assert main(["report", "--bots", "random", "downtown", "-n", "30", "--jobs", "1", "-o", str(out)]) == 0
    assert "report written to" in capsys.readouterr().out
    page = out / "index.html"
    text = page.read_text()
    for title in ("Win rate per seat", "Score distributions", "Game length", "Option win rates",
                  "Lead changes over the game"):
        assert title in text
    assert "http://" not in text and "https://" not in text      # nothing to fetch: it opens offline
    count, marks = plots_loaded(rendered_dom(page))
    assert count == "5/5" and marks == ["yes"] * 5


def test_a_missing_plot_is_seen_as_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    assert main(["report", "--bots", "random", "city", "-n", "4", "--jobs", "1", "-o", str(out)]) == 0
    (out / "scores.png").unlink()
    count, marks = plots_loaded(rendered_dom(out / "index.html"))
    assert count == "4/5" and marks.count("no") == 1


def test_compare_report_puts_both_sides_in_every_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cmp"
    assert main(["compare", "--bots", "random", "downtown", "--restrict", "0:use_lobby:yes", "-n", "20", "--jobs", "1",
                 "--report", str(out)]) == 0
    count, marks = plots_loaded(rendered_dom(out / "index.html"))
    assert count == "6/6" and marks == ["yes"] * 6
    assert "Differences B - A" in (out / "index.html").read_text()
