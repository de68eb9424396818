"""The learned value and `bot` (issue 25): training, its file, and what the bots may read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot_helpers import advance, engine
from interpreter.agents import ValueAgent, make_agent
from interpreter.agents.train import TrainingFailed, TrainSpec, train
from interpreter.agents.value import (
    FILE_NAME,
    MissingValue,
    StaleValue,
    learned_value,
    load,
    rules_hash,
    save,
    value_path,
)
from interpreter.core.engine import Engine
from interpreter.core.state import copy_state
from interpreter.load.games import resolve_game
from interpreter.load.loader import load_game
from interpreter.workbench.scaffold import write_game
from twin_helpers import reverse_alike

SHIPPED = ["downtown", "london", "city", "examples/harbour"]
TINY = dict(rounds=2, games=6, epochs=3)


def _harbour_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "harbour"
    shutil.copytree(resolve_game("examples/harbour"), folder)
    (folder / FILE_NAME).unlink(missing_ok=True)
    return folder


@pytest.mark.parametrize("game", SHIPPED)
def test_every_shipped_game_has_a_value_trained_on_its_rules(game: str) -> None:
    """A rules change without `cityrules train` would leave the bots without judgement: caught here."""
    eng = engine(game)
    value = learned_value(eng)
    assert value_path(eng.game).stat().st_size <= 1_000_000
    state = eng.new_game(eng.game.min_seats, 3)
    assert 0.0 < value.value(state, 0) < 1.0


def test_features_are_read_from_the_seats_view_only() -> None:
    """Two other hands and the deck dealt otherwise (sizes kept, as everybody sees them): seat 0's
    features do not change; seat 1's do, since its own hand is among them."""
    eng = engine("london")
    a = advance(eng, eng.new_game(3, 4), "action", 4, skip=3)
    b = copy_state(a)
    hands = b["seat"]["hand"]
    pool = hands[1] + hands[2]
    reverse_alike(eng, "card", pool)       # (every seat can tell a card's group: it stays)
    hands[1], hands[2] = pool[:len(hands[1])], pool[len(hands[1]):]
    reverse_alike(eng, "card", b["global"]["deck"])
    space = learned_value(eng).space
    assert space.extract(a, 0) == space.extract(b, 0)
    assert space.extract(a, 1) != space.extract(b, 1), "a seat's own hand must count (else the test proves nothing)"


def test_training_gives_the_same_file_with_one_or_two_jobs(tmp_path: Path) -> None:
    folder = _harbour_copy(tmp_path)
    spec = TrainSpec(str(folder), **TINY)  # type: ignore[arg-type]
    one = save(train(spec, jobs=1).value, tmp_path / "one.json").read_bytes()
    two = save(train(spec, jobs=2).value, tmp_path / "two.json").read_bytes()
    assert one == two
    assert json.loads(one)["rules"] == rules_hash(load_game(str(folder)))


def test_a_value_trained_on_other_rules_is_refused_with_the_command_to_train(tmp_path: Path) -> None:
    folder = _harbour_copy(tmp_path)
    eng = Engine(load_game(str(folder)))
    with pytest.raises(MissingValue, match="cityrules train"):
        load(eng)
    save(train(TrainSpec(str(folder), **TINY), jobs=1).value)  # type: ignore[arg-type]
    assert load(Engine(load_game(str(folder)))).info["games_per_round"] == 6
    rules = folder / "scoring.rules"
    rules.write_text(rules.read_text() + "\n# a designer's edit\n")
    with pytest.raises(StaleValue, match="cityrules train .*again"):
        load(Engine(load_game(str(folder))))


def test_a_game_grown_from_new_trains_and_its_bot_plays(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "orchard")
    eng = Engine(load_game(str(folder)))
    save(train(TrainSpec(str(folder), **TINY), jobs=1).value)  # type: ignore[arg-type]
    eng = Engine(load_game(str(folder)))
    bots = [make_agent("bot", s) for s in range(eng.game.min_seats)]
    state = eng.new_game(eng.game.min_seats, 1)
    while state["result"] is None:
        seat = eng.first_open_seat(state)
        eng.apply_index(state, seat, bots[seat].pick(eng, state, seat))
    assert state["result"]["winners"]


