"""A learned value: how likely a seat is to do well from a position, fitted by self-play (train.py).

The value is a small neural network (one hidden layer and a linear part) over the features of
features.py, predicting a seat's result: half for winning (shared equally on a shared win), half
for its rank by the game's score. It is kept as `bots.trained.json` in the game's folder, next to
the rules it was trained on, with a hash of those rules: a file trained on other rules is refused
(`StaleValue`), never used silently.
"""

from __future__ import annotations

import hashlib
import json
import os
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..core.engine import Engine
from ..core.game import Game
from .features import FeatureSpace, lead

FILE_NAME = "bots.trained.json"
FORMAT = 1
# How much a profile shifts the value at most: by the seat's lead over the others in what the profile
# weighs differently from the declared evaluation (profile_steers), per standard deviation of it.
PROFILE_SHIFT = 0.3


class ValueFileError(ValueError):
    """A trained value that cannot be used: missing, unreadable, or trained on other rules."""


class MissingValue(ValueFileError):
    """The game has no trained value."""


class StaleValue(ValueFileError):
    """The game's rules changed since its value was trained."""


def rules_hash(game: Game) -> str:
    """A hash of every file the game was loaded from (rules, components, board), by its place in the folder."""
    digest = hashlib.sha256()
    folder = game.folder.resolve()
    for path in sorted(game.sources, key=lambda p: os.path.relpath(Path(p).resolve(), folder)):
        digest.update(os.path.relpath(Path(path).resolve(), folder).encode())
        digest.update(b"\0")
        digest.update(game.sources[path].encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def value_path(game: Game) -> Path:
    """Where a game's trained value is kept: beside its rules, in its folder."""
    return game.folder / FILE_NAME


def train_command(game: Game) -> str:
    """The command that trains the game's value, as a person would type it."""
    return f"cityrules train {game.folder}"


def result_target(result: dict[str, Any], scores: Sequence[float] | None, seat: int, seats: int) -> float:
    """What the value predicts for a finished game: half the seat's share of the win, half its rank
    by score (1 first, 0 last, ties shared); the win alone when the game has no score."""
    winners = result["winners"]
    win = (1.0 / len(winners)) if seat in winners else 0.0
    if scores is None or seats < 2:
        return win
    mine = scores[seat]
    above = sum(1 for s in range(seats) if s != seat and scores[s] > mine)
    tied = sum(1 for s in range(seats) if s != seat and scores[s] == mine)
    rank = 1.0 - (above + 0.5 * tied) / (seats - 1)
    return 0.5 * win + 0.5 * rank


def final_scores(game: Game, state: dict[str, Any]) -> list[float] | None:
    """Each seat's final score by the game's score field, or None without one."""
    if game.score_field is None or game.score_field not in state["seat"]:
        return None
    return [float(v) for v in state["seat"][game.score_field]]


def sigmoid(logit: np.ndarray) -> np.ndarray:
    """1 / (1 + e^-logit), element by element."""
    # A position far out of what training saw (a playout's ruin) gives a logit past e's range: the
    # value is then 0 or 1 exactly, as it should be, and no warning is printed in a player's session.
    with np.errstate(over="ignore"):
        out: np.ndarray = 1.0 / (1.0 + np.exp(-logit))
    return out


@dataclass
class Network:
    """The fitted function: standardised features → one hidden tanh layer plus a linear part → a sigmoid."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    linear: np.ndarray
    b2: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Values in (0, 1) for rows of raw features."""
        z = (x - self.mean) / self.scale
        h = np.tanh(z @ self.w1 + self.b1)
        return sigmoid(h @ self.w2 + z @ self.linear + self.b2)

    def used(self) -> list[bool]:
        """Which features any weight reads (the others leave every prediction as it is, to the bit)."""
        touched = self.linear != 0
        if self.w1.size:
            touched = touched | np.any(self.w1 != 0, axis=1)
        return [bool(x) for x in touched]

    def to_json(self) -> dict[str, Any]:
        """The weights as lists of short decimals (the file stays small and its text stable)."""
        def r(a: np.ndarray) -> Any:
            return np.round(a.astype(float), 6).tolist()
        return {"mean": r(self.mean), "scale": r(self.scale), "w1": r(self.w1), "b1": r(self.b1),
                "w2": r(self.w2), "linear": r(self.linear), "b2": round(float(self.b2), 6)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Network":
        """The network a file holds."""
        a = {k: np.asarray(data[k], dtype=float) for k in ("mean", "scale", "w1", "b1", "w2", "linear")}
        return cls(a["mean"], a["scale"], a["w1"], a["b1"], a["w2"], a["linear"], float(data["b2"]))

    def rounded(self) -> "Network":
        """The network exactly as its file will hold it (so training and play agree to the bit)."""
        return Network.from_json(self.to_json())


class LearnedValue:
    """A game's trained value, ready to judge positions from one seat's side."""

    def __init__(self, engine: Engine, space: FeatureSpace, network: Network, info: dict[str, Any] | None = None):
        self.engine = engine
        self.space = space
        self.network = network
        self.info = info or {}
        steers = profile_steers(engine.game)
        self._profiles = {name: [(name, space.evaluation_terms(terms))] for name, terms in steers.items()}
        # Profiles whose formulas read nothing hidden from a seat: judged once for every seat's side.
        self._profiles_alike = {name: space.seen_alike(terms) for name, terms in steers.items()}
        # What the network reads: a feature none of its weights touches is not read at all (a value
        # that is the declared evaluation alone reads that evaluation and nothing else).
        self._needed = space.needed(network.used())

    def features(self, state: dict[str, Any], seat: int, profile: str | None = None) -> list[float]:
        """The features of a position from `seat`'s side (what it may see only); with a profile, the
        seat's lead by the profile's evaluation comes last (`values` takes it off again)."""
        row = self.space.extract(state, seat, self._needed)
        if profile is not None:
            row.append(lead(self.space.judged(state, seat, self._profiles[profile])[0], seat))
        return row

    def features_all(self, state: dict[str, Any], profile: str | None = None) -> list[list[float]]:
        """`features` from every seat's side."""
        rows = self.space.extract_all(state, self._needed)
        if profile is not None:
            terms = self._profiles[profile]
            alike = self.space.judged(state, None, terms)[0] if self._profiles_alike[profile] else None
            for seat, row in enumerate(rows):
                row.append(lead(alike if alike is not None else self.space.judged(state, seat, terms)[0], seat))
        return rows

    def values(self, rows: list[list[float]], profile: str | None = None) -> list[float]:
        """The value of each row of features; a profile shifts it towards what the profile favours."""
        if not rows:
            return []
        x = np.asarray(rows, dtype=float)
        if profile is None:
            return [float(y) for y in self.network.predict(x)]
        spread = float(self.info.get("profile_spread", {}).get(profile) or 1.0)
        v = self.network.predict(x[:, :-1]) + PROFILE_SHIFT * np.tanh(x[:, -1] / spread)
        return [float(y) for y in v]

    def value(self, state: dict[str, Any], seat: int, profile: str | None = None) -> float:
        """The value of one position for `seat`."""
        return self.values([self.features(state, seat, profile)], profile)[0]

    def to_json(self, game: Game) -> dict[str, Any]:
        """What the file holds."""
        return {"format": FORMAT, "game": game.name, "rules": rules_hash(game), "features": self.space.names,
                "vocab": self.space.vocab, "evaluations": {name: [[f, w] for f, w in terms]
                                                            for name, terms in _declared(game).items()},
                "network": self.network.to_json(), "training": self.info}


def profile_steers(game: Game) -> dict[str, tuple[tuple[str, float], ...]]:
    """What each profile weighs differently from the declared evaluation (the profile's weights
    minus the evaluation's, formula by formula): the learned value already stands for the declared
    evaluation, so a profile steers it by what it adds or takes away (`investor` counting holdings
    twice steers by holdings, `hoarder` valuing cash only by cash less the position)."""
    steers = {}
    for name, terms in game.bots.profiles.items():
        weights = {f: -w for f, w in game.bots.evaluation}
        for f, w in terms:
            weights[f] = weights.get(f, 0.0) + w
        steers[name] = tuple((f, w) for f, w in sorted(weights.items()) if w != 0.0)
    return steers


def _declared(game: Game) -> dict[str, tuple[tuple[str, float], ...]]:
    """The game's declared evaluation: a feature of the learned value (profiles shift it instead)."""
    return {"evaluation": game.bots.evaluation} if game.bots.evaluation else {}


def feature_space(engine: Engine, vocab: dict[str, list[str]] | None = None) -> FeatureSpace:
    """The features a game's value reads: its declared state, and its declared evaluations."""
    return FeatureSpace(engine, vocab, _declared(engine.game))


def save(value: LearnedValue, path: Path | None = None) -> Path:
    """Write the value's file (a new file moved into place: a reader never sees half of it)."""
    game = value.engine.game
    target = path or value_path(game)
    text = json.dumps(value.to_json(game), indent=None, separators=(",", ":"), sort_keys=True) + "\n"
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, target)
    return target


def load(engine: Engine, path: Path | None = None) -> LearnedValue:
    """The game's trained value; MissingValue or StaleValue (with the command to train) when unusable."""
    game = engine.game
    where = path or value_path(game)
    hint = f"train it with `{train_command(game)}`"
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MissingValue(f"{game.title} has no trained bots ({where} is missing): {hint}") from None
    except (OSError, ValueError) as err:
        raise ValueFileError(f"{where}: cannot be read ({err}): {hint}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueFileError(f"{where}: not a trained value this version of cityrules reads: {hint}")
    if data.get("rules") != rules_hash(game):
        raise StaleValue(f"{where} was trained on other rules than {game.folder}'s (a file changed since): "
                         f"{hint} again")
    space = feature_space(engine, data.get("vocab") or {})
    if space.names != data.get("features"):
        raise StaleValue(f"{where} reads other features than this game declares: {hint} again")
    try:
        network = Network.from_json(data["network"])
    except (KeyError, TypeError, ValueError) as err:
        raise ValueFileError(f"{where}: its network cannot be read ({err}): {hint}") from None
    return LearnedValue(engine, space, network, data.get("training") or {})


def adopt(folder: Path, source: Path) -> None:
    """Let a copy of a game whose tables were changed (a tune candidate) use the value trained on
    the original in `source`: the file copied with it is stamped with the copy's rules. A copy
    without one, or with a file not trained on the original's rules, is left as it is (its bots then
    say they are untrained)."""
    from ..load.loader import load_game

    target = folder / FILE_NAME
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(data, dict) and data.get("rules") == rules_hash(load_game(str(source))):
        data["rules"] = rules_hash(load_game(str(folder), None))
        target.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")


_LOADED: "weakref.WeakKeyDictionary[Engine, LearnedValue | ValueFileError]" = weakref.WeakKeyDictionary()


def learned_value(engine: Engine) -> LearnedValue:
    """The engine's trained value, read once per engine; raises ValueFileError when unusable."""
    found = _LOADED.get(engine)
    if found is None:
        try:
            found = load(engine)
        except ValueFileError as err:
            found = err
        _LOADED[engine] = found
    if isinstance(found, ValueFileError):
        raise found
    return found


def use_value(engine: Engine, value: LearnedValue) -> None:
    """Make `value` the engine's learned value (training uses each round's before it is written)."""
    _LOADED[engine] = value
