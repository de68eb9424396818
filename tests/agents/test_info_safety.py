"""A bot decides from what its seat may see, never from the state (issue 12).

For each shipped game, two states that differ only in what the deciding seat cannot see (hidden
cards redealt, the generator state changed, another seat's secret answer changed) must lead greedy,
mcts (with the learned value and with the declared evaluation) and bot, with the same seed, to the
same conclusions: the same pick, and the same value for every option; and the learned value of the
two positions is the same. Each test also checks that the twins are worth telling apart: a bot that skipped the
determinization and searched the real states would conclude differently.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from bot_helpers import State, advance, conclusions, engine, same_view
from interpreter.agents import greedy as greedy_module, learned as learned_module, mcts as mcts_module
from interpreter.core import rng
from interpreter.core.engine import SECRET_OPTIONS, Engine
from interpreter.core.state import copy_state
from twin_helpers import back_of, reverse_alike


class _Peeking:
    """An 'information set' that is the real state: what a cheating bot would search."""

    def __init__(self, engine: Engine, state: State, seat: int):
        self.state = state

    def sample(self, seed: int) -> State:
        return copy_state(self.state)


@pytest.fixture
def peeking(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(greedy_module, "InfoSet", _Peeking)
    monkeypatch.setattr(mcts_module, "InfoSet", _Peeking)
    monkeypatch.setattr(learned_module, "InfoSet", _Peeking)
    yield


def check_twins(game: str, a: State, b: State, seat: int) -> None:
    """The seat sees the same in both; the bots conclude the same (but would not if they peeked)."""
    eng = engine(game)
    assert a != b, "the twins must differ"
    assert same_view(eng, a, b, seat), "the twins must look the same to the deciding seat"
    assert seat in eng.open_seats(a)
    assert conclusions(eng, a, seat) == conclusions(eng, b, seat)


def check_peeking_differs(game: str, a: State, b: State, seat: int) -> None:
    eng = engine(game)
    assert conclusions(eng, a, seat) != conclusions(eng, b, seat), \
        "a bot reading the real state should tell these twins apart (else the test proves nothing)"


def new_rng(state: State, salt: int) -> None:
    state["rng"] = rng.next_u64(state["rng"] ^ salt)[1]


# ----------------------------------------------------------------------------- Downtown

def downtown_vote(seed: int) -> State:
    eng = engine("downtown")
    return advance(eng, eng.new_game(4, seed), "kind", seed)


def downtown_hidden_twins() -> tuple[State, State, int]:
    """The order of the planning piles and the generator differ; seat 2 votes."""
    a = downtown_vote(3)
    b = copy_state(a)
    for side in b["global"]["piles"]:
        b["global"]["piles"][side].reverse()
    new_rng(b, 99)
    return a, b, 2




def downtown_answered_twins() -> tuple[State, State, int]:
    """Seat 0 has voted (secretly) before seat 1 is asked: housing in one twin, commerce in the other."""
    eng = engine("downtown")
    base = downtown_vote(4)
    a, b = copy_state(base), copy_state(base)
    eng.apply_inplace(a, "kind:housing", 0)
    eng.apply_inplace(b, "kind:commerce", 0)
    return a, b, 1




def downtown_lobby_twins() -> tuple[State, State, int]:
    """Every vote is in but not yet revealed; the lobby question is open. The others' votes,
    bound in the vote phase's locals, differ between the twins."""
    eng = engine("downtown")
    a = advance(eng, eng.new_game(4, 8), "use_lobby", 8)
    seat = eng.open_seats(a)[0]
    b = copy_state(a)
    L = b["stack"][-1][2]
    kinds = L["kind"]
    _, asked = L[SECRET_OPTIONS + "kind"]
    for s in range(4):
        if s != seat:
            others = [k for k in asked[s] if k != kinds[s]]
            kinds[s] = others[0]
    return a, b, seat




def downtown_parcels_twins() -> tuple[State, State, int]:
    """The lots are chosen (bound, secret) and the buyers are asked how many parcels. Another buyer's
    lot, and so the parcels it may buy, differ between the twins."""
    eng = engine("downtown")
    for seed in range(40):
        a = advance(eng, eng.new_game(4, seed), "parcels", seed)
        p = a["pending"]
        if len(p["seats"]) >= 2:
            break
    else:
        pytest.fail("no parcels decision with two buyers")
    seat, other = p["seats"][0], p["seats"][1]
    b = copy_state(a)
    L = b["stack"][-1][2]
    _, asked = L[SECRET_OPTIONS + "target"]
    L["target"][other] = next(lot for lot in asked[other] if lot != L["target"][other]
                              and b["node"]["plaque"][lot] not in ("park",))
    b["pending"]["options"][1] = [1]
    return a, b, seat