def test_without_a_trained_value_bot_judges_by_the_declared_evaluation(tmp_path: Path) -> None:
    folder = _harbour_copy(tmp_path)
    eng = Engine(load_game(str(folder)))
    bot = ValueAgent(3)
    assert not bot.judges(eng)
    state = eng.new_game(3, 2)
    seat = eng.first_open_seat(state)
    assert 0 <= bot.pick(eng, state, seat) < eng.option_count(state, seat)


def test_a_profile_shifts_the_bots_judgement() -> None:
    """Downtown's hoarder values money: somewhere early its option values differ from the plain bot's."""
    eng = engine("downtown")
    state = advance(eng, eng.new_game(4, 6), "target", 6)
    seat = eng.first_open_seat(state)
    plain = ValueAgent(1).option_values(eng, state, seat)
    hoarder = ValueAgent(1, profile="hoarder").option_values(eng, state, seat)
    assert plain != hoarder


# A game written from the docs alone whose hands are hidden and whose evaluation reads none of them.
ACQUIRE = str(Path(__file__).resolve().parents[2] / "benchmarks" / "games" / "acquire")


def test_an_evaluation_that_reads_nothing_hidden_is_judged_once_for_every_seat() -> None:
    """Acquire's evaluation reads money, shares and chain sizes, which every seat sees: it gives the
    same values from every seat's view, so reading all seats judges it once (mcts reads all seats at
    every leaf). London's reads the seat's hand, hidden from the others: it is judged from each view."""
    acquire = learned_value(engine(ACQUIRE)).space
    london = learned_value(engine("london")).space
    assert acquire.private and acquire.evaluations_alike
    assert london.private and not london.evaluations_alike
    assert "hand" in london.hidden and "hand" in acquire.hidden


def test_an_evaluation_judged_once_for_all_seats_reads_no_hand() -> None:
    """Where the evaluation is read once for every seat (Acquire's, at mcts's leaves), the other
    seats' tiles and the draw pool dealt otherwise change nothing of a seat's features."""
    eng = engine(ACQUIRE)
    value = learned_value(eng)
    state = eng.new_game(4, 7)
    picker = make_agent("random", 4)
    while state["decisions"] < 30:
        seat = eng.first_open_seat(state)
        eng.apply_index(state, seat, picker.pick(eng, state, seat))
    other = copy_state(state)
    hands = other["seat"]["hand"]
    pool = list(reversed(hands[1] + hands[2] + hands[3] + other["global"]["pool"]))
    for s in (1, 2, 3):
        hands[s], pool = pool[:len(hands[s])], pool[len(hands[s]):]
    other["global"]["pool"] = pool
    assert hands[1] != state["seat"]["hand"][1]
    assert value.features_all(other)[0] == value.features_all(state)[0]
    assert value.space.extract_all(other)[0] == value.space.extract_all(state)[0]


@pytest.mark.parametrize("game", [*SHIPPED, ACQUIRE])
def test_reading_every_seat_at_once_gives_each_seats_own_features(game: str) -> None:
    """mcts and training read all seats at once (once for all where every seat sees the same): the
    same numbers to the bit as each seat's own reading, all through a game, at every number of seats."""
    eng = engine(game)
    space = learned_value(eng).space
    for seats in range(eng.game.min_seats, eng.game.max_seats + 1):
        state = eng.new_game(seats, 5 + seats)
        picker = make_agent("random", seats)
        read = 0
        while state["result"] is None and read < 25:
            if state["decisions"] % 9 == 0:
                assert space.extract_all(state) == [space.extract(state, s) for s in range(seats)]
                read += 1
            seat = eng.first_open_seat(state)
            eng.apply_index(state, seat, picker.pick(eng, state, seat))
        assert read > 3


