"""probe: restricted play over every option family, ranked, with dominant and hopeless choices flagged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.analysis.probe import glob_escape, member_pattern, plan
from interpreter.analysis.restrict import matches
from interpreter.cli import main
from lang_helpers import write_game

# Each seat picks a metal three times: gold scores 3, silver 1, lead 0; a seat with no point never wins.
METALS = '''phase main:
    for r in range(3):
        for s in seats:
            choose metal from ["gold", "silver", "lead"] by s "a metal?"
            if metal == "gold":
                s.score += 3
            elif metal == "silver":
                s.score += 1
    let best = max([s.score for s in seats])
    end winners [s for s in seats if s.score == best and best > 0]
'''


def metals(folder: Path) -> Path:
    return write_game(folder, METALS, seat={"score": ("int", 0)}, seats=(2, 2), extra={"summary": {"score": "score"}})


def test_families_come_from_the_option_ids_and_patterns_match_exactly() -> None:
    options = {"metal:*": [9, 2, 1], "metal:gold": [3, 2, 1], "metal:lead": [6, 2, 0], "pass": [1, 1, 0],
               "buy:*": [2, 1, 1], "buy:lot-[1]": [2, 1, 1]}
    probes = plan(options, 1, 100)
    assert [(p.kind, p.member) for p in probes] == [("always", "metal:lead"), ("never", "metal:lead"),
                                                    ("always", "metal:gold"), ("never", "metal:gold")]
    assert [r.text for r in probes[0].restrictions] == ["1:metal:gold"]   # "always lead": gold forbidden
    assert matches(glob_escape("buy:lot-[1]"), "buy:lot-[1]") and not matches(glob_escape("a*"), "ab")
    assert member_pattern("buy:shop:*") == "buy:shop:*" and matches(member_pattern("buy:shop:*"), "buy:shop:3")
    assert len(plan(options, 0, 3)) == 3


def test_probe_ranks_the_restrictions_and_flags_what_a_designer_must_see(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = metals(tmp_path)
    assert main(["probe", str(folder), "--bots", "random", "-n", "40", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {(r["kind"], r["member"]): r for r in data["probes"]}
    assert len(rows) == 6 and data["fair_share"] == 0.5
    assert [r["effect"] for r in data["probes"]] == sorted((r["effect"] for r in data["probes"]), reverse=True)
    gold = rows[("always", "metal:gold")]
    assert data["probes"][0] == gold
    assert gold["significant"] and gold["ci"][0] > 0 and any(f.startswith("dominant") for f in gold["flags"])
    assert any(f.startswith("never worth taking") for f in rows[("never", "metal:lead")]["flags"])
    lead = rows[("always", "metal:lead")]
    assert lead["win_rate"] == 0 and any(f.startswith("winning impossible") for f in lead["flags"])
    assert "Holm" in data["correction"]
    for r in data["probes"]:     # Holm widens every interval beyond the effect's own
        assert r["ci"][0] <= r["effect"] <= r["ci"][1]
    assert main(["probe", str(folder), "--bots", "random", "-n", "6", "--jobs", "1", "--probes", "2"]) == 0
    text = capsys.readouterr().out
    assert "2 of 6 probes played" in text and text.count(" metal:") == 2 and "! dominant" not in text


def test_probe_refuses_what_cannot_be_probed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = metals(tmp_path)
    assert main(["probe", str(folder), "--bots", "random", "-n", "4", "--seat", "2"]) == 2
    assert "there is no seat 2 in a 2-player game" in capsys.readouterr().err
    assert main(["probe", str(folder), "-n", "4"]) == 2          # the default bot needs a trained value
    assert "cityrules train" in capsys.readouterr().err


def test_report_has_a_probe_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "game").mkdir()
    folder = metals(tmp_path / "game")
    out = tmp_path / "page"
    assert main(["report", str(folder), "--bots", "random", "-n", "20", "--jobs", "1", "--probe", "--probes", "2",
                 "-o", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Probes: restricted play over the option families" in page and "always metal:" in page
