"""Screens: what one seat sees of a game, built from that seat's view alone, as lines of rich Text.

Nothing here reads the terminal or the full state: a screen is made from `view(engine, state, seat)`
(and the view the seat had at its previous turn, to mark what changed), so a network client that
holds the game's files and receives views draws the very same screens. The game's own formulas
(board display, notes, colours, how items and fields are written) run on the masked state the view
stands for, so they cannot show what the seat may not see.

What a screen holds, top to bottom: a heading (title and round), the board with its legend, the
game's fields, the seats' table, the seat's own private lists, and the game's notes. Every field's
`show`, `title` and `text` keys (game.yaml) decide how, and whether, it appears on the main screen;
`everything=True` (the `board all` command) shows every field whatever its keys say.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from rich.cells import cell_len
from rich.text import Text

from ruledsl.printable import printable
from ruledsl.runtime_support import make_formatter
from ruledsl.types import Type, TypeSyntaxError, parse_type

from ..core.engine import Engine
from ..core.game import FieldSpec
from ..core.runtime import Runtime
from ..core.view import HIDDEN, masked_from_view, reveals_nothing
from . import board as B
from .menu import chars_within
from .palette import CHANGED, DIM, HEADING, NOTE, seat_colour, seat_tags

KEPT_BADGES = 16
"""How many views' board badges a builder keeps (each seat's last view is the next screen's `before`)."""

MAX_LISTED = 12
"""A list longer than this shows on the main screen as its length (`board all` lists it whole)."""


class ScreenError(Exception):
    """A formula that writes part of a screen failed (raised only by a strict builder)."""

    def __init__(self, what: str, error: BaseException):
        super().__init__(f"{what}: {error}")
        self.what = what
        self.error = error


def title_of(f: FieldSpec) -> str:
    """How a screen names a field: its `title`, else its name with spaces."""
    return f.title or f.name.replace("_", " ")


