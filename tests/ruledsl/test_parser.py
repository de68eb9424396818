"""The rules parser: every statement and expression form, spans, and syntax errors in plain words."""

from __future__ import annotations

import pytest

from lang_helpers import RULES_FILE, expr, parse_bad, parse_ok, phase_body, stmt
from ruledsl.syntax import ast as A
from ruledsl.syntax.parser import parse_expression, parse_rules


def at(node: A.Node) -> tuple[int, int]:
    """(line, column) where a node starts."""
    return node.span.line, node.span.column


def name(e: A.Expr) -> str:
    assert isinstance(e, A.Name), e
    return e.name


# ---------------------------------------------------------------- statements


def test_let_binds_a_name_to_an_expression_with_spans() -> None:
    s = stmt("let total = 40 + 2\n")
    assert isinstance(s, A.Let)
    assert s.name == "total"
    assert isinstance(s.value, A.BinOp) and s.value.op == "+"
    # The body is indented under `phase main:` on line 1.
    assert s.span.file == RULES_FILE
    assert at(s) == (2, 5)
    assert at(s.value) == (2, 17)
    assert (s.value.span.end_line, s.value.span.end_column) == (2, 22)


@pytest.mark.parametrize("op", ["=", "+=", "-="])
def test_assignment_operators(op: str) -> None:
    s = stmt(f"s.score {op} 3\n")
    assert isinstance(s, A.Assign)
    assert s.op == op
    assert isinstance(s.target, A.Attr) and s.target.name == "score" and name(s.target.obj) == "s"
    assert isinstance(s.value, A.Num) and s.value.value == 3


def test_assignment_to_an_indexed_target() -> None:
    s = stmt('supply[kind]["square"] -= 1\n')
    assert isinstance(s, A.Assign) and s.op == "-="
    outer = s.target
    assert isinstance(outer, A.Index)
    assert isinstance(outer.index, A.Template) and outer.index.text == "square"
    assert isinstance(outer.obj, A.Index) and name(outer.obj.obj) == "supply" and name(outer.obj.index) == "kind"


def test_if_elif_else() -> None:
    s = stmt("""\
        if a:
            pass
        elif b:
            let x = 1
            let y = 2
        elif c:
            pass
        else:
            break
        """)
    assert isinstance(s, A.If)
    assert [name(cond) for cond, _ in s.branches] == ["a", "b", "c"]
    assert [len(body) for _, body in s.branches] == [1, 2, 1]
    assert isinstance(s.branches[1][1][1], A.Let) and s.branches[1][1][1].name == "y"
    assert len(s.orelse) == 1 and isinstance(s.orelse[0], A.Break)
    assert at(s.branches[2][0]) == (7, 10)


def test_if_without_else_has_empty_orelse() -> None:
    s = stmt("if a:\n    pass\n")
    assert isinstance(s, A.If)
    assert len(s.branches) == 1 and s.orelse == ()
    assert isinstance(s.branches[0][1][0], A.Pass)


def test_for_and_while_loops() -> None:
    body = phase_body("""\
        for s in seats_from(mayor):
            add s to order
        while len(order) > 0:
            draw first from order
            break
        """)
    loop, wloop = body
    assert isinstance(loop, A.For)
    assert loop.var == "s"
    assert isinstance(loop.iter, A.Call) and loop.iter.name == "seats_from"
    assert isinstance(loop.body[0], A.Add)
    assert isinstance(wloop, A.While)
    assert isinstance(wloop.cond, A.BinOp) and wloop.cond.op == ">"
    assert [type(x) for x in wloop.body] == [A.Draw, A.Break]
    assert at(wloop) == (4, 5)


def test_choose_by_one_seat() -> None:
    s = stmt("choose side from open by mayor\n")
    assert isinstance(s, A.Choose)
    assert s.var == "side"
    assert name(s.options) == "open"
    assert name(s.by) == "mayor"
    assert s.each_var is None
    assert s.secret is False
    assert s.prompt is None


