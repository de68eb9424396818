"""Helpers for the London tests (tests/test_london_examples.py).

A position is built by editing the plain-data state of a new game paused at seat 0's first
decision ("start", turn 1), then the game is driven only through `engine.pending` / `engine.apply`.

Every edit keeps the contract of the game's files: each card is in exactly one place (deck, a hand,
a pile, a row of the development board, or out of the game), each district in exactly one place
(district deck, offer, a seat's districts), and each seat's `tops` matches its piles.

Cards and districts are named by their ids in cards.yaml / districts.yaml ("town-houses-b-1",
"west-india-docks-b", "poor-a-2", "city"). Cards named in a position are placed in an earlier turn
(placed_turn 0), so they can be covered this turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from interpreter.core.decision import Decision
from interpreter.core.engine import Engine

State = dict[str, Any]
# A pile as the tests write it: card ids bottom first; a "-" in front of an id means face down.
Pile = list[str]


class London:
    """The loaded game and its engine, with the names of its cards and districts."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.game = engine.game
        self.card_ids: tuple[Any, ...] = self.game.world.components["card"].ids
        self.district_ids: tuple[Any, ...] = self.game.world.components["district"].ids
        self._card_attrs = self.game.world.components["card"].attr_values
        self._district_attrs = self.game.world.components["district"].attr_values

    # ------------------------------------------------------------------ names
    def card(self, card_id: str) -> int:
        return self.card_ids.index(card_id)

    def district(self, district_id: str) -> int:
        return self.district_ids.index(district_id)

    def cards(self, ids: Iterable[str]) -> list[int]:
        return [self.card(i) for i in ids]

    def card_attr(self, card: int | str, attr: str) -> Any:
        i = self.card(card) if isinstance(card, str) else card
        return self._card_attrs[attr][i]

    def name(self, card: int | str) -> str:
        return str(self.card_attr(card, "name"))

    def ids_of(self, cards: Iterable[int]) -> list[str]:
        return [str(self.card_ids[c]) for c in cards]

    def district_names(self, districts: Iterable[int]) -> list[str]:
        return [str(self.district_ids[d]) for d in districts]

    def all_of(self, prefix: str) -> list[str]:
        """Every card id starting with `prefix` (the copies of one card: "poor", "shops")."""
        return [str(i) for i in self.card_ids if str(i).startswith(prefix)]

    # ------------------------------------------------------------------ positions
    def new_game(self, seats: int = 3, seed: int = 1) -> State:
        """A new game at seat 0's first decision: the start of turn 1 (loans), nothing taken yet."""
        state = self.engine.new_game(seats, seed=seed)
        expect(self.engine, state, "start")
        assert engine_seat(self.engine, state) == 0
        assert state["global"]["turn_number"] == 1
        return state

    def take_out(self, state: State, card: int) -> None:
        """Remove a card from wherever it is (the caller puts it somewhere else)."""
        g = state["global"]
        for place in ("deck", "top_row", "bottom_row", "removed"):
            if card in g[place]:
                g[place].remove(card)
                return
        for s in range(state["seats"]):
            if card in state["seat"]["hand"][s]:
                state["seat"]["hand"][s].remove(card)
                return
            for pile in state["seat"]["piles"][s]:
                if card in pile:
                    pile.remove(card)
                    state["seat"]["piles"][s] = [p for p in state["seat"]["piles"][s] if p]
                    self.show_tops(state, s)
                    return
        raise AssertionError(f"card {self.card_ids[card]} is nowhere")

    def set_hand(self, state: State, seat: int, ids: Iterable[str]) -> None:
        """The seat's hand becomes exactly these cards; the old hand goes to the bottom of the deck."""
        old = state["seat"]["hand"][seat]
        state["seat"]["hand"][seat] = []
        state["global"]["deck"].extend(old)
        for c in self.cards(ids):
            self.take_out(state, c)
            state["seat"]["hand"][seat].append(c)

    def set_deck_top(self, state: State, ids: Iterable[str]) -> None:
        """These cards, in this order, become the top of the deck (the next cards taken)."""
        cards = self.cards(ids)
        for c in cards:
            self.take_out(state, c)
        state["global"]["deck"][0:0] = cards

    def set_deck(self, state: State, ids: Iterable[str]) -> None:
        """The deck becomes exactly these cards (top first); the others leave the game."""
        wanted = self.cards(ids)
        for c in wanted:
            self.take_out(state, c)
        state["global"]["removed"].extend(state["global"]["deck"])
        state["global"]["deck"] = wanted

    def set_rows(self, state: State, top: Iterable[str] = (), bottom: Iterable[str] = ()) -> None:
        """The development board's rows; the cards they held go to the bottom of the deck."""
        g = state["global"]
        g["deck"].extend(g["top_row"] + g["bottom_row"])
        g["top_row"], g["bottom_row"] = [], []
        top_cards, bottom_cards = self.cards(top), self.cards(bottom)
        for c in top_cards + bottom_cards:
            self.take_out(state, c)
        g["top_row"], g["bottom_row"] = top_cards, bottom_cards

    def set_piles(self, state: State, seat: int, piles: Iterable[Pile], placed_turn: int = 0) -> None:
        """The seat's project: each pile bottom first, "-id" for a face-down card."""
        old = [c for pile in state["seat"]["piles"][seat] for c in pile]
        state["seat"]["piles"][seat] = []
        state["global"]["deck"].extend(old)
        comps = state["components"]["card"]
        new: list[list[int]] = []
        for pile in piles:
            cards = []
            for text in pile:
                c = self.card(text.lstrip("-"))
                self.take_out(state, c)
                comps["face_up"][c] = not text.startswith("-")
                comps["placed_turn"][c] = placed_turn
                cards.append(c)
            new.append(cards)
        state["seat"]["piles"][seat] = new
        self.show_tops(state, seat)

    def show_tops(self, state: State, seat: int) -> None:
        """What everyone sees of the seat's piles: each top card if face up."""
        up = state["components"]["card"]["face_up"]
        state["seat"]["tops"][seat] = [p[-1] if up[p[-1]] else None for p in state["seat"]["piles"][seat]]

    def set_districts(self, state: State, seat: int, ids: Iterable[str]) -> None:
        """The seat's districts, the last one on top; the offer is refilled from the district deck."""
        g = state["global"]
        g["district_deck"].extend(state["seat"]["districts"][seat])
        state["seat"]["districts"][seat] = []
        for d in (self.district(i) for i in ids):
            if d in g["offer"]:
                g["offer"].remove(d)
                g["offer"].append(next(x for x in g["district_deck"] if x != d))
                g["district_deck"].remove(g["offer"][-1])
            elif d in g["district_deck"]:
                g["district_deck"].remove(d)
            else:
                owner = next(s for s in range(state["seats"]) if d in state["seat"]["districts"][s])
                state["seat"]["districts"][owner].remove(d)
            state["seat"]["districts"][seat].append(d)

    def set_offer(self, state: State, ids: Iterable[str]) -> None:
        """The face-up districts for sale, in this order (the old offer goes to the district deck)."""
        g = state["global"]
        g["district_deck"].extend(g["offer"])
        g["offer"] = []
        for d in (self.district(i) for i in ids):
            g["district_deck"].remove(d)
            g["offer"].append(d)

    def set_seat(self, state: State, seat: int, **fields: Any) -> None:
        """Numbers of a seat: money, prestige, poverty, loans."""
        for name, value in fields.items():
            assert name in ("money", "prestige", "poverty", "loans"), name
            state["seat"][name][seat] = value

    def check_places(self, state: State) -> None:
        """Every card and every district is in exactly one place; tops match the piles."""
        g, seat = state["global"], state["seat"]
        cards = g["deck"] + g["top_row"] + g["bottom_row"] + g["removed"]
        districts = g["district_deck"] + g["offer"]
        for s in range(state["seats"]):
            cards += seat["hand"][s] + [c for pile in seat["piles"][s] for c in pile]
            districts += seat["districts"][s]
            up = state["components"]["card"]["face_up"]
            assert seat["tops"][s] == [p[-1] if up[p[-1]] else None for p in seat["piles"][s]]
        assert sorted(cards) == list(range(len(self.card_ids)))
        assert sorted(districts) == list(range(len(self.district_ids)))

    # ------------------------------------------------------------------ reading a state
    def hand(self, state: State, seat: int) -> list[str]:
        return self.ids_of(state["seat"]["hand"][seat])

    def piles(self, state: State, seat: int) -> list[list[str]]:
        """The seat's piles as the tests write them ("-id" when face down)."""
        up = state["components"]["card"]["face_up"]
        return [[("" if up[c] else "-") + str(self.card_ids[c]) for c in pile]
                for pile in state["seat"]["piles"][seat]]

    def face_up(self, state: State, card_id: str) -> bool:
        return bool(state["components"]["card"]["face_up"][self.card(card_id)])

    def row(self, state: State, which: str) -> list[str]:
        return self.ids_of(state["global"][which])


