"""A scenario that does not go as it says fails with its file, line and column, what was expected
and what happened, rendered as validate renders a problem; `cityrules test` then exits with 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench_helpers import ROOT, game_copy, line_of, place, run, scenarios

# Harbour with 3 seats; the deck's first ship fixed. Offers are 0..3; Ana is the first master.
HEAD = """\
defaults: {seats: 3}
scenarios:
  - name: case
    shuffle: {deck: [spice-1, fish-1]}
"""


def failing(capsys: pytest.CaptureFixture[str], folder: Path) -> str:
    code, out, err = run(capsys, "test", str(folder))
    assert code == 1, out + err
    assert "FAILED  " in out and ": FAILED (" in out
    return out


def caret_under(out: str, path: Path, line: int, column: int, text: str) -> None:
    """The output names the place and shows the line with a caret under `text`."""
    source = path.read_text(encoding="utf-8").splitlines()[line - 1]
    assert source[column - 1:].startswith(text), (source, column, text)
    shown = out.splitlines()
    head = next(i for i, ln in enumerate(shown) if ln.startswith(f"{path.parent.parent.name}/tests/{path.name}:{line}:{column}:")
                or f"/{path.name}:{line}:{column}: " in ln)
    assert shown[head + 1].endswith(f"{line} | {source}")
    assert shown[head + 2].index("^") - shown[head + 2].index("|") - 2 == column - 1
    assert shown[head + 2].count("^") == len(text)


def test_a_deliberately_broken_rulebook_scenario_fails_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Downtown's first vote example, with the outcome changed: the game says housing.
    folder = game_copy(tmp_path, ROOT / "games" / "downtown", keep_tests=True)
    votes = folder / "tests" / "votes.yaml"
    text = votes.read_text(encoding="utf-8")
    assert text.count("fields: {8.plaque: housing}") == 1
    votes.write_text(text.replace("fields: {8.plaque: housing}", "fields: {8.plaque: commerce}"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = failing(capsys, Path("downtown"))
    line = line_of(votes, "fields: {8.plaque: commerce}")
    column = votes.read_text(encoding="utf-8").splitlines()[line - 1].index("commerce") + 1
    assert f"downtown/tests/votes.yaml:{line}:{column}: error[expect-failed]: 8.plaque is housing, expected commerce" in out
    caret_under(out, votes, line, column, "commerce")
    assert "FAILED  downtown/tests/votes.yaml: Example 1:" in out
    assert "downtown: FAILED (23 passed, 1 failed" in out


def test_fields_events_options_decision_and_winners_each_report_their_own_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - expect:
          decision: build
          asks: [Ana]
          options: [offer:0, offer:1, offer:9]
          offered: [offer:7]
          not_offered: [offer:3]
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - expect:
          fields: {Ben.coins: 4, Ben.hold: [fish-1]}
          events:
            - buy: {seat: Chloé, ship: spice-1}
          winners: [Ana]
    """)
    out = failing(capsys, folder)
    expected = [
        ("decision: build", "build", "the game waits for Ana, Ben, Chloé to choose 'offer', not 'build'"),
        ("asks: [Ana]", "[Ana]", "the game waits for Ana, Ben, Chloé to choose 'offer', not for Ana"),
        ("offer:9]", "[offer:0", "Ana's options differ (not offered: offer:9; also offered: offer:2, offer:3)"),
        ("offered: [offer:7]", "offer:7", "offer:7 is not offered to Ana (decision 'offer')"),
        ("not_offered: [offer:3]", "offer:3", "offer:3 is offered to Ana (decision 'offer')"),
    ]
    for marker, at, message in expected:
        line = line_of(path, marker)
        column = path.read_text(encoding="utf-8").splitlines()[line - 1].index(at) + 1
        assert f"cases.yaml:{line}:{column}: error[expect-failed]: {message}" in out, (message, out)
    # The first expect failed: the scenario stopped there, and later checks were not made.
    assert "Ben.coins" not in out


def test_after_a_failing_check_the_scenario_stops_and_the_next_one_runs(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - expect:
          fields: {Ben.coins: 4, Ben.hold: [fish-1], docked: null}
          events:
            - buy: {seat: Chloé, ship: spice-1}
      - expect: {winners: [Ana]}
  - name: second
    steps:
      - expect: {decision: offer}
    """)
    out = failing(capsys, path.parent.parent)
    assert f"{place(path, 'Ben.coins: 4', '4')}: error[expect-failed]: Ben.coins is 2, expected 4" in out
    assert f"{place(path, 'Ben.coins: 4', '[fish-1]')}: error[expect-failed]: Ben.hold is [spice-1], expected [fish-1]" in out
    assert "docked is" not in out
    assert (f"{place(path, '- buy: {seat: Chloé', 'buy:')}: error[expect-failed]: no event buy {{seat: Chloé, "
            "ship: spice-1} since the last check of events") in out
    assert "      buy {seat: 1, ship: spice-1, coins: 3}" in out          # what did happen
    assert "(events record seats by number: Ana 0, Ben 1, Chloé 2)" in out
    assert "winners" not in out
    assert ": FAILED (1 passed, 1 failed" in out


def test_a_choice_that_is_not_offered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - play: build:house:q1
    """)
    out = failing(capsys, folder)
    assert f"{place(path, 'build:house:q1')}: error[not-offered]: 'build:house:q1' is not offered to Ana now (decision 'build')" in out
    assert "    offered: build:pass:none, build:house:t1, " in out and "(21 in all)" in out


