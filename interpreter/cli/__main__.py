"""`python -m interpreter.cli` runs the `cityrules` command."""

from . import entry

entry()
