"""A loaded game: fixed rules, tables and board. Never changes while games are played."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruledsl.program import Program
from ruledsl.world import World

from .board import Board

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class FieldSpec:
    """A state field with the initial value the game starts from."""

    name: str
    type_text: str
    initial: Any
    visible: str
    ledger: bool
    # A hidden list whose size is public: how many elements (and, nested, how many in each) shows.
    public_size: bool = False
    # How screens show it: "yes", "no" (left off the main screen) or "count" (a list by its length);
    # `title` names it there, `text` is the formula that writes it ("" for the value itself).
    show: str = "yes"
    title: str = ""
    text: str = ""


@dataclass(frozen=True)
class ScreenSpec:
    """What the game's files say about its screens beyond each field's own keys (all formulas by name)."""

    notes: tuple[str, ...] = ()      # lines of text, each of no parameter or of the seat looking
    colour: str = ""                 # a node's colour: a colour name or a seat
    breakdown: str = ""              # a seat's final score as parts: list of (text, points)
    legend: str = ""                 # how to read the board's boxes
    item_text: dict[str, str] = field(default_factory=dict)   # component kind -> how an item is written
    projection: str = ""             # a seat's score if the game ended now, as parts: list of (text, points)
    follow: tuple[str, ...] = ()     # seat fields `score` and `explain` follow besides the score and currency
    about: str = ""                  # a name a player typed (`info NAME`) in words: text, "" for none
    grid: bool = False               # number the board's rows and columns around it


@dataclass(frozen=True)
class BotSettings:
    """How the game's files steer the bots (`bots:` in game.yaml, checked by load/bots.py).

    An evaluation is a weighted sum of formulas of one seat; empty means the game's score field.
    """

    evaluation: tuple[tuple[str, float], ...] = ()
    profiles: dict[str, tuple[tuple[str, float], ...]] = field(default_factory=dict)
    # Decisions a search playout makes before it reads the evaluation (None: the bots' default).
    playout: int | None = None
    # How `cityrules train` trains this game where the command line does not say: games, rounds,
    # budget, network.
    training: dict[str, int | bool] = field(default_factory=dict)
    # Whether `bot` judges an option only once the phase that asked has finished (its own later
    # answers at random past its budget) rather than at its next own question.
    finish_phase: bool = False


@dataclass(frozen=True)
class Game:
    """Everything fixed about a game, compiled once at load."""

    name: str
    title: str
    folder: Path
    min_seats: int
    max_seats: int
    currency: str | None
    start: str
    world: World
    program: Program
    board: Board
    seat_fields: tuple[FieldSpec, ...]
    global_fields: tuple[FieldSpec, ...]
    node_fields: tuple[FieldSpec, ...]
    node_cells: tuple[tuple[tuple[int, int], ...], ...]
    component_fields: dict[str, tuple[FieldSpec, ...]] = field(default_factory=dict)
    # kind -> the seat and global fields that hold every item of that kind exactly once
    component_places: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # kind -> the attribute every seat can tell of an item it may not see (what its back shows)
    component_backs: dict[str, str] = field(default_factory=dict)
    variant: str | None = None
    variants: tuple[str, ...] = ()
    display: dict[str, str] = field(default_factory=dict)
    screen: ScreenSpec = field(default_factory=ScreenSpec)
    score_field: str | None = None
    rounds_field: str | None = None
    reconstructed_board: bool = False
    credits: str = ""
    bots: BotSettings = field(default_factory=BotSettings)
    sources: dict[str, str] = field(default_factory=dict)

    @cached_property
    def graph(self) -> "nx.Graph[Any]":
        """The board as a networkx graph (`nx.DiGraph` when directed), built when first asked for."""
        return self.board.graph()

    @property
    def node_ids(self) -> tuple[Any, ...]:
        """Node ids as written in the board file, by node index."""
        return self.world.node_ids

    def item_backs(self, kind: str) -> tuple[Any, ...] | None:
        """What the back of each item of `kind` shows, by item (see `back_of`); None when the kind
        declares no back."""
        name = self.component_backs.get(kind)
        return None if name is None else self.world.components[kind].attr_values[name]

    def node_index(self, node_id: Any) -> int:
        """The index of a node from its id (as written in the board file, or its text)."""
        for i, nid in enumerate(self.world.node_ids):
            if nid == node_id or str(nid) == str(node_id):
                return i
        raise KeyError(node_id)


def back_of(backs: tuple[Any, ...], item: Any) -> Any:
    """What an item's back shows, from its kind's `Game.item_backs` (None for what is not an item)."""
    return backs[item] if type(item) is int and 0 <= item < len(backs) else None