def test_choose_by_each_seat_secret_with_prompt() -> None:
    s = stmt('choose lot from free by each s in seats secret "Pick a lot, {s}"\n')
    assert isinstance(s, A.Choose)
    assert s.each_var == "s"
    assert name(s.by) == "seats"
    assert s.secret is True
    assert s.prompt is not None
    assert s.prompt.parts[0] == "Pick a lot, "
    assert name(s.prompt.parts[1]) == "s"  # type: ignore[arg-type]


def test_prompt_interpolation_parts_and_their_spans() -> None:
    #            1234567890123456789012345678901234567890123456789012345678
    s = stmt('choose x from xs by s secret "Pick {s.name}, {n + 1}!"\n')
    assert isinstance(s, A.Choose) and s.prompt is not None
    prompt = s.prompt
    assert not prompt.is_plain
    assert prompt.text == "Pick , !"
    first, second = prompt.parts[1], prompt.parts[3]
    assert isinstance(first, A.Attr) and first.name == "name"
    # `s` of {s.name} is at column 41 of line 2 (4 spaces of indentation included).
    assert at(first) == (2, 41)
    assert (first.name_span.column, first.name_span.end_column) == (43, 46)
    assert isinstance(second, A.BinOp) and second.op == "+"
    assert at(second) == (2, 51)
    assert (second.span.end_line, second.span.end_column) == (2, 55)
    assert prompt.parts[4] == "!"
    assert at(prompt) == (2, 34)


def test_string_escapes_and_literal_braces() -> None:
    s = stmt(r'let t = "a\"b \{c\} \\ d\n"' + "\n")
    assert isinstance(s, A.Let) and isinstance(s.value, A.Template)
    assert s.value.is_plain
    assert s.value.text == 'a"b {c} \\ d\n'


def test_run_with_and_without_arguments() -> None:
    with_args, bare, empty = phase_body("run place(lot, kind)\nrun setup\nrun tidy()\n")
    assert isinstance(with_args, A.Run)
    assert with_args.phase == "place"
    assert [name(a) for a in with_args.args] == ["lot", "kind"]
    assert (with_args.name_span.line, with_args.name_span.column, with_args.name_span.end_column) == (2, 9, 13)
    assert isinstance(bare, A.Run) and bare.phase == "setup" and bare.args == ()
    assert isinstance(empty, A.Run) and empty.phase == "tidy" and empty.args == ()


def test_return_with_and_without_value() -> None:
    plain, valued = phase_body("return\nreturn n * 2\n")
    assert isinstance(plain, A.Return) and plain.value is None
    assert isinstance(valued, A.Return) and isinstance(valued.value, A.BinOp) and valued.value.op == "*"


def test_end_winners() -> None:
    s = stmt("end winners [s for s in seats if s.money == best]\n")
    assert isinstance(s, A.End)
    assert isinstance(s.winners, A.ListComp)
    assert s.winners.var == "s"
    assert isinstance(s.winners.cond, A.BinOp) and s.winners.cond.op == "=="


def test_log_with_kind_fields_text_and_audience() -> None:
    s = stmt('log buy(seat=s, n=parcels[s]) "{s} buys {parcels[s]}" to s\n')
    assert isinstance(s, A.Log)
    assert s.kind == "buy"
    assert [k for k, _ in s.fields] == ["seat", "n"]
    assert isinstance(s.fields[1][1], A.Index)
    assert isinstance(s.text.parts[0], A.Name) and s.text.parts[1] == " buys "
    assert s.to is not None and name(s.to) == "s"


def test_log_plain_text_defaults_to_kind_note() -> None:
    s = stmt('log "hello"\n')
    assert isinstance(s, A.Log)
    assert s.kind == "note" and s.fields == () and s.to is None
    assert s.text.is_plain and s.text.text == "hello"


def test_log_kind_without_fields() -> None:
    s = stmt('log round "next round"\n')
    assert isinstance(s, A.Log) and s.kind == "round" and s.fields == ()


