"""Tuning: search a game's numbers for a balance target, and write the best as a variant.

`--vary prices.bare.1=1..4` names a whole number inside a table (map keys and list indices after
the table's name) and the range to try; `--vary mine.cost=4..8` an attribute of an item, by its id
as its component file writes it (every copy of it); `--vary seat.money=20..40` the initial value of
a state field (its scope, then its name). `--target` names what "balanced" means:

- `fair[:P]`        every seat's win rate within ±P points of the seats' average (default 2)
- `first-seat[:P]`  the first seat's advantage under P points, either way (default 1)
- `rounds:LO..HI`   the median game length in rounds within LO..HI
- `margin:LO..HI`   the mean winning margin within LO..HI

Each candidate is played from a private copy of the game folder, its tables given as a variant
(variants replace tables by name), its items' attributes and initial values written into the
copy's files, on the same seeds (common random numbers, so candidates differ by their values and
not by luck of the draw). A small range is tried whole; a larger one starts from the game's own
values and each knob's ends, then Optuna's TPE sampler, seeded, goes on. The best candidate is
then measured again on fresh seeds, so the figures reported are not flattered by having been
picked as the best.
"""

from __future__ import annotations

import copy
import itertools
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

TRIAL_VARIANT = "cityrules-tune-trial"
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


class TuneError(ValueError):
    """A --vary or --target that cannot be read, or a variant that cannot be written."""


@dataclass(frozen=True)
class Knob:
    """One whole number inside a table, and the range to search."""

    path: tuple[str, ...]        # table name, then keys / list indices
    low: int
    high: int

    @property
    def name(self) -> str:
        """As written on the command line."""
        return ".".join(self.path)


def parse_knob(text: str) -> Knob:
    """`TABLE.KEY=LO..HI` -> Knob."""
    where, sep, span = text.partition("=")
    lo_text, dots, hi_text = span.partition("..")
    if not sep or not dots or not where:
        raise TuneError(f"--vary '{text}': write TABLE.KEY=LO..HI, ITEM.ATTRIBUTE=LO..HI or SCOPE.FIELD=LO..HI, "
                        "as in prices.bare.1=1..4, lobby_weight=1..3, mine.cost=4..8 or seat.money=20..40")
    try:
        low, high = int(lo_text), int(hi_text)
    except ValueError:
        raise TuneError(f"--vary '{text}': LO and HI must be whole numbers") from None
    if low > high:
        raise TuneError(f"--vary '{text}': LO is above HI")
    return Knob(tuple(where.split(".")), low, high)


def _step(container: Any, key: str, where: str) -> Any:
    if isinstance(container, dict):
        for k in container:
            if str(k) == key:
                return k
        raise TuneError(f"--vary {where}: no key '{key}' (keys: {', '.join(map(str, container))})")
    if isinstance(container, list):
        try:
            i = int(key)
        except ValueError:
            raise TuneError(f"--vary {where}: '{key}' is not a list index") from None
        if not 0 <= i < len(container):
            raise TuneError(f"--vary {where}: index {i} is outside the list (0..{len(container) - 1})")
        return i
    raise TuneError(f"--vary {where}: cannot go inside {container!r}")


def get_value(tables: dict[str, Any], knob: Knob) -> int:
    """The knob's current value in the tables."""
    if knob.path[0] not in tables:
        raise TuneError(f"--vary {knob.name}: the game has no table '{knob.path[0]}' "
                        f"(tables: {', '.join(tables)})")
    value = tables[knob.path[0]]
    for key in knob.path[1:]:
        value = value[_step(value, key, knob.name)]
    if not isinstance(value, int) or isinstance(value, bool):
        raise TuneError(f"--vary {knob.name}: the value there is {value!r}, not a whole number")
    return value


def set_values(tables: dict[str, Any], values: dict[Knob, int]) -> dict[str, Any]:
    """The whole tables the knobs touch, with the knobs' values: what a variant must give."""
    out: dict[str, Any] = {}
    for knob, v in values.items():
        table = out.setdefault(knob.path[0], copy.deepcopy(tables[knob.path[0]]))
        if len(knob.path) == 1:
            out[knob.path[0]] = v
            continue
        node = table
        for key in knob.path[1:-1]:
            node = node[_step(node, key, knob.name)]
        node[_step(node, knob.path[-1], knob.name)] = v
    return out