# ---------------------------------------------------------------------- driving the engine

def engine_seat(engine: Engine, state: State) -> int:
    d = engine.pending(state)
    assert isinstance(d, Decision), f"the game is over: {d}"
    assert len(d.seats) == 1, d.seats
    return d.seats[0]


def expect(engine: Engine, state: State, name: str) -> Decision:
    """The pending decision, which must be the one named."""
    d = engine.pending(state)
    assert isinstance(d, Decision), f"expected a '{name}' decision, the game is over: {d}"
    assert d.name == name, f"expected a '{name}' decision, got '{d.name}' for seats {d.seats}: {d.prompts}"
    return d


def options(engine: Engine, state: State, name: str) -> list[str]:
    """The option ids of the pending decision `name` (asked of a single seat)."""
    d = expect(engine, state, name)
    return [o.id for o in d.options(d.seats[0])]


def answer(engine: Engine, state: State, name: str, option: str, seat: int | None = None) -> State:
    """Answer the pending decision `name` with `option` (by its only open seat, or `seat`)."""
    d = expect(engine, state, name)
    who = d.seats[0] if seat is None else seat
    assert who in d.seats, f"'{name}' asks {d.seats}, not seat {who}"
    ids = [o.id for o in d.options(who)]
    assert option in ids, f"'{option}' is not offered for '{name}': {ids}"
    return engine.apply(state, option, who)


