"""A designer's own player (`FILE.py:CLASS`, `package.module:CLASS`): what it is shown, what it may
answer, and the one-line errors that name the file, the class and the decision."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bot_helpers import State, advance, engine, same_view
from interpreter.agents import CustomPlayerError, is_custom, make_agent, normal_name, parse_lineup
from interpreter.analysis.lineup import LineupError, parse_lineup as batch_lineup
from interpreter.core.state import copy_state
from interpreter.core.view import view


def _twins() -> dict[str, Any]:
    """The twin states of the bots' hidden-information tests (test_info_safety.py), for every game."""
    found = importlib.util.spec_from_file_location("info_safety_twins", Path(__file__).with_name("test_info_safety.py"))
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    twins: dict[str, Any] = module.TWINS
    return twins


TWINS = _twins()

PLAYERS = '''
import random


class Recorder:
    """Keeps what it was shown, scribbles on it, and answers at random from its seed."""
    shown: list = []

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, view, options):
        Recorder.shown.append((repr(view), list(options)))
        view["seats"].clear()
        view["global"].clear()
        for column in view["node"].values():
            if isinstance(column, list):
                column.clear()
        return self.rng.randrange(len(options))


class Last:
    def __init__(self, seed):
        pass

    def choose(self, view, options):
        return Index(len(options) - 1)


class Index:
    """Not an int, but usable as an index (as numpy's integers are)."""
    def __init__(self, k):
        self.k = k

    def __index__(self):
        return self.k


class Answers:
    answer = None

    def __init__(self, seed):
        pass

    def choose(self, view, options):
        return Answers.answer


class Raises:
    def __init__(self, seed):
        pass

    def choose(self, view, options):
        return {}["missing"]


class BadSeed:
    def __init__(self, seed):
        raise RuntimeError("no seed for me")

    def choose(self, view, options):
        return 0


class Mute:
    def __init__(self, seed):
        pass
'''


def line_of(text: str) -> int:
    """The line of PLAYERS (as written to the file) that holds `text`."""
    return next(i for i, line in enumerate(PLAYERS.splitlines(), 1) if text in line)


@pytest.fixture
def players(tmp_path: Path) -> Path:
    path = tmp_path / "Players.py"
    path.write_text(PLAYERS, encoding="utf-8")
    return path


def a_vote(seed: int = 3) -> State:
    eng = engine("downtown")
    return advance(eng, eng.new_game(4, seed), "kind", seed)


def loaded(path: Path, cls: str) -> Any:
    return sys.modules[type(make_agent(f"{path}:{cls}", 0).player).__module__]


@pytest.mark.parametrize("name,custom", [
    ("mine.py:Builder", True), ("players/mine:Builder", True), ("my.pkg.mod:Builder", True),
    ("MINE.PY:Builder", True), ("mcts:builder", False), ("mcts", False), ("greedy:Builder", False),
    ("mine:Builder", False), ("mine.py", False)])
def test_a_custom_player_is_told_apart_from_a_bot_by_its_form(name: str, custom: bool) -> None:
    assert is_custom(name) is custom


def test_the_class_name_keeps_its_case_where_bot_names_are_lower_cased(players: Path) -> None:
    spec = f"{players}:Recorder"
    assert normal_name(f"  {spec} ") == spec and normal_name(" MCTS ") == "mcts"
    game = engine("downtown").game
    assert parse_lineup(f"{spec},RANDOM,random", game, 3) == [spec, "random", "random"]
    assert batch_lineup(f"Greedy,{spec},random", 3, game) == ("greedy", spec, "random")


def test_it_is_shown_exactly_its_seats_view_and_options_and_cannot_change_the_game(players: Path) -> None:
    eng = engine("downtown")
    state = a_vote()
    before = copy_state(state)
    agent = make_agent(f"{players}:Recorder", 7)
    recorder = type(agent.player)
    recorder.shown.clear()
    seat = eng.first_open_seat(state)
    k = agent.pick(eng, state, seat)
    expected = view(eng, state, seat)
    (shown, options), = recorder.shown
    assert shown == repr(expected)
    assert options == [(o.id, o.label) for o in eng.pending(state).options(seat)]
    assert 0 <= k < len(options)
    assert state == before  # it scribbled on its copy only


@pytest.mark.parametrize("case", list(TWINS))
def test_twin_states_it_cannot_tell_apart_give_it_the_same_input_and_answer(players: Path, case: str) -> None:
    game, build = TWINS[case]
    eng = engine(game)
    a, b, seat = build()
    assert a != b and same_view(eng, a, b, seat) and seat in eng.open_seats(a)
    answers = []
    for state in (a, b):
        agent = make_agent(f"{players}:Recorder", 11)
        type(agent.player).shown.clear()
        answers.append((agent.pick(eng, state, seat), list(type(agent.player).shown)))
    assert answers[0] == answers[1] and len(answers[0][1]) == 1


def test_the_same_seed_gives_the_same_answers(players: Path) -> None:
    eng = engine("downtown")
    picks = []
    for _ in range(2):
        state = eng.new_game(4, 9)
        agents = [make_agent(f"{players}:Recorder", 100 + s) for s in range(4)]
        chosen = []
        while state["result"] is None:
            seat = eng.first_open_seat(state)
            k = agents[seat].pick(eng, state, seat)
            chosen.append(k)
            eng.apply_index(state, seat, k)
        picks.append((chosen, state["result"]))
    assert picks[0] == picks[1] and len(picks[0][0]) > 50


