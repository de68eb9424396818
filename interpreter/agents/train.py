"""Training a game's value by self-play (`cityrules train`).

Round 0 plays games at random; every later round plays games between `bot`s that judge by the value
fitted on the rounds before (with a little random play, so they see positions they would avoid), as
in TD-Gammon's and AlphaZero's self-play. Each position a game passes through is written down from
every seat's side (its features, from that seat's view only) with how that seat finished; the
value is fitted to those outcomes (value.py's network, by gradient descent in numpy).

A training is fixed by its seed: the games are seeded from it, each game is played by one worker
from its seed alone, and the positions are gathered in seed order, so one process, `--jobs N`
and Ray write the same file, byte for byte.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

import numpy as np

from ..analysis.parallel import run_tasks
from ..core import rng
from ..core.engine import Engine
from ..core.errors import RuleError
from ..load.loader import load_game
from .features import lead, vocabulary
from .learned import ValueAgent
from .random import RandomAgent
from .seeding import bot_seed
from .value import LearnedValue, Network, feature_space, final_scores, profile_steers, result_target, sigmoid, use_value

# A self-play game stopped here is dropped (rules that loop while bots play): it says nothing of who wins.
GAME_CAP = 20_000
Progress = Callable[[int, int, str], None]   # (games done, games in all, what is being done)


@dataclass(frozen=True)
class TrainSpec:
    """What to train: the game, and how much self-play (every number is kept in the file)."""

    folder: str
    variant: str | None = None
    seed: int = 1
    rounds: int = 2
    # Many cheap games rather than a few careful ones: each game gives one outcome per seat, the
    # scarce signal (docs/bots.md, Training, gives the measurements).
    games: int = 300               # games per round
    positions: int = 40            # positions written down per game, at most (spread over the game)
    explore: float = 0.1           # how often a self-play bot answers at random
    samples: int = 1               # samples per decision of the self-play bots (more is slower)
    budget: int = 4                # positions a self-play bot judges per decision
    hidden: int = 24               # the network's hidden units
    # False: the value is the declared evaluation alone, calibrated (a game whose self-play misleads
    # a network: docs/bots.md, Training).
    network: bool = True
    epochs: int = 40

    @classmethod
    def for_game(cls, folder: str, engine: Engine, variant: str | None = None, seed: int = 1,
                 **given: int | None) -> "TrainSpec":
        """The training of a game: what is `given` (the command line), else the game's own
        `bots: training:` in game.yaml, else these defaults."""
        numbers: dict[str, Any] = {**engine.game.bots.training, **{k: v for k, v in given.items() if v is not None}}
        return cls(folder, variant, seed, **numbers)

    def seat_counts(self, engine: Engine) -> list[int]:
        """The numbers of seats the games are played with, in turn."""
        g = engine.game
        return list(range(g.min_seats, g.max_seats + 1))


@dataclass
class Positions:
    """Features of positions from one seat's side each, and how that seat finished."""

    rows: list[list[float]] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)
    # profile -> the seat's lead by that profile's evaluation, at each position (for its spread)
    leads: dict[str, list[float]] = field(default_factory=dict)
    games_of: list[int] = field(default_factory=list)   # the game each row comes from (its index in training)
    decisions: int = 0
    games: int = 0
    failure: str | None = None


@dataclass(frozen=True)
class _Game:
    """One self-play game: everything a worker needs, as plain data."""

    spec: TrainSpec
    index: int
    seed: int
    seats: int
    vocab: dict[str, list[str]]
    network: dict[str, Any] | None


_ENGINES: dict[tuple[str, str | None], Engine] = {}


def engine_for(folder: str, variant: str | None) -> Engine:
    """The game loaded once per process (a worker plays many games of one training). Not the batches'
    engine_for: that one carries the balance figures' ledger, made for one number of seats."""
    key = (folder, variant)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(load_game(folder, variant))
    return _ENGINES[key]