class GameNumbers:
    """The whole numbers of a game folder a knob may name: its tables (with a base variant's values),
    the initial values of its state fields and the attributes of its items, as the files write them."""

    def __init__(self, folder: Path, variant: str | None):
        self.folder = folder
        data = yaml.safe_load(game_yaml(folder).read_text(encoding="utf-8"))
        self.tables = base_tables(folder, variant)
        self.state: dict[str, dict[str, Any]] = {
            scope: fields for scope, fields in (data.get("state") or {}).items() if isinstance(fields, dict)}
        self.items: dict[str, tuple[str, int]] = {}   # id as written -> (component file, copies)
        for spec in (data.get("components") or {}).values():
            name = spec.get("file") if isinstance(spec, dict) else None
            if isinstance(name, str):
                for item in _items(folder / name):
                    self.items.setdefault(str(item.get("id")), (name, int(item.get("copies", 1))))

    def kind(self, knob: Knob) -> str:
        """'table', 'state' or 'item': what the knob's first name is (tables first, then state scopes)."""
        head = knob.path[0]
        if head in self.tables:
            return "table"
        if head in self.state and len(knob.path) == 2:
            return "state"
        if len(knob.path) == 2 and head in self.items:
            return "item"
        if head in self.items:
            raise TuneError(f"--vary {knob.name}: write ITEM.ATTRIBUTE, as in {head}.cost=1..4")
        known = [*self.tables, *(f"{scope}.FIELD" for scope in self.state), *(f"{i}.ATTRIBUTE" for i in self.items)]
        hint = _close(head, [*self.tables, *self.state, *self.items])
        raise TuneError(f"--vary {knob.name}: the game has no table, state scope or item '{head}'"
                        + (f" (did you mean '{hint}'?)" if hint else "")
                        + f"; it has: {', '.join(known[:30])}{', ...' if len(known) > 30 else ''}")

    def value(self, knob: Knob) -> int:
        """The knob's current value, as the game's files write it."""
        kind = self.kind(knob)
        if kind == "table":
            return get_value(self.tables, knob)
        if kind == "state":
            field = self.state[knob.path[0]].get(knob.path[1])
            if not isinstance(field, dict):
                raise TuneError(f"--vary {knob.name}: scope '{knob.path[0]}' has no field '{knob.path[1]}' "
                                f"(fields: {', '.join(self.state[knob.path[0]])})")
            initial = field.get("initial")
            if isinstance(initial, str) and initial in self.tables:
                raise TuneError(f"--vary {knob.name}: its initial value is table '{initial}': "
                                f"vary the table (--vary {initial}=LOW..HIGH)")
            return _whole(initial, knob, "its initial value")
        item = next(i for i in _items(self.folder / self.items[knob.path[0]][0]) if str(i.get("id")) == knob.path[0])
        if knob.path[1] not in item or knob.path[1] in ("id", "copies"):
            attributes = [k for k, v in item.items() if _is_whole(v) and k not in ("id", "copies")]
            raise TuneError(f"--vary {knob.name}: item '{knob.path[0]}' has no attribute '{knob.path[1]}' "
                            f"to vary (its whole-number attributes: {', '.join(attributes) or 'none'})")
        return _whole(item[knob.path[1]], knob, "that attribute")

    def where(self, knob: Knob) -> str:
        """Where the knob's number is written, in words."""
        kind = self.kind(knob)
        if kind == "table":
            return f"table '{knob.path[0]}' (game.yaml)"
        if kind == "state":
            return f"the initial value of {knob.path[0]} field '{knob.path[1]}' (game.yaml)"
        file, copies = self.items[knob.path[0]]
        return (f"attribute '{knob.path[1]}' of item '{knob.path[0]}' ({file}"
                + (f", all {copies} copies" if copies > 1 else "") + ")")

    def write(self, folder: Path, values: dict[Knob, int]) -> None:
        """Write the values of the knobs of state fields and items into the game files of `folder` (a copy)."""
        edits = {k: v for k, v in values.items() if self.kind(k) != "table"}
        if not edits:
            return
        path = game_yaml(folder)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        files: dict[str, Any] = {}
        for knob, v in edits.items():
            if self.kind(knob) == "state":
                data["state"][knob.path[0]][knob.path[1]]["initial"] = v
                continue
            name = self.items[knob.path[0]][0]
            if name not in files:
                files[name] = yaml.safe_load((folder / name).read_text(encoding="utf-8"))
            for item in files[name]["items"]:
                if str(item.get("id")) == knob.path[0]:
                    item[knob.path[1]] = v
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        for name, content in files.items():
            (folder / name).write_text(yaml.safe_dump(content, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _items(path: Path) -> list[dict[str, Any]]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return []
    items = data.get("items") if isinstance(data, dict) else None
    return [i for i in items if isinstance(i, dict) and "id" in i] if isinstance(items, list) else []


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: Any, knob: Knob, what: str) -> int:
    if not _is_whole(value):
        raise TuneError(f"--vary {knob.name}: {what} is {value!r}, not a whole number")
    return int(value)


def _close(word: str, names: list[str]) -> str | None:
    import difflib

    found = difflib.get_close_matches(word, names, n=1, cutoff=0.7)
    return found[0] if found else None


# ------------------------------------------------------------------ targets
@dataclass(frozen=True)
class Target:
    """A named balance target: measures a batch's figures and says by how much it is missed."""

    text: str
    kind: str
    low: float
    high: float

    def measure(self, data: dict[str, Any]) -> tuple[float | None, float]:
        """(the figure, how far it is from the target: 0 when met)."""
        value = _measure(self.kind, data)
        if value is None:
            return None, 1e6
        if self.kind in ("fair", "first-seat"):
            return value, max(0.0, value - self.high)
        return value, max(0.0, self.low - value, value - self.high)

    def describe(self) -> str:
        """The target in words."""
        if self.kind == "fair":
            return f"every seat's win rate within ±{self.high:g} points of the average"
        if self.kind == "first-seat":
            return f"first-seat advantage under {self.high:g} points either way"
        return f"{'median rounds' if self.kind == 'rounds' else 'mean winning margin'} within {self.low:g}..{self.high:g}"

    def explain(self, data: dict[str, Any]) -> str:
        """What the figure is and by how much the target is missed, in words (the loss counts that miss)."""
        value, miss = self.measure(data)
        if value is None:
            return "not measured (no game gave this figure), counted as missed by 1,000,000"
        if self.kind == "fair":
            said = f"the seat furthest from the average win rate is {value:.2f} points from it"
        elif self.kind == "first-seat":
            said = f"the first seat's win rate is {value:.2f} points from a fair share"
        elif self.kind == "rounds":
            said = f"the median game lasts {value:g} rounds"
        else:
            said = f"winners lead by {value:.2f} on average"
        if miss == 0:
            return said
        unit = {"fair": "points", "first-seat": "points", "rounds": "rounds", "margin": ""}[self.kind]
        side = "too many" if self.kind == "rounds" and value > self.high else (
            "too few" if self.kind == "rounds" else "too far" if self.kind in ("fair", "first-seat")
            else "too much" if value > self.high else "too little")
        return f"{said}: {miss:.2f}{' ' + unit if unit else ''} {side}, which adds {miss:.2f} to the loss"


def _measure(kind: str, data: dict[str, Any]) -> float | None:
    if kind == "fair":
        rates = [float(r) for r in data["win_rate"]]
        mean = sum(rates) / len(rates)
        return max(abs(r - mean) for r in rates) * 100
    if kind == "first-seat":
        v = data["first_seat_advantage"]["value"]
        return None if v is None else abs(v) * 100
    if kind == "rounds":
        r = data["rounds"]
        return None if r is None or r["quantiles"] is None else float(r["quantiles"]["median"])
    m = data["margin"]["mean"]
    return None if m is None else float(m)


def parse_target(text: str) -> Target:
    """`fair:2`, `first-seat:1`, `rounds:12..15`, `margin:2..6`."""
    kind, _, arg = text.partition(":")
    if kind in ("fair", "first-seat"):
        try:
            tol = float(arg) if arg else (2.0 if kind == "fair" else 1.0)
        except ValueError:
            raise TuneError(f"--target {text}: the tolerance must be a number of points") from None
        return Target(text, kind, 0.0, tol)
    if kind in ("rounds", "margin"):
        lo, dots, hi = arg.partition("..")
        try:
            return Target(text, kind, float(lo), float(hi)) if dots else _fail(text)
        except ValueError:
            raise TuneError(f"--target {text}: write {kind}:LO..HI with numbers") from None
    raise TuneError(f"--target '{text}': targets are fair[:POINTS], first-seat[:POINTS], rounds:LO..HI, "
                    "margin:LO..HI")


def _fail(text: str) -> Target:
    raise TuneError(f"--target {text}: write LO..HI")


LOSS_WORDS = ("loss: the sum of how far each target is missed, in its own unit (points of win rate, rounds, "
              "score), plus a hundredth of the fair and first-seat figures to tell apart candidates that meet "
              "them; lower is better, and under 1 every target is met or nearly")
"""What `loss` adds up, said to the designer who reads it."""


def loss(targets: list[Target], data: dict[str, Any]) -> float:
    """What the search minimises: the targets' misses, then (to break ties) the figures themselves."""
    total = 0.0
    for t in targets:
        value, miss = t.measure(data)
        total += miss
        if value is not None and t.kind in ("fair", "first-seat"):
            total += 0.01 * value
    return total


# ------------------------------------------------------------------ candidates as variants
def game_yaml(folder: Path) -> Path:
    """The game's game.yaml."""
    return folder / "game.yaml"


def base_tables(folder: Path, variant: str | None) -> dict[str, Any]:
    """The game's tables as written, with the base variant's values if one is given."""
    data = yaml.safe_load(game_yaml(folder).read_text(encoding="utf-8"))
    tables = dict(data.get("tables") or {})
    if variant is not None:
        tables.update((data.get("options") or {}).get(variant, {}).get("values", {}))
    return tables


def variant_values(folder: Path, variant: str | None, tables: dict[str, Any], values: dict[Knob, int]
                   ) -> dict[str, Any]:
    """A variant's values: the base variant's own (if any), then the tables the knobs touch."""
    data = yaml.safe_load(game_yaml(folder).read_text(encoding="utf-8"))
    out = dict((data.get("options") or {}).get(variant, {}).get("values", {})) if variant else {}
    out.update(set_values(tables, values))
    return out


def adopt_value(folder: Path, source: Path) -> None:
    """Stamp the trained value copied into a candidate folder with the candidate's rules, when the
    value was trained on the rules the candidate was copied from."""
    from ..agents.value import adopt

    adopt(folder, source)


@dataclass
class CandidateFolder:
    """A private copy of the game folder whose game.yaml gets each candidate as a variant."""

    source: Path
    root: Path = field(init=False)
    count: int = 0

    def __post_init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="cityrules-tune-"))

    def make(self, values: dict[str, Any], edit: Callable[[Path], None] = lambda folder: None) -> Path:
        """A folder (new for each candidate, so no worker reuses an old load) with the candidate variant,
        and `edit` made to its files (the numbers a variant cannot give)."""
        self.count += 1
        folder = self.root / f"candidate-{self.count}"
        shutil.copytree(self.source, folder, ignore=shutil.ignore_patterns("tests", "__pycache__"))
        path = game_yaml(folder)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        options = data.get("options") or {}
        options[TRIAL_VARIANT] = {"description": "a candidate of cityrules tune", "values": values}
        data["options"] = options
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        edit(folder)
        # A candidate changes only numbers of the tables: its bots judge by the value trained on the
        # rules being tuned (retraining for every trial would cost minutes each).
        adopt_value(folder, self.source)
        return folder

    def drop(self, folder: Path) -> None:
        """Remove a candidate's folder once it has been played."""
        shutil.rmtree(folder, ignore_errors=True)

    def close(self) -> None:
        """Remove every copy."""
        shutil.rmtree(self.root, ignore_errors=True)


