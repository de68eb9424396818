"""Parse `.rules` text into frozen syntax trees; syntax errors become plain-worded diagnostics."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter
from lark.visitors import Transformer_NonRecursive

from ..diagnostics import Diagnostic, Span
from . import ast as A, parse_cache, parser_tables


class _RulesIndenter(Indenter):
    NL_type = "_NEWLINE"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser of the rules language; its tables come from the user's cache when they can.

    Lark's own `cache=True` is not used: it unpickles a predictably named file in the shared
    temporary folder, which any local user can plant. `parser_tables` keeps the tables as plain
    JSON in the private cache folder instead.
    """
    grammar = resources.files("ruledsl.syntax").joinpath("rules.lark").read_text(encoding="utf-8")
    loaded = parser_tables.load(grammar, postlex=_RulesIndenter(), propagate_positions=True)
    if loaded is not None:
        return loaded
    built = Lark(grammar, parser="lalr", start=["start", "expr"], postlex=_RulesIndenter(),
                 propagate_positions=True, maybe_placeholders=True)
    parser_tables.store(grammar, built)
    return built


class SyntaxProblem(Exception):
    """A syntax error with its position, raised inside the transformer."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "{": "{", "}": "}"}

MAX_NUMBER_DIGITS = 100
"""The most digits a number written in the rules may have (Python refuses to read past 4,300)."""

MAX_ELIFS = 256
"""The most `elif` branches one `if` may have."""

MAX_NESTING = 32
"""How deeply blocks and expressions may nest, counted together (see `_check_nesting`)."""

# Nodes that only group their children: a statement's block, a call's arguments...
_GROUPING = frozenset({"start", "suite", "args", "pairs", "kwargs", "params", "elif_clause", "else_clause"})
# Chains such as `a + b + c` or `a and b and c`: one node in the parse tree, nested operations after it.
_CHAINS = frozenset({"or_", "and_", "arith"})


class _TooDeep(Exception):
    """The parse tree nests too deeply at (line, column) of the text that was parsed."""

    def __init__(self, line: int, column: int):
        super().__init__(f"nested too deeply at {line}:{column}")
        self.line = line
        self.column = column


def _check_nesting(tree: Tree[Token], limit: int) -> dict[int, int]:
    """Raise _TooDeep where the tree nests more than `limit` levels; else the depth of each text.

    The checker and the generated Python code recurse once per level, so a hostile file could
    exhaust the stack (or Python's own limits on nested brackets and indentation); a limit far
    above what rules need turns that into a diagnostic. The walk itself is iterative. The result
    maps the start of each text in quotes to its depth, so that the expressions inside its
    braces get only what is left of the limit.
    """
    texts: dict[int, int] = {}
    todo: list[tuple[Tree[Token], int, int, int]] = [(tree, 0, 1, 1)]
    while todo:
        node, depth, line, column = todo.pop()
        if not getattr(node.meta, "empty", True):
            line, column = node.meta.line, node.meta.column
        if node.data in _CHAINS:
            depth += max(0, sum(isinstance(c, Tree) for c in node.children) - 1)
        elif node.data not in _GROUPING:
            depth += 1
        if depth > limit:
            raise _TooDeep(line, column)
        for child in node.children:
            if isinstance(child, Tree):
                todo.append((child, depth, line, column))
            elif isinstance(child, Token) and child.type == "STRING" and child.start_pos is not None:
                texts[child.start_pos] = depth + 1
    return texts


def _too_deep(span: Span) -> Diagnostic:
    return Diagnostic(span, "too-deep", f"the rules nest more than {MAX_NESTING} levels deep here",
                      hint="name a part with 'let', or move it into a formula or a phase")


def _parse_checked(text: str, start: str, limit: int = MAX_NESTING) -> tuple[Tree[Token], dict[int, int]]:
    """Parse with Lark, then refuse trees nested deeper than `limit` (raises _TooDeep)."""
    tree = _parser().parse(text, start=start)
    return tree, _check_nesting(tree, limit)


class _Builder(Transformer_NonRecursive[Token, Any]):
    """Turns the Lark parse tree into `ruledsl.syntax.ast` nodes with spans in the designer's file.

    Non-recursive: a parse tree deeper than Python's stack must still reach `_check_nesting`'s
    diagnostic rather than a RecursionError.
    """

    def __init__(self, file: str, source: str, line0: int, col0: int, texts: dict[int, int] | None = None):
        super().__init__()
        self.file = file
        self.source = source
        self.texts = texts or {}  # depth of each text in quotes, from _check_nesting
        self.line0 = line0  # where the text starts in the file (for rules embedded in YAML)
        self.col0 = col0
        # For a block of statements embedded in YAML every line moves by the same amounts.
        self.block_shift: tuple[int, int] | None = None

    # -- positions
    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", False):
            return Span(self.file, self.line0, self.col0)
        return self._at(meta.line, meta.column, meta.end_line, meta.end_column - 1)

    def _tok(self, tok: Token) -> Span:
        return self._at(tok.line or 1, tok.column or 1, tok.end_line or tok.line or 1,
                        (tok.end_column or 2) - 1)

    def _at(self, line: int, col: int, end_line: int, end_col: int) -> Span:
        if self.block_shift is not None:
            dl, dc = self.block_shift
            return Span(self.file, line + dl, col + dc, end_line + dl, end_col + dc)
        # Only the first line of embedded text is shifted sideways.
        c = col + (self.col0 - 1 if line == 1 else 0)
        ec = end_col + (self.col0 - 1 if end_line == 1 else 0)
        return Span(self.file, line + self.line0 - 1, c, end_line + self.line0 - 1, ec)

    # -- top level
    @v_args(meta=True)
    def start(self, meta: Any, items: list[Any]) -> A.RulesFile:
        formulas = tuple(i for i in items if isinstance(i, A.Formula))
        phases = tuple(i for i in items if isinstance(i, A.Phase))
        return A.RulesFile(self._span(meta), formulas, phases)

    @v_args(meta=True)
    def formula_expr(self, meta: Any, c: list[Any]) -> A.Formula:
        return A.Formula(self._span(meta), str(c[0]), tuple(c[1] or ()), c[2], (), self._tok(c[0]))

    @v_args(meta=True)
    def formula_block(self, meta: Any, c: list[Any]) -> A.Formula:
        return A.Formula(self._span(meta), str(c[0]), tuple(c[1] or ()), None, c[2], self._tok(c[0]))

    @v_args(meta=True)
    def phase_def(self, meta: Any, c: list[Any]) -> A.Phase:
        return A.Phase(self._span(meta), str(c[0]), tuple(c[1] or ()), c[2], self._tok(c[0]))

    def params(self, c: list[A.Param]) -> tuple[A.Param, ...]:
        return tuple(c)

    @v_args(meta=True)
    def param(self, meta: Any, c: list[Any]) -> A.Param:
        return A.Param(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def type_expr(self, meta: Any, c: list[Any]) -> str:
        return "".join(self.source[meta.start_pos:meta.end_pos].split())

    def suite(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c)

    # -- statements
    @v_args(meta=True)
    def let_stmt(self, meta: Any, c: list[Any]) -> A.Let:
        return A.Let(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def assign_stmt(self, meta: Any, c: list[Any]) -> A.Assign:
        return A.Assign(self._span(meta), c[0], str(c[1]), c[2])

    @v_args(meta=True)
    def let_kept(self, meta: Any, c: list[Any]) -> A.Keep:
        return A.Keep(self._span(meta), A.Name(self._tok(c[0]), str(c[0])), "let", c[1])

    @v_args(meta=True)
    def assign_kept(self, meta: Any, c: list[Any]) -> A.Keep:
        return A.Keep(self._span(meta), c[0], str(c[1]), c[2])

    def target(self, c: list[Any]) -> Any:
        return c[0]

    @v_args(meta=True)
    def expr_stmt(self, meta: Any, c: list[Any]) -> A.ExprStmt:
        return A.ExprStmt(self._span(meta), c[0])

    @v_args(meta=True)
    def run_stmt(self, meta: Any, c: list[Any]) -> A.Run:
        return A.Run(self._span(meta), str(c[0]), tuple(c[1] or ()), self._tok(c[0]))

    @v_args(meta=True)
    def run_ability(self, meta: Any, c: list[Any]) -> A.RunAbility:
        return A.RunAbility(self._span(meta), str(c[0]), c[1], tuple(c[2] or ()), self._tok(c[0]))

    @v_args(meta=True)
    def return_stmt(self, meta: Any, c: list[Any]) -> A.Return:
        return A.Return(self._span(meta), c[0])

    @v_args(meta=True)
    def end_stmt(self, meta: Any, c: list[Any]) -> A.End:
        return A.End(self._span(meta), c[0])

    @v_args(meta=True)
    def log_stmt(self, meta: Any, c: list[Any]) -> A.Log:
        kind = str(c[0]) if c[0] is not None else "note"
        fields = tuple(c[1] or ())
        return A.Log(self._span(meta), kind, fields, self._template(c[2]), c[3])

    @v_args(meta=True)
    def pay_stmt(self, meta: Any, c: list[Any]) -> A.Pay:
        return A.Pay(self._span(meta), c[0], c[1], True)

    @v_args(meta=True)
    def pay_up_to(self, meta: Any, c: list[Any]) -> A.Pay:
        return A.Pay(self._span(meta), c[0], c[1], True, up_to=True)

    @v_args(meta=True)
    def gain_stmt(self, meta: Any, c: list[Any]) -> A.Pay:
        return A.Pay(self._span(meta), c[0], c[1], False)

    @v_args(meta=True)
    def shuffle_stmt(self, meta: Any, c: list[Any]) -> A.Shuffle:
        return A.Shuffle(self._span(meta), c[0])

    @v_args(meta=True)
    def draw_stmt(self, meta: Any, c: list[Any]) -> A.Draw:
        return A.Draw(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def add_stmt(self, meta: Any, c: list[Any]) -> A.Add:
        return A.Add(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def remove_stmt(self, meta: Any, c: list[Any]) -> A.Remove:
        return A.Remove(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def choose_stmt(self, meta: Any, c: list[Any]) -> A.Choose:
        var, options, chooser, secret, prompt, label, detail = c
        each_var, by = (chooser[1], chooser[2]) if chooser[0] == "each" else (None, chooser[1])
        return A.Choose(self._span(meta), str(var), options, by, each_var, secret is not None,
                        self._template(prompt) if prompt is not None else None,
                        self._template(label) if label is not None else None,
                        self._template(detail) if detail is not None else None)

    def chooser_one(self, c: list[Any]) -> tuple[str, Any]:
        return ("one", c[0])

    def chooser_each(self, c: list[Any]) -> tuple[str, str, Any]:
        return ("each", str(c[0]), c[1])

    @v_args(meta=True)
    def pass_stmt(self, meta: Any, c: list[Any]) -> A.Pass:
        return A.Pass(self._span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta: Any, c: list[Any]) -> A.Break:
        return A.Break(self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta: Any, c: list[Any]) -> A.If:
        branches = [(c[0], c[1])]
        orelse: tuple[Any, ...] = ()
        for item in c[2:]:
            if isinstance(item, _Elif):
                if len(branches) > MAX_ELIFS:
                    # Each elif nests one level deeper in the generated Python, whose compiler gives up
                    # at a few thousand.
                    raise SyntaxProblem(Diagnostic(item.cond.span, "too-deep",
                                                   f"this 'if' has more than {MAX_ELIFS} 'elif' branches",
                                                   hint="look the answer up in a table instead"))
                branches.append((item.cond, item.body))
            elif item is not None:
                orelse = item
        return A.If(self._span(meta), tuple(branches), orelse)

    def elif_clause(self, c: list[Any]) -> "_Elif":
        return _Elif(c[0], c[1])

    def else_clause(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c[0])

    @v_args(meta=True)
    def for_stmt(self, meta: Any, c: list[Any]) -> A.For:
        return A.For(self._span(meta), str(c[0]), c[1], c[2])

    @v_args(meta=True)
    def while_stmt(self, meta: Any, c: list[Any]) -> A.While:
        return A.While(self._span(meta), c[0], c[1])

    def kwargs(self, c: list[Any]) -> list[tuple[str, Any]]:
        return list(c)

    def kwarg(self, c: list[Any]) -> tuple[str, Any]:
        return (str(c[0]), c[1])

    def args(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c)

    # -- expressions
    @v_args(meta=True)
    def ifexp(self, meta: Any, c: list[Any]) -> A.IfExp:
        return A.IfExp(self._span(meta), c[1], c[0], c[2])

    def _fold(self, meta: Any, op: str, items: list[Any]) -> Any:
        result = items[0]
        for item in items[1:]:
            result = A.BinOp(self._span(meta), op, result, item)
        return result

    @v_args(meta=True)
    def or_(self, meta: Any, c: list[Any]) -> Any:
        return self._fold(meta, "or", c)

    @v_args(meta=True)
    def and_(self, meta: Any, c: list[Any]) -> Any:
        return self._fold(meta, "and", c)

    @v_args(meta=True)
    def not_(self, meta: Any, c: list[Any]) -> A.Not:
        return A.Not(self._span(meta), c[0])

    @v_args(meta=True)
    def compare(self, meta: Any, c: list[Any]) -> A.BinOp:
        return A.BinOp(self._span(meta), str(c[1]), c[0], c[2])

    @v_args(meta=True)
    def in_(self, meta: Any, c: list[Any]) -> A.BinOp:
        return A.BinOp(self._span(meta), "in", c[0], c[1])

    @v_args(meta=True)
    def not_in(self, meta: Any, c: list[Any]) -> A.BinOp:
        return A.BinOp(self._span(meta), "not in", c[0], c[1])

    @v_args(meta=True)
    def arith(self, meta: Any, c: list[Any]) -> Any:
        result = c[0]
        for i in range(1, len(c), 2):
            right = c[i + 1]
            span = Span(self.file, result.span.line, result.span.column, right.span.end_line,
                        right.span.end_column)
            result = A.BinOp(span, str(c[i]), result, right)
        return result

    @v_args(meta=True)
    def neg(self, meta: Any, c: list[Any]) -> A.Neg:
        return A.Neg(self._span(meta), c[0])

    @v_args(meta=True)
    def attr(self, meta: Any, c: list[Any]) -> A.Attr:
        return A.Attr(self._span(meta), c[0], str(c[1]), self._tok(c[1]))

    @v_args(meta=True)
    def index(self, meta: Any, c: list[Any]) -> A.Index:
        return A.Index(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def call(self, meta: Any, c: list[Any]) -> A.Call:
        return A.Call(self._span(meta), str(c[0]), tuple(c[1] or ()), self._tok(c[0]))

    @v_args(meta=True)
    def number(self, meta: Any, c: list[Any]) -> A.Num:
        digits = str(c[0])
        if len(digits) > MAX_NUMBER_DIGITS:
            raise SyntaxProblem(Diagnostic(self._span(meta), "syntax",
                                           f"this number has {len(digits):,} digits; numbers in the rules have "
                                           f"at most {MAX_NUMBER_DIGITS}"))
        return A.Num(self._span(meta), int(digits))

    @v_args(meta=True)
    def string(self, meta: Any, c: list[Any]) -> A.Template:
        return self._template(c[0])

    @v_args(meta=True)
    def true(self, meta: Any, c: list[Any]) -> A.Bool:
        return A.Bool(self._span(meta), True)

    @v_args(meta=True)
    def false(self, meta: Any, c: list[Any]) -> A.Bool:
        return A.Bool(self._span(meta), False)

    @v_args(meta=True)
    def none(self, meta: Any, c: list[Any]) -> A.NoneLit:
        return A.NoneLit(self._span(meta))

    @v_args(meta=True)
    def name(self, meta: Any, c: list[Any]) -> A.Name:
        return A.Name(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def list_lit(self, meta: Any, c: list[Any]) -> A.ListLit:
        return A.ListLit(self._span(meta), tuple(c[0] or ()))

    @v_args(meta=True)
    def tuple_lit(self, meta: Any, c: list[Any]) -> A.TupleLit:
        return A.TupleLit(self._span(meta), (c[0],) + tuple(c[1] or ()))

    @v_args(meta=True)
    def roll_stmt(self, meta: Any, c: list[Any]) -> A.Roll:
        return A.Roll(self._span(meta), str(c[1]), c[2], c[0])

    @v_args(meta=True)
    def list_comp(self, meta: Any, c: list[Any]) -> A.ListComp:
        return A.ListComp(self._span(meta), c[0], str(c[1]), c[2], c[3])

    @v_args(meta=True)
    def map_lit(self, meta: Any, c: list[Any]) -> A.MapLit:
        return A.MapLit(self._span(meta), tuple(c[0] or ()))

    @v_args(meta=True)
    def map_comp(self, meta: Any, c: list[Any]) -> A.MapComp:
        return A.MapComp(self._span(meta), c[0], c[1], str(c[2]), c[3], c[4])

    def pairs(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c)

    def pair(self, c: list[Any]) -> tuple[Any, Any]:
        return (c[0], c[1])

    # -- string templates
    def _template(self, tok: Token) -> A.Template:
        raw = str(tok)[1:-1]
        span = self._tok(tok)
        parts: list[str | A.Expr] = []
        text: list[str] = []
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                text.append(_ESCAPES.get(raw[i + 1], raw[i + 1]))
                i += 2
            elif ch == "{":
                close = raw.find("}", i)
                if close < 0:
                    raise SyntaxProblem(Diagnostic(span, "syntax", "a '{' in this text is never closed",
                                                   hint="write \\{ for a literal brace"))
                if text:
                    parts.append("".join(text))
                    text = []
                inner = raw[i + 1:close]
                line = (tok.line or 1)
                col = (tok.column or 1) + 1 + i + 1
                depth = self.texts.get(tok.start_pos or 0, 0)
                parts.append(self._embedded_expr(inner, line, col, span, MAX_NESTING - depth))
                i = close + 1
            else:
                text.append(ch)
                i += 1
        if text or not parts:
            parts.append("".join(text))
        return A.Template(span, tuple(parts))

    def _embedded_expr(self, text: str, line: int, col: int, span: Span, limit: int) -> A.Expr:
        where = self._at(line, col, line, col)
        abs_line, abs_col = where.line, where.column
        sub = _Builder(self.file, text, abs_line, abs_col)
        try:
            tree, sub.texts = _parse_checked(text, "expr", limit)
        except UnexpectedInput:
            raise SyntaxProblem(Diagnostic(Span(self.file, abs_line, abs_col, abs_line,
                                                abs_col + max(len(text), 1) - 1),
                                           "syntax", f"'{{{text}}}' in this text is not a valid expression"))
        except _TooDeep as err:
            raise SyntaxProblem(_too_deep(sub._at(err.line, err.column, err.line, err.column)))
        try:
            result: A.Expr = sub.transform(tree)
        except VisitError as err:  # a problem inside the braces is a problem of the text around them
            if isinstance(err.orig_exc, SyntaxProblem):
                raise err.orig_exc from None
            raise
        return result


class _Elif:
    def __init__(self, cond: Any, body: Any):
        self.cond = cond
        self.body = body


_TOKEN_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a text in double quotes",
    "_NEWLINE": "the end of the line", "_INDENT": "an indented block", "_DEDENT": "the end of the block",
    "$END": "the end of the file", "ASSIGN_OP": "'=', '+=' or '-='", "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "SECRET": "'secret'",
}


def _describe(term: str) -> str:
    if term in _TOKEN_WORDS:
        return _TOKEN_WORDS[term]
    try:
        pattern = _parser().get_terminal(term).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return term.lower()


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_describe(t) for t in expected if not t.startswith("__")})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _syntax_diagnostic(err: UnexpectedInput, file: str, source: str, line0: int, col0: int) -> Diagnostic:
    line = (getattr(err, "line", 1) or 1)
    col = (getattr(err, "column", 1) or 1)
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        lines = source.splitlines() or [""]
        line, col = len(lines), max(1, len(lines[-1]))
        msg = "the file ends in the middle of a statement"
        opened = _unclosed_bracket(source)
        if opened:
            msg = f"'{opened[0]}' opened at line {opened[1] + line0 - 1} is never closed"
            line, col = opened[1], opened[2]
        return Diagnostic(_shift(file, line, col, line0, col0), "syntax", msg)
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        ch = source[pos] if pos < len(source) else "?"
        hint = "write text between double quotes" if ch == "'" else None
        if ch == "/":
            hint = "whole-number division is written //"
        return Diagnostic(_shift(file, line, col, line0, col0), "syntax",
                          f"unexpected character '{ch}'", hint=hint)
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    expected = set(err.accepts or err.expected)  # accepts: what the parser would really take here
    if tok.type in ("NAME", "NUMBER", "STRING"):
        got = f"'{tok}'"
    elif tok.type in _TOKEN_WORDS:
        got = _describe(tok.type).removeprefix("the ").removeprefix("an ")
    else:
        got = f"'{tok}'"
    if "COLON" in expected and tok.type == "_NEWLINE":
        return Diagnostic(_shift(file, line, col, line0, col0), "syntax",
                          "missing ':' at the end of the line")
    if tok.type == "_INDENT":
        # The indent token borrows the position of the line break before it: point at the line itself.
        line, col = tok.end_line or line, tok.end_column or col
        return Diagnostic(_shift(file, line, col, line0, col0), "syntax",
                          "this line is indented more than the one before it",
                          hint="only the lines after a ':' are indented")
    if tok.type == "ASSIGN_OP" and str(tok) == "=" and "COMP_OP" in expected:
        return Diagnostic(_shift(file, line, col, line0, col0), "syntax",
                          "'=' stores a value and cannot stand inside an expression",
                          hint="to compare two values, write '=='")
    opened = _unclosed_bracket(source)
    if opened and (opened[1] < line or tok.type in ("_DEDENT", "$END")):
        return Diagnostic(_shift(file, opened[1], opened[2], line0, col0), "syntax",
                          f"'{opened[0]}' opened here is never closed")
    # Line break and indentation tokens hold the next line's indentation: point at the end of the line only.
    layout = tok.type in ("_NEWLINE", "_INDENT", "_DEDENT", "$END") or "\n" in str(tok)
    width = 1 if layout else len(str(tok))
    return Diagnostic(_shift(file, line, col, line0, col0, width), "syntax",
                      f"unexpected {got}; expected {_describe_expected(expected)}")


def _shift(file: str, line: int, col: int, line0: int, col0: int, width: int = 1) -> Span:
    c = col + (col0 - 1 if line == 1 else 0)
    return Span(file, line + line0 - 1, c, line + line0 - 1, c + max(width, 1) - 1)


def _unclosed_bracket(source: str) -> tuple[str, int, int] | None:
    """The first bracket never closed, ignoring text in quotes and comments."""
    stack: list[tuple[str, int, int]] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for ln, text in enumerate(source.splitlines(), 1):
        for col, ch in _code_chars(text):
            if ch in "([{":
                stack.append((ch, ln, col))
            elif ch in pairs and stack and stack[-1][0] == pairs[ch]:
                stack.pop()
    return stack[0] if stack else None


def _code_chars(text: str) -> list[tuple[int, str]]:
    """(column, character) of one line outside texts in quotes (with their \\" escapes) and comments."""
    result = []
    in_str = escaped = False
    for col, ch in enumerate(text, 1):
        if escaped:
            escaped = False
        elif in_str and ch == "\\":
            escaped = True
        elif ch == '"':
            in_str = not in_str
        elif in_str:
            continue
        elif ch == "#":
            break
        else:
            result.append((col, ch))
    return result


def parse_rules(source: str, file: str, line0: int = 1, col0: int = 1,
                kept: bool = True) -> tuple[A.RulesFile | None, list[Diagnostic]]:
    """Parse a rules file; returns the tree (None on error) and the syntax diagnostics.

    Trees are immutable, so the same text is parsed once (a game and its variants share files).
    `kept`: False for a text no file holds (an editor's unsaved buffer, new at every keystroke):
    its tree is not written to the user's disk cache, where nothing would read it again.
    """
    tree, diags = _parse_rules_cached(source, file, line0, col0, kept)
    return tree, list(diags)


@lru_cache(maxsize=128)
def _parse_rules_cached(source: str, file: str, line0: int, col0: int,
                        kept: bool) -> tuple[A.RulesFile | None, tuple[Diagnostic, ...]]:
    key = ("rules", source, file, line0, col0)
    cached = parse_cache.load(key)
    if isinstance(cached, tuple):
        return cached
    tree, diags = _parse_rules(source, file, line0, col0)
    if kept:
        parse_cache.store(key, (tree, tuple(diags)))
    return tree, tuple(diags)


def _parse_rules(source: str, file: str, line0: int, col0: int) -> tuple[A.RulesFile | None, list[Diagnostic]]:
    odd = _odd_line_break(source, file, line0, col0)
    if odd is not None:
        return None, [odd]
    tree, diags = _parse_text(source, file, line0, col0)
    if tree is None and line0 == 1 and col0 == 1:
        more = _errors_by_definition(source, file)
        if len(more) > 1:
            return None, more
    return tree, diags


# Characters that some programs take for a line break and others do not: the rules count lines by
# "\n" alone, so one of these would make a message quote another line than the one it means.
_ODD_BREAK = re.compile("\r(?!\n)|[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_BREAK_NAMES = {"\r": "a carriage return (CR) without a line feed", "\x0b": "a vertical tab",
                "\x0c": "a form feed", "\x85": "the character U+0085 (next line)",
                "\u2028": "the character U+2028 (line separator)",
                "\u2029": "the character U+2029 (paragraph separator)"}


def _odd_line_break(source: str, file: str, line0: int, col0: int) -> Diagnostic | None:
    """A diagnostic at the first character that is a line break to some readers but not to the parser."""
    found = _ODD_BREAK.search(source)
    if found is None:
        return None
    ch = found.group(0)
    before = source[:found.start()]
    line = before.count("\n") + 1
    column = found.start() - (before.rfind("\n") + 1) + 1
    what = _BREAK_NAMES.get(ch, f"the control character U+{ord(ch):04X}")
    hint = ("save the file with LF (or CRLF) line endings" if ch == "\r"
            else "end lines with a plain line break, and write no control characters in texts")
    return Diagnostic(_shift(file, line, column, line0, col0), "syntax", f"{what} is not allowed in rules", hint=hint)


_DEFINITION = re.compile(r"^(phase|formula)\b")


def _errors_by_definition(source: str, file: str) -> list[Diagnostic]:
    """Every top-level definition parsed on its own, so one mistake does not hide the next."""
    lines = source.splitlines()
    starts = [i for i, line in enumerate(lines) if _DEFINITION.match(line)]
    if len(starts) < 2 or starts[0] != next((i for i, text in enumerate(lines) if text.strip() and not
                                             text.lstrip().startswith("#")), starts[0]):
        return []
    found: list[Diagnostic] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunk = "\n".join(lines[start:end]) + "\n"
        _, diags = _parse_text(chunk, file, start + 1, 1)
        found.extend(diags)
    return found


def _parse_text(source: str, file: str, line0: int, col0: int) -> tuple[A.RulesFile | None, list[Diagnostic]]:
    text = source if source.endswith("\n") else source + "\n"
    try:
        tree, texts = _parse_checked(text, "start")
        result: A.RulesFile = _Builder(file, text, line0, col0, texts).transform(tree)
        return result, []
    except UnexpectedInput as err:
        return None, [_syntax_diagnostic(err, file, text, line0, col0)]
    except _TooDeep as err:
        return None, [_too_deep(_shift(file, err.line, err.column, line0, col0))]
    except DedentError:
        line = _dedent_line(text)
        return None, [Diagnostic(_shift(file, line, 1, line0, col0), "syntax",
                                 "this line's indentation matches no enclosing block",
                                 hint="indent with the same number of spaces as a line above")]
    except VisitError as err:
        if isinstance(err.orig_exc, SyntaxProblem):
            return None, [err.orig_exc.diagnostic]
        raise


def parse_expression(source: str, file: str, line0: int = 1, col0: int = 1) -> tuple[A.Expr | None, list[Diagnostic]]:
    """Parse one expression (used for expressions embedded in YAML)."""
    try:
        tree, texts = _parse_checked(source, "expr")
        result: A.Expr = _Builder(file, source, line0, col0, texts).transform(tree)
        return result, []
    except UnexpectedInput as err:
        return None, [_syntax_diagnostic(err, file, source, line0, col0)]
    except _TooDeep as err:
        return None, [_too_deep(_shift(file, err.line, err.column, line0, col0))]
    except VisitError as err:
        if isinstance(err.orig_exc, SyntaxProblem):
            return None, [err.orig_exc.diagnostic]
        raise


def _dedent_line(text: str) -> int:
    """The first line whose indentation does not return to an enclosing level."""
    levels = [0]
    depth = 0
    for ln, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if depth == 0:
            if indent > levels[-1]:
                levels.append(indent)
            elif indent < levels[-1]:
                while levels and indent < levels[-1]:
                    levels.pop()
                if not levels or levels[-1] != indent:
                    return ln
        code = [ch for _, ch in _code_chars(stripped)]
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
    return 1


def parse_block(text: str, file: str, first_line: int, column: int,
                kept: bool = True) -> tuple[A.Phase | None, list[Diagnostic]]:
    """Parse statements written inside a YAML value (an item's ability) as the body of a phase.

    `first_line` and `column` say where the text's first character stands in the YAML file; every
    line of a YAML block keeps the same indentation, so positions move by the same amounts.
    `kept`: as for `parse_rules` (False: not written to the disk cache).
    """
    key = ("block", text, file, first_line, column)
    cached = parse_cache.load(key)
    if isinstance(cached, tuple):
        return cached[0], list(cached[1])
    phase, diags = _parse_block(text, file, first_line, column)
    if kept:
        parse_cache.store(key, (phase, tuple(diags)))
    return phase, diags


def _parse_block(text: str, file: str, first_line: int, column: int) -> tuple[A.Phase | None, list[Diagnostic]]:
    odd = _odd_line_break(text, file, 1, 1)
    if odd is not None:
        # Every line of a YAML block keeps the block's indentation.
        s = odd.span
        return None, [Diagnostic(Span(file, s.line + first_line - 1, s.column + column - 1), odd.code, odd.message,
                                 hint=odd.hint)]
    lines = text.splitlines() or [""]
    source = "phase _ability:\n" + "\n".join("    " + line if line.strip() else "" for line in lines) + "\n"
    dl, dc = first_line - 2, column - 5
    try:
        tree, texts = _parse_checked(source, "start")
        builder = _Builder(file, source, 1, 1, texts)
        builder.block_shift = (dl, dc)
        result: A.RulesFile = builder.transform(tree)
        return result.phases[0], []
    except UnexpectedInput as err:
        d = _syntax_diagnostic(err, file, source, 1, 1)
    except _TooDeep as err:
        d = _too_deep(Span(file, err.line, err.column))
    except DedentError:
        d = Diagnostic(Span(file, _dedent_line(source), 1), "syntax",
                       "this line's indentation matches no enclosing block")
    except VisitError as err:
        if isinstance(err.orig_exc, SyntaxProblem):
            return None, [err.orig_exc.diagnostic]
        raise
    s = d.span
    moved = Span(file, max(first_line, s.line + dl), max(1, s.column + dc), max(first_line, s.end_line + dl),
                 max(1, s.end_column + dc))
    return None, [Diagnostic(moved, d.code, d.message, d.severity, d.hint)]