def test_pay_and_gain() -> None:
    pay, gain = phase_body("pay cost from s.money\ngain 5 * n to s.money\n")
    assert isinstance(pay, A.Pay) and pay.is_payment is True
    assert name(pay.amount) == "cost"
    assert isinstance(pay.target, A.Attr) and pay.target.name == "money"
    assert isinstance(gain, A.Pay) and gain.is_payment is False
    assert isinstance(gain.amount, A.BinOp) and gain.amount.op == "*"


def test_shuffle_draw_add_remove() -> None:
    shuffle, draw, add, remove = phase_body(
        "shuffle piles[side]\ndraw card from piles[side]\nadd card to hand\nremove card from hand\n")
    assert isinstance(shuffle, A.Shuffle) and isinstance(shuffle.target, A.Index)
    assert isinstance(draw, A.Draw) and draw.var == "card" and isinstance(draw.source, A.Index)
    assert isinstance(add, A.Add) and name(add.value) == "card" and name(add.target) == "hand"
    assert isinstance(remove, A.Remove) and name(remove.value) == "card" and name(remove.target) == "hand"


def test_roll() -> None:
    s = stmt("roll face from die_faces\n")
    assert isinstance(s, A.Roll)
    assert s.var == "face" and name(s.source) == "die_faces"


def test_pass_and_break() -> None:
    p, b = phase_body("pass\nbreak\n")
    assert isinstance(p, A.Pass) and isinstance(b, A.Break)


# -------------------------------------------------------------- definitions


def test_formula_in_both_forms_and_phases_with_params() -> None:
    tree = parse_ok("""\
        formula price(lot: node, n: int) = n * 2
        formula best(xs: list[int]?, m: map[str, list[seat]]):
            let top = 0
            if xs == none:
                return top
            return max(xs)
        phase place(lot: node, kind: str):
            pass
        phase game:
            pass
        """)
    short, block = tree.formulas
    assert short.name == "price"
    assert [(p.name, p.type_text) for p in short.params] == [("lot", "node"), ("n", "int")]
    assert isinstance(short.expr, A.BinOp) and short.body == ()
    assert (short.name_span.line, short.name_span.column) == (1, 9)
    assert block.expr is None
    # Types are kept without spaces, ready for parse_type.
    assert [p.type_text for p in block.params] == ["list[int]?", "map[str,list[seat]]"]
    assert [type(s) for s in block.body] == [A.Let, A.If, A.Return]
    place, game = tree.phases
    assert place.name == "place" and [p.name for p in place.params] == ["lot", "kind"]
    assert (place.name_span.line, place.name_span.column) == (7, 7)
    assert game.params == ()
    assert at(game) == (9, 1)


def test_comments_blank_lines_and_line_joining() -> None:
    body = phase_body("""\
        # a comment

        let x = 1 + \\
            2   # trailing comment
        let y = [1,
                 2]
        """)
    x, y = body
    assert isinstance(x, A.Let) and isinstance(x.value, A.BinOp)
    assert at(x.value.right) == (5, 9)
    assert isinstance(y, A.Let) and isinstance(y.value, A.ListLit) and len(y.value.items) == 2


# --------------------------------------------------------------- expressions


def test_list_and_map_literals() -> None:
    lst = expr("[1, x, \"a\"]")
    assert isinstance(lst, A.ListLit) and len(lst.items) == 3
    assert isinstance(expr("[]"), A.ListLit) and expr("[]").items == ()  # type: ignore[union-attr]
    m = expr('{"a": 1, "b": x}')
    assert isinstance(m, A.MapLit)
    assert [(k.text, type(v)) for k, v in m.pairs] == [("a", A.Num), ("b", A.Name)]  # type: ignore[union-attr]
    assert isinstance(expr("{}"), A.MapLit) and expr("{}").pairs == ()  # type: ignore[union-attr]


def test_list_comprehension_with_and_without_condition() -> None:
    plain = expr("[n * 2 for n in xs]")
    assert isinstance(plain, A.ListComp)
    assert plain.var == "n" and name(plain.iter) == "xs" and plain.cond is None
    assert isinstance(plain.elt, A.BinOp)
    filtered = expr("[n for n in xs if n > 1]")
    assert isinstance(filtered, A.ListComp) and isinstance(filtered.cond, A.BinOp)


