"""The conveniences on the agent path: a game using phases that give back values (also from a
choice, and from a phase that waits), `pay up to`, `roll N` and `unique_by` plays the same when
bots answer inside the rules (`Engine.play`, the direct functions) as when the same answers are
applied one by one (`new_game` + `apply`, the resumable form)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter.core.engine import Engine
from interpreter.core.errors import RuleError
from interpreter.core.state import copy_state
from lang_helpers import engine

SEAT = {"money": {"type": "int", "initial": 6, "ledger": True}, "score": ("int", 0), "colour": ("str", "red")}

# Every new form, in a phase that waits (`turn`), one that never waits (`tax`) and one whose value is
# kept while it waits for a choice (`bid`), run from a loop; `total` keeps the value of running itself.
GAME = """\
phase main:
    let die = [1, 2, 3, 4, 5, 6]
    for r in range(3):
        for s in seats:
            run turn(s, die)
    let firsts = unique_by(seats, "colour")
    let t = run total(3)
    log done(n=len(firsts), t=t) "{len(firsts)} colours, {t}"
    end winners [s for s in seats if s.score == max([x.score for x in seats])]

phase turn(s: seat, die: list[int]):
    let b = run bid(s)
    s.score += b
    roll 2 faces from die
    let paid = run tax(s, sum(faces))
    let kept = pay up to b from s.money
    log turn(seat=s, b=b, paid=paid, kept=kept) "{s}: bid {b}, rolled {faces}, paid {paid} and {kept}"
    if s.score > 6:
        s.colour = "blue"

phase bid(s: seat):
    choose n from [0, 1, 2, 3] by s "{s}, bid?"
    if n == 0:
        return 0
    choose m from [n, n * 2] by s "{s}, double?"
    return m

phase tax(s: seat, k: int):
    let paid = pay up to k // 3 from s.money
    gain 1 to s.money
    return paid

phase total(k: int):
    if k == 0:
        return 0
    let rest = run total(k - 1)
    return rest + k
"""


@pytest.fixture(scope="module")
def game_engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return engine(tmp_path_factory.mktemp("kept"), GAME, seat=SEAT)


def _cycling(answers: list[int]) -> Any:
    """A picker answering the k-th option from a fixed list of choices, in turn."""
    at = [0]

    def pick(state: dict[str, Any], seat: int, options: list[Any]) -> int:
        k = answers[at[0] % len(answers)] % len(options)
        at[0] += 1
        return k
    return pick


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("seat", "global", "ledger", "rng", "result", "decisions"):
        assert a[key] == b[key], key
    assert [e["text"] for e in a["log"]] == [e["text"] for e in b["log"]]


@pytest.mark.parametrize("seed,answers", [(1, [1, 2, 0, 3]), (7, [3, 1]), (42, [0, 0, 2])])
def test_the_agent_path_plays_the_same_game_as_applying_the_answers(game_engine: Engine, seed: int,
                                                                    answers: list[int]) -> None:
    journal: list[tuple[int, str]] = []
    played = game_engine.play(2, seed, [_cycling(answers), _cycling(answers[::-1])], journal=journal)
    assert played["result"] is not None and journal
    stepped = game_engine.new_game(2, seed)
    for seat, option in journal:
        stepped = game_engine.apply(stepped, option, seat)
    _same(played, stepped)
    texts = [e["text"] for e in played["log"]]
    assert texts[-1].endswith(", 6") and len(texts) == 7  # six turns, then total(3) = 6
    assert any("bid 0" not in t and "bid" in t for t in texts)


def test_a_playout_from_inside_a_kept_phase_finishes_like_the_stepped_game(game_engine: Engine) -> None:
    # Stopped while `bid` waits for its second choice (its value not yet given back to `turn`).
    state = game_engine.new_game(2, 3)
    state = game_engine.apply(state, "n:2")
    assert game_engine.pending(state) is not None and state["stack"][-1][0] == "bid"
    rest: list[tuple[int, str]] = []
    copy = copy_state(state)
    game_engine.playout(copy, [_cycling([1, 3])] * 2, journal=rest)
    for seat, option in rest:
        state = game_engine.apply(state, option, seat)
    _same(copy, state)
    assert state["result"] is not None


# Every seat votes on the same plain options (asked once for all on the agent path), on options of
# its own, and on a single option (taken without asking).
VOTE = """\
phase main:
    for r in range(3):
        let kinds = [k for k in ["a", "bb", "ccc"] if len(k) < 3 or r > 0]
        choose k from kinds by each s in seats
        choose one from ["x"] by each s in seats
        choose own from [s.score, s.score + 1] by each s in seats
        for s in seats:
            s.score += len(k[s]) + len(one[s]) + own[s]
            log vote(seat=s, k=k[s]) "{s} votes {k[s]}"
    end winners seats
"""


def test_a_vote_on_the_same_options_plays_the_same_game_as_applying_the_answers(tmp_path: Path) -> None:
    e = engine(tmp_path, VOTE, seat={"score": ("int", 0)})
    assert "c.ask_all(" in e.program.source and "c.ask_each(" in e.program.source
    for seed in (1, 2, 3):
        journal: list[tuple[int, str]] = []
        played = e.play(3, seed, [_cycling([1, 2]), _cycling([0]), _cycling([2, 1])], journal=journal)
        stepped = e.new_game(3, seed)
        for seat, option in journal:
            stepped = e.apply(stepped, option, seat)
        _same(played, stepped)
        assert not any(option.startswith("one:") for _, option in journal)  # a single option is not asked
        assert {option for _, option in journal if option.startswith("k:")} == {"k:a", "k:bb", "k:ccc"}


def test_a_vote_with_no_option_says_so_on_the_agent_path_too(tmp_path: Path) -> None:
    e = engine(tmp_path, 'phase main:\n    choose k from [x for x in ["a"] if x == "b"] by each s in seats\n'
                         '    end winners seats\n')
    assert "c.ask_all(" in e.program.source
    with pytest.raises(RuleError, match="no legal option for 'k'") as stepped:
        e.new_game(2, 1)
    with pytest.raises(RuleError, match="no legal option for 'k'") as played:
        e.play(2, 1, [_cycling([0])] * 2)
    assert str(stepped.value) == str(played.value)
