"""Text from files and players reaches the terminal escaped, never as instructions to it."""

from __future__ import annotations

import pytest

from ruledsl.printable import display_width, is_printable, printable


@pytest.mark.parametrize("raw,shown", [
    ("abc\x1b[2Jdef", "abc\\x1b[2Jdef"),                    # clear screen
    ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),             # window title, then BEL
    ("line\rover", "line\\x0dover"),                        # a lone CR overwrites the line
    ("a\u2028b", "a\\u2028b"),                              # line separator
    ("\u202eevil", "\\u202eevil"),                          # right-to-left override
    ("\x9b2J", "\\x9b2J"),                                  # C1 control sequence introducer
    ("bad\ud800", "bad\\ud800"),                            # lone surrogate
    ("Chloé ², 東京", "Chloé ², 東京"),                     # ordinary text is left alone
])
def test_controls_are_escaped_and_text_is_kept(raw: str, shown: str) -> None:
    assert printable(raw) == shown
    assert is_printable(shown) and is_printable(raw) == (raw == shown)


def test_newlines_are_escaped_unless_kept() -> None:
    assert printable("a\nb\tc") == "a\\x0ab c"
    assert printable("a\nb\tc\x1b", newlines=True) == "a\nb\tc\\x1b"


def test_width_counts_wide_and_combining_characters() -> None:
    assert display_width("abc") == 3 and display_width("東京") == 4 and display_width("e\u0301") == 1