# ----------------------------------------------------------------------------- London

def london_twins() -> tuple[State, State, int]:
    """Mid-game, seat 0 chooses its action. The deck and the other seats' hands are redealt."""
    eng = engine("london")
    a = advance(eng, eng.new_game(3, 11), "action", 11, skip=6, seat=0)
    b = copy_state(a)
    pool = list(b["global"]["deck"]) + b["seat"]["hand"][1] + b["seat"]["hand"][2]
    reverse_alike(eng, "card", pool)       # (every seat can tell a card's group: it stays)
    sizes = [len(b["global"]["deck"]), len(b["seat"]["hand"][1]), len(b["seat"]["hand"][2])]
    b["global"]["deck"] = pool[:sizes[0]]
    b["seat"]["hand"][1] = pool[sizes[0]:sizes[0] + sizes[1]]
    b["seat"]["hand"][2] = pool[sizes[0] + sizes[1]:]
    new_rng(b, 7)
    return a, b, 0




def london_pile_twins() -> tuple[State, State, int]:
    """Another seat's covered pile cards are hidden (its top cards are public in `tops`): the covered
    cards are swapped with cards of the deck, the top cards stay."""
    eng = engine("london")
    state = eng.new_game(3, 21)
    for skip in range(40):
        state = advance(eng, state, "action", 21, skip=1, seat=0)
        covered = [(i, j) for i, pile in enumerate(state["seat"]["piles"][1]) for j in range(len(pile) - 1)]
        if covered:
            break
    else:
        pytest.fail("no covered pile card in 40 turns")
    b = copy_state(state)
    i, j = covered[0]
    pile = b["seat"]["piles"][1][i]
    # Another card of the same group (every seat can tell a card's group), from the deck or a third hand.
    hidden = [(where, k) for where in (b["global"]["deck"], b["seat"]["hand"][2]) for k in range(len(where))]
    where, k = next((where, k) for where, k in hidden
                    if back_of(eng, "card", where[k]) == back_of(eng, "card", pile[j]) and where[k] != pile[j])
    pile[j], where[k] = where[k], pile[j]
    return state, b, 0



# ----------------------------------------------------------------------------- City

def city_twins() -> tuple[State, State, int]:
    """City hides nothing but the future: the generator that rolls the die."""
    eng = engine("city")
    a = advance(eng, eng.new_game(4, 5), "move", 5, skip=3)
    b = copy_state(a)
    new_rng(b, 3)
    return a, b, eng.open_seats(a)[0]




# ----------------------------------------------------------------------------- Harbour

def harbour_twins() -> tuple[State, State, int]:
    """The ships' order is secret, and seat 0 has made its secret offer before seat 1 is asked."""
    eng = engine("examples/harbour")
    base = advance(eng, eng.new_game(3, 2), "offer", 2, skip=1)
    a, b = copy_state(base), copy_state(base)
    options = eng.pending(a).options(0)  # type: ignore[union-attr]
    eng.apply_inplace(a, options[0].id, 0)
    eng.apply_inplace(b, options[-1].id, 0)
    reverse_alike(eng, "ship", b["global"]["deck"])
    new_rng(b, 5)
    return a, b, 1


# Each case: the game, and the twins with the deciding seat.
TWINS = {
    "downtown: planning piles and generator": ("downtown", downtown_hidden_twins),
    "downtown: another seat's pending secret vote": ("downtown", downtown_answered_twins),
    "downtown: secret votes bound, not yet revealed": ("downtown", downtown_lobby_twins),
    "downtown: another buyer's secret lot and its options": ("downtown", downtown_parcels_twins),
    "london: hands, deck and generator": ("london", london_twins),
    "london: another seat's covered pile cards": ("london", london_pile_twins),
    "city: generator": ("city", city_twins),
    "harbour: ships, generator and a pending secret offer": ("examples/harbour", harbour_twins),
}


@pytest.mark.parametrize("case", list(TWINS))
def test_the_bots_cannot_tell_the_twins_apart(case: str) -> None:
    game, build = TWINS[case]
    a, b, seat = build()
    check_twins(game, a, b, seat)


@pytest.mark.parametrize("case", list(TWINS))
def test_a_bot_that_peeked_would_tell_them_apart(case: str, peeking: None) -> None:
    game, build = TWINS[case]
    a, b, seat = build()
    check_peeking_differs(game, a, b, seat)
