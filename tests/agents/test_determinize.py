"""Samples drawn from a seat's information set: what changes, what stays, what is never copied."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from bot_helpers import advance, engine
from interpreter.agents.determinize import InfoSet
from interpreter.core.engine import SECRET_OPTIONS
from interpreter.core.view import view
from lang_helpers import engine as tiny_engine


def without_log(v: dict[str, object]) -> dict[str, object]:
    return {k: x for k, x in v.items() if k != "log"}


def test_london_samples_redeal_only_what_the_seat_has_not_seen() -> None:
    eng = engine("london")
    state = advance(eng, eng.new_game(3, 31), "action", 31, skip=8, seat=0)
    info = InfoSet(eng, state, 0)
    samples = [info.sample(seed) for seed in range(12)]
    cards = len(eng.game.world.components["card"].ids)
    hidden_real = Counter(state["global"]["deck"] + state["seat"]["hand"][1] + state["seat"]["hand"][2]
                          + [c for pile in state["seat"]["piles"][1] + state["seat"]["piles"][2] for c in pile])
    tops = {c for t in state["seat"]["tops"] for c in t if c is not None}
    for sample in samples:
        # The seat sees exactly what it saw: its hand, its piles, every top card, the board.
        assert without_log(view(eng, sample, 0)) == without_log(view(eng, state, 0))
        # Every card is still in exactly one place, lists keep their sizes, seen tops stay on top.
        places = (sample["global"]["deck"] + sample["global"]["top_row"] + sample["global"]["bottom_row"]
                  + sample["global"]["removed"] + [c for h in sample["seat"]["hand"] for c in h]
                  + [c for piles in sample["seat"]["piles"] for pile in piles for c in pile])
        assert sorted(places) == list(range(cards))
        for s in (1, 2):
            assert len(sample["seat"]["hand"][s]) == len(state["seat"]["hand"][s])
            assert [len(p) for p in sample["seat"]["piles"][s]] == [len(p) for p in state["seat"]["piles"][s]]
            for pile, top in zip(sample["seat"]["piles"][s], sample["seat"]["tops"][s]):
                if top is not None:
                    assert pile[-1] == top
        hidden = Counter(sample["global"]["deck"] + sample["seat"]["hand"][1] + sample["seat"]["hand"][2]
                         + [c for pile in sample["seat"]["piles"][1] + sample["seat"]["piles"][2] for c in pile])
        assert hidden == hidden_real
        assert sample["rng"] != state["rng"]
        assert sample["log"] == []
    # The deal really changes from sample to sample, and the top cards seen are never moved.
    assert len({tuple(s["global"]["deck"]) for s in samples}) == len(samples)
    assert all(c not in s["global"]["deck"] for s in samples for c in tops)


def test_a_card_is_redealt_only_where_a_card_of_its_back_was() -> None:
    """London's cards declare `back: group` (the deck is A over B over C): every seat can tell a
    hidden card's group, so a sample deals an A card only where an A card was."""
    eng = engine("london")
    state = advance(eng, eng.new_game(4, 5), "action", 5, skip=3, seat=0)
    group = eng.game.world.components["card"].attr_values["group"]

    def backs(s: dict[str, Any]) -> list[list[str]]:
        return [[group[c] for c in cards] for cards in [s["global"]["deck"], *s["seat"]["hand"][1:]]]

    real = backs(state)
    assert len(set(real[0])) > 1 and real[0][-1] == "C" and set(real[1]) != {"C"}
    info = InfoSet(eng, state, 0)
    samples = [info.sample(seed) for seed in range(20)]
    assert all(backs(sample) == real for sample in samples)
    assert len({tuple(s["seat"]["hand"][1]) for s in samples}) > 10     # (the hands are dealt again)


def test_downtown_pending_answers_of_others_are_dropped() -> None:
    eng = engine("downtown")
    state = advance(eng, eng.new_game(4, 2), "kind", 2)
    eng.apply_inplace(state, "kind:housing", 0)
    eng.apply_inplace(state, "kind:housing", 3)
    sample = InfoSet(eng, state, 1).sample(0)
    p = sample["pending"]
    assert p["answers"] == [None] * 4 and p["done"] == [False] * 4 and p["left"] == 4
    # The real state is untouched.
    assert state["pending"]["done"] == [True, False, False, True]


def test_downtown_secret_votes_held_by_the_rules_are_drawn_again() -> None:
    eng = engine("downtown")
    state = advance(eng, eng.new_game(4, 8), "use_lobby", 8)
    seat = eng.open_seats(state)[0]
    L = state["stack"][-1][2]
    each, asked = L[SECRET_OPTIONS + "kind"]
    assert each and all(a is not None for a in asked)
    info = InfoSet(eng, state, seat)
    drawn = [info.sample(seed)["stack"][-1][2]["kind"] for seed in range(40)]
    for votes in drawn:
        assert votes[seat] == L["kind"][seat], "the seat's own vote is known to it"
        assert all(votes[s] in asked[s] for s in range(4))
    for s in range(4):
        if s != seat and len(asked[s]) > 1:
            assert len({v[s] for v in drawn}) > 1, "another seat's vote is drawn, not copied"


HIDDEN_RULES = """
phase main:
    shuffle secret_list
    choose x from [1, 2] by seats[0]
    end winners seats
"""


def test_hidden_values_outside_lists_take_their_initial_value(tmp_path: Path) -> None:
    eng = tiny_engine(tmp_path, HIDDEN_RULES, seats=(2, 2),
                      seat={"code": {"type": "int", "initial": 0, "visible": "owner"}},
                      global_={"secret_list": {"type": "list[int]", "initial": [5, 6, 7], "visible": "nobody"},
                               "stash": {"type": "int", "initial": 1, "visible": "nobody"}})
    state = eng.new_game(2, 1)
    state["seat"]["code"] = [41, 42]
    state["global"]["stash"] = 9
    sample = InfoSet(eng, state, 0).sample(3)
    assert sample["seat"]["code"] == [41, 0]          # its own code it sees; the other's is unknown
    assert sample["global"]["stash"] == 1
    assert sorted(sample["global"]["secret_list"]) == [5, 6, 7]