def test_map_comprehension() -> None:
    m = expr('{k: 1 for k in ks if k != "a"}')
    assert isinstance(m, A.MapComp)
    assert name(m.key) == "k" and isinstance(m.value, A.Num)
    assert m.var == "k" and name(m.iter) == "ks"
    assert isinstance(m.cond, A.BinOp) and m.cond.op == "!="


def test_conditional_expression() -> None:
    e = expr("1 if a else 2")
    assert isinstance(e, A.IfExp)
    assert name(e.cond) == "a"
    assert isinstance(e.then, A.Num) and e.then.value == 1
    assert isinstance(e.orelse, A.Num) and e.orelse.value == 2


def test_conditional_expression_nests_to_the_right() -> None:
    e = expr("1 if a else 2 if b else 3")
    assert isinstance(e, A.IfExp) and isinstance(e.orelse, A.IfExp)
    assert name(e.orelse.cond) == "b"


def test_tuple_literal_and_plain_parentheses() -> None:
    t = expr('(a, 1, "east")')
    assert isinstance(t, A.TupleLit) and len(t.items) == 3
    assert name(t.items[0]) == "a"
    grouped = expr("(a)")
    assert isinstance(grouped, A.Name) and at(grouped) == (1, 2)
    g2 = expr("(a + b) * c")
    assert isinstance(g2, A.BinOp) and g2.op == "*" and isinstance(g2.left, A.BinOp)


def test_literals() -> None:
    assert expr("42") == A.Num(expr("42").span, 42)
    assert isinstance(expr("true"), A.Bool) and expr("true").value is True  # type: ignore[union-attr]
    assert isinstance(expr("false"), A.Bool) and expr("false").value is False  # type: ignore[union-attr]
    assert isinstance(expr("none"), A.NoneLit)


def test_postfix_chains_and_calls() -> None:
    e = expr("xs[0].f")
    assert isinstance(e, A.Attr) and e.name == "f"
    assert isinstance(e.obj, A.Index) and name(e.obj.obj) == "xs"
    c = expr("max(a, b)")
    assert isinstance(c, A.Call) and c.name == "max" and len(c.args) == 2
    assert expr("f()").args == ()  # type: ignore[union-attr]


def test_precedence_multiplication_binds_tighter_than_addition() -> None:
    e = expr("a + b * c")
    assert isinstance(e, A.BinOp) and e.op == "+"
    assert name(e.left) == "a"
    assert isinstance(e.right, A.BinOp) and e.right.op == "*"
    assert at(e.right) == (1, 5)


def test_precedence_arithmetic_is_left_associative() -> None:
    e = expr("a - b - c")
    assert isinstance(e, A.BinOp) and e.op == "-" and name(e.right) == "c"
    assert isinstance(e.left, A.BinOp) and name(e.left.left) == "a" and name(e.left.right) == "b"
    e2 = expr("a % b // c")
    assert isinstance(e2, A.BinOp) and e2.op == "//" and isinstance(e2.left, A.BinOp) and e2.left.op == "%"


def test_precedence_not_binds_tighter_than_and() -> None:
    e = expr("not a and b")
    assert isinstance(e, A.BinOp) and e.op == "and"
    assert isinstance(e.left, A.Not) and name(e.left.operand) == "a"
    assert name(e.right) == "b"


def test_precedence_and_binds_tighter_than_or() -> None:
    e = expr("a or b and c")
    assert isinstance(e, A.BinOp) and e.op == "or"
    assert isinstance(e.right, A.BinOp) and e.right.op == "and"


def test_precedence_comparison_below_arithmetic() -> None:
    e = expr("a + 1 < b * 2")
    assert isinstance(e, A.BinOp) and e.op == "<"
    assert isinstance(e.left, A.BinOp) and e.left.op == "+"
    assert isinstance(e.right, A.BinOp) and e.right.op == "*"


