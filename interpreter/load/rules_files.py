"""Rules files: read as UTF-8 text, bounded in size, parsed into syntax trees with positions."""

from __future__ import annotations

from ruledsl.diagnostics import Span
from ruledsl.syntax import ast as A
from ruledsl.syntax.parser import parse_rules

from .base import MAX_RULES_BYTES, LoaderBase
from .yamlsource import PositionMap


class RulesFilesMixin(LoaderBase):
    """Reads and parses the game's rules files."""

    def rules(self, names: list[str], pos: PositionMap) -> list[A.RulesFile]:
        files = []
        for i, name in enumerate(names):
            shown = self.shown(name)
            raw = self.read(name, MAX_RULES_BYTES, pos.nearest(("rules", i)), f"rules file '{name}' not found")
            if raw is None:
                continue
            if len(raw) > MAX_RULES_BYTES:
                self.diags.error(Span(shown, 1, 1), "file-too-large", f"'{name}' is over 1 MiB")
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                # Reported, not silently replaced: a text in the rules would show U+FFFD to players.
                self.sources[shown] = raw.decode("utf-8", errors="replace")
                before = raw[:err.start].decode("utf-8", errors="replace")
                line = before.count("\n") + 1
                self.diags.error(Span(shown, line, len(before) - before.rfind("\n")), "syntax",
                                 f"this file is not UTF-8 text: byte 0x{raw[err.start]:02x} cannot be read",
                                 "save the file as UTF-8")
                continue
            self.sources[shown] = text
            # An editor's buffer is new at every keystroke: its tree is not worth a file in the cache.
            tree, diags = parse_rules(text, shown, kept=self.given_text(name) is None)
            self.diags.extend(diags)
            if tree is not None:
                files.append(tree)
        self.rule_trees = files
        return files