class Screens:
    """Builds the screens of one game. With `strict`, a failing formula raises ScreenError (for tools
    that check a game's screens); otherwise its part of the screen is left blank or drawn by default."""

    def __init__(self, engine: Engine, strict: bool = False):
        self.engine = engine
        self.game = engine.game
        self.strict = strict
        self.runtime = Runtime(engine)
        world = self.game.world
        self.ids = world.ids_by_kind()
        self.names_of = dict(self.ids)
        for kind, component in world.components.items():
            if "name" in component.attrs:
                self.names_of[kind] = tuple(str(n) for n in component.attr_values["name"])
        self.problems: list[str] = []
        self._badges: dict[int, tuple[dict[str, Any], list[B.Badge]]] = {}

    # ------------------------------------------------------------------ values and formulas
    @functools.lru_cache(maxsize=None)
    def type_of(self, type_text: str) -> Type | None:
        """A field's type, parsed once."""
        try:
            return parse_type(type_text, self.game.world.components)
        except TypeSyntaxError:
            return None

    @functools.lru_cache(maxsize=None)
    def _formatter(self, type_text: str) -> Callable[[Any, list[str]], str]:
        t = self.type_of(type_text)
        if t is None:
            return lambda v, names: str(v)
        return make_formatter(t, self.game.node_ids, self.names_of)

    def value_text(self, type_text: str, value: Any, names: list[str]) -> str:
        """A value for people, by its type: seats by name, items by name (or id), `yes`/`no`."""
        if value == HIDDEN:
            return "hidden"
        if isinstance(value, list) and value and reveals_nothing(value):
            return hidden_size_text(value)
        return self._formatter(type_text)(value, names)

    def formula(self, masked: dict[str, Any], name: str, *args: Any) -> Any:
        """Run one of the game's formulas on a masked state; None when it fails (not strict)."""
        try:
            self.runtime.bind(masked)
            return self.engine.program.formulas[name][0](self.runtime, *args)
        except Exception as err:  # a screen formula failing must never stop a game
            if self.strict:
                raise ScreenError(f"the {self.role(name)} '{name}'", err) from err
            if name not in self.problems:
                self.problems.append(name)
            return None

    def role(self, name: str) -> str:
        """What a formula does on screens, as game.yaml says (for messages): 'display label formula'."""
        game = self.game
        roles = [f"display {key} formula" for key, n in game.display.items() if n == name]
        roles += [f"screen {key} formula" for key, n in (("colour", game.screen.colour),
                                                         ("breakdown", game.screen.breakdown),
                                                         ("projection", game.screen.projection)) if n == name]
        roles += ["screen note formula"] if name in game.screen.notes else []
        roles += [f"text formula of {kind}" for kind, n in game.screen.item_text.items() if n == name]
        roles += ["text formula of the field " + f.name for f in self._fields() if f.text == name]
        return roles[0] if roles else "formula"

    def _fields(self) -> list[FieldSpec]:
        game = self.game
        return [*game.seat_fields, *game.global_fields, *game.node_fields,
                *(f for fields in game.component_fields.values() for f in fields)]

    def item_text(self, masked: dict[str, Any], kind: str, item: int) -> str:
        """How one item is written: the kind's `text` formula, else its name, else its id."""
        name = self.game.screen.item_text.get(kind)
        if name:
            text = self.formula(masked, name, item)
            if text is not None:
                return str(text)
        return str(self.names_of[kind][item])

    # ------------------------------------------------------------------ the whole screen
    def main(self, v: dict[str, Any], seat: int | None, before: dict[str, Any] | None = None,
             width: int = 80, everything: bool = False) -> list[Text]:
        """The seat's main screen: heading, board, fields, seats, its private lists, the game's notes."""
        masked = masked_from_view(self.engine, v)
        lines = [self.heading(v, width)]
        lines += self.board(v, masked, before, width)
        lines += self.fields(v, masked, before, width, everything)
        lines += self.seats(v, masked, seat, before, width, everything)
        if v["result"] is None:
            lines += self.notes(masked, seat, width)  # (notes speak of the game going on)
        return lines

    def heading(self, v: dict[str, Any], width: int) -> Text:
        """`── Title · round 3 ──` across the screen."""
        parts = [self.game.title]
        rounds = self.game.rounds_field
        if rounds and rounds in v["global"] and isinstance(v["global"][rounds], int):
            parts.append(f"{rounds.replace('_', ' ')} {v['global'][rounds]}")
        text = " " + " · ".join(printable(p) for p in parts) + " "
        rule = max(2, min(width, 100) - cell_len(text) - 2)
        line = Text("──" + text + "─" * rule)
        line.stylize(HEADING, 2, 2 + len(text))
        return line

    # ------------------------------------------------------------------ the board
    def badges(self, v: dict[str, Any], masked: dict[str, Any]) -> list[B.Badge]:
        """Each node's two lines and colour; seats appear as their one-character tags. The badges
        of the last few views are kept: a view is drawn again as the `before` of the next screen."""
        kept = self._badges.get(id(v))
        if kept is not None and kept[0] is v:
            return kept[1]
        found = self._make_badges(v, masked)
        if len(self._badges) >= KEPT_BADGES:
            del self._badges[next(iter(self._badges))]
        self._badges[id(v)] = (v, found)
        return found

    def _make_badges(self, v: dict[str, Any], masked: dict[str, Any]) -> list[B.Badge]:
        game = self.game
        if not game.node_ids:
            return []
        tags = seat_tags(v["names"])
        tagged = dict(masked)
        tagged["names"] = tags
        texts = self._display_texts(tagged) if game.display else None
        if texts is None:
            texts = self._default_texts(v, tags)
        colours = self._colours(masked) if game.screen.colour else [""] * len(game.node_ids)
        return [B.Badge(printable(a), printable(b), c) for (a, b), c in zip(texts, colours)]

    def _display_texts(self, tagged: dict[str, Any]) -> list[tuple[str, str]] | None:
        out = []
        for i in range(len(self.game.node_ids)):
            pair = []
            for key in ("label", "detail"):
                name = self.game.display.get(key)
                text = self.formula(tagged, name, i) if name else ""
                if text is None:
                    return None  # a failing display formula: the default boxes are drawn instead
                pair.append(str(text))
            out.append((pair[0], pair[1]))
        return out

    def _default_texts(self, v: dict[str, Any], tags: list[str]) -> list[tuple[str, str]]:
        """Without display formulas: the node's id with its first field, then its other fields."""
        out = []
        for i, nid in enumerate(self.game.node_ids):
            texts = []
            for f in self.game.node_fields:
                column = v["node"][f.name]
                if column == HIDDEN or f.show == "no":
                    continue
                texts.append(short_value(column[i], tags))
            first = texts[0] if texts else ""
            out.append((f"{nid} {first}".strip(), " ".join(t for t in texts[1:] if t)))
        return out

    def _colours(self, masked: dict[str, Any]) -> list[str]:
        name = self.game.screen.colour
        t = self.engine.program.formulas[name][2]
        out = []
        for i in range(len(self.game.node_ids)):
            value = self.formula(masked, name, i)
            if value is None or value == "":
                out.append("")
            elif t.kind == "seat":
                out.append(seat_colour(int(value)))
            else:
                out.append(_colour_name(str(value)))
        return out

    def board(self, v: dict[str, Any], masked: dict[str, Any], before: dict[str, Any] | None,
              width: int) -> list[Text]:
        """The board, what changed since `before` marked, and the legend under it."""
        if not self.game.node_ids:
            return []
        now = self.badges(v, masked)
        if before is not None:
            kept = self._badges.get(id(before))
            then = kept[1] if kept is not None and kept[0] is before else \
                self.badges(before, masked_from_view(self.engine, before))
            now = [B.Badge(b.top, b.bottom, b.style, (b.top, b.bottom) != (a.top, a.bottom))
                   for a, b in zip(then, now)]
        lines = B.draw(self.game.node_cells, now, width, self.game.screen.grid)
        lines += wrapped(self.legend(v, before is not None and any(b.changed for b in now)), width, 4)
        return lines

    def legend(self, v: dict[str, Any], changes: bool) -> Text:
        """Who each tag is (in the seat's colour), how to read the boxes, and the mark of a change."""
        line = Text("  ")
        for k, (tag, name) in enumerate(zip(seat_tags(v["names"]), v["names"])):
            if k:
                line.append("  ")
            line.append(f"{tag} {printable(name)}", style=seat_colour(k))
        if changes:
            line.append("   ")
            line.append("changed since your last turn", style=CHANGED)
        game = self.game
        if game.screen.legend:
            line.append("   " + printable(game.screen.legend), style=DIM)
        elif not game.display:
            shown = ", ".join(f.name for f in game.node_fields if v["node"][f.name] != HIDDEN and f.show != "no")
            if shown:
                line.append(f"   each box: id, then {shown}", style=DIM)
        return line

    # ------------------------------------------------------------------ the game's fields
    def fields(self, v: dict[str, Any], masked: dict[str, Any], before: dict[str, Any] | None, width: int,
               everything: bool = False) -> list[Text]:
        """The global fields: short ones side by side, lists below them, each as its keys say."""
        short: list[Text] = []
        blocks: list[Text] = []
        names = v["names"]
        for f in self.game.global_fields:
            if (f.show == "no" or f.name == self.game.rounds_field) and not everything:
                continue  # (the heading shows the round)
            value = v["global"][f.name]
            if value == HIDDEN:
                continue
            changed = before is not None and before["global"][f.name] != value
            title = title_of(f)
            if f.text:
                text = self.formula(masked, f.text)
                if text is None or str(text) == "":
                    continue
                blocks += wrapped(_entry(f"  {title}: ", printable(str(text)), changed), width)
            elif isinstance(value, list) and (f.show == "count" or (value and reveals_nothing(value))
                                              or (len(value) > MAX_LISTED and not everything)):
                short.append(_entry(f"{title}: ", count_text(value, f.show != "count") + backs_text(v, "global", f.name),
                                    changed))
            elif isinstance(value, list):
                blocks += self._list_block(f, value, masked, names, f"  {title}: ", changed, width)
            elif isinstance(value, dict):
                blocks += wrapped(_entry(f"  {title}: ", printable(self.value_text(f.type_text, value, names)),
                                          changed), width)
            else:
                short.append(_entry(f"{title}: ", printable(self.value_text(f.type_text, value, names)), changed))
        return _flow(short, width, "  ") + blocks

    def _list_block(self, f: FieldSpec, value: list[Any], masked: dict[str, Any], names: list[str], lead: str,
                    changed: bool, width: int) -> list[Text]:
        """A list: its items one per line when the kind writes them (`text`), else side by side."""
        t = self.type_of(f.type_text)
        kind = t.elem.kind if t is not None and t.kind == "list" else ""
        if not value:
            return [_entry(lead, "(none)", changed)]
        if kind in self.game.screen.item_text:
            out = [_entry(lead.rstrip(), "", changed)]
            for item in value:
                out += wrapped(Text("      " + printable(self.item_text(masked, kind, item))), width, 10)
            return out
        return wrapped(_entry(lead, printable(self.value_text(f.type_text, value, names)), changed), width)

    # ------------------------------------------------------------------ the seats
    def seats(self, v: dict[str, Any], masked: dict[str, Any], seat: int | None, before: dict[str, Any] | None,
              width: int, everything: bool = False) -> list[Text]:
        """A table of the seats' short fields (counts for lists), then each seat's longer entries,
        then the viewer's own private lists written item by item."""
        names = v["names"]
        columns, wide, own = self._seat_layout(v, seat, everything)
        out = self._seat_table(v, seat, before, width, columns)
        for i in range(len(names)):
            out += self._seat_entries(v, masked, i, before, width, wide, everything)
        for f in own:
            value = v["seats"][f.name][seat] if seat is not None else HIDDEN
            if not isinstance(value, list) or reveals_nothing(value) and value:
                continue
            changed = before is not None and before["seats"][f.name][seat] != value
            out += self._own_block(f, value, masked, names, changed, width)
        return out

    def _seat_layout(self, v: dict[str, Any], seat: int | None, everything: bool
                     ) -> tuple[list[FieldSpec], list[FieldSpec], list[FieldSpec]]:
        """Where each seat field goes: a column of the table, a longer entry under it, or (the
        viewer's own private lists) both a column of counts and a block of its items; fields shown
        to nobody here are left out."""
        columns: list[FieldSpec] = []
        wide: list[FieldSpec] = []
        own: list[FieldSpec] = []
        for f in self.game.seat_fields:
            if f.show == "no" and not everything:
                continue
            values = v["seats"][f.name]
            t = self.type_of(f.type_text)
            is_list = t is not None and t.kind == "list"
            if f.text:
                wide.append(f)
            elif is_list and f.show == "count":
                columns.append(f)
            elif is_list and f.visible == "owner" and seat is not None:
                columns.append(f)  # its length for everybody; its items for the viewer, below
                own.append(f)
            elif is_list and any(x != [] for x in values) and all(x == HIDDEN or reveals_nothing(x) for x in values):
                columns.append(f)
            elif is_list or (t is not None and t.kind == "map"):
                wide.append(f)
            elif all(x == HIDDEN for x in values):
                continue
            else:
                columns.append(f)
        return columns, wide, own

    def _seat_table(self, v: dict[str, Any], seat: int | None, before: dict[str, Any] | None, width: int,
                    columns: list[FieldSpec]) -> list[Text]:
        """The seats and their column fields: a table when it fits, else one line per seat."""
        names = v["names"]
        tags = seat_tags(names)
        header = ["", *[title_of(f) for f in columns]]
        rows = []
        for i, name in enumerate(names):
            cells = [f"{'>' if i == seat else ' '} {tags[i]} {printable(name)}"]
            for f in columns:
                value = v["seats"][f.name][i]
                cells.append(count_text(value, False) + backs_text(v, "seat", f.name, i)
                             if isinstance(value, list) else
                             "?" if value == HIDDEN else printable(self.value_text(f.type_text, value, names)))
            rows.append(cells)
        widths = [max(cell_len(r[k]) for r in [header, *rows]) for k in range(len(header))]
        out: list[Text] = []
        if sum(widths) + 2 * len(widths) + 1 <= width:
            out.append(Text(" " + "  ".join(h.rjust(w) if k else h.ljust(w) for k, (h, w) in
                                            enumerate(zip(header, widths))).rstrip(), style=DIM))
            for i, cells in enumerate(rows):
                line = Text(" ")
                for k, (cell, w) in enumerate(zip(cells, widths)):
                    if k:
                        line.append("  ")
                    padded = cell.ljust(w) if k == 0 else cell.rjust(w)
                    col = columns[k - 1] if k else None
                    changed = col is not None and before is not None and \
                        before["seats"][col.name][i] != v["seats"][col.name][i]
                    line.append(padded, style=seat_colour(i) if k == 0 else (CHANGED if changed else ""))
                out.append(line)
        else:  # too wide for a table: one line per seat, each value named
            for i, cells in enumerate(rows):
                line = Text(" ")
                line.append(cells[0], style=seat_colour(i))
                for f, cell in zip(columns, cells[1:]):
                    line.append(f"  {title_of(f)} {cell}")
                out += wrapped(line, width)
        return out

    def _seat_entries(self, v: dict[str, Any], masked: dict[str, Any], i: int, before: dict[str, Any] | None,
                      width: int, wide: list[FieldSpec], everything: bool) -> list[Text]:
        """Seat `i`'s longer entries (lists, maps, fields written by a formula), under the table."""
        names = v["names"]
        entries: list[Text] = []
        for f in wide:
            value = v["seats"][f.name][i]
            if value == HIDDEN:
                continue
            changed = before is not None and before["seats"][f.name][i] != value
            if f.text:
                text = self.formula(masked, f.text, i)
                if text is None or str(text) == "":
                    continue
                entries.append(_entry(f"{title_of(f)}: ", printable(str(text)), changed))
            elif value:
                shown = count_text(value) if len(value) > MAX_LISTED and not everything else \
                    printable(self.value_text(f.type_text, value, names))
                entries.append(_entry(f"{title_of(f)}: ", shown, changed))
        out: list[Text] = []
        if entries:
            lead = Text(f"   {seat_tags(names)[i]} ", style=seat_colour(i))
            for k, entry in enumerate(entries):
                line = (lead.copy() if k == 0 else Text(" " * cell_len(lead.plain)))
                line.append_text(entry)
                out += wrapped(line, width, cell_len(lead.plain) + 2)
        return out

    def _own_block(self, f: FieldSpec, value: list[Any], masked: dict[str, Any], names: list[str], changed: bool,
                   width: int) -> list[Text]:
        """The viewer's private list: `Your hand (6):` then its items, or a nested list group by group."""
        lead = f"  Your {title_of(f)} ({len(value)}):"
        t = self.type_of(f.type_text)
        if t is not None and t.kind == "list" and t.elem.kind == "list":
            out = [_entry(lead, "", changed)]
            inner = t.elem.elem.kind
            for k, group in enumerate(value, 1):
                items = ", ".join(printable(self._item_name(inner, x, names)) for x in group)
                out += wrapped(Text(f"    {k}. {items}"), width, 7)
            return out
        return self._list_block(f, value, masked, names, lead + " ", changed, width) if value else \
            [_entry(lead, " (none)", changed)]

    def _item_name(self, kind: str, value: Any, names: list[str]) -> str:
        if kind in self.names_of and isinstance(value, int):
            return str(self.names_of[kind][value])
        return self.value_text(kind, value, names)

    # ------------------------------------------------------------------ notes
    def notes(self, masked: dict[str, Any], seat: int | None, width: int = 80) -> list[Text]:
        """The game's notes that have something to say now (`screen: notes` in game.yaml)."""
        out = []
        for name in self.game.screen.notes:
            params = self.engine.program.formulas[name][1]
            if params and seat is None:
                continue
            text = self.formula(masked, name, *([seat] if params else []))
            if text:
                out += wrapped(Text("  ! " + printable(str(text)), style=NOTE), width, 4)
        return out