@pytest.mark.parametrize("game", SHIPPED)
def test_a_value_judges_as_if_it_read_every_feature(game: str) -> None:
    """A value reads only the features its network weighs: its judgements are the same to the bit as
    with every feature read, from one seat and from all of them."""
    eng = engine(game)
    value = learned_value(eng)
    space = value.space
    state = eng.new_game(eng.game.min_seats + 1, 11)
    picker = make_agent("random", 3)
    read = 0
    while state["result"] is None and read < 20:
        if state["decisions"] % 7 == 0:
            seat = eng.first_open_seat(state)
            assert value.values([value.features(state, seat)]) == value.values([space.extract(state, seat)])
            assert value.values(value.features_all(state)) == value.values(space.extract_all(state))
            for profile in eng.game.bots.profiles:   # judged once for all seats where every seat sees it alike
                rows = [value.features(state, s, profile) for s in range(state["seats"])]
                assert value.features_all(state, profile) == rows
            read += 1
        seat = eng.first_open_seat(state)
        eng.apply_index(state, seat, picker.pick(eng, state, seat))


def test_a_value_that_is_the_declared_evaluation_reads_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """London's value is its declared evaluation, calibrated: judging a position reads no other feature."""
    eng = engine("london")
    value = learned_value(eng)
    state = advance(eng, eng.new_game(3, 4), "action", 3)

    def unread(*args: Any) -> Any:
        raise AssertionError("a feature the value does not weigh was read")

    for group in value.space.groups:
        monkeypatch.setattr(group, "read", unread)
    for _, reader in value.space.public:
        monkeypatch.setattr(type(reader), "__call__", unread)
    assert 0.0 < value.value(state, eng.first_open_seat(state)) < 1.0
    assert len(value.features_all(state)) == 3


def _lines(eng: Engine, state: dict[str, Any], seat: int, monkeypatch: pytest.MonkeyPatch
           ) -> tuple[list[int], list[dict[str, Any]]]:
    """The seats whose answers `bot`'s look-ahead played for one decision, and the positions it judged."""
    from interpreter.agents import learned

    answered: list[int] = []
    judged: list[dict[str, Any]] = []
    apply, leaf = Engine.apply_index, learned._Judge._leaf

    def recording_apply(self: Engine, st: dict[str, Any], s: int, k: int) -> None:
        answered.append(s)
        apply(self, st, s, k)

    def recording_leaf(self: learned._Judge, st: dict[str, Any]) -> float | int:
        judged.append(copy_state(st))
        return leaf(self, st)

    monkeypatch.setattr(Engine, "apply_index", recording_apply)
    monkeypatch.setattr(learned._Judge, "_leaf", recording_leaf)
    ValueAgent(5).option_values(eng, state, seat)
    monkeypatch.undo()
    return answered, judged


def test_the_look_ahead_stops_where_the_turn_that_asked_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A City turn asks only its player. The bot follows each move to the end of that turn and judges
    it there: it never goes on into the next players' turns (the same phase, called again), where it
    would invent their answers and judge the move by them."""
    eng = engine("city")
    for skip in range(3):
        state = advance(eng, eng.new_game(4, 6), "move", skip=skip)
        seat = eng.first_open_seat(state)
        answered, judged = _lines(eng, state, seat, monkeypatch)
        assert answered and set(answered) == {seat}
        assert judged


def test_with_finish_phase_an_option_is_judged_once_the_phase_that_asked_is_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """London adds an activation's poverty when the player stops activating (bots: finish_phase):
    judged at its next own question, activating would look free. Every position judged for an
    action lies past the end of the turn that asked, its poverty counted."""
    eng = engine("london")
    assert eng.game.bots.finish_phase
    state = advance(eng, eng.new_game(3, 4), "action", skip=4)
    seat = eng.first_open_seat(state)
    depth = len(state["stack"])
    assert "action:activate" in [eng.option_id(state, seat, k) for k in range(eng.option_count(state, seat))]
    _, judged = _lines(eng, state, seat, monkeypatch)
    assert judged
    for position in judged:
        stack = position["stack"]
        assert position["result"] is not None or len(stack) < depth or stack[depth - 1][-1] != "\0asking"


def advance_copy(eng: Engine, state: dict[str, Any], seat: int, k: int) -> dict[str, Any]:
    """A copy of the state with the seat's option k answered."""
    child = copy_state(state)
    eng.apply_index(child, seat, k)
    return child