def answer_all(engine: Engine, state: State, *steps: tuple[str, str]) -> State:
    """Answer several decisions in a row: (decision name, option id) pairs."""
    for name, option in steps:
        state = answer(engine, state, name, option)
    return state


def take_from_deck(engine: Engine, state: State) -> State:
    """Take the top card of the deck (asked only when the development board has cards)."""
    d = engine.pending(state)
    if isinstance(d, Decision) and d.name == "source":
        state = answer(engine, state, "source", "source:deck:none")
    return state


def begin_action(engine: Engine, state: State, action: str) -> State:
    """From the start of a turn: no loan, take the top card of the deck, choose the action."""
    state = answer(engine, state, "start", "start:go on")
    state = take_from_deck(engine, state)
    return answer(engine, state, "action", f"action:{action}")


def pick_card(engine: Engine, state: State, name: str, card_id: str) -> State:
    """Answer a decision whose options are (label, card) tuples or cards, naming the card by id."""
    ids = options(engine, state, name)
    found = [i for i in ids if i.endswith(f":{card_id}")]
    assert len(found) == 1, f"no single option for {card_id} in '{name}': {ids}"
    return answer(engine, state, name, found[0])


def events(state: State, kind: str, since: int = 0) -> list[dict[str, Any]]:
    """Log events of one kind, from position `since` of the log."""
    return [e for e in state["log"][since:] if e["kind"] == kind]


# ---------------------------------------------------------------------- positions of the acceptance tests

TURN_CARD = "silk-weaving-b"   # the card seat 0 takes at the start of its turn (brown, plain +£6)
SPARE = "lords-b"              # a face-up card that keeps the activation open (never activated)


def numbers(state: State, seat: int = 0) -> dict[str, int]:
    return {k: state["seat"][k][seat] for k in ("money", "prestige", "poverty", "loans")}


def delta(before: State, after: State, seat: int = 0) -> dict[str, int]:
    """What changed in a seat's money, prestige, poverty and loans."""
    a, b = numbers(before, seat), numbers(after, seat)
    return {k: b[k] - a[k] for k in a}


def position(L: London, seats: int = 2, *, project: list[list[str]] | None = None, hand: tuple[str, ...] = (),
             districts: tuple[str, ...] = (), **seat0: int) -> State:
    """A new game at the start of seat 0's first turn, with seat 0's project, hand, districts and
    numbers set, and TURN_CARD on top of the deck."""
    state = L.new_game(seats)
    L.set_piles(state, 0, project or [])
    L.set_hand(state, 0, hand)
    L.set_districts(state, 0, districts)
    L.set_deck_top(state, [TURN_CARD])
    L.set_seat(state, 0, **seat0)
    L.check_places(state)
    return state


def activation(L: London, project: list[list[str]], **kw: Any) -> State:
    """Seat 0 at the first question of its activate action (see `position`)."""
    state = begin_action(L.engine, position(L, project=project, **kw), "activate")
    expect(L.engine, state, "step")
    return state


def activate(L: London, state: State, card: str) -> State:
    return pick_card(L.engine, state, "step", card)


def step_cards(L: London, state: State) -> set[str]:
    """The cards the activation offers now (ids), without 'stop' and 'district ability'."""
    return {o.split(":")[-1] for o in options(L.engine, state, "step") if not o.endswith(":none")}


def pass_turn(L: London, state: State) -> State:
    """The seat to play takes the top card of the deck and draws three from the deck (discarding
    its first cards if above the hand limit)."""
    e = L.engine
    state = begin_action(e, state, "draw")
    for _ in range(3):
        state = take_from_deck(e, state)
    while (d := e.pending(state)) and isinstance(d, Decision) and d.name == "extra":
        state = e.apply(state, d.options(d.seats[0])[0].id, d.seats[0])
    return state