@pytest.mark.parametrize("step, message", [
    ("play: offer:1", "several seats are choosing now (Ana, Ben, Chloé to choose 'offer'): say which seat plays "
                      "'offer:1' (write it as  Ana: offer:1)"),
    ("play: {Ana: offer:1, Ana: offer:2}", None),          # a duplicate key: YAML's own error
])
def test_several_seats_choosing_need_a_seat_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], step: str,
                                                  message: str | None) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + f"    steps:\n      - {step}\n")
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 1
    if message:
        assert f"cases.yaml:{line_of(path, step)}:" in out and message in out
    else:
        assert "error[duplicate-key]" in out


def test_a_seat_asked_out_of_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - play: {Ben: pass}
    """)
    out = failing(capsys, folder)
    assert f"{place(path, '{Ben: pass}', 'Ben')}: error[not-offered]: it is not Ben's choice now: the game waits for Ana to choose 'build'" in out


def test_fixed_chance_that_never_happens_or_cannot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, """\
    scenarios:
      - name: a roll the rules never make
        roll: 6
      - name: a shuffle that never comes
        steps:
          - shuffle: {deck: [fish-1]}
      - name: a shuffle of elements the list does not hold
        set: {deck: [fish-1]}
        steps:
          - shuffle: {town_stores: [spice-1]}
    """)
    out = failing(capsys, folder)
    assert f"{place(path, 'roll: 6', '6')}: error[chance-unused]: the game rolled no die for this fixed roll (6)" in out
    assert f"{place(path, '- shuffle: {deck', '[fish-1]')}: error[chance-unused]: 'deck' was never shuffled after this" in out


def test_rule_errors_while_playing_point_at_the_step_and_at_the_rule(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # The docked ship is taken away: the prompt of the offers then reads `docked.name` of none.
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - set: {docked: null, town_stores: [spice-1]}
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
    """)
    out = failing(capsys, folder)
    assert (f"{place(path, '- play: {Ana', '{Ana')}: error[runtime]: the rules stopped with an error: "
            "a value is none here") in out
    rule = next(line for line in out.splitlines() if "round.rules:" in line)
    assert rule.startswith("    ") and "error[runtime]" in rule      # the rule's own place, below
    assert "{docked.name}" in out


def test_known_failures_pass_while_they_fail_and_fail_once_they_pass(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    scenarios(folder, HEAD + """\
    known_failure: offers are not counted twice yet
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - expect: {fields: {Ben.coins: 8}}
    """)
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 0 and "known   " in out and "(offers are not counted twice yet)" in out
    assert ": ok (0 passed, 0 failed, 1 known failure(s)" in out
    path = scenarios(folder, HEAD + """\
    known_failure: offers are not counted twice yet
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - expect: {fields: {Ben.coins: 2}}
    """)
    out = failing(capsys, folder)
    assert (f"{place(path, 'known_failure', 'offers are')}: error[expect-failed]: this scenario passes now: "
            "remove its known_failure") in out


def test_a_scenario_file_with_problems_fails_with_validates_messages(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, """\
    scenarios:
      - name: typo
        steps:
          - expect: {fields: {Ben.coin: 2}}
      - name: fine
        steps:
          - expect: {decision: offer}
    """)
    out = failing(capsys, folder)
    assert f"{place(path, 'Ben.coin')}: error[unknown-field]: seats have no field 'coin' (did you mean 'coins'?)" in out
    assert ": FAILED (1 passed, 1 failed" in out
    code, out, _ = run(capsys, "validate", str(folder))
    assert code == 1 and "error[unknown-field]: seats have no field 'coin'" in out


def test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "test", str(tmp_path / "nowhere"))
    assert code == 2 and "no game" in err
    folder = game_copy(tmp_path)
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 0 and "no scenarios (write them in" in out
    (folder / "round.rules").write_text("phase game:\n    run nothing\n", encoding="utf-8")
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 1 and "error[unknown-phase]" in out


def test_names_seats_and_variants_are_checked_where_they_are_written(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, """\
    defaults: {names: [Mia, Noah]}
    scenarios:
      - name: named seats
        seats: 2
        steps:
          - play: {Mia: offer:0, Noah: offer:1}
          - expect: {events: [{buy: {seat: Noah}}], fields: {Noah.coins: 4}}
      - name: too many seats
        seats: 5
      - name: three names for two seats
        seats: 2
        names: [Ann, Bo, Cy]
      - name: no such variant
        seats: 2
        variant: fast
    """)
    code, out, _ = run(capsys, "validate", str(folder))
    assert code == 1
    assert f"{place(path, 'seats: 5', '5')}: error[schema]: Harbour is for 2 to 4 seats, not 5" in out
    assert f"{place(path, 'names: [Ann', '[Ann')}: error[schema]: 2 seats need 2 names, not 3" in out
    assert f"{place(path, 'variant: fast', 'fast')}: error[unknown-name]: Harbour has no variant 'fast' (the game has no variants)" in out
    code, out, _ = run(capsys, "test", str(folder), "-k", "named", "-v")
    assert code == 0 and "ok      " in out and ": ok (1 passed, 0 failed" in out
