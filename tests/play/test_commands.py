"""Commands at any prompt: help, board, log, info, explain, rules, score, undo; the question comes back
after each, a mistyped command gets a hint, and undo is refused whenever it would let a player use
what they have learnt since."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Callable

import pytest

from interpreter.core.decision import Decision
from interpreter.core.journal import Journal, replay
from interpreter.play.commands import COMMANDS
from play_helpers import ROOT, Table


def _decision(table: Table) -> Decision:
    decision = table.engine.pending(table.session.state)
    assert isinstance(decision, Decision)
    return decision


def _play(tmp_path: Path, game: str, kinds: list[str], seed: int,
          script: Callable[[Table, int, Decision], str | None], limit: int = 3000) -> Table:
    """A session whose human answers with `script` (None: the first option), stopped after `limit` prompts."""
    def answer(table: Table, seat: int | None, prompt: str) -> str:
        if "press Enter" in prompt:
            return ""
        if len(table.prompts) > limit:
            raise EOFError
        assert seat is not None
        typed = script(table, seat, _decision(table))
        return table.first_key(seat) if typed is None else typed

    table = Table(game, kinds, seed, tmp_path / f"{game}.json", answer)
    table.run()
    return table


def _text(table: Table) -> str:
    return "\n".join(table.out)


def test_after_any_command_the_question_comes_back_and_a_mistyped_command_gets_a_hint(tmp_path: Path) -> None:
    typed = ["help", "board", "board all", "log 3", "info 8", "info prices.bare", "info Ben", "rules", "score",
             "explain", "lgo", "info", "info zzzq", "INFO supply"]
    table = _play(tmp_path, "downtown", ["human", "bot", "bot"], 4,
                  lambda t, seat, d: typed.pop(0) if typed else (_ for _ in ()).throw(EOFError()))
    text = _text(table)
    question = "Ana, you are mayor: turn up the top planning card of which pile?"
    # The question once at first, then again after every command but the mistyped one.
    assert text.count(question) == 1 + 13
    assert all(f"  {c.usage}" in text for c in COMMANDS)
    assert "'lgo' is not one of the options" in text and "did you mean 'log'?" in text
    assert "8 (a place on the board):" in text and "next to:" in text
    assert "prices.bare (an entry of a table of the game's data):\n    0, 2, 5, 9" in text and "Ben (a seat):" in text
    assert "The round: planning, vote, buying, payout, then the mayor changes." in text  # the file's comment
    assert "info takes a name" in text and "Nothing is called 'zzzq'" in text
    assert "plaques left" in text  # a field by its title, whatever the case typed
    assert len(table.prompts) == 15 and len(set(table.prompts)) == 1


def test_info_shows_an_item_with_its_attributes_ability_and_copies(tmp_path: Path) -> None:
    typed = ["info Coffee House", "info mercers-a", "info Poor"]
    table = _play(tmp_path, "london", ["human", "bot"], 3,
                  lambda t, seat, d: typed.pop(0) if typed else (_ for _ in ()).throw(EOFError()))
    text = _text(table)
    assert "Coffee House (brown, activation: free; special (see: info Coffee House))  (card 2 copies:" in text
    assert "ability: activation: take any card from the development board" in text
    assert "Mercers (brown, activation: free; gives £5, turns face down)  (card mercers-a)" in text
    # Poor cards of three groups differ (their group), so each is shown with its copies.
    assert text.count("Poor (Paupers) (cannot be played)") == 0 and text.count("(card ") >= 5


@pytest.mark.parametrize("game, field", [("downtown", "money"), ("london", "money"), ("city", "score"),
                                         ("examples/harbour", "coins")])
def test_explain_shows_the_last_change_of_the_scores_event_by_event(tmp_path: Path, game: str, field: str) -> None:
    asked = []

    def script(table: Table, seat: int, decision: Decision) -> str | None:
        changed = any(x != table.session.state["seat"][field][0] for x in table.session.state["seat"][field])
        if changed and not asked:
            asked.append(len(table.out))
            return "explain"
        if asked:
            raise EOFError
        return None

    table = _play(tmp_path, game, ["human", "bot", "bot"], 5, script)
    assert asked
    shown = "\n".join(table.out[asked[0]:])
    assert "How the last change of" in shown
    assert re.search(rf"  {field}: .*(Ana|Ben|Chloé) \d+ → \d+ \([+-]\d+\)", shown), shown
    # The events are the log's own lines, each with the facts its rules recorded.
    log = table.session.state["log"]
    assert any(e["text"] in shown for e in log) and " · " in shown


def test_undo_takes_back_a_city_purchase_and_the_journal_still_replays(tmp_path: Path) -> None:
    steps: list[str] = []
    before: list[str] = []

    def script(table: Table, seat: int, decision: Decision) -> str | None:
        options = [o.id for o in decision.options(seat)]
        if len(steps) == 1 and decision.name != "action":
            steps.clear()  # the purchase ended the turn: wait for a purchase that leaves the question open
            before.clear()
        if not steps:
            buy = next((o for o in options if o.startswith("action:buy:")), None)
            if decision.name != "action" or buy is None:
                return None if decision.name != "action" else "action:done:none"
            steps.append(buy)
            before.extend(options)
            return buy
        if len(steps) == 1:
            assert steps[0] not in options
            steps.append("undo")
            return "undo"
        assert options == before  # asked the question again, as it was
        steps.append("asked again")
        raise EOFError

    # Random opponents: whether the human gets to buy with points to spare depends on the others'
    # play, and the trained bots' play changes with every training.
    table = _play(tmp_path, "city", ["human", "random", "random"], 2, script)
    assert steps[1:] == ["undo", "asked again"], steps
    assert "Taken back: you are asked again." in _text(table)
    saved = Journal.load(table.path)
    assert steps[0] not in [c for _, c in saved.choices]
    assert replay(table.engine, saved)["seat"] == table.session.state["seat"]


def test_undo_within_a_london_turn_and_refused_once_cards_came_from_the_deck(tmp_path: Path) -> None:
    said: list[str] = []

    def script(table: Table, seat: int, decision: Decision) -> str | None:
        ids = [o.id for o in decision.options(seat)]
        if decision.name == "action" and "action:develop" in ids and not said:
            said.append("develop")
            return "action:develop"
        if said == ["develop"] and decision.name == "play":
            said.append("undo")
            return "undo"
        if said == ["develop", "undo"]:
            assert decision.name == "action"  # asked the action again
            said.append("draw")
            return "action:draw"
        if said[-1:] == ["draw"] and decision.name != "start" or said[-1:] == ["draw"] and len(said) > 3:
            said.append("undo again")
            return "undo"
        if said[-1:] == ["undo again"]:
            raise EOFError
        return None

    table = _play(tmp_path, "london", ["human", "bot"], 8, script)
    text = _text(table)
    assert said[:3] == ["develop", "undo", "draw"] and said[-1] == "undo again", said
    assert "Taken back: you are asked again." in text
    assert "Undo refused: hidden information has changed since" in text or "Undo refused: chance" in text


def test_undo_is_refused_after_secret_answers_and_with_other_people_at_the_table(tmp_path: Path) -> None:
    count = [0]

    def script(table: Table, seat: int, decision: Decision) -> str | None:
        count[0] += 1
        if count[0] in (4, 7):
            return "undo"
        if count[0] > 8:
            raise EOFError
        return None

    table = _play(tmp_path, "downtown", ["human", "bot", "bot"], 2, script)
    refusals = [line for line in table.out if "Undo refused" in line]
    assert len(refusals) == 2 and all(("secret" in r or "hidden" in r or "chance" in r) for r in refusals)
    before = len(Journal.load(table.path).choices)
    assert before > 0
    count[0] = 0
    people = _play(tmp_path / "x" if (tmp_path / "x").mkdir() is None else tmp_path, "city",
                   ["human", "human"], 2, script)
    assert any("Undo refused: Ben also plays at this table" in line or
               "Undo refused: Ana also plays at this table" in line for line in people.out)


def test_undo_is_refused_after_a_roll(tmp_path: Path) -> None:
    """City: ending a turn lets the bots roll the die; the next answer cannot take it back."""
    state = {"done": 0}

    def script(table: Table, seat: int, decision: Decision) -> str | None:
        if decision.name == "action" and state["done"] == 0:
            state["done"] = 1
            return "action:done:none"
        if state["done"] == 1 and decision.name == "move":
            state["done"] = 2
            return "undo"
        if state["done"] == 2:
            raise EOFError
        return None

    table = _play(tmp_path, "city", ["human", "bot", "bot"], 6, script)
    assert any("Undo refused: chance has spoken since" in line for line in table.out)


def test_the_end_breaks_each_score_down_as_the_rules_counted_it(tmp_path: Path) -> None:
    london = _play(tmp_path, "london", ["human", "bot", "bot"], 5, lambda t, seat, d: None)
    text = _text(london)
    assert "Final scores, as the rules counted them:" in text
    state = london.session.state
    for i, name in enumerate(state["names"]):
        # The breakdown is the last time the seat's score is written (the log also says it before).
        final = text[text.index("Final scores, as the rules counted them:"):]
        block = final.split(f"\n  {name}: {state['seat']['prestige'][i]} prestige\n", 1)[1]
        parts = re.findall(r"^ +([+-]\d+)  ", block, re.M)[:5]
        assert len(parts) == 5 and sum(int(p) for p in parts) == state["seat"]["prestige"][i]
    harbour = _play(tmp_path, "examples/harbour", ["human", "bot"], 5, lambda t, seat, d: None)
    text = _text(harbour)
    assert re.search(r"buildings \d+ · cargo \d+ · coins \d+ · fame \d+", text)
    downtown = _play(tmp_path, "downtown", ["human", "bot", "bot"], 5, lambda t, seat, d: None)
    # Downtown's own breakdown formula: in sentences, lot by lot.
    assert re.search(r"^ +\+\d+  money at the start\n +-\d+  paid for parcels over the game$", _text(downtown), re.M)


def test_docs_play_lists_every_command_and_only_them() -> None:
    text = (ROOT / "docs" / "play.md").read_text(encoding="utf-8")
    table = text.split("<!-- commands:", 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"^\| `([^`]+)` \|", table, re.M)
    assert documented == [c.usage for c in COMMANDS]


@pytest.mark.parametrize("game", ["downtown", "london", "city", "examples/harbour"])
def test_undo_at_every_prompt_is_taken_back_or_refused_and_the_journal_always_replays(tmp_path: Path, game: str) -> None:
    """Undo typed at every other prompt of a game: each time it is either taken back (the question
    before comes again) or refused with its reason, and the saved journal is always the table's game."""
    said: list[str] = []
    typed_at = [0]

    def script(table: Table, seat: int, decision: Decision) -> str | None:
        if len(said) > 60:
            raise EOFError
        if said and said[-1] == "undo":
            since = "\n".join(table.out[typed_at[0]:])
            said.append("taken" if "Taken back" in since else "refused" if "Undo refused" in since
                        else "nothing" if "Nothing to take back" in since else "?")
            return None
        said.append("undo" if len(said) % 4 == 0 else "answer")
        typed_at[0] = len(table.out)
        return "undo" if said[-1] == "undo" else None

    table = _play(tmp_path, game, ["human", "random", "random"] if game != "london" else ["human", "random"], 4,
                  script)
    outcomes = [s for s in said if s in ("taken", "refused", "nothing", "?")]
    assert outcomes[0] == "nothing" and "?" not in outcomes and len(outcomes) > 5, said
    saved = Journal.load(table.path)
    assert replay(table.engine, saved)["seat"] == table.session.state["seat"]