def _london_action(skip: int) -> tuple[Engine, dict[str, Any], int]:
    eng = engine("london")
    state = advance(eng, eng.new_game(3, 4), "action", skip=skip)
    return eng, state, eng.first_open_seat(state)


def test_with_finish_phase_a_many_step_option_counts_its_best_completion(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its budget the bot completes an option's own later questions at random: several
    completions, as many as the option's share of the budget, and the best counts (its answers are
    its to choose; one random string of them judged a develop by its blunders)."""
    from interpreter.agents import learned

    eng, state, seat = _london_action(skip=3)
    n = eng.option_count(state, seat)
    judges: list[learned._Judge] = []
    add = learned._Judge.add

    def recording_add(self: learned._Judge, k: int, st: dict[str, Any], b: int, logged: int) -> None:
        judges.append(self)
        add(self, k, st, b, logged)

    monkeypatch.setattr(learned._Judge, "add", recording_add)
    budget = 8
    values = ValueAgent(5, samples=1, budget=budget).option_values(eng, state, seat)
    monkeypatch.undo()
    judge = judges[0]
    assert all(j is judge for j in judges)
    leaf_values = judge.value.values(judge.rows, None)

    def leaves(found: Any) -> list[float]:
        if isinstance(found, list):
            return [v for x in found for v in leaves(x)]
        return [leaf_values[found] if isinstance(found, int) else float(found)]

    share = budget // n
    # Every option whose own next question has more answers than its share (develop: which card;
    # activate: which card first): that many completions, each to the end of the turn.
    past = [k for k in range(n) if eng.first_open_seat(after := advance_copy(eng, state, seat, k)) == seat
            and eng.option_count(after, seat) > share >= 2]
    assert len(past) >= 2
    for k in past:
        assert isinstance(judge.found[k], list) and len(judge.found[k]) == share, judge.found
    for k in range(n):
        found = leaves(judge.found[k])
        assert values[k] == pytest.approx(max(found))
    assert any(len(set(leaves(judge.found[k]))) > 1 for k in range(n))   # the completions differ


def test_the_bots_own_random_answers_are_the_same_in_every_options_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: options that do the same thing get the same value, whatever the luck
    of their completions (here every action option is made to play the first one: their lines are
    completed at random, and still judged alike)."""
    from interpreter.agents import learned

    eng, state, seat = _london_action(skip=3)
    n = eng.option_count(state, seat)
    apply = Engine.apply_index
    root = id(state)

    def first_at_the_root(self: Engine, st: dict[str, Any], s: int, k: int) -> None:
        asked = st["stack"] and st["stack"][len(state["stack"]) - 1][-1] == learned._ASKING
        at_root = s == seat and st["pending"] is not None and st["decisions"] == state["decisions"] and asked
        apply(self, st, s, 0 if at_root and id(st) != root else k)

    monkeypatch.setattr(Engine, "apply_index", first_at_the_root)
    values = ValueAgent(5, samples=2).option_values(eng, state, seat)
    monkeypatch.undo()
    assert len(values) == n and len(set(values)) == 1, values


def test_network_no_makes_the_value_the_declared_evaluation_alone(tmp_path: Path) -> None:
    """`training: {network: no}`: the value reads the game's declared evaluation only (calibrated on
    the self-play outcomes), no hidden layer and no weight on any other feature."""
    folder = _harbour_copy(tmp_path)
    value = train(TrainSpec(str(folder), network=False, **TINY), jobs=1).value  # type: ignore[arg-type]
    declared = value.space.declared_columns()
    assert declared, "harbour declares an evaluation"
    assert value.network.w1.shape[1] == 0
    assert [i for i, w in enumerate(value.network.linear) if w != 0.0 and i not in declared] == []
    assert any(value.network.linear[i] != 0.0 for i in declared)
    assert value.info["network"] is False


def test_network_no_without_a_declared_evaluation_is_refused_with_the_reason(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "orchard")
    with pytest.raises(TrainingFailed, match="declares none"):
        train(TrainSpec(str(folder), network=False, **TINY), jobs=1)  # type: ignore[arg-type]