def variant_snippet(name: str, description: str, values: dict[str, Any], indent: str = "  ") -> str:
    """The YAML lines of one variant entry under `options:`."""
    entry = yaml.safe_dump({name: {"description": description, "values": values}}, sort_keys=False,
                           allow_unicode=True, default_flow_style=None, width=100)
    return "".join(indent + line + "\n" for line in entry.splitlines())


def add_variant(folder: Path, name: str, description: str, values: dict[str, Any],
                check: Callable[[Path, str], Any]) -> Path:
    """Write the variant into the game's game.yaml, keeping every other line as it is.

    Refuses to replace a variant of the same name; `check` loads the game with the new variant and
    the file is put back as it was if that fails.
    """
    if not _NAME.match(name):
        raise TuneError(f"--name '{name}': a variant's name is lowercase letters, digits, '_' and '-', "
                        "starting with a letter")
    path = game_yaml(folder)
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    options = data.get("options")
    if options and name in options:
        raise TuneError(f"{path}: the game already has a variant '{name}'; choose another with --name")
    lines = text.splitlines(keepends=True)
    if not text.endswith("\n"):
        lines[-1] += "\n"
    heads = [i for i, line in enumerate(lines) if re.match(r"^options:\s*(#.*)?$", line)]
    if options is None and not heads:
        new = "".join(lines) + "\n# Written by cityrules tune.\noptions:\n" + variant_snippet(name, description, values)
    elif heads:
        head = heads[0]
        end = next((i for i in range(head + 1, len(lines)) if lines[i].strip() and not lines[i][0].isspace()
                    and not lines[i].startswith("#")), len(lines))
        while end > head + 1 and not lines[end - 1].strip():
            end -= 1
        indent = next((re.match(r"^\s*", lines[i]).group(0) for i in range(head + 1, end)  # type: ignore[union-attr]
                       if lines[i].strip() and not lines[i].lstrip().startswith("#")), "  ")
        new = "".join(lines[:end]) + variant_snippet(name, description, values, indent) + "".join(lines[end:])
    else:
        raise TuneError(f"{path}: 'options' is not written as a block; add this under it by hand:\n"
                        + variant_snippet(name, description, values))
    _replace(path, new)
    try:
        check(folder, name)
    except Exception:
        _replace(path, text)
        raise
    return path


