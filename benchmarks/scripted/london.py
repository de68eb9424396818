"""A scripted London player: plays as a decent person does, from the rulebook, for benchmarks.

It sees only what its seat may see (the `view`) and the game's static card data, and judges every
choice with a few rules of thumb a person learns in a first game or two:

- prestige is what wins; money is worth about a third of a prestige point at the end, a little
  more while there is something to buy with it;
- poverty costs prestige at the end, so keep piles few (cover spent or face-down cards rather
  than start new piles), keep the hand short when activating, and shed Poor cards whenever a
  card lets you (activation costs, prisons, the Workhouse, the hand limit);
- loans only when what they buy clearly pays, and repaid when the money allows;
- districts are bought for their prestige and the poverty they take away;
- draw three cards only when the hand has run dry;
- watch the end of the deck: late in the game cards in hand are poverty, money is only prestige
  at 3 for 1, and cards that pay over many turns are worth no more than their first use.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from interpreter.load.loader import load_game

Options = list[tuple[str, str]]
View = dict[str, Any]

POVERTY = 1.6           # prestige lost per poverty point, roughly (the end table is steeper above 5)
DECK_CARD = 1.0         # what an unknown card from the deck is worth in hand, on average
FEW_PILES = 4           # piles a project works with before more cost more than they bring
ACTIVATION_POVERTY = 0.7  # the share of POVERTY an activation's poverty counts for: all gain it


@dataclass(frozen=True)
class Card:
    """The printed data of one city card."""

    id: str
    name: str
    colour: str
    kind: str
    play_cost: int
    prestige: int
    activation: str
    activation_cost: int
    money: int
    prestige_now: int
    poverty: int
    flip: bool
    needs_spend: bool
    continuous: bool


@dataclass(frozen=True)
class District:
    """The printed data of one district card."""

    id: str
    name: str
    north: bool
    thames: bool
    cost: int
    draw: int
    prestige_now: int
    poverty_discard: int
    money_bonus: int
    play_cost_discount: int
    hand_limit_bonus: int


@dataclass(frozen=True)
class Static:
    """London's cards and districts (by their index in the state), and its tables."""

    cards: tuple[Card, ...]
    card_index: dict[str, int]
    districts: tuple[District, ...]
    district_index: dict[str, int]
    loan_repay: int
    money_per_prestige: int
    unpaid_loan_penalty: int


@lru_cache(maxsize=1)
def static() -> Static:
    """The game's printed data, read once from the shipped files."""
    game = load_game("london")
    comps = game.world.components
    c: Mapping[str, Any] = comps["card"].attr_values
    cards = tuple(Card(
        str(cid), str(c["name"][i]), str(c["colour"][i]), str(c["kind"][i]), int(c["play_cost"][i]),
        int(c["prestige"][i]), str(c["activation"][i]), int(c["activation_cost"][i]), int(c["money"][i]),
        int(c["prestige_now"][i]), int(c["poverty"][i]), bool(c["flip"][i]), bool(c["needs_spend"][i]),
        bool(c["spend_any_colour"][i] or c["peek"][i] or c["extra_draws"][i] or c["may_swap"][i]
             or c["loan_bonus"][i]))
        for i, cid in enumerate(comps["card"].ids))
    d: Mapping[str, Any] = comps["district"].attr_values
    districts = tuple(District(
        str(did), str(d["name"][i]), d["bank"][i] == "north", bool(d["thames"][i]), int(d["cost"][i]),
        int(d["draw"][i]), int(d["prestige_now"][i]), int(d["poverty_discard"][i]), int(d["money_bonus"][i]),
        int(d["play_cost_discount"][i]), int(d["hand_limit_bonus"][i]))
        for i, did in enumerate(comps["district"].ids))
    t: dict[str, Any] = {name: value for name, (_, value) in game.world.tables.items()}
    return Static(cards, {x.id: i for i, x in enumerate(cards)}, districts,
                  {x.id: i for i, x in enumerate(districts)}, int(t["loan_repay"]),
                  int(t["money_per_prestige"]), int(t["unpaid_loan_penalty"]))


