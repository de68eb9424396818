"""Replaying a journal onto changed rules: where it stops, and the report people read."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.core.engine import Engine
from interpreter.core.errors import RuleError
from interpreter.core.replay_check import ReplayStop, may_be_private, replay_checked
from lang_helpers import building_rules, engine

SEAT = {"score": ("int", 0)}

# Each seat in turn picks a kind of building twice; the rules below change one thing each.
RULES = building_rules(2)
# Ana, Ben, Ana, Ben.
CHOICES = [(0, "kind:house"), (1, "kind:shop"), (0, "kind:park"), (1, "kind:house")]


def changed(tmp_path: Path, old: str, new: str, **kw: object) -> Engine:
    assert old in RULES
    return engine(tmp_path, RULES.replace(old, new), seat=SEAT, **kw)  # type: ignore[arg-type]


def stop_of(eng: Engine, choices: list[tuple[int, str]] = CHOICES) -> ReplayStop:
    report = replay_checked(eng, 2, 1, None, choices)
    assert report.stop is not None
    assert report.played == report.stop.played
    return report.stop


def test_every_choice_still_legal_replays_to_the_same_point(tmp_path: Path) -> None:
    eng = changed(tmp_path, "len(kind)", "len(kind) * 2")  # other outcomes, same choices
    report = replay_checked(eng, 2, 1, None, CHOICES)
    assert report.stop is None and report.played == 4
    assert report.state["result"] is not None and report.state["seat"]["score"] == [18, 18]


def test_an_option_no_longer_offered_is_named_with_what_is_offered_now(tmp_path: Path) -> None:
    stop = stop_of(changed(tmp_path, '"shop", ', ""))
    assert (stop.number, stop.seat, stop.option) == (2, 1, "kind:shop")
    assert stop.reason == "'kind:shop' is not offered" and stop.played == 1
    assert stop.asked == {1: ("kind:house", "kind:park")}
    text = stop.describe(["Ana", "Ben"])
    assert text.splitlines() == [
        "Choice 2 of the journal (Ben: 'kind:shop') is not legal under the rules as they are now: "
        "'kind:shop' is not offered.",
        "  Now offered to Ben: kind:house, kind:park",
        "The 1 choice(s) before it are legal: the game can continue from there.",
    ]


def test_a_renamed_option_gets_a_did_you_mean(tmp_path: Path) -> None:
    stop = stop_of(changed(tmp_path, '"shop"', '"shops"'))
    assert stop.suggestion == "did you mean 'kind:shops'?"
    assert "  Did you mean 'kind:shops'?" in stop.describe(["Ana", "Ben"]).splitlines()


def test_a_renamed_choice_says_what_the_decision_now_chooses(tmp_path: Path) -> None:
    text = RULES.replace("choose kind from", "choose building from").replace("len(kind)", "len(building)")
    eng = engine(tmp_path, text, seat=SEAT)
    stop = stop_of(eng)
    assert stop.number == 1 and stop.reason == "this decision now chooses 'building', not 'kind'"
    assert stop.suggestion is None and stop.played == 0
    assert stop.describe(["Ana", "Ben"]).endswith(
        "No recorded choice is legal: the game can start again from the beginning.")


def test_a_choice_of_a_seat_the_rules_no_longer_ask_names_who_they_wait_for(tmp_path: Path) -> None:
    stop = stop_of(changed(tmp_path, "for s in seats:", "for s in reversed(seats):"))
    assert (stop.number, stop.seat) == (1, 0)
    assert stop.reason == "the rules now wait for Ben, not Ana"
    assert stop.asked == {1: ("kind:house", "kind:shop", "kind:park")}


def test_a_game_that_now_ends_sooner_stops_at_the_first_choice_too_many(tmp_path: Path) -> None:
    stop = stop_of(changed(tmp_path, "range(2)", "range(1)"))
    assert stop.number == 3 and stop.reason == "the game is already over (after 2 choice(s))" and stop.asked == {}


def test_a_rule_that_fails_on_a_choice_stops_before_it_with_the_state_before_it(tmp_path: Path) -> None:
    eng = changed(tmp_path, "s.score += len(kind)",
                  "s.score += len(kind)\n            if kind == \"park\":\n                let x = [1][5]")
    report = replay_checked(eng, 2, 1, None, CHOICES)
    assert report.stop is not None and report.stop.number == 3 and report.played == 2
    assert report.stop.reason.startswith("the rules fail when it is made: ")
    assert report.state["seat"]["score"] == [5, 4] and report.state["decisions"] == 2


def test_rules_that_fail_before_any_choice_raise(tmp_path: Path) -> None:
    eng = engine(tmp_path, "phase main:\n    let x = [1][3]\n    end winners seats\n", seat=SEAT)
    with pytest.raises(RuleError):
        replay_checked(eng, 2, 1, None, CHOICES)


def test_options_that_may_be_private_are_counted_not_listed(tmp_path: Path) -> None:
    stop = stop_of(changed(tmp_path, '"shop"', '"shops"'))
    text = stop.describe(["Ana", "Ben"], reveal=[0])
    assert "shops" not in text and "house" not in text
    assert "  Ben is offered 3 option(s), not listed here: they may show what only Ben may see." in text
    assert "Now offered to Ben" in stop.describe(["Ana", "Ben"], reveal=[1])


def test_a_game_with_a_private_field_may_show_private_options(tmp_path: Path) -> None:
    private = {"score": ("int", 0), "hand": {"type": "list[int]", "initial": [], "visible": "owner"}}
    assert may_be_private(engine(tmp_path, RULES, seat=private).game)
    assert not may_be_private(engine(tmp_path, RULES, seat=SEAT).game)