def play_for_training(task: _Game) -> tuple[int, Positions]:
    """Play one self-play game and write down its positions (run in a worker)."""
    spec = task.spec
    engine = engine_for(spec.folder, spec.variant)
    space = feature_space(engine, task.vocab)
    value = LearnedValue(engine, space, Network.from_json(task.network)) if task.network else None
    agents: list[Any] = [ValueAgent(bot_seed(task.seed, s), samples=spec.samples, explore=spec.explore, value=value,
                                    budget=spec.budget)
                         if value is not None else RandomAgent(bot_seed(task.seed, s)) for s in range(task.seats)]
    state = engine.new_game(task.seats, task.seed)
    g = rng.seed_state(task.seed ^ 0x5EED)
    seen: list[list[list[float]]] = []
    profiles = [(name, space.evaluation_terms(terms)) for name, terms in profile_steers(engine.game).items()]
    out = Positions()
    # Positions are written down at random decisions, about `positions` of them a game.
    chance = 1000 * spec.positions / max(spec.positions, _expected(task, engine))
    while state["result"] is None and state["decisions"] < GAME_CAP:
        seat = engine.first_open_seat(state)
        g, bits = rng.next_u64(g)
        if bits % 1000 < chance:
            seen.append(space.extract_all(state))
            for name, terms in profiles:
                out.leads.setdefault(name, []).append(lead(space.judged(state, seat, [(name, terms)])[0], seat))
        try:
            engine.apply_index(state, seat, agents[seat].pick(engine, state, seat))
        except RuleError as err:
            # Sent back as text: the parent says which game failed and how to play it again.
            out.failure = f"{err.report()} (self-play game seed {task.seed}, {task.seats} seats)"
            return task.index, out
        state["log"].clear()
    out.decisions = state["decisions"]
    if state["result"] is None:
        return task.index, out
    scores = final_scores(engine.game, state)
    targets = [result_target(state["result"], scores, s, task.seats) for s in range(task.seats)]
    for rows in seen:
        for s, row in enumerate(rows):
            out.rows.append(row)
            out.targets.append(targets[s])
    out.games = 1
    return task.index, out


_LENGTHS: dict[tuple[str, int], float] = {}


def _expected(task: _Game, engine: Engine) -> float:
    """About how many decisions a game takes (random play's first game tells; cached per process)."""
    key = (task.spec.folder, task.seats)
    if key not in _LENGTHS:
        *_, end = _random_game(engine, task.seats, 12345, 1)
        _LENGTHS[key] = max(1.0, float(end["decisions"]))
    return _LENGTHS[key]


def _random_game(engine: Engine, seats: int, seed: int, bot: int) -> Iterator[dict[str, Any]]:
    """A game played at random (the game's seed, the random bot's): the state at each decision, then
    at its end (one state object, changed in place between what it yields)."""
    state = engine.new_game(seats, seed)
    picker = RandomAgent(bot)
    while state["result"] is None and state["decisions"] < GAME_CAP:
        yield state
        seat = engine.first_open_seat(state)
        engine.apply_index(state, seat, picker.pick(engine, state, seat))
        state["log"].clear()
    yield state


# Weight decay per step of the fit. Outcomes are one number per seat and game, while a game gives
# dozens of near-identical positions: with little decay the network learns each game by heart
# (held-out games were predicted worse than by a constant) rather than what wins.
WEIGHT_DECAY = 1e-2
# One game in HOLD_OUT is kept out of the fit to pick the epoch whose network predicts unseen games best.
HOLD_OUT = 5


@dataclass
class Fitted:
    """A fitted network and how well it predicts the games it was not fitted on (cross-entropy,
    lower is better), beside the constant that knows only the average outcome."""

    network: Network
    held_out_loss: float | None = None
    constant_loss: float | None = None
    epoch: int = 0


def _loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-7, 1.0 - 1e-7)
    return float(-(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)).mean())


