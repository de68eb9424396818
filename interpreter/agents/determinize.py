"""A seat's information set, and full states sampled from it (determinizations) for the bots' search.

A bot never reads the real state's hidden parts. `InfoSet(engine, state, seat)` keeps what `seat`
may know, and every sample fills in the rest at random from the bot's own generator:

- Hidden lists (fields declared `visible: owner` of other seats, `visible: nobody`, hidden item and
  node fields) are redealt: every element of such a list is a *slot*; an element the seat sees
  anywhere (in a visible field, or among its own options) stays where it is, and the others are
  dealt again, uniformly, among the slots holding values of the same type (cards with cards,
  nodes with nodes) and, for a kind that declares a `back`, the same back (what every seat can
  tell of a card it may not see: an A card stays among the A cards). The lists keep their sizes.
  For a component kind with `places`, the values in hidden slots are exactly the items the seat
  has not seen, so nothing is learnt from them.
- Hidden values that are not in a list (a secret number) take the field's initial value.
- The game's generator (`state["rng"]`) is re-seeded from the bot's stream: no sample knows the
  next shuffle or roll.
- Answers other seats have already given to a pending simultaneous choice are dropped: those seats
  answer again inside the sample, from options worked out again from the sample. Answers of a finished secret choice still held by the rules (the
  choice's variable, while its phase runs on) are drawn again from the options each seat had.
- The log is left out (rules never read it), so a sample carries no private log line.

Limits are in docs/bots.md ("What a bot knows").
"""

from __future__ import annotations

import marshal
import weakref
from typing import Any, Callable, Iterator

from ruledsl.types import Type

from ..core import rng
from ..core.engine import SECRET_OPTIONS, Engine
from ..core.game import FieldSpec, back_of
from ..core.state import copy_state

Path = tuple[Any, ...]
# Draws of the other seats' secret answers tried for one sample before it is taken as it is.
REDRAWS = 20


def _leaves(value: Any, t: Type, path: Path, in_list: bool) -> Iterator[tuple[Path, str, Any, bool]]:
    """(path, leaf kind, value, inside a list) for every leaf of a value of type `t`."""
    kind = t.kind
    if kind == "list" and isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, t.args[0], path + (i,), True)
    elif kind == "map" and isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, t.args[1], path + (k,), in_list)
    elif kind == "tuple" and isinstance(value, list):
        for i, (v, a) in enumerate(zip(value, t.args)):
            yield from _leaves(v, a, path + (i,), in_list)
    else:
        yield path, kind, value, in_list


def _plain(value: Any, t: Type) -> tuple[str, list[tuple[Path, list[Any]]]] | None:
    """For a list of values or a list of lists of values (a hand, a deck, piles of cards): the kind
    of its values and its lists of them, each with its place in the value (the leaves `_leaves`
    gives, read a list at a time); None for a value of any other shape."""
    if t.kind != "list" or not isinstance(value, list):
        return None
    inner = t.args[0]
    if not inner.args:
        return inner.kind, [((), value)]
    if inner.kind == "list" and not inner.args[0].args and all(isinstance(sub, list) for sub in value):
        return inner.args[0].kind, [((i,), sub) for i, sub in enumerate(value)]
    return None


def _leaf_kinds(t: Type) -> frozenset[str]:
    """The kinds of the leaves `_leaves` gives for a value of type `t`."""
    if t.kind == "list":
        return _leaf_kinds(t.args[0])
    if t.kind == "map":
        return _leaf_kinds(t.args[1])
    if t.kind == "tuple":
        return frozenset().union(*(_leaf_kinds(a) for a in t.args))
    return frozenset((t.kind,))


def _has_list(t: Type) -> bool:
    return t.kind == "list" or any(_has_list(a) for a in t.args)


def _get(state: dict[str, Any], path: Path) -> Any:
    value: Any = state
    for key in path:
        value = value[key]
    return value


def _set(state: dict[str, Any], path: Path, value: Any) -> None:
    _get(state, path[:-1])[path[-1]] = value


def _add_slot(grouped: list[tuple[Path, list[int]]], path: Path) -> None:
    """Add a slot to slots grouped by the list that holds them, in order: (the list's path, positions in it)."""
    if grouped and grouped[-1][0] == path[:-1]:
        grouped[-1][1].append(path[-1])
    else:
        grouped.append((path[:-1], [path[-1]]))