def test_unary_minus_binds_tighter_than_multiplication() -> None:
    e = expr("-a * b")
    assert isinstance(e, A.BinOp) and e.op == "*"
    assert isinstance(e.left, A.Neg) and name(e.left.operand) == "a"


def test_membership_in_and_not_in() -> None:
    e = expr("x in xs")
    assert isinstance(e, A.BinOp) and e.op == "in" and name(e.left) == "x" and name(e.right) == "xs"
    n = expr("x not in xs")
    assert isinstance(n, A.BinOp) and n.op == "not in" and name(n.left) == "x" and name(n.right) == "xs"
    both = expr("not x in xs and y not in ys")
    assert isinstance(both, A.BinOp) and both.op == "and"
    assert isinstance(both.left, A.Not) and isinstance(both.left.operand, A.BinOp)
    assert both.left.operand.op == "in"
    assert isinstance(both.right, A.BinOp) and both.right.op == "not in"


def test_parse_expression_shifts_positions_for_embedded_text() -> None:
    # An expression written in a YAML file at line 7, column 12.
    e, diags = parse_expression("a +  b.c", "game.yaml", 7, 12)
    assert diags == []
    assert isinstance(e, A.BinOp)
    assert (e.span.file, e.span.line, e.span.column) == ("game.yaml", 7, 12)
    assert isinstance(e.right, A.Attr)
    assert (e.right.span.line, e.right.span.column) == (7, 17)


def test_parse_expression_unclosed_bracket_names_the_real_line() -> None:
    e, diags = parse_expression("(a + b", "game.yaml", 7, 12)
    assert e is None
    (d,) = diags
    assert (d.span.file, d.span.line, d.span.column) == ("game.yaml", 7, 12)
    assert "'('" in d.message and "line 7" in d.message and "never closed" in d.message


def test_parse_rules_adds_a_missing_final_newline() -> None:
    tree, diags = parse_rules("phase main:\n    pass", RULES_FILE)
    assert diags == [] and tree is not None and len(tree.phases) == 1


# ------------------------------------------------------------- syntax errors


def test_missing_colon_after_if() -> None:
    d = parse_bad("phase main:\n    if ready\n        pass\n")
    assert (d.span.line, d.span.column) == (2, 13)
    assert "missing ':'" in d.message


def test_missing_colon_after_phase_header() -> None:
    d = parse_bad("phase main\n    pass\n")
    assert d.span.line == 1
    assert "missing ':'" in d.message


def test_missing_colon_after_else() -> None:
    d = parse_bad("phase main:\n    if a:\n        pass\n    else\n        pass\n")
    assert d.span.line == 4
    assert "missing ':'" in d.message


def test_unclosed_bracket_points_at_the_opening_bracket() -> None:
    d = parse_bad("phase main:\n    let x = [1, 2,\n    let y = 3\n")
    assert (d.span.line, d.span.column) == (2, 13)
    assert "'['" in d.message and "never closed" in d.message


def test_unclosed_bracket_at_the_end_of_the_file_points_at_the_bracket() -> None:
    d = parse_bad("phase main:\n    let x = (1 + 2\n")
    assert (d.span.line, d.span.column) == (2, 13)
    assert "'('" in d.message and "never closed" in d.message


def test_unclosed_call_parenthesis() -> None:
    d = parse_bad("phase main:\n    let x = foo(1, 2\n")
    assert (d.span.line, d.span.column) == (2, 16)
    assert "'('" in d.message and "never closed" in d.message


def test_unclosed_brace_before_more_statements() -> None:
    d = parse_bad('phase main:\n    let x = {"a": 1\n    let y = 2\n')
    assert (d.span.line, d.span.column) == (2, 13)
    assert "'{'" in d.message


def test_line_indented_too_far_points_at_that_line() -> None:
    d = parse_bad("phase main:\n    let x = 1\n        let y = 2\n")
    assert (d.span.line, d.span.column) == (3, 9)
    assert "indented more" in d.message
    assert d.severity == "error"
    assert d.hint is not None and "':'" in d.hint


