"""Shorter scenarios: several nodes or items set by one entry, events matched in any order, and
option ids ending in ':' written unquoted."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.yamlsource import load_yaml_text
from interpreter.workbench.scenario import Play, parse
from workbench_helpers import ROOT, game_copy, place, run, scenarios

HEAD = """\
defaults: {seats: 3}
scenarios:
  - name: case
    shuffle: {deck: [spice-1, fish-1]}
"""


def test_one_entry_sets_a_field_of_several_nodes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    scenarios(folder, HEAD + """\
    set: {q1+q2+t3.owner: Ben, q1+q2+t3.building: house}
    steps:
      - expect:
          fields: {q1.owner: Ben, q2.owner: Ben, t3.owner: Ben, t3.building: house, q3.owner: null}
    """)
    code, out, err = run(capsys, "test", str(folder))
    assert code == 0, out + err
    assert "1 passed, 0 failed" in out


def test_one_entry_sets_a_field_of_several_seats_and_checks_them(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    set: {Ana+Chloé.fame: 4}
    steps:
      - expect:
          fields: {Ana+Ben.fame: 4}
    """)
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 1
    assert f"{place(path, 'Ana+Ben.fame: 4', '4}')}: error[expect-failed]: Ben.fame is 0, expected 4" in out
    assert "Ana.fame is" not in out


def test_an_unknown_name_among_several_is_reported_by_validate(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    set: {q1+q9.owner: Ben}
    """)
    code, out, _ = run(capsys, "validate", str(folder), "--no-play")
    assert code == 1
    assert (f"{place(path, 'q1+q9', 'q1+q9')}: error[unknown-name]: 'q9' (in 'q1+q9') is not a seat, a node "
            "or an item") in out


def test_events_in_any_order_match_each_event_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    scenarios(folder, HEAD + """\
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - expect:
          events_in_any_order:
            - buy: {seat: Ben, ship: spice-1}
            - offer: {seat: Chloé, coins: 2}
            - offer: {seat: Ana, coins: 1}
          no_events: [unsold]
    """)
    code, out, err = run(capsys, "test", str(folder))
    assert code == 0, out + err


def test_events_in_any_order_report_each_event_not_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - expect:
          events_in_any_order:
            - buy: {seat: Ben}
            - offer: {seat: Ben, coins: 3}
            - offer: {seat: Ben, coins: 3}
            - unsold
    """)
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 1
    lines = path.read_text(encoding="utf-8").splitlines()
    twice = [i + 1 for i, line in enumerate(lines) if "- offer: {seat: Ben, coins: 3}" in line]
    column = lines[twice[1] - 1].index("offer:") + 1
    # The same event cannot be matched twice; every missing one is reported, not only the first.
    assert (f"cases.yaml:{twice[1]}:{column}: error[expect-failed]: no event offer {{seat: Ben, coins: 3}} since "
            "the last check of events (besides the 2 event(s) already matched)") in out
    assert f"{place(path, '- unsold', 'unsold')}: error[expect-failed]: no event unsold" in out
    assert f"cases.yaml:{twice[0]}:" not in out


def test_in_written_order_events_still_fail_when_out_of_order(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - play: {Ana: offer:1, Ben: offer:3, Chloé: offer:2}
      - expect:
          events:
            - buy: {seat: Ben}
            - offer: {seat: Ana}
    """)
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 1
    assert f"{place(path, '- offer: {seat: Ana}', 'offer:')}: error[expect-failed]: no event offer" in out


def _parsed(text: str) -> list[Play]:
    data, pos, diags = load_yaml_text(text, "cases.yaml")
    assert not diags
    found, problems = parse(data, pos)
    assert not problems, problems
    return [s for s in found[0].steps if isinstance(s, Play)]


def test_an_option_id_ending_in_a_colon_needs_no_quotes() -> None:
    plays = _parsed("""\
scenarios:
  - name: case
    steps:
      - pick:
      - play: [pick:, "pick:b"]
      - expect: {options: [pick:, pick:b], offered: {Ana: [pick:]}, not_offered: [pick:c]}
""")
    assert [a.option.value for p in plays for a in p.answers] == ["pick:", "pick:", "pick:b"]


def test_an_unquoted_id_ending_in_a_colon_is_played_as_that_id(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    steps:
      - offer:
    """)
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 1
    # Read as the option id `offer:` (which Harbour never offers), not as a mapping step.
    assert f"{place(path, '- offer:', 'offer:')}: error[not-offered]: several seats are choosing now" in out
    assert "say which seat plays 'offer:'" in out


