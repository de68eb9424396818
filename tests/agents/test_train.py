"""Fitting the value (train.py's `fit`): it must learn what wins, and never learn games by heart."""

from __future__ import annotations

import warnings

import numpy as np

from interpreter.agents.train import HOLD_OUT, fit


def _games(signal: float, seed: int) -> tuple[list[list[float]], list[float], list[int]]:
    """60 games of 30 positions: 40 noise features and one that says, with strength `signal`, how the
    game ends for the seat; one outcome per game, as in self-play."""
    gen = np.random.default_rng(seed)
    rows: list[list[float]] = []
    targets: list[float] = []
    games: list[int] = []
    for g in range(60):
        outcome = float(gen.random() < 0.5)
        for _ in range(30):
            hint = signal * (outcome - 0.5) + gen.normal()
            rows.append([hint, *gen.normal(size=40)])
            targets.append(outcome)
            games.append(g)
    return rows, targets, games


def test_a_value_fitted_to_noise_predicts_unseen_games_no_worse_than_a_constant() -> None:
    """Positions of one game share its outcome: a network free to learn each game's noise by heart
    predicts other games worse than knowing only the average. The held-out games pick the epoch."""
    rows, targets, games = _games(0.0, 1)
    fitted = fit(rows, targets, hidden=24, epochs=30, seed=1, games=games)
    assert fitted.held_out_loss is not None and fitted.constant_loss is not None
    assert fitted.held_out_loss < fitted.constant_loss + 0.02


def test_a_value_learns_what_predicts_the_outcome() -> None:
    rows, targets, games = _games(2.0, 2)
    fitted = fit(rows, targets, hidden=24, epochs=30, seed=1, games=games)
    assert fitted.held_out_loss is not None and fitted.constant_loss is not None
    assert fitted.held_out_loss < 0.85 * fitted.constant_loss
    held = np.asarray(games) % HOLD_OUT == HOLD_OUT - 1
    x = np.asarray(rows)[held]
    y = np.asarray(targets)[held]
    predicted = fitted.network.predict(x)
    assert predicted[y == 1].mean() > predicted[y == 0].mean() + 0.2


def test_a_position_far_past_what_training_saw_is_valued_without_a_warning() -> None:
    # A playout's ruin gives a logit past e's range: the value is 0 or 1, and a player's session
    # prints nothing about it.
    from interpreter.agents.value import Network
    network = Network(mean=np.zeros(1), scale=np.ones(1), w1=np.zeros((1, 0)), b1=np.zeros(0),
                      w2=np.zeros(0), linear=np.array([1.0]), b2=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = network.predict(np.array([[-1e6], [0.0], [1e6]]))
    assert values.tolist() == [0.0, 0.5, 1.0]