def count_text(value: list[Any], say_hidden: bool = True) -> str:
    """A list by its length: `5` (`5 hidden` when its items are not shown and `say_hidden`), or
    for a list of lists, with each inner list's length: `3 (2, 1, 4)`."""
    if value and all(isinstance(v, list) for v in value):
        return f"{len(value)} ({', '.join(str(len(v)) for v in value)})"
    if value and reveals_nothing(value) and say_hidden:
        return hidden_size_text(value)
    return str(len(value))


def backs_text(v: dict[str, Any], part: str, name: str, seat: int | None = None) -> str:
    """` (A 4, B 2)`: how many items of a hidden list of a view (a global field, or a seat's entry of
    a seat field) show each back (the view's "backs"), or nothing when their kind declares no back
    or the list is seen."""
    counts = v.get("backs", {}).get(f"{part}.{name}")
    if counts is not None and seat is not None:
        counts = counts[seat]
    if not counts:
        return ""
    return f" ({', '.join(f'{printable(str(back))} {n}' for back, n in counts)})"


def hidden_size_text(shape: list[Any]) -> str:
    """A hidden list whose size is public: `5 hidden`, or per inner list `3 (2, 1, 4)`."""
    if shape and all(isinstance(v, list) for v in shape):
        return f"{len(shape)} ({', '.join(str(len(v)) for v in shape)})"
    return f"{len(shape)} hidden"