# Per-activation effect of each district's ability, by name (the printed text, in numbers):
# (money, prestige, poverty) each time the owner activates.
DISTRICT_ACTIVATION = {
    "Southwark & Bermondsey": (0, 0, 1),
    "Wandsworth": (0, 0, 2),
    "Kensington": (0, 1, 0),
    "Fulham & Chelsea": (0, 0, -1),
    "Greenwich": (2, 0, 0),
}


class Position:
    """What the deciding seat knows, in the terms the rules of thumb use."""

    def __init__(self, view: View):
        self.s = static()
        self.view = view
        self.me: int = view["seat"]
        seats = view["seats"]
        self.n = len(view["names"])
        self.money: int = seats["money"][self.me]
        self.prestige: list[int] = seats["prestige"]
        self.poverty: int = seats["poverty"][self.me]
        self.loans: int = seats["loans"][self.me]
        self.hand: list[int] = list(seats["hand"][self.me])
        self.piles: list[list[int]] = seats["piles"][self.me]
        self.tops: list[int | None] = seats["tops"][self.me]
        self.my_districts: list[int] = seats["districts"][self.me]
        self.face_up: list[bool] = view["components"]["card"]["face_up"]
        g = view["global"]
        self.deck = len(g["deck"])
        self.board: list[int] = list(g["top_row"]) + list(g["bottom_row"])
        self.offer: list[int] = list(g["offer"])
        self.final = g["final_turns"] >= 0
        # My turns left, roughly: every turn takes at least one card, some take four.
        self.turns_left = 0.0 if self.final else self.deck / (self.n * 1.5) + 1
        self.uses_left = max(0.0, min(4.0, self.turns_left / 3.5))
        # Money is prestige at the end; before that it pays for cards and districts, the more
        # so when there is little of it.
        self.money_value = 1 / self.s.money_per_prestige
        if self.turns_left > 3 and self.money < 20:
            self.money_value += 0.2 + (0.3 if self.money < 5 else 0.0)
        self._free_pile: bool | None = None
        self._hand_values: dict[int, float] = {}

    # ---------------------------------------------------------------- cards
    def card(self, i: int) -> Card:
        """The printed data of card `i`."""
        return self.s.cards[i]

    def visible(self) -> list[Card]:
        """Our face-up pile tops: the cards whose abilities count now."""
        return [self.card(t) for t in self.tops if t is not None]

    def top_district(self) -> District | None:
        """Our last district bought, the only one whose ability counts."""
        return self.s.districts[self.my_districts[-1]] if self.my_districts else None

    def poverty_gone(self, amount: int) -> float:
        """What discarding `amount` poverty is worth: nothing past the poverty we have."""
        return POVERTY * min(amount, self.poverty + 1)

    def effect(self, c: Card, deep: bool = True) -> float:
        """What one activation of a face-up card brings, its activation cost not included.

        `deep` False leaves out the cards whose worth depends on other cards' worth (no loops).
        """
        top = self.top_district()
        money = c.money + (top.money_bonus if top else 0) if c.money > 0 else 0
        value = money * self.money_value + c.prestige_now
        value += self.poverty_gone(-c.poverty) if c.poverty < 0 else -POVERTY * c.poverty
        return value + self.special(c, deep)

    def special(self, c: Card, deep: bool) -> float:
        """The worth of a card's written ability, by what it says."""
        districts = [self.s.districts[d] for d in self.my_districts]
        tops = self.visible()
        name = c.name
        if name == "Town Houses":
            return float(sum(1 for t in tops if t.colour == "blue"))
        if name == "Omnibus":
            return len(districts) * self.money_value
        if name == "Steamboats":
            return 2 * sum(1 for d in districts if d.thames) * self.money_value
        if name == "Train Station":
            return 2 * sum(1 for d in districts if d.north) * self.money_value
        if name in ("Bridge", "Tower Bridge"):
            return sum(1 for t in tops if t.colour == "brown") * self.money_value
        if name == "Lloyds of London":
            return 2 * (self.n - 1) * self.money_value
        if name == "Fleet Street":
            return 1.0
        if name == "Police Force":
            return POVERTY if self.poverty > 0 else 0.0
        if name == "Fire Brigade":
            return 0.5 * (self.n - 1)
        if name in ("Brixton Prison", "Millbank Prison"):
            shed = min(3, self.sheddable())
            return self.poverty_gone(shed) + (1.5 if name == "Millbank Prison" else 0.5) * shed
        if name == "Workhouse":
            return sum(self.money_value + POVERTY + 0.5 for h in self.hand if self.card(h).kind == "poor")
        if name == "Public Houses":
            return POVERTY * max(0, len(self.hand) - 1)
        if name == "Coffee House" and deep:
            return 0.7 * max([0.0] + [self.play_value(b, spend=0.0, deep=False) for b in self.board
                                      if self.card(b).kind == "project"])
        return 0.0

    def sheddable(self) -> int:
        """Cards a prison would happily put on the board: Poor cards, and what a long hand can spare."""
        poor = sum(1 for h in self.hand if self.card(h).kind == "poor")
        return poor + max(0, len(self.hand) - poor - 5)

    def activation_price(self, c: Card, spare: set[int] | None = None) -> float | None:
        """What paying the activation cost costs, None when it cannot be paid without a loan."""
        if c.activation == "money":
            return None if self.money < c.activation_cost else c.activation_cost * self.money_value
        if c.activation in ("discard", "discard_blue"):
            pool = [h for h in self.hand if spare is None or h not in spare]
            if c.activation == "discard_blue":
                pool = [h for h in pool if self.card(h).colour == "blue"]
            return min((self.hand_value(h) for h in pool), default=None)
        return 0.0

    def future_uses(self, c: Card) -> float:
        """How many times a card placed now will be activated: once if it flips, else a few."""
        if c.activation == "never":
            return 0.0
        return min(1.0, self.uses_left) if c.flip else self.uses_left

    def play_value(self, i: int, spend: float | None = None, deep: bool = True) -> float:
        """The net worth of putting card `i` into the project now (the discarded card included)."""
        c = self.card(i)
        if c.kind != "project":
            return 0.0
        top = self.top_district()
        discount = top.play_cost_discount if top else 0
        cost = max(0, c.play_cost - discount)
        gain = max(0.0, self.effect(c, deep) - self.static_price(c))
        value = c.prestige + self.future_uses(c) * gain - cost * self.money_value
        if c.continuous:
            value += 1.5 * min(1.0, self.turns_left / 4)
        if cost > self.money:
            value -= self.loan_cost(cost - self.money)
        if spend is None:
            spend = self.cheapest_spend(i)
        value -= spend
        if not self.free_pile():
            value -= self.new_pile_cost() * 0.7
        return value

    def static_price(self, c: Card) -> float:
        """What an activation of `c` usually costs: its money, or a middling card from hand."""
        if c.activation == "money":
            return c.activation_cost * self.money_value
        if c.activation in ("discard", "discard_blue"):
            return 0.6
        return 0.0

    def loan_cost(self, short: int) -> float:
        """What the loans taken to pay `short` money cost: poverty at each activation, 15 to repay."""
        loans = -(-short // 10)
        if self.turns_left < 3:
            # Too late to repay: the penalty, and the loan's money is gone into what it bought.
            return loans * (self.s.unpaid_loan_penalty + 3.0)
        return loans * (2.0 + POVERTY * self.uses_left * 0.8)

    def cheapest_spend(self, i: int) -> float:
        """The least valuable card that may be discarded to play card `i` (99 when none)."""
        c = self.card(i)
        if not c.needs_spend:
            return 0.0
        any_colour = any(t.name == "School" for t in self.visible())
        pool = [self.hand_value(h) for h in self.hand if h != i and self.card(h).kind != "poor"
                and (self.card(h).colour == c.colour or any_colour)]
        return min(pool, default=99.0)

    def hand_value(self, i: int) -> float:
        """What keeping card `i` in hand is worth (Poor cards are only poverty to come)."""
        if i not in self._hand_values:
            self._hand_values[i] = self._hand_value(i)
        return self._hand_values[i]

    def _hand_value(self, i: int) -> float:
        c = self.card(i)
        if c.kind == "poor":
            return -POVERTY
        if self.turns_left < 2:
            return -1.0 if c.kind != "project" else max(-1.0, self.play_value(i, spend=0.0) * 0.5 - 1)
        if c.kind == "action":
            return 2.0
        return max(0.3, 0.6 * self.play_value(i, spend=0.5))

    def new_pile_cost(self) -> float:
        """One more pile: a poverty at every activation to come. A project needs a few piles to
        activate several cards at once; past that, each new one is poverty for little."""
        if len(self.piles) < FEW_PILES:
            return POVERTY * 0.5
        return POVERTY * (1.0 + self.uses_left)

    def free_pile(self) -> bool:
        """Whether a pile can be covered at no loss (its top spent, face down, or only prestige)."""
        if self._free_pile is None:
            self._free_pile = any(self.cover_loss(p) < 0.5 for p in range(len(self.piles)))
        return self._free_pile

    def cover_loss(self, p: int) -> float:
        """What covering pile `p` loses: nothing for a spent or prestige-only top, else its uses."""
        top = self.piles[p][-1]
        c = self.card(top)
        if not self.face_up[top]:
            return 0.0
        if c.continuous:
            return 3.0
        if c.activation == "never":
            return 0.0
        return 1.5 + self.future_uses(c) * max(0.0, self.effect(c, deep=False) - self.static_price(c)) * 1.5

    def district_value(self, d: District) -> float:
        """What buying district `d` now is worth, its price and the top district it covers included."""
        value = d.prestige_now + self.poverty_gone(d.poverty_discard) - d.cost * self.money_value
        value += d.draw * (DECK_CARD if self.turns_left > 4 and len(self.hand) < 7 else -0.5)
        money, prestige, poverty = DISTRICT_ACTIVATION.get(d.name, (0, 0, 0))
        value += self.uses_left * (money * self.money_value + prestige - poverty * POVERTY)
        value += min(1.0, self.turns_left / 5) * (d.play_cost_discount * 1.5 + d.hand_limit_bonus * 0.5)
        names = [t.name for t in self.visible()]
        if "Steamboats" in names and d.thames:
            value += 2 * self.money_value * self.uses_left
        if "Train Station" in names and d.north:
            value += 2 * self.money_value * self.uses_left
        top = self.top_district()
        if top is not None:
            m, p, pv = DISTRICT_ACTIVATION.get(top.name, (0, 0, 0))
            value -= self.uses_left * (m * self.money_value + p - pv * POVERTY)
        if d.cost > self.money:
            value -= self.loan_cost(d.cost - self.money)
        return value


def card_of(option_id: str, index: dict[str, int]) -> int | None:
    """The card or district an option names (its id is the option's last part), if any."""
    last = option_id.rsplit(":", 1)[-1]
    return index.get(last)


class LondonPlayer:
    """Scripted London player: `choose(view, options)` gives the index of the chosen option."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: View, options: Options) -> int:
        """The index in `options` of this seat's choice, from what the seat sees."""
        if len(options) == 1:
            return 0
        pos = Position(view)
        kind = options[0][0].split(":", 1)[0]
        prompt = str((view.get("pending") or {}).get("prompt", ""))
        decide = getattr(self, "_" + kind, None)
        if kind in ("bought", "given") and prompt.startswith(("Coffee", "Stock")):
            decide = self._coffee if kind == "bought" else self._swap_give
        if decide is None:
            return self.rng.randrange(len(options))
        return int(decide(pos, options))

    # ------------------------------------------------------------ helpers
    def _best(self, options: Options, score: Any) -> int:
        """The option with the highest score (the first on ties: deterministic)."""
        scores = [score(oid) for oid, _ in options]
        return max(range(len(options)), key=lambda k: (scores[k], -k))

    def _card_best(self, pos: Position, options: Options, score: Any, other: float = 0.0) -> int:
        """Best option by a score of its card; options that name no card score `other`."""
        def of(oid: str) -> float:
            i = card_of(oid, pos.s.card_index)
            return other if i is None else float(score(i))
        return self._best(options, of)

    # ------------------------------------------------------------ the turn
    def _start(self, pos: Position, options: Options) -> int:
        ids = [o for o, _ in options]
        if "start:repay a loan" in ids:
            keep = 0 if pos.turns_left < 6 else 4
            if pos.money - pos.s.loan_repay >= keep:
                return ids.index("start:repay a loan")
        return ids.index("start:go on")

    def _action(self, pos: Position, options: Options) -> int:
        ids = [o.split(":", 1)[1] for o, _ in options]
        scores = {a: self._action_score(pos, a) for a in ids}
        return ids.index(max(ids, key=lambda a: scores[a]))

    def _action_score(self, pos: Position, action: str) -> float:
        if action == "swap":
            return self._swap_gain(pos) - 0.5
        if action == "district":
            return max(pos.district_value(pos.s.districts[d]) for d in pos.offer) - 0.5
        if action == "develop":
            plays = sorted((pos.play_value(h) for h in pos.hand if pos.card(h).kind == "project"), reverse=True)
            actions = [2.0 + (1.0 if len(pos.hand) < 5 else 0.0) for h in pos.hand
                       if pos.card(h).kind == "action" and pos.turns_left > 2]
            best = sorted(plays + actions, reverse=True)
            if not best:
                return -5.0
            # A second card is played too when it pays, and each played card leaves two cards fewer in hand.
            value = best[0] + max(0.0, best[1] if len(best) > 1 else 0.0) * 0.7
            if pos.turns_left < 2 and value > 0:
                value += 2.0
            return value
        if action == "activate":
            return self._activation_plan(pos)
        # Draw three: only when the hand is nearly empty, never in the last turns.
        if pos.turns_left < 3:
            return -6.0
        return 3.5 - len(pos.hand) * 1.2

    def _activation_plan(self, pos: Position) -> float:
        """What activating now is worth: the good cards' effects less the poverty it brings."""
        total = 0.0
        spent: set[int] = set()
        for top in pos.tops:
            if top is None:
                continue
            c = pos.card(top)
            price = pos.activation_price(c, spent)
            if price is None or c.activation == "never":
                continue
            gain = pos.effect(c) - price
            if gain > 0:
                total += gain
                if c.activation in ("discard", "discard_blue"):
                    pool = [h for h in pos.hand if h not in spent]
                    spent.add(min(pool, key=pos.hand_value))
        d = pos.top_district()
        if d is not None:
            money, prestige, poverty = DISTRICT_ACTIVATION.get(d.name, (0, 0, 0))
            total += money * pos.money_value + prestige - poverty * POVERTY
        hand_free = any(t.name == "Public Houses" for t in pos.visible())
        gained = len(pos.piles) + pos.loans + (0 if hand_free else len(pos.hand) - len(spent))
        return total - POVERTY * ACTIVATION_POVERTY * gained

    def _source(self, pos: Position, options: Options) -> int:
        # A development-board card when it beats an unknown card from the deck.
        def score(oid: str) -> float:
            if oid.startswith("source:deck"):
                return DECK_CARD
            if oid.startswith("source:swap"):
                return self._swap_gain(pos) - 1.0
            i = card_of(oid, pos.s.card_index)
            return -9.0 if i is None else pos.hand_value(i)
        return self._best(options, score)

    def _extra(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: -pos.hand_value(i))

    def _how_many(self, pos: Position, options: Options) -> int:
        want = 2 if pos.turns_left > 3 and len(pos.hand) < 6 else (1 if pos.turns_left > 1 else 0)
        ids = [o for o, _ in options]
        return ids.index(f"how_many:{want}") if f"how_many:{want}" in ids else len(ids) - 1

    def _peeked(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, pos.hand_value)

    def _back(self, pos: Position, options: Options) -> int:
        # The weakest card on top: whoever draws next (an opponent) gets it.
        return self._card_best(pos, options, lambda i: -pos.hand_value(i))

    # ------------------------------------------------------------ developing
    def _play(self, pos: Position, options: Options) -> int:
        def score(oid: str) -> float:
            if oid == "play:stop:none":
                return 0.0
            if oid == "play:swap:none":
                return self._swap_gain(pos) - 1.0
            i = card_of(oid, pos.s.card_index)
            if i is None:
                return -9.0
            c = pos.card(i)
            if c.kind == "action":
                return 2.5 if pos.turns_left > 2 else 0.5
            bonus = 2.0 if pos.turns_left < 2 else 0.0  # two cards fewer in hand at the end
            return pos.play_value(i) + bonus
        return self._best(options, score)

    def _spent(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: -pos.hand_value(i))

    def _pile(self, pos: Position, options: Options) -> int:
        def score(oid: str) -> float:
            p = int(oid.split(":", 1)[1])
            if p < 0:
                return -pos.new_pile_cost()
            return -pos.cover_loss(p)
        return self._best(options, score)

    def _free_card(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: pos.play_value(i, spend=0.0))

    def _coffee(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: pos.play_value(i, spend=0.0), other=0.5)

    def _now(self, pos: Position, options: Options) -> int:
        return [o for o, _ in options].index("now:yes")

    # ------------------------------------------------------------ activating
    def _step(self, pos: Position, options: Options) -> int:
        ids = [o for o, _ in options]
        if "step:district ability:none" in ids:
            return ids.index("step:district ability:none")
        spent = set(pos.view["global"]["activated"])
        last = pos.view["global"]["last_activated"]

        def score(oid: str) -> float:
            if oid == "step:stop:none":
                return 0.0
            if oid == "step:swap:none":
                return self._swap_gain(pos) - 1.0
            i = card_of(oid, pos.s.card_index)
            if i is None:
                return -9.0
            c = pos.card(i)
            price = pos.activation_price(c)
            if price is None:
                return -5.0
            if c.name == "Hospital":
                keep = pos.card(last) if last is not None else None
                worth = pos.effect(keep) * 0.6 if keep is not None and keep.flip else -1.0
                return worth - price
            if c.name == "Whitehall":
                again = [pos.effect(pos.card(a)) for a in spent if pos.face_up[a] and pos.card(a).name != "Whitehall"]
                return max(again, default=-1.0) - price
            return pos.effect(c) - price
        # Cards that repeat or save another go after the others, when their turn has come.
        def ordered(oid: str) -> float:
            value = score(oid)
            i = card_of(oid, pos.s.card_index)
            if i is not None and pos.card(i).name in ("Hospital", "Whitehall") and value > 0:
                others = [score(o) for o in ids if o != oid and card_of(o, pos.s.card_index) is not None
                          and pos.card(card_of(o, pos.s.card_index) or 0).name not in ("Hospital", "Whitehall")]
                if any(v > 0 for v in others):
                    return 0.01
            return value
        return self._best(options, ordered)

    def _given(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: -pos.hand_value(i))

    def _given_blue(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: -pos.hand_value(i))

    def _repeat(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: pos.effect(pos.card(i)))

    def _jailed(self, pos: Position, options: Options) -> int:
        threshold = POVERTY if pos.poverty > 0 else 0.0
        return self._card_best(pos, options, lambda i: threshold - pos.hand_value(i), other=0.0)

    def _pauper(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: 1.0, other=0.0)

    def _leader(self, pos: Position, options: Options) -> int:
        """The opponent with the most prestige (never this seat)."""
        def score(oid: str) -> float:
            seat = int(oid.split(":", 1)[1])
            return -999.0 if seat == pos.me else float(pos.prestige[seat])
        return self._best(options, score)

    def _victim(self, pos: Position, options: Options) -> int:
        return self._leader(pos, options)

    def _receiver(self, pos: Position, options: Options) -> int:
        return self._leader(pos, options)

    # ------------------------------------------------------------ districts
    def _bought(self, pos: Position, options: Options) -> int:
        def score(oid: str) -> float:
            d = card_of(oid, pos.s.district_index)
            return -99.0 if d is None else pos.district_value(pos.s.districts[d])
        return self._best(options, score)

    # ------------------------------------------------------------ Stock Exchange
    def _swap_gain(self, pos: Position) -> float:
        if not pos.hand or not pos.board:
            return -9.0
        return max(pos.hand_value(b) for b in pos.board) - min(pos.hand_value(h) for h in pos.hand)

    def _swap_now(self, pos: Position, options: Options) -> int:
        return [o for o, _ in options].index("swap_now:yes" if self._swap_gain(pos) > 1.0 else "swap_now:no")

    def _swap_give(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, lambda i: -pos.hand_value(i))

    def _taken(self, pos: Position, options: Options) -> int:
        return self._card_best(pos, options, pos.hand_value)