@pytest.mark.parametrize("game", ["downtown", "london", "city", "examples/harbour"])
def test_random_garbage_and_garbage_arguments_never_crash_and_never_reach_the_terminal_raw(
        tmp_path: Path, game: str) -> None:
    rng = random.Random(game)
    alphabet = "abcXYZ019 -_.:;'\"\\/\x00\x07\x08\t\r\x1b[]()é²١\u202e\u2028\ud800\x9b"
    typed = []
    for k in range(40):
        text = "".join(rng.choice(alphabet) for _ in range(rng.choice([1, 5, 30, 3000])))
        typed.append(text if k % 3 else rng.choice(["info ", "log ", "board ", "explain ", "undo ", "rules "]) + text)
    asked: list[str] = []

    def script(table: Table, seat: int, decision: Decision) -> str | None:
        asked.append(table.prompts[-1])
        if typed:
            return typed.pop(0)
        raise EOFError

    table = _play(tmp_path, game, ["human", "random", "random"], 2, script)
    assert len(set(asked)) == 1 and len(asked) == 41  # nothing typed was taken for an answer
    raw = [line for line in table.out if any(c in line for c in "\x1b\x07\x08\r\x00\x9b\u202e\u2028")]
    assert not raw, repr(raw[0][:200])
    assert all(len(line) < 2000 for line in "\n".join(table.out).split("\n"))