def test_an_answer_usable_as_an_index_is_accepted(players: Path) -> None:
    eng = engine("downtown")
    state = a_vote()
    seat = eng.first_open_seat(state)
    assert make_agent(f"{players}:Last", 0).pick(eng, state, seat) == eng.option_count(state, seat) - 1


@pytest.mark.parametrize("answer,shown", [("x", "'x'"), (True, "True"), (-1, "-1"), (99, "99"), (None, "None"),
                                          (1.0, "1.0")])
def test_an_answer_that_is_not_an_option_index_names_the_file_class_and_decision(
        players: Path, answer: Any, shown: str) -> None:
    eng = engine("downtown")
    state = a_vote()
    seat = eng.first_open_seat(state)
    agent = make_agent(f"{players}:Answers", 0)
    type(agent.player).answer = answer
    with pytest.raises(CustomPlayerError) as err:
        agent.pick(eng, state, seat)
    message = str(err.value)
    n = eng.option_count(state, seat)
    assert "\n" not in message
    assert f"{players}, class Answers" in message
    assert f"decision {state['decisions']} (seat {seat}, {state['names'][seat]}: 'Lot " in message
    assert f"choose returned {shown}, not an option index (a whole number from 0 to {n - 1})" in message


def test_an_exception_in_choose_is_one_line_with_its_place_in_the_players_file(players: Path) -> None:
    eng = engine("downtown")
    state = a_vote()
    seat = eng.first_open_seat(state)
    with pytest.raises(CustomPlayerError) as err:
        make_agent(f"{players}:Raises", 0).pick(eng, state, seat)
    message = str(err.value)
    assert "\n" not in message and f"{players}, class Raises: at decision {state['decisions']}" in message
    assert message.endswith(f"choose raised KeyError: 'missing' (Players.py:{line_of('{}[')})")


@pytest.mark.parametrize("cls,words", [
    ("BadSeed", f"BadSeed(0) failed: RuntimeError: no seed for me (Players.py:{line_of('no seed for me')})"),
    ("Mute", "class Mute in {path} has no method choose(view, options)"),
    ("Nobody", "{path} has no class 'Nobody' (its classes: Answers, BadSeed, Index, Last, Mute, Raises, Recorder)"),
    ("Index", "class Index in {path} has no method choose(view, options)"),
    ("random", "'random' in {path} is not a class"),
    ("no-class", "'no-class' is not a class name"),
])
def test_a_class_that_cannot_play_is_refused_with_one_line(players: Path, cls: str, words: str) -> None:
    with pytest.raises(CustomPlayerError) as err:
        make_agent(f"{players}:{cls}", 0)
    assert words.format(path=players) in str(err.value) and "\n" not in str(err.value)


def test_a_file_that_cannot_be_loaded_is_refused_with_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("class Fine:\n    def choose(self, view, options)\n        return 0\n", encoding="utf-8")
    failing = tmp_path / "failing.py"
    failing.write_text("import no_such_module_here\n", encoding="utf-8")
    cases = [(f"{broken}:Fine", "loading", "SyntaxError", "(broken.py:2)"),
             (f"{failing}:Fine", "loading", "ModuleNotFoundError: No module named 'no_such_module_here'",
              "(failing.py:1)"),
             (f"{tmp_path / 'absent.py'}:Fine", "cannot read", "No such file or directory", "")]
    for spec, *words in cases:
        with pytest.raises(CustomPlayerError) as err:
            make_agent(spec, 0)
        assert all(w in str(err.value) for w in words) and "\n" not in str(err.value), str(err.value)
    game = engine("downtown").game
    with pytest.raises(LineupError, match=r"^--bots: custom player '.*broken.py:Fine': loading"):
        batch_lineup(f"{broken}:Fine", 3, game)


def test_a_dotted_module_on_pythons_path_is_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "myplayers"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "simple.py").write_text(textwrap.dedent('''
        class First:
            def __init__(self, seed):
                self.seed = seed

            def choose(self, view, options):
                return 0
        '''), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    eng = engine("downtown")
    state = a_vote()
    agent = make_agent("myplayers.simple:First", 42)
    assert agent.player.seed == 42 and agent.pick(eng, state, eng.first_open_seat(state)) == 0
    with pytest.raises(CustomPlayerError, match="no module 'myplayers.absent' on Python's path"):
        make_agent("myplayers.absent:First", 0)


def test_an_edited_file_is_loaded_again(tmp_path: Path) -> None:
    path = tmp_path / "edited.py"
    path.write_text("class P:\n    def __init__(self, seed): pass\n    def choose(self, view, options): return 0\n",
                    encoding="utf-8")
    eng = engine("downtown")
    state = a_vote()
    seat = eng.first_open_seat(state)
    assert make_agent(f"{path}:P", 0).pick(eng, state, seat) == 0
    path.write_text("class P:\n    def __init__(self, seed): pass\n    def choose(self, view, options): return 1\n",
                    encoding="utf-8")
    import os
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert make_agent(f"{path}:P", 0).pick(eng, state, seat) == 1