def short_value(value: Any, tags: list[str]) -> str:
    """A field's value in a board cell: a few characters, seats by their tags, hidden as nothing."""
    if value is None or value is False or value == HIDDEN:
        return ""
    if value is True:
        return "*"
    if isinstance(value, str):
        return value[:3]
    if isinstance(value, list):
        return "".join(tags[v] if isinstance(v, int) and 0 <= v < len(tags) else "?" for v in value)
    return str(value)


def _colour_name(text: str) -> str:
    """A colour the game names, if rich knows it; otherwise none (a typo must not stop the game)."""
    from rich.color import Color, ColorParseError
    try:
        Color.parse(text)
    except ColorParseError:
        return ""
    return text


def _entry(lead: str, text: str, changed: bool) -> Text:
    line = Text(lead)
    line.append(text, style=CHANGED if changed and text else "")
    return line


def _flow(parts: list[Text], width: int, lead: str) -> list[Text]:
    """Short entries side by side, as many on a line as fit."""
    lines: list[Text] = []
    line = Text(lead)
    for part in parts:
        if cell_len(line.plain) > len(lead) and cell_len(line.plain) + 3 + cell_len(part.plain) > width:
            lines.append(line)
            line = Text(lead)
        if cell_len(line.plain) > len(lead):
            line.append("   ")
        line.append_text(part)
    if cell_len(line.plain) > len(lead):
        lines.append(line)
    return lines


def wrapped(line: Text, width: int, indent: int = 6) -> list[Text]:
    """A long line cut at spaces to fit `width`, the next lines indented."""
    if cell_len(line.plain) <= width or width < indent + 10:
        return [line]
    out: list[Text] = []
    rest = line
    while cell_len(rest.plain) > width:
        plain = rest.plain
        fit = max(chars_within(plain, width), 1)
        cut = plain.rfind(" ", indent + 1, fit)
        if cut <= indent:
            cut = fit
        head, tail = rest.divide([cut])
        head.rstrip()
        out.append(head)
        rest = Text(" " * indent) + _lstrip(tail)
    out.append(rest)
    return out


def fitted(lines: list[Text], width: int) -> list[Text]:
    """Lines as a screen shows them: each too long for `width` cut at spaces, the rest indented under it."""
    return [part for line in lines for part in wrapped(line, width, len(line.plain) - len(line.plain.lstrip()) + 4)]


def _lstrip(text: Text) -> Text:
    plain = text.plain
    n = len(plain) - len(plain.lstrip(" "))
    return text[n:] if n else text