def test_line_indented_too_far_after_blank_and_comment_lines() -> None:
    d = parse_bad("phase main:\n    let x = 1\n\n    # note\n        let y = 2\n")
    assert d.span.line == 5
    assert "indented more" in d.message


def test_dedent_to_no_enclosing_block() -> None:
    d = parse_bad("phase main:\n    let x = 1\n  let y = 2\n")
    assert (d.span.line, d.span.column) == (3, 1)
    assert "indentation" in d.message and "no enclosing block" in d.message
    assert d.severity == "error"
    assert d.hint is not None and "same number of spaces" in d.hint


def test_body_not_indented() -> None:
    d = parse_bad("phase main:\nlet y = 2\n")
    assert d.span.line == 2
    assert "'let'" in d.message and "indented block" in d.message


def test_unexpected_word_names_what_was_expected() -> None:
    d = parse_bad("phase main:\n    choose x from xs to s\n")
    assert (d.span.line, d.span.column) == (2, 22)
    assert d.message == "unexpected 'to'; expected 'by'"


def test_unexpected_word_in_for_loop() -> None:
    d = parse_bad("phase main:\n    for x on xs:\n        pass\n")
    assert (d.span.line, d.span.column, d.span.end_column) == (2, 11, 12)
    assert d.message == "unexpected 'on'; expected 'in'"


def test_missing_equals_in_let() -> None:
    d = parse_bad("phase main:\n    let x 1\n")
    assert (d.span.line, d.span.column) == (2, 11)
    assert d.message == "unexpected '1'; expected '='"


def test_expression_cut_short_at_end_of_line() -> None:
    d = parse_bad("formula f(x: int) = x +\n")
    assert d.span.line == 1
    assert d.message.startswith("unexpected end of the line; expected ")
    assert "a name" in d.message and "'('" in d.message


def test_single_quoted_string_has_a_hint() -> None:
    d = parse_bad("phase main:\n    log 'hi'\n")
    assert (d.span.line, d.span.column) == (2, 9)
    assert "unexpected character" in d.message
    assert d.severity == "error"
    assert d.hint is not None and "double quotes" in d.hint


def test_slash_division_has_a_hint() -> None:
    d = parse_bad("phase main:\n    let x = 4 / 2\n")
    assert (d.span.line, d.span.column) == (2, 15)
    assert "'/'" in d.message
    assert d.hint is not None and "//" in d.hint


def test_bad_expression_inside_text() -> None:
    d = parse_bad('phase main:\n    log "a {x +} b"\n')
    assert (d.span.line, d.span.column) == (2, 13)
    assert "{x +}" in d.message and "not a valid expression" in d.message


def test_unclosed_brace_inside_text() -> None:
    d = parse_bad('phase main:\n    log "a {x b"\n')
    assert d.span.line == 2
    assert "never closed" in d.message
    assert d.hint is not None and "\\{" in d.hint


def test_bracket_inside_text_with_escaped_quotes_is_not_blamed() -> None:
    # The '(' is inside the text; the real error is the stray number on line 3.
    d = parse_bad('phase main:\n    log "a \\"(\\" b"\n    let x = 1 2\n')
    assert (d.span.line, d.span.column) == (3, 15)
    assert d.message.startswith("unexpected '2'")


def test_bad_dedent_after_a_bracket_inside_text() -> None:
    d = parse_bad('phase main:\n    log "("\n    if ready:\n        pass\n  let y = 1\n')
    assert (d.span.line, d.span.column) == (5, 1)
    assert "matches no enclosing block" in d.message


def test_windows_line_endings_parse_like_plain_ones() -> None:
    tree, diags = parse_rules("phase main:\r\n    let x = 1\r\n    if x == 1:\r\n        pass\r\n", RULES_FILE)
    assert diags == [] and tree is not None
    let, cond = tree.phases[0].body
    assert isinstance(let, A.Let) and isinstance(cond, A.If)
    assert at(cond) == (3, 5)
    tree, diags = parse_rules("phase main:\r\n    if x\r\n        pass\r\n", RULES_FILE)
    assert tree is None and diags[0].span.line == 2 and "missing ':'" in diags[0].message