class _Fields:
    """Every state field of a game with its type and visibility, as paths into the state."""

    def __init__(self, engine: Engine):
        game = engine.game
        world = game.world
        # Items of a component kind are unique pieces: one seen anywhere is not among the unseen.
        # Numbers, texts, seats and nodes are values that may stand in many places at once.
        self.unique = frozenset(world.components)
        # What the back of each item of a kind shows (by item), where the kind declares one.
        self.backs = {kind: backs for kind in world.components if (backs := game.item_backs(kind)) is not None}
        # Each field with its type and whether its values may hold items (most hold none: no walk).
        self.seat = [self._field(f, world.seat_fields[f.name].type) for f in game.seat_fields]
        self.glob = [self._field(f, world.global_fields[f.name].type) for f in game.global_fields]
        self.node = [self._field(f, world.node_fields[f.name].type) for f in game.node_fields]
        self.items = [(kind, *self._field(f, world.components[kind].fields[f.name].type))
                      for kind, fields in game.component_fields.items() for f in fields]

    def _field(self, f: FieldSpec, t: Type) -> tuple[FieldSpec, Type, bool]:
        return f, t, bool(_leaf_kinds(t) & self.unique)

    def split(self, state: dict[str, Any], seat: int) -> tuple[list[tuple[Path, Type, Any]],
                                                               list[tuple[Path, Type, Any]]]:
        """(visible, hidden) parts of the state for `seat`: (path, type, initial value) each. Of the
        visible parts only those that may hold items (what the seat has seen of them counts)."""
        visible: list[tuple[Path, Type, Any]] = []
        hidden: list[tuple[Path, Type, Any]] = []
        for f, t, holds in self.glob:
            if f.visible != "all":
                hidden.append((("global", f.name), t, f.initial))
            elif holds:
                visible.append((("global", f.name), t, f.initial))
        for f, t, holds in self.seat:
            for owner in range(state["seats"]):
                if not (f.visible == "all" or (f.visible == "owner" and owner == seat)):
                    hidden.append((("seat", f.name, owner), t, f.initial))
                elif holds:
                    visible.append((("seat", f.name, owner), t, f.initial))
        for f, t, holds in self.node:
            if f.visible != "all" or holds:
                part = hidden if f.visible != "all" else visible
                part.extend((("node", f.name, i), t, f.initial) for i in range(len(state["node"][f.name])))
        for kind, f, t, holds in self.items:
            if f.visible != "all" or holds:
                part = hidden if f.visible != "all" else visible
                column = state["components"][kind][f.name]
                part.extend((("components", kind, f.name, i), t, f.initial) for i in range(len(column)))
        return visible, hidden


