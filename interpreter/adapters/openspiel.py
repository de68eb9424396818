"""Any game folder as an OpenSpiel game: `load(game, players=K)` registers a Python game with pyspiel.

- Players are the seats. An action is an option index (see `common`); simultaneous choices are
  asked one seat after another, a later seat never seeing an earlier answer until all are in.
- Chance is explicit: every roll is a chance node with one outcome per face, every shuffle of n
  elements is n - 1 chance nodes (the steps of a Fisher-Yates shuffle, i + 1 outcomes at step i),
  all uniform. The engine draws chance inside running rules, where it cannot pause, so the state
  replays the run from the last decision with the outcomes chosen so far, through the engine's
  chance hook (`Engine.chance`); the hook stops the run at the first outcome not chosen yet.
- Information state strings are built from the seat's view only (`interpreter.core.view.view`),
  with the seat's own past answers; observation strings from the view alone. Observation tensors are
  the seat's view as `encoding.TensorEncoder` lays it out (from `view.field_readers` for the seat);
  information state tensors add a count of the seat's own answers per choice and its last answer.
  `resample_from_infostate`
  (used by OpenSpiel's IS-MCTS bot) draws a full state from the seat's information set with
  `interpreter.agents.determinize`, so the bot never reads the real state's hidden parts.
- Returns: 1 to each winner, 0 to the others. A game still running after the surveyed bound on its
  length is cut short as terminal with no winner (see `common.survey`).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import random
from pathlib import Path
from typing import Any, Callable

from ._extra import require

require("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..agents.determinize import InfoSet, sampler  # noqa: E402
from ..core.engine import Engine  # noqa: E402
from ..core.game import Game  # noqa: E402
from ..core.state import copy_state  # noqa: E402
from ..core.view import view as seat_view  # noqa: E402
from ..load.games import game_ref  # noqa: E402
from .common import OptionIds, check_players, engine_of, survey, too_many, win_returns  # noqa: E402
from .encoding import TensorEncoder  # noqa: E402

_REGISTERED: dict[str, type["CityrulesGame"]] = {}
# Per registered game: the bots' information sets (their walk over the fields prepared once).
_INFOSETS: dict[str, Callable[[dict[str, Any], int], InfoSet]] = {}
# Per registered game: its option ids, kept once made (a seat's own answers are kept as ids).
_IDS: dict[str, OptionIds] = {}
# Per registered game and choice: answers played, and those whose runs drew chance (see _Position.play).
_CHANCY: dict[str, dict[int, list[int]]] = {}


class _NeedChance(BaseException):
    """Stops a replayed run at a chance outcome not chosen yet.

    A BaseException, so that the engine's handlers of rule errors (which catch Exception) let it
    through to the state that replays the run.
    """

    def __init__(self, outcomes: int):
        super().__init__(outcomes)
        self.outcomes = outcomes


class _Replay:
    """An engine chance hook that gives the outcomes chosen so far, then stops at the next one."""

    def __init__(self, forced: list[int]):
        self.forced = forced
        self.used = 0

    def _next(self, outcomes: int) -> int:
        if self.used == len(self.forced):
            raise _NeedChance(outcomes)
        self.used += 1
        return self.forced[self.used - 1]

    def roll(self, faces: list[Any], k: int) -> int:
        return self._next(len(faces))

    def shuffled(self, state: dict[str, Any], items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._next(i + 1)
            items[i], items[j] = items[j], items[i]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class _Tripwire:
    """An engine chance hook for a move expected to draw no chance: the first draw stops the run."""

    def roll(self, faces: list[Any], k: int) -> int:
        raise _NeedChance(len(faces))

    def shuffled(self, state: dict[str, Any], items: list[Any]) -> None:
        if len(items) > 1:
            raise _NeedChance(len(items))


_TRIPWIRE = _Tripwire()
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class _Position:
    """Everything a state holds.

    A move is applied to `now` in place (a copy of the state per decision would cost as much as the
    decision): `now` belongs to this position alone, and a clone copies it. A move whose run draws
    chance cannot pause in place, so the position also keeps how to rebuild `now`: an `anchor` state
    that is never changed (None: a new game) and the moves applied since, each with the chance
    outcomes its run drew. Such a move rebuilds the state before it and replays the run from there
    with the outcomes chosen so far (`base`, `move`, `forced`), stopping at the first one not chosen.
    """

    def __init__(self, name: str, engine: Engine, players: int, cap: int, actions: int, choices: dict[str, int]):
        self.name = name                               # the registered game's short name
        self.engine = engine
        self.players = players
        self.cap = cap
        self.actions = actions                         # the size of the action space
        self.choices = choices                         # each choice's variable name: its index
        self.base: dict[str, Any] | None = None       # the state the run in progress started from
        self.move: tuple[int, int] | None = None       # (seat, option index) that started it; None: setup
        self.forced: list[int] = []                    # chance outcomes chosen for it so far
        self.outcomes = 0                              # outcomes of the chance node now (0: not chance)
        self._now: dict[str, Any] | None = None        # the state at a decision or the end (this position's own)
        self._player: int | None = None                # current_player(), kept until the position changes
        self.anchor: dict[str, Any] | None = None     # never changed; None: a new game
        self.since: list[tuple[tuple[int, int] | None, list[int]]] = []   # (move, its outcomes) after the anchor
        self.own: list[list[str]] = [[] for _ in range(players)]   # each seat's answers, as option ids
        self.tally: list[list[int]] = [[0] * len(choices) for _ in range(players)]   # answers per choice, per seat
        self.last: list[int] = [-1] * players         # the choice each seat answered last

    @property
    def now(self) -> dict[str, Any] | None:
        """The state at a decision or the end (None during a run waiting for chance)."""
        return self._now

    @now.setter
    def now(self, state: dict[str, Any] | None) -> None:
        self._now, self._player = state, None

    def player(self) -> int:
        """The seat to answer, CHANCE during a run, TERMINAL at the end."""
        if self._player is None:
            now = self._now
            if self.outcomes:
                self._player = int(pyspiel.PlayerId.CHANCE)
            elif now is not None and (now["result"] is not None or now["decisions"] >= self.cap):
                self._player = int(pyspiel.PlayerId.TERMINAL)
            else:
                assert now is not None
                self._player = self.engine.first_open_seat(now)
        return self._player

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Position":
        other = copy.copy(self)
        other.forced = list(self.forced)
        other.own = [list(o) for o in self.own]
        other.tally = [list(t) for t in self.tally]
        other.last = list(self.last)
        other.since = list(self.since)
        if self._now is not None:
            other._now = copy_state(self._now)
        return other

    def __getstate__(self) -> dict[str, Any]:
        """For pickling (OpenSpiel's serialization): everything but the engine, found again by name."""
        return {k: v for k, v in self.__dict__.items() if k != "engine"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self.engine = _REGISTERED[data["name"]].engine

    def start(self) -> None:
        """Deal a new game: its setup's chance outcomes, if it draws any, are chance nodes."""
        self.anchor, self.since, self.base, self.move, self.forced = None, [], None, None, []
        self.replay()

    def play(self, seat: int, k: int) -> None:
        """Apply a seat's option index: in place, unless the run draws chance."""
        assert self.now is not None
        engine = self.engine
        # Answers to a choice whose runs mostly draw chance keep the state before them: rebuilding it
        # from the anchor would replay the moves since.
        counts = _CHANCY.setdefault(self.name, {}).setdefault(self.now["pending"]["spec"], [0, 0])
        before = copy_state(self.now) if 2 * counts[1] > counts[0] else None
        counts[0] += 1
        engine.chance = _TRIPWIRE
        self._player = None
        try:
            engine.apply_index(self.now, seat, k)
        except _NeedChance as need:
            counts[1] += 1
            # `now` was left half-way through the run
            self.base = self.anchor = before if before is not None else self.rebuilt()
            self.since, self.move, self.forced = [], (seat, k), []
            # The run from `base` with no outcome chosen stops where this one did: the chance node is known.
            self.outcomes, self.now = need.outcomes, None
            return
        finally:
            engine.chance = None
        self.since.append(((seat, k), []))

    def rebuilt(self) -> dict[str, Any]:
        """The state at the last decision, rebuilt from the anchor and the moves since."""
        engine = self.engine
        state = None if self.anchor is None else copy_state(self.anchor)
        try:
            for move, forced in self.since:
                engine.chance = _Replay(forced) if forced else _TRIPWIRE
                if move is None:
                    state = engine.new_game(self.players, 0)
                else:
                    assert state is not None
                    engine.apply_index(state, *move)
        finally:
            engine.chance = None
        assert state is not None
        return state

    def replay(self) -> None:
        """Run from the last decision with the chosen outcomes; stop at a new chance node or a decision."""
        engine = self.engine
        engine.chance = _Replay(self.forced)
        try:
            if self.move is None:
                state = engine.new_game(self.players, 0)
            else:
                assert self.base is not None
                state = copy_state(self.base)
                engine.apply_index(state, *self.move)
        except _NeedChance as need:
            self.outcomes, self.now = need.outcomes, None
            return
        finally:
            engine.chance = None
        self.outcomes, self.now = 0, state
        self.since.append((self.move, list(self.forced)))


class CityrulesState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's state at the last decision, or a run waiting for chance outcomes.

    OpenSpiel clones states with copy.deepcopy; all the data is in one `_Position`, whose copy
    shares the engine and the never changed states (anchor, base) and copies the current one.
    """

    def __init__(self, game: "CityrulesGame"):
        super().__init__(game)
        self.p = _Position(game.get_type().short_name, game.engine, game.players, game.cap,
                           game.num_distinct_actions(), game.choices)
        self.p.start()

    @property
    def engine(self) -> Engine:
        """The game's engine."""
        return self.p.engine

    def _ended(self) -> bool:
        return self.p.player() == _TERMINAL

    def current_player(self) -> int:
        """The seat to answer, CHANCE during a run, TERMINAL at the end."""
        return self.p.player()

    def _legal_actions(self, player: int) -> list[int]:
        assert self.p.now is not None
        count = self.engine.option_count(self.p.now, player)
        if count > self.p.actions:
            raise too_many(count, self.p.actions)
        return list(range(count))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every outcome of the chance node, uniformly."""
        return [(k, 1.0 / self.p.outcomes) for k in range(self.p.outcomes)]

    def _apply_action(self, action: int) -> None:
        if self.p.outcomes:
            self.p.forced.append(int(action))
            self.p.replay()
            return
        p = self.p
        assert p.now is not None
        seat = self.engine.first_open_seat(p.now)
        pending = p.now["pending"]
        option = _IDS[p.name].of(pending["spec"], pending["options"][pending["seats"].index(seat)][int(action)])
        p.own[seat].append(option)
        choice = p.choices[option.partition(":")[0]]
        p.tally[seat][choice] += 1
        p.last[seat] = choice
        p.play(seat, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        now = self.p.now
        if now is not None and now["pending"] is not None and player in self.engine.open_seats(now):
            if 0 <= action < self.engine.option_count(now, player):
                return self.engine.option_id(now, player, action)
        return f"option {action}"

    def is_terminal(self) -> bool:
        """True once the game has a result, or has reached the bound on its length."""
        return self._ended()

    def returns(self) -> list[float]:
        """1 for each winner, 0 for the others (all 0 before the end or in a game cut short)."""
        if not self._ended():
            return [0.0] * self.p.players
        assert self.p.now is not None
        return win_returns(self.p.now)

    # ------------------------------------------------------------ what a seat sees
    def seen(self) -> dict[str, Any] | None:
        """The last complete state (at a decision or the end; the run's start during a run)."""
        return self.p.now if self.p.now is not None else self.p.base

    def view_of(self, player: int) -> dict[str, Any]:
        """The seat's view now (during a run: of where the run started, and how far chance has gone)."""
        state = self.seen()
        if state is None:
            return {"setup": True, "chance_steps": len(self.p.forced)}
        shown = seat_view(self.engine, state, player)
        if self.p.outcomes:
            shown["chance_steps"] = len(self.p.forced)
        return shown

    def tensor_of(self, player: int, encoder: TensorEncoder) -> np.ndarray:
        """The seat's view as a tensor (during a run: of where the run started, and how far chance has gone)."""
        state = self.seen()
        steps = len(self.p.forced) if self.p.outcomes or state is None else 0
        if state is None:
            return encoder.blank(player, steps)
        pending = options = None
        p = state["pending"]
        if p is not None and state["result"] is None and not self.p.outcomes:
            pending = {"waiting_for": self.engine.open_seats(state), "spec": p["spec"],
                       "answered": [s for s, d in zip(p["seats"], p["done"]) if d]}
            for i, s in enumerate(p["seats"]):
                if s == player and not p["done"][i]:
                    options = p["options"][i]
        return encoder.encode(state, player, state["decisions"],
                              state["result"] is not None, pending, options, steps)

    # pyspiel's own tensor methods ask the game for the tensor's size, which for a Python game deals a
    # new initial state (the setup's chance nodes replayed) at every call: these answer from Python.
    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The seat's observation tensor (the player to act when not given)."""
        return self._tensor(False, player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The seat's information state tensor (the player to act when not given)."""
        return self._tensor(True, player)

    def _tensor(self, perfect_recall: bool, player: int | None) -> list[float]:
        game: CityrulesGame = self.get_game()
        seat = self.current_player() if player is None else int(player)
        if not 0 <= seat < game.players:
            raise ValueError(f"player {seat} is not a seat of this game (0 to {game.players - 1})")
        observer = game.observers[perfect_recall]
        observer.set_from(self, seat)
        values: list[float] = observer.tensor.tolist()
        return values

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "CityrulesState":
        """A state `player_id` cannot tell from this one: its information set's hidden parts redrawn."""
        if self.p.now is None or self.p.outcomes:
            return self.clone()  # type: ignore[no-any-return]   # chance nodes are not searched from
        seed = int(probability_sampler() * 2 ** 62) if callable(probability_sampler) else 0
        if self.p.name not in _INFOSETS:
            _INFOSETS[self.p.name] = sampler(self.engine)
        sample = _INFOSETS[self.p.name](self.p.now, player_id).sample(seed)
        sample["log"] = [e for e in self.p.now["log"] if e["to"] is None or player_id in e["to"]]
        _answer_again(sample, self.p.now, seed)
        other: CityrulesState = self.clone()
        other.p.now, other.p.base, other.p.move, other.p.forced = sample, None, None, []
        other.p.anchor, other.p.since = copy_state(sample), []
        other.p.own = [list(o) if s == player_id else [] for s, o in enumerate(self.p.own)]
        other.p.tally = [list(t) if s == player_id else [0] * len(t) for s, t in enumerate(self.p.tally)]
        other.p.last = [c if s == player_id else -1 for s, c in enumerate(self.p.last)]
        return other

    def __str__(self) -> str:
        """What a spectator sees (the full state holds what no one may see)."""
        state = self.seen()
        return "setup" if state is None else _canonical(seat_view(self.engine, state, None))


def _answer_again(sample: dict[str, Any], real: dict[str, Any], seed: int) -> None:
    """The same seats have answered the open simultaneous choice in the sample as in the real state.

    The determinization forgets other seats' answers (the seat asked now does not know them) and
    may give a seat other options (drawn from other secrets); a seat that had answered answers
    again at random among its options in the sample, and one that had not is asked in the sample too.
    """
    pick = random.Random(seed)
    p, was = sample["pending"], real["pending"]
    if p is None or was is None:
        return
    for i, done in enumerate(was["done"]):
        if done and not p["done"][i]:
            p["answers"][i] = p["options"][i][pick.randrange(len(p["options"][i]))]
            p["done"][i], p["left"] = True, p["left"] - 1
        elif p["done"][i] and not done:
            p["answers"][i] = None
            p["done"][i], p["left"] = False, p["left"] + 1


class _Observer:
    """Information states (with perfect recall: the seat's own answers too) or observations of a seat,
    as strings and as tensors, from its view only."""

    def __init__(self, game: "CityrulesGame", perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.encoder = game.encoder
        self.choices = game.choices
        size = self.encoder.size
        extra = 2 * len(self.choices) + 1 if perfect_recall else 0
        self.tensor = np.zeros(size + extra, np.float32)
        self.dict: dict[str, np.ndarray] = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["own_answers"] = self.tensor[size:]

    def set_from(self, state: CityrulesState, player: int) -> None:
        """Fill the tensor with what `player` sees of the state (and, with perfect recall, its answers)."""
        self.tensor[:self.encoder.size] = state.tensor_of(player, self.encoder)
        if self.perfect_recall:
            own = self.dict["own_answers"]
            k = len(self.choices)
            own[:] = 0.0
            own[:k] = state.p.tally[player]
            if state.p.last[player] >= 0:   # the last answer's choice, one-hot
                own[k + state.p.last[player]] = 1.0
            own[2 * k] = len(state.p.own[player])

    def string_from(self, state: CityrulesState, player: int) -> str:
        """The seat's view as canonical JSON; with perfect recall, followed by its own answers."""
        text = _canonical(state.view_of(player))
        if self.perfect_recall:
            text += "\nmine:" + _canonical(state.p.own[player])
        return text


class CityrulesGame(pyspiel.Game):  # type: ignore[misc]
    """A cityrules game at a fixed number of seats, as OpenSpiel sees it."""

    engine: Engine
    players: int
    cap: int
    encoder: TensorEncoder
    choices: dict[str, int]      # each choice's variable name: its slot among the own-answer counts

    def new_initial_state(self) -> CityrulesState:
        """The start of a game: chance nodes first when the setup shuffles or rolls."""
        return CityrulesState(self)

    @functools.cached_property
    def observers(self) -> dict[bool, _Observer]:
        """The observers of observation (False) and information state (True) tensors."""
        return {False: _Observer(self, False), True: _Observer(self, True)}

    def observation_tensor_shape(self) -> list[int]:
        """[size of an observation tensor]."""
        return [self.encoder.size]

    def observation_tensor_size(self) -> int:
        """The number of floats in an observation tensor."""
        return int(self.encoder.size)

    def information_state_tensor_shape(self) -> list[int]:
        """[size of an information state tensor]."""
        return [self.information_state_tensor_size()]

    def information_state_tensor_size(self) -> int:
        """The number of floats in an information state tensor: the observation's, then the own answers'."""
        return int(self.encoder.size + 2 * len(self.choices) + 1)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """Information states (perfect recall) or observations, as strings and tensors."""
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return _Observer(self, perfect)


def short_name(engine: Engine, players: int) -> str:
    """The name a game is registered under: the shipped game's name, or a digest of its folder."""
    ref = game_ref(engine.game)
    if ref != engine.game.name:
        ref = engine.game.name + "_" + hashlib.sha256(ref.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    variant = f"_{engine.game.variant}" if engine.game.variant else ""
    return f"cityrules_{ref}{variant}_{players}p".replace("-", "_")


def load(game: str | Path | Game | Engine, players: int | None = None, max_actions: int | None = None,
         max_decisions: int | None = None, variant: str | None = None) -> CityrulesGame:
    """The game as an OpenSpiel game, registered with pyspiel (loading it again gives a new instance).

    `max_actions` (option indexes) and `max_decisions` (answers after which a game is cut short)
    default to the figures of a survey with a fixed seed (see `common.survey`); given, they are part of the
    registered name (`..._d40`), so that each setting is a game of its own.
    """
    engine = engine_of(game, variant)
    players = check_players(engine, players)
    name = short_name(engine, players) + "".join(
        f"_{key}{value}" for key, value in (("a", max_actions), ("d", max_decisions)) if value is not None)
    if name not in _REGISTERED:
        found = survey(engine, players)
        actions = max_actions if max_actions is not None else found.options
        cap = max_decisions if max_decisions is not None else found.decisions
        g = engine.game
        game_type = pyspiel.GameType(
            short_name=name, long_name=f"cityrules {g.title} ({players} seats)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=players, min_num_players=players,
            provides_information_state_string=True, provides_information_state_tensor=True,
            provides_observation_string=True, provides_observation_tensor=True)
        info = pyspiel.GameInfo(
            num_distinct_actions=actions, max_chance_outcomes=found.chance_outcomes, num_players=players,
            min_utility=0.0, max_utility=1.0, utility_sum=None,
            max_game_length=cap + found.chance_steps)

        def __init__(self: CityrulesGame, params: Any = None) -> None:
            CityrulesGame.__init__(self, game_type, info, params or {})  # type: ignore[call-arg]

        own = Engine(engine.game)
        names = list(dict.fromkeys(spec.var for spec in own.program.chooses))
        made = type(f"CityrulesGame_{name}", (CityrulesGame,), {
            "__init__": __init__, "engine": own, "players": players, "cap": cap,
            "encoder": TensorEncoder(own, players, actions, found.texts),
            "choices": {var: k for k, var in enumerate(names)}})
        pyspiel.register_game(game_type, made)
        _REGISTERED[name] = made
        _IDS[name] = OptionIds(own)
    loaded: CityrulesGame = pyspiel.load_game(name)
    return loaded
