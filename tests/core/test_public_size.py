"""`public_size`: a hidden list whose size everybody sees, and nothing else of it."""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path

import pytest

from interpreter.analysis.simulate import play_bots
from interpreter.core.engine import Engine
from interpreter.core.view import HIDDEN, masked_state, view
from interpreter.load.loader import load_game
from interpreter.play.frame import as_text
from interpreter.play.screen import Screens
from lang_helpers import check, errors
from twin_helpers import reverse_alike, swap_alike

RULES = "phase main:\n    end winners seats\n"


@pytest.mark.parametrize("spec, message", [
    ({"type": "list[int]", "initial": [], "public_size": True}, "this field is visible to all already"),
    ({"type": "int", "initial": 0, "visible": "owner", "public_size": True}, "not an int"),
])
def test_public_size_applies_to_hidden_lists_only(tmp_path: Path, spec: dict[str, object], message: str) -> None:
    _, diags = check(tmp_path, RULES, seat={"hand": spec})
    [d] = errors(diags)
    assert message in d.message and d.span.line > 1


def test_london_shows_the_size_of_the_deck_hands_and_piles_and_not_one_card() -> None:
    engine = Engine(load_game("london"))
    state, _ = play_bots(engine, 3, 2, max_decisions=120)
    v = view(engine, state, 0)
    assert v["global"]["deck"] == [HIDDEN] * len(state["global"]["deck"])
    assert v["seats"]["hand"][1] == [HIDDEN] * len(state["seat"]["hand"][1])
    assert v["seats"]["piles"][2] == [[HIDDEN] * len(p) for p in state["seat"]["piles"][2]]
    assert v["seats"]["hand"][0] == state["seat"]["hand"][0]
    text = as_text(Screens(engine).main(v, 0))
    # What every seat can tell of a hidden card, its group (game.yaml: `back`), is counted and no more.
    deck, hand = state["global"]["deck"], state["seat"]["hand"][1]
    assert f"cards in the deck: {len(deck)} ({groups(engine, deck)})\n" in text
    sizes = next(line for line in text.splitlines() if line.split()[:3] == ["B", "Ben", str(state["seat"]["money"][1])])
    assert re.search(rf" {len(hand)} \({groups(engine, hand)}\) +{len(state['seat']['piles'][1])}$", sizes)
    assert "Your hand (" in text and "Ben's hand" not in text


def groups(engine: Engine, cards: list[int]) -> str:
    """`A 7, B 49`: how many of the cards are of each group."""
    group = engine.game.world.components["card"].attr_values["group"]
    return ", ".join(f"{g} {n}" for g, n in sorted(Counter(group[c] for c in cards).items()))


def test_the_view_counts_each_back_of_what_a_seat_may_not_see_and_nothing_of_what_it_sees() -> None:
    engine = Engine(load_game("london"))
    state, _ = play_bots(engine, 3, 2, max_decisions=120)
    group = engine.game.world.components["card"].attr_values["group"]

    def counted(cards: list[int]) -> list[list[object]]:
        return [[g, n] for g, n in sorted(Counter(group[c] for c in cards).items())]

    for seat in (0, 1, None):
        backs = view(engine, state, seat)["backs"]
        assert set(backs) == {"global.deck", "seat.hand"}
        assert backs["global.deck"] == counted(state["global"]["deck"])
        assert backs["seat.hand"] == [None if owner == seat else counted(hand)
                                      for owner, hand in enumerate(state["seat"]["hand"])]
    assert engine.game.component_backs == {"card": "group"}


def test_twin_states_that_differ_only_in_hidden_cards_look_the_same_to_other_seats() -> None:
    engine = Engine(load_game("london"))
    state, _ = play_bots(engine, 3, 5, max_decisions=150)
    twin = copy.deepcopy(state)
    # Swap a card of seat 1's hand with one of the deck: same sizes, other contents.
    hand, deck = twin["seat"]["hand"][1], twin["global"]["deck"]
    assert hand and deck
    swap_alike(engine, "card", hand, 0, deck)
    reverse_alike(engine, "card", deck)
    for seat in (0, 2, None):
        assert view(engine, state, seat)["seats"] == view(engine, twin, seat)["seats"]
        assert view(engine, state, seat)["global"] == view(engine, twin, seat)["global"]
        masked, masked_twin = masked_state(engine, state, seat), masked_state(engine, twin, seat)
        assert masked["seat"]["hand"] == masked_twin["seat"]["hand"]
        assert masked["global"]["deck"] == masked_twin["global"]["deck"]
        assert len(masked["global"]["deck"]) == len(state["global"]["deck"])
    assert view(engine, state, 1)["seats"]["hand"][1] != view(engine, twin, 1)["seats"]["hand"][1]