def _replace(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# ------------------------------------------------------------------ the search
@dataclass
class Trial:
    """One candidate and what its batch measured."""

    values: dict[str, int]
    loss: float
    figures: dict[str, Any]


GRID = 64
"""Knobs whose ranges hold no more candidates than this and than the trials are tried whole."""


def search(knobs: list[Knob], trials: int, seed: int, evaluate: Callable[[dict[Knob, int]], Trial],
           start: dict[Knob, int] | None = None) -> Iterator[Trial]:
    """Up to `trials` different candidates, each evaluated once: the game's own values first.

    When every combination of the ranges fits in `trials` (and GRID), each is tried. Otherwise each
    knob's low and high ends come next (the others at the game's values), then Optuna's seeded TPE;
    a candidate already tried does not count again.
    """
    grid = 1
    for k in knobs:
        grid *= k.high - k.low + 1
    own = {k: start[k] for k in knobs} if start and all(k.low <= start[k] <= k.high for k in knobs) else None
    seen: dict[tuple[int, ...], Trial] = {}

    def tried(values: dict[Knob, int]) -> tuple[bool, Trial]:
        key = tuple(values[k] for k in knobs)
        if key in seen:
            return False, seen[key]
        seen[key] = evaluate(values)
        return True, seen[key]

    if grid <= min(trials, GRID):
        firsts = [own] if own else []
        for combo in itertools.product(*(range(k.low, k.high + 1) for k in knobs)):
            firsts.append(dict(zip(knobs, combo)))
        for values in firsts:
            new, trial = tried(values)
            if new:
                yield trial
        return
    try:
        import optuna
    except ImportError:
        raise TuneError("tune needs Optuna: pip install 'cityrules[tune]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
    middle = own or {k: (k.low + k.high) // 2 for k in knobs}
    firsts = [middle] + [{**middle, k: end} for k in knobs for end in (k.low, k.high)]
    for values in firsts[:min(trials, max(3, trials // 2))]:
        study.enqueue_trial({k.name: values[k] for k in knobs}, skip_if_exists=True)
    done = attempts = 0
    while done < trials and len(seen) < grid and attempts < 20 * trials:
        attempts += 1
        asked = study.ask()
        values = {k: asked.suggest_int(k.name, k.low, k.high) for k in knobs}
        new, found = tried(values)
        study.tell(asked, found.loss)
        if new:
            done += 1
            yield found