# ---------------------------------------------------------------------- setup
def test_setup_changes_the_options_of_the_first_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    scenarios(folder, HEAD + """\
    setup: {Ana.coins: 1}
    steps:
      - expect:
          decision: offer
          options: {Ana: [offer:0, offer:1], Ben: [offer:0, offer:1, offer:2, offer:3]}
      - play: {Ana: offer:1, Ben: offer:0, Chloé: offer:0}
      - expect:
          events: [buy: {seat: Ana, ship: spice-1, coins: 1}]
          fields: {Ana.coins: 0}
  - name: set keeps the options the decision was asked with
    shuffle: {deck: [spice-1]}
    set: {Ana.coins: 1}
    steps:
      - expect:
          options: {Ana: [offer:0, offer:1, offer:2, offer:3]}
    """)
    code, out, err = run(capsys, "test", str(folder))
    assert code == 0, out + err
    assert "2 passed, 0 failed" in out


def test_setup_leaving_single_options_lets_the_rules_take_them(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    scenarios(folder, HEAD + """\
    setup: {seats.coins: 0}
    steps:
      - expect:
          events: [offer: {seat: Ana, coins: 0}, unsold: {ship: spice-1}]
          fields: {town_stores: [spice-1]}
    """)
    code, out, err = run(capsys, "test", str(folder))
    assert code == 0, out + err


def test_setup_of_a_single_seats_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path, ROOT / "examples" / "broken" / "schema-unknown-key")
    yaml = folder / "game.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("curency:", "currency:"), encoding="utf-8")
    scenarios(folder, """\
    scenarios:
      - name: a poor first seat
        setup: {Ana.money: 1}
        steps:
          - expect: {decision: good, asks: [Ana], options: [good:pass, good:bread]}
          - good:bread
          - expect: {fields: {Ana.money: 0, Ana.points: 1}, asks: [Ben]}
    """)
    code, out, err = run(capsys, "test", str(folder))
    assert code == 0, out + err


def test_setup_names_are_checked_by_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    path = scenarios(folder, HEAD + """\
    setup: {Ana.coin: 1}
    """)
    code, out, _ = run(capsys, "validate", str(folder), "--no-play")
    assert code == 1
    assert f"{place(path, 'Ana.coin', 'Ana.coin')}: error[unknown-field]: seats have no field 'coin'" in out


def test_a_setup_leaving_a_seat_no_option_fails_at_the_setup(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path, ROOT / "examples" / "broken" / "schema-unknown-key")
    yaml = folder / "game.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("curency:", "currency:"), encoding="utf-8")
    rules = folder / "market.rules"
    # A seat with no money may not pass: it has nothing to choose.
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        '["pass"] + affordable(s)', '(["pass"] if s.money > 0 else []) + affordable(s)'), encoding="utf-8")
    path = scenarios(folder, """\
    scenarios:
      - name: a penniless first seat
        setup: {Ana.money: 0}
    """)
    code, out, _ = run(capsys, "test", str(folder))
    assert code == 1
    assert f"{place(path, 'Ana.money: 0', '{')}: error[expect-failed]: after setup, Ana has no option for 'good'" in out


@pytest.mark.parametrize("answer", ["\n          Ana: offer:\n", " {Ana: offer:, Ben: offer:1}\n"])
def test_an_id_ending_in_a_colon_after_a_key_gets_a_hint_to_quote_it(tmp_path: Path, answer: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # YAML itself refuses `Ana: offer:`: the message says how to write the id.
    folder = game_copy(tmp_path)
    scenarios(folder, HEAD + "    steps:\n      - play:" + answer)
    code, out, _ = run(capsys, "validate", str(folder), "--no-play")
    assert code == 1
    assert "error[yaml-syntax]" in out
    assert "(an option id ending in ':' needs quotes after a key: \"offer:\" (in a list, or as a step" in out


def test_other_yaml_mistakes_keep_their_own_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = game_copy(tmp_path)
    scenarios(folder, HEAD + "    steps:\n      - play: a: b\n")
    code, out, _ = run(capsys, "validate", str(folder), "--no-play")
    assert code == 1
    assert "a value containing ': ' must be quoted" in out and "option id ending" not in out
