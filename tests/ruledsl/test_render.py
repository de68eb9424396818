"""How a diagnostic is printed: what came from a file is escaped, long lines are cut around the place."""

from __future__ import annotations

from ruledsl.diagnostics import MAX_MESSAGE, MAX_SHOWN_LINE, Diagnostic, Span, render, render_all


def lines(diag: Diagnostic, source: str) -> list[str]:
    return render(diag, source).split("\n")


def caret_under(shown: str, caret: str) -> str:
    """The text of the quoted line above the carets."""
    start = caret.index("^")
    return shown[start:start + caret.count("^")]


def test_terminal_controls_in_the_quoted_line_are_escaped_and_the_caret_still_fits() -> None:
    source = 'phase main:\n    log "\x1b]0;owned\x07\x1b[2J" + zz\n'
    at = source.split("\n")[1].index("zz") + 1
    head, shown, caret = lines(Diagnostic(Span("x.rules", 2, at, 2, at + 1), "unknown-name", "no 'zz'"), source)
    assert "\x1b" not in shown and "\x07" not in shown and "\\x1b]0;owned\\x07" in shown
    assert caret_under(shown, caret) == "zz"


def test_a_message_and_a_file_name_are_escaped_too() -> None:
    d = Diagnostic(Span("g\x1b[2J/x.rules", 1, 1), "duplicate-key", "duplicate key '\x9b31m\u202e'", hint="\x07")
    out = render(d, None)
    assert all(c not in out for c in "\x1b\x9b\x07\u202e") and "\\x9b31m\\u202e" in out


def test_a_long_line_is_shown_around_the_place() -> None:
    line = "k" * 500_000 + ": 1" + " x" * 1000
    d = Diagnostic(Span("game.yaml", 1, 500_001, 1, 500_001), "yaml-syntax", "here")
    head, shown, caret = lines(d, line + "\n")
    assert len(shown) < MAX_SHOWN_LINE + 20 and shown.count("...") == 2
    assert caret_under(shown, caret) == ":"


def test_a_huge_message_is_cut() -> None:
    d = Diagnostic(Span("game.yaml", 1, 1), "duplicate-key", "duplicate key " + "k" * 1_000_000)
    assert len(render(d, None)) < MAX_MESSAGE + 100


def test_rules_count_lines_at_line_feeds_only_and_yaml_as_yaml_does() -> None:
    text = "a\u2028b\nsecond\n"
    rules = Diagnostic(Span("x.rules", 2, 1), "syntax", "m")
    yaml = Diagnostic(Span("game.yaml", 2, 1), "syntax", "m")
    assert render(rules, text).split("\n")[1].endswith("| second")
    assert render(yaml, text).split("\n")[1].endswith("| b")


def test_render_all_gives_what_render_gives() -> None:
    source = "one\ntwo\nthree\n"
    diags = [Diagnostic(Span("x.rules", n, 1), "syntax", f"m{n}") for n in (3, 1, 2)]
    assert list(render_all(diags, {"x.rules": source})) == [render(d, source) for d in diags]
