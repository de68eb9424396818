"""`choose ... label "..."`: each option's text for people, while ids and answers stay the values."""

from __future__ import annotations

from pathlib import Path

from interpreter.core.decision import Decision
from lang_helpers import check, engine, errors, stmt
from ruledsl.syntax import ast as A

RULES = """
formula pile_label(pile: int) = "new pile" if pile < 0 else "cover pile {pile + 1}"

phase main:
    choose pile from [-1, 0, 1] by seats[0] "Which pile?" label "{pile_label(pile)}"
    choose bid from range(1, 3) by each s in seats secret "Bid?" label "{s} bids {bid}"
    log "{pile} {bid[0]}"
    end winners seats
"""


def test_the_label_clause_is_parsed_after_the_prompt_and_label_stays_a_usable_name() -> None:
    s = stmt('choose x from [1, 2] by seats[0] "Pick" label "option {x}"')
    assert isinstance(s, A.Choose) and s.label is not None and s.prompt is not None
    assert isinstance(stmt("let label = 3"), A.Let)


def test_labels_show_each_option_while_ids_and_answers_stay_the_values(tmp_path: Path) -> None:
    e = engine(tmp_path, RULES, seats=(2, 2))
    state = e.new_game(2, 1)
    d = e.pending(state)
    assert isinstance(d, Decision)
    assert [(o.id, o.label) for o in d.options(0)] == [("pile:-1", "new pile"), ("pile:0", "cover pile 1"),
                                                     ("pile:1", "cover pile 2")]
    state = e.apply(state, "pile:0", 0)
    d = e.pending(state)
    assert isinstance(d, Decision)
    # With `each`, the seat being asked is named in the label too.
    assert [o.label for o in d.options(1)] == ["Ben bids 1", "Ben bids 2"]
    state = e.apply(e.apply(state, "bid:2", 1), "bid:1", 0)
    assert state["log"][-1]["text"] == "0 1"


def test_a_mistake_in_a_label_is_reported_where_it_is_written(tmp_path: Path) -> None:
    _, diags = check(tmp_path, 'phase main:\n    choose x from [1, 2] by seats[0] "Pick" label "{y}"\n'
                               "    end winners seats\n")
    [d] = errors(diags)
    assert d.code == "unknown-name" and (d.span.line, d.span.column) == (2, 53)  # the y inside the label


DETAILED = """
formula cost(n: int) = n * 3

phase main:
    choose n from [1, 2] by seats[0] "How many?" detail "costs {cost(n)}"
    choose pile from [-1, 0] by seats[1] "Which pile?" label "{'new' if pile < 0 else 'old'}" detail "pile {pile}"
    log "{n} {pile}"
    end winners seats
"""


def test_detail_says_what_an_option_means_while_its_label_and_id_stay_as_typed(tmp_path: Path) -> None:
    s = stmt('choose x from [1, 2] by seats[0] "Pick" label "option {x}" detail "worth {x * 2}"')
    assert isinstance(s, A.Choose) and s.detail is not None and s.label is not None
    assert isinstance(stmt('choose x from [1, 2] by seats[0] "Pick" detail "worth {x}"'), A.Choose)
    assert isinstance(stmt("let detail = 3"), A.Let)
    e = engine(tmp_path, DETAILED.replace("'new' if pile < 0 else 'old'", "pile"), seats=(2, 2))
    state = e.new_game(2, 1)
    d = e.pending(state)
    assert isinstance(d, Decision)
    # Without a label, the option reads as its value (so '2' still names it), with its detail beside it.
    assert [(o.id, o.label, o.detail) for o in d.options(0)] == [("n:1", "1", "costs 3"), ("n:2", "2", "costs 6")]
    state = e.apply(state, "n:2", 0)
    d = e.pending(state)
    assert isinstance(d, Decision)
    assert [(o.label, o.detail) for o in d.options(1)] == [("-1", "pile -1"), ("0", "pile 0")]
    state = e.apply(state, "pile:0", 1)
    assert state["log"][-1]["text"] == "2 0"
