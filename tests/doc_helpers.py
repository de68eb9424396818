"""Reading the pages of docs/ whose examples the tests run (tutorial.md, scenarios.md)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^```(\w*)\s*$")
COMMENT = re.compile(r"^<!--\s*(?P<body>.*?)\s*-->\s*$")
EDIT = re.compile(r'^edit:\s*(?P<path>[^:\s]+):\s*(?P<old>".*")\s*=>\s*(?P<new>".*")$')


@dataclass(frozen=True)
class Item:
    """A fenced block with the one-line HTML comment just above it, or such a comment alone."""

    line: int            # of the fence, or of the comment when it stands alone
    note: str            # the comment's body ("" for none)
    lang: str | None     # None for a comment that stands alone
    text: str


def doc_items(page: Path) -> list[Item]:
    """The one-line comments and fenced blocks of a page, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Item] = []
    note, note_line = "", 0
    i = 0
    while i < len(lines):
        comment = COMMENT.match(lines[i])
        fence = FENCE.match(lines[i])
        if comment:
            if note:
                found.append(Item(note_line, note, None, ""))
            note, note_line = comment["body"], i + 1
        elif fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            found.append(Item(i + 1, note if note_line == i else "", fence.group(1),
                              "\n".join(lines[i + 1:end]) + "\n"))
            if note and note_line != i:
                found.insert(-1, Item(note_line, note, None, ""))
            note = ""
            i = end
        elif note and lines[i].strip():
            found.append(Item(note_line, note, None, ""))
            note = ""
        i += 1
    if note:
        found.append(Item(note_line, note, None, ""))
    return found


def apply_step(folder: Path, item: Item, where: str) -> bool:
    """Carry out a page's step that writes a file below `folder`: `file: PATH` (the block is the
    whole file), `append: PATH` (added at its end) or a lone `edit: PATH: "OLD" => "NEW"` (OLD, found
    once, becomes NEW). False for any other item (quoted text, commands), which it leaves alone."""
    if item.lang is None:
        m = EDIT.match(item.note)
        assert m is not None, f"{where}: an annotation without a block must be an edit: {item.note!r}"
        path = folder / m["path"]
        old, new = json.loads(m["old"]), json.loads(m["new"])
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{where}: {old!r} is in {m['path']} {text.count(old)} times"
        path.write_text(text.replace(old, new), encoding="utf-8")
        return True
    kind, _, arg = item.note.partition(":")
    arg = arg.strip()
    if kind == "file":
        path = folder / arg
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(item.text, encoding="utf-8")
    elif kind == "append":
        with (folder / arg).open("a", encoding="utf-8") as handle:
            handle.write(item.text)
    else:
        return False
    return True