def _calibrated(z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Logistic regression of the targets on a few columns, without decay (Newton's steps): how
    far the game's declared evaluation alone predicts the outcome."""
    x = np.hstack([z, np.ones((len(z), 1))])
    w = np.zeros(x.shape[1])
    for _ in range(25):
        p = sigmoid(x @ w)
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + 1e-6 * np.eye(len(w))
        step = np.linalg.solve(hessian, x.T @ (p - y))
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w[:-1], float(w[-1])


def fit_declared(rows: list[list[float]], targets: list[float], columns: list[int],
                 games: list[int] | None = None) -> Fitted:
    """The game's declared evaluation alone (its `columns` among the features), calibrated to the
    targets: a value with no network, for a game whose self-play teaches a network the wrong lessons."""
    x = np.asarray(rows, dtype=float)
    y = np.asarray(targets, dtype=float)
    held = _held_out(games, len(y))
    mean, scale = _scaling(x[~held])
    weights, bias = _calibrated(((x[~held] - mean) / scale)[:, columns], y[~held])
    d = x.shape[1]
    linear = np.zeros(d)
    linear[columns] = weights
    network = Network(mean, scale, np.zeros((d, 0)), np.zeros(0), np.zeros(0), linear, bias).rounded()
    if not held.any():
        return Fitted(network)
    yv = y[held]
    return Fitted(network, round(_loss(network.predict(x[held]), yv), 6), _constant_loss(y[~held], yv))


def _scaling(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each feature's mean and spread over the fitted rows (a constant feature keeps a spread of 1)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return mean, scale


def _constant_loss(fitted: np.ndarray, held: np.ndarray) -> float:
    """How well the constant that knows only the fitted rows' average outcome predicts the held-out ones."""
    return round(_loss(np.full(len(held), fitted.mean()), held), 6)


def _held_out(games: list[int] | None, rows: int) -> np.ndarray:
    """Which rows are kept out of a fit to judge it: every HOLD_OUT-th game's, when there are enough games."""
    held: np.ndarray = np.zeros(rows, dtype=bool)
    if games is not None and len(set(games)) >= 2 * HOLD_OUT:
        held = np.asarray(games) % HOLD_OUT == HOLD_OUT - 1
    return held


def fit(rows: list[list[float]], targets: list[float], hidden: int, epochs: int, seed: int,
        games: list[int] | None = None) -> Fitted:
    """The network that predicts the targets from the rows (cross-entropy, Adam, weight decay).

    With `games` (the game each row comes from), every HOLD_OUT-th game is kept out of the fit and
    the network is the one, among those after each epoch, that predicts those games best."""
    x = np.asarray(rows, dtype=float)
    y = np.asarray(targets, dtype=float)
    held = _held_out(games, len(y))
    xt, yt = x[~held], y[~held]
    mean, scale = _scaling(xt)
    z = (xt - mean) / scale
    yv = y[held]
    d = z.shape[1]
    gen = np.random.default_rng(seed)
    params = {"w1": gen.normal(0.0, 1.0 / np.sqrt(d), (d, hidden)), "b1": np.zeros(hidden),
              "w2": gen.normal(0.0, 1.0 / np.sqrt(hidden), hidden), "linear": np.zeros(d), "b2": np.zeros(1)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    rate, beta1, beta2, l2, batch = 0.01, 0.9, 0.999, WEIGHT_DECAY, 256

    def network() -> Network:
        return Network(mean, scale, params["w1"].copy(), params["b1"].copy(), params["w2"].copy(),
                       params["linear"].copy(), float(params["b2"][0])).rounded()

    checked = bool(held.any())
    xv = x[held]
    constant = _constant_loss(yt, yv) if checked else None
    best: Fitted | None = None
    step = 0
    for epoch in range(1, epochs + 1):
        order = gen.permutation(len(yt))
        for start in range(0, len(yt), batch):
            idx = order[start:start + batch]
            zb, yb = z[idx], yt[idx]
            h = np.tanh(zb @ params["w1"] + params["b1"])
            p = sigmoid(h @ params["w2"] + zb @ params["linear"] + params["b2"][0])
            err = (p - yb) / len(idx)                      # d(cross-entropy)/d(logit)
            grads = {"w2": h.T @ err + l2 * params["w2"], "linear": zb.T @ err + l2 * params["linear"],
                     "b2": np.array([err.sum()])}
            dh = np.outer(err, params["w2"]) * (1.0 - h * h)
            grads["w1"] = zb.T @ dh + l2 * params["w1"]
            grads["b1"] = dh.sum(axis=0)
            step += 1
            for k, grad in grads.items():
                m, v = moments[k]
                m *= beta1
                m += (1 - beta1) * grad
                v *= beta2
                v += (1 - beta2) * grad * grad
                params[k] -= rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)
        if not checked:
            continue
        candidate = network()
        loss = _loss(candidate.predict(xv), yv)
        if best is None or best.held_out_loss is None or loss < best.held_out_loss:
            best = Fitted(candidate, round(loss, 6), constant, epoch)
    # Without held-out games (too few to spare), the network after the last epoch.
    return best if best is not None else Fitted(network(), epoch=epochs)


def _vocab(engine: Engine, spec: TrainSpec) -> dict[str, list[str]]:
    """The texts the game's text fields take, seen in a few random games."""
    def states() -> Iterator[dict[str, Any]]:
        for i, seats in enumerate(spec.seat_counts(engine)):
            yield from (state for state in _random_game(engine, seats, spec.seed + i, spec.seed + i)
                        if state["decisions"] % 5 == 0 or state["result"] is not None)
    return vocabulary(engine, states())


class TrainingFailed(Exception):
    """A rule error in a self-play game (a mistake in the rules or the declared evaluation)."""


@dataclass
class Training:
    """A finished training: the value, and what it took."""

    value: LearnedValue
    games: int
    positions: int
    seconds: float
    rounds: list[dict[str, Any]]


def train(spec: TrainSpec, jobs: int = 1, backend: str = "processes", address: str | None = None,
          progress: Progress | None = None) -> Training:
    """Self-play rounds, each fitted on its own and the previous round's positions; the last value."""
    engine = engine_for(spec.folder, spec.variant)
    start = time.process_time()
    vocab = _vocab(engine, spec)
    space = feature_space(engine, vocab)
    if not spec.network and not space.declared_columns():
        raise TrainingFailed(f"{engine.game.title}: `network: no` makes the value the declared evaluation "
                             "alone, and the game declares none (bots: evaluation: in game.yaml)")
    counts = spec.seat_counts(engine)
    total = spec.rounds * spec.games
    done = 0
    network: Network | None = None
    kept: list[Positions] = []
    rounds: list[dict[str, Any]] = []
    games = positions = 0
    for r in range(spec.rounds):
        tasks = [_Game(spec, i, spec.seed * 1_000_003 + r * 10_007 + i, counts[i % len(counts)], vocab,
                       network.to_json() if network is not None else None) for i in range(spec.games)]
        found: dict[int, Positions] = {}
        for i, played in run_tasks(play_for_training, tasks, jobs, backend, address):
            if played.failure is not None:
                raise TrainingFailed(played.failure)
            found[i] = played
            done += 1
            if progress is not None:
                progress(done, total, f"round {r + 1} of {spec.rounds}")
        merged = Positions()
        for i in range(spec.games):
            merged.games_of += [r * spec.games + i] * len(found[i].rows)
            merged.rows += found[i].rows
            merged.targets += found[i].targets
            merged.decisions += found[i].decisions
            merged.games += found[i].games
            for name, leads in found[i].leads.items():
                merged.leads.setdefault(name, []).extend(leads)
        kept = kept[-1:] + [merged]
        rows = [row for p in kept for row in p.rows]
        targets = [t for p in kept for t in p.targets]
        games_of = [g for p in kept for g in p.games_of]
        if not rows:
            raise RuleError(f"round {r + 1}: no self-play game of {engine.game.title} finished within "
                            f"{GAME_CAP} decisions, so there is nothing to learn from", None)
        if spec.network:
            fitted = fit(rows, targets, spec.hidden, spec.epochs, spec.seed + r, games_of)
        else:
            fitted = fit_declared(rows, targets, space.declared_columns(), games_of)
        network = fitted.network
        games += merged.games
        positions += len(merged.rows)
        rounds.append({"round": r + 1, "games": merged.games, "positions": len(merged.rows),
                       "decisions_per_game": round(merged.decisions / max(1, spec.games), 1),
                       "held_out_loss": fitted.held_out_loss, "constant_loss": fitted.constant_loss,
                       "epoch": fitted.epoch})
    if network is None:
        raise ValueError("a training needs at least one round")
    spread = {name: round(float(np.std(leads)) or 1.0, 6) for name, leads in sorted(merged.leads.items())}
    info = {"seed": spec.seed, "variant": spec.variant, "rounds": spec.rounds, "games_per_round": spec.games,
            "explore": spec.explore, "budget": spec.budget, "hidden": spec.hidden, "network": spec.network,
            "epochs": spec.epochs, "positions_per_game": spec.positions,
            "seat_counts": counts, "by_round": rounds, "profile_spread": spread}
    value = LearnedValue(engine, space, network, info)
    use_value(engine, value)
    return Training(value, games, positions, time.process_time() - start, rounds)


def spec_with(spec: TrainSpec, **changes: Any) -> TrainSpec:
    """The same training with some numbers changed."""
    return replace(spec, **changes)