class InfoSet:
    """What one seat knows at a decision; `sample(seed)` gives a full state consistent with it.

    Built once per decision (the costly walk over the fields), sampled many times.
    """

    def __init__(self, engine: Engine, state: dict[str, Any], seat: int, fields: _Fields | None = None):
        self.engine = engine
        self.seat = seat
        fields = fields or fields_of(engine)
        base = copy_state(state)
        base["log"] = []
        visible, hidden = fields.split(base, seat)
        unique = fields.unique
        seen: set[tuple[str, Any]] = set()
        for path, t, _ in visible:
            value = _get(base, path)
            plain = _plain(value, t)
            if plain is not None:
                # A plain list of items (a pile, a row of cards): read at once, not leaf by leaf.
                kind, lists = plain
                for _, values in lists:
                    seen.update((kind, v) for v in values if v is not None)
                continue
            for _, kind, value, _ in _leaves(value, t, path, False):
                if kind in unique and value is not None:
                    seen.add((kind, value))
        self._see_own_options(base, seen, unique)
        # Slots: positions in hidden lists whose value the seat has not seen, by value kind and back,
        # grouped by the list that holds them.
        slots: dict[tuple[str, Any], list[tuple[Path, list[int]]]] = {}
        pools: dict[tuple[str, Any], list[Any]] = {}
        backs = fields.backs
        for path, t, initial in hidden:
            if not _has_list(t):
                # A hidden value outside any list: nothing to deal it from, so the sample assumes
                # the field's initial value.
                _set(base, path, marshal.loads(marshal.dumps(initial)))
                continue
            value = _get(base, path)
            plain = _plain(value, t)
            if plain is not None:
                # A hand, a deck, piles: their unseen values at once, not leaf by leaf.
                kind, lists = plain
                back = backs.get(kind)
                for place, values in lists:
                    unseen = [i for i, v in enumerate(values) if v is not None and (kind, v) not in seen]
                    if not unseen:
                        continue
                    if back is None:
                        slots.setdefault((kind, None), []).append((path + place, unseen))
                        pools.setdefault((kind, None), []).extend(values[i] for i in unseen)
                        continue
                    by_back: dict[Any, list[int]] = {}
                    known = len(back)
                    for i in unseen:     # (`back_of` written out: a deck's every card, at every decision)
                        v = values[i]
                        by_back.setdefault(back[v] if type(v) is int and 0 <= v < known else None, []).append(i)
                    for b, indexes in by_back.items():
                        slots.setdefault((kind, b), []).append((path + place, indexes))
                        pools.setdefault((kind, b), []).extend(values[i] for i in indexes)
                continue
            for leaf_path, kind, value, in_list in _leaves(value, t, path, False):
                if in_list and value is not None and (kind, value) not in seen:
                    key = (kind, back_of(backs[kind], value) if kind in backs else None)
                    _add_slot(slots.setdefault(key, []), leaf_path)
                    pools.setdefault(key, []).append(value)
        # The pool is sorted: which slot held which value in the real state is forgotten here.
        self.deals = [(slots[k], sorted(pools[k], key=repr)) for k in sorted(slots, key=lambda k: (k[0], repr(k[1])))]
        self._drop_pending_answers(base)
        self.secrets = self._secret_answers(base)
        self.base = base

    def _see_own_options(self, state: dict[str, Any], seen: set[tuple[str, Any]], unique: frozenset[str]) -> None:
        """The seat's own options are shown to it: items among them are seen (a peek at a deck)."""
        p = state["pending"]
        if p is None or self.seat not in p["seats"]:
            return
        elem = self.engine.program.chooses[p["spec"]].elem
        for value in p["options"][p["seats"].index(self.seat)]:
            for _, kind, leaf, _ in _leaves(value, elem, (), False):
                if kind in unique and leaf is not None:
                    seen.add((kind, leaf))

    def _drop_pending_answers(self, state: dict[str, Any]) -> None:
        """Other seats' answers to the open simultaneous choice are unknown: they answer again."""
        p = state["pending"]
        if p is None or len(p["seats"]) < 2:
            return
        for i, s in enumerate(p["seats"]):
            if s != self.seat and p["done"][i] and len(p["options"][i]) > 1:
                p["answers"][i] = None
                p["done"][i] = False
        p["left"] = p["done"].count(False)

    def _secret_answers(self, state: dict[str, Any]) -> list[tuple[dict[str, Any], str, bool, list[Any]]]:
        """The secret answers of other seats still held by running phases: (locals, name, each, options)."""
        found = []
        for frame in state["stack"]:
            L = frame[2]
            for key in [k for k in L if k.startswith(SECRET_OPTIONS)]:
                each, asked = L[key]
                found.append((L, key[len(SECRET_OPTIONS):], each, asked))
        return found

    def sample(self, seed: int) -> dict[str, Any]:
        """A full state the seat cannot tell from the real one, drawn with the generator `seed`."""
        state = copy_state(self.base)
        g = rng.seed_state(seed)
        for lists, pool in self.deals:
            values = list(pool)
            g = rng.shuffle(g, values)
            at = 0
            for list_path, indexes in lists:
                target = _get(state, list_path)
                for i in indexes:
                    target[i] = values[at]
                    at += 1
        # Secret answers drawn again must leave every seat still asked something to answer (a seat
        # the rules ask to pay for its secret pick did not pick something free); a few draws are tried.
        for _ in range(REDRAWS):
            g = self._redraw_secrets(state, g)
            if self._ask_again(state) or not self.secrets:
                break
        g, state["rng"] = rng.next_u64(g)
        return state

    def _ask_again(self, state: dict[str, Any]) -> bool:
        """The other seats' options in an open simultaneous choice follow from the sample, not from the
        real state (they may depend on their hands, or on a secret answer just drawn again).

        False when a seat is left without a legal option: the sample contradicts what the rules did.
        """
        p = state["pending"]
        if p is None or len(p["seats"]) < 2:
            return True
        options_of = self.engine.program.option_functions[p["spec"]]
        if options_of is None:
            return True
        runtime = self.engine.runtime
        runtime.bind(state)
        L = state["stack"][-1][2]
        consistent = True
        for i, s in enumerate(p["seats"]):
            if s == self.seat:
                continue
            try:
                options = list(options_of(runtime, L, s))
            except Exception:  # a sample the rules cannot follow: keep the question as it was
                options = []
            if not options:
                consistent = False
                continue
            p["options"][i] = options
            p["answers"][i] = options[0] if len(options) == 1 else None
            p["done"][i] = len(options) == 1
        p["left"] = p["done"].count(False)
        return consistent

    def _redraw_secrets(self, state: dict[str, Any], g: int) -> int:
        if not self.secrets:
            return g
        # The sample's own copies of the locals that hold the secrets (same frames, same order).
        copies = self._secret_answers(state)
        for L, var, each, asked in copies:
            for s, options in enumerate(asked):
                if s == self.seat or options is None or len(options) < 2:
                    continue
                g, k = rng.below(g, len(options))
                if each:
                    L[var][s] = options[k]
                else:
                    L[var] = options[k]
        return g


_FIELDS: "weakref.WeakKeyDictionary[Engine, _Fields]" = weakref.WeakKeyDictionary()


def fields_of(engine: Engine) -> _Fields:
    """The engine's fields with their types and visibility, prepared once per engine."""
    found = _FIELDS.get(engine)
    if found is None:
        found = _FIELDS[engine] = _Fields(engine)
    return found


def sampler(engine: Engine) -> Callable[[dict[str, Any], int], InfoSet]:
    """A factory of information sets for one engine (the field walk is prepared once)."""
    fields = fields_of(engine)
    return lambda state, seat: InfoSet(engine, state, seat, fields)
