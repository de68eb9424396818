"""`info NAME`: everything public about one thing of the game, found by its name or id: an item of
a component kind (a card, a tile), a board node, a table of the game's
data (or one entry of it), a seat, or a field.

Items and nodes show their fixed attributes (the data of their files: all public), the item's
`text` as screens write it, and the fields a seat may see of them. Where an item is (in whose hand,
how deep in the deck) is never said: the seat's screen shows what it may know of that.
"""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text

from ruledsl.diagnostics import did_you_mean
from ruledsl.printable import printable

from ..core.view import HIDDEN, masked_from_view
from .palette import DIM, HEADING
from .screen import Screens, backs_text, title_of, wrapped

MAX_MATCHES = 8


def info(screens: Screens, v: dict[str, Any], name: str, width: int = 80) -> list[Text]:
    """What `info NAME` prints for the seat whose view is `v`."""
    query = name.strip()
    if not query:
        return [Text("  info takes a name: a card, a lot, a table, a seat or a field, e.g. 'info "
                     + printable(_example(screens)) + "'.")]
    game = screens.game
    lowered = query.lower()
    found: list[list[Text]] = []
    about = _about(screens, v, query, width)
    if about:
        found.append(about)
    for kind, component in game.world.components.items():
        hits = _items(component, lowered)
        if hits:
            found.append(_item_info(screens, v, kind, hits))
    node = next((i for i, nid in enumerate(game.node_ids) if str(nid).lower() == lowered), None)
    if node is not None and not about:
        found.append(_node_info(screens, v, node))
    table, path = _table(game.world.tables, query)
    if table is not None and not about:
        what = "a table of the game's data" if "." not in path else "an entry of a table of the game's data"
        found.append([Text(f"{printable(path)} ({what}):", style=HEADING),
                      *[Text(printable(line)) for line in in_words(table, 4)]])
    seat = next((i for i, n in enumerate(v["names"]) if n.lower() == lowered), None)
    if seat is not None:
        found.append(_seat_info(screens, v, seat))
    for part, fields in (("global", game.global_fields), ("seat", game.seat_fields)):
        for f in fields:
            if lowered in (f.name, title_of(f).lower()):
                found.append(_field_info(screens, v, part, f))
    if not found:
        found = _entries(game.world.tables, lowered)
    if found:
        return [line for block in found for line in block]
    names = _all_names(screens, v)
    hint = did_you_mean(query, names)
    return [Text(f"  Nothing is called '{printable(query[:40])}': name a card, a lot, a table, a seat or a field"
                 + (f" ({printable(hint)})" if hint else "") + ".")]


def _about(screens: Screens, v: dict[str, Any], query: str, width: int) -> list[Text]:
    """The game's own words for the name (`screen: about`), run on what the seat may see; they stand
    for the node's or table's raw attributes, which the game has put in words."""
    name = screens.game.screen.about
    if not name:
        return []
    masked = masked_from_view(screens.engine, v)
    text = screens.formula(masked, name, query)
    if not text and query.lower() != query:  # ('Mint' for a game that writes 'mint')
        text = screens.formula(masked, name, query.lower())
    if not text:
        return []
    lines = [Text(f"{printable(query)}:", style=HEADING)]
    for part in str(text).split("\n"):
        lines += wrapped(Text("    " + printable(part)), width, 4)
    return lines


def _items(component: Any, lowered: str) -> list[int]:
    """Items whose id or name is what was typed; else those whose name starts with it."""
    ids = [str(x).lower() for x in component.ids]
    names = [str(x).lower() for x in component.attr_values.get("name", component.ids)]
    exact = [i for i in range(len(ids)) if lowered in (ids[i], names[i])]
    if exact:
        return exact
    return [i for i in range(len(ids)) if names[i].startswith(lowered) or ids[i].startswith(lowered)]


def _item_info(screens: Screens, v: dict[str, Any], kind: str, hits: list[int]) -> list[Text]:
    """Each different item among `hits` once, with the ids of its copies."""
    game = screens.game
    component = game.world.components[kind]
    masked = masked_from_view(screens.engine, v)
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i in hits:
        # (An attribute may be a list or a map: compared by its written form.)
        key = tuple(json.dumps(_thawed(component.attr_values[a][i]), sort_keys=True, default=str)
                    for a in sorted(component.attr_values) if a != "id")
        groups.setdefault(key, []).append(i)
    out: list[Text] = []
    for n, members in enumerate(groups.values()):
        if n == MAX_MATCHES:
            out.append(Text(f"  ... and {len(groups) - MAX_MATCHES} more: type more of the name", style=DIM))
            break
        first = members[0]
        ids = ", ".join(str(component.ids[i]) for i in members)
        copies = f"{len(members)} copies: " if len(members) > 1 else ""
        out.append(Text(f"{printable(screens.item_text(masked, kind, first))}  ({kind} {printable(copies + ids)})",
                        style=HEADING))
        for attr in component.attr_values:
            if attr in ("id", "name"):
                continue
            out += _attribute(attr, component.attr_values[attr][first])
        for f in game.component_fields.get(kind, ()):
            column = v["components"][kind][f.name]
            if column != HIDDEN and len(members) == 1:
                out.append(Text(f"    {title_of(f)}: {printable(screens.value_text(f.type_text, column[first], v['names']))}",
                                style=DIM))
    return out


def _node_info(screens: Screens, v: dict[str, Any], node: int) -> list[Text]:
    game = screens.game
    world = game.world
    out = [Text(f"{printable(str(game.node_ids[node]))} (a place on the board):", style=HEADING)]
    for attr, column in world.node_attr_values.items():
        if attr in ("id", "cells") or column[node] is None:
            continue  # (none: an attribute of other kinds of node)
        out += _attribute(attr, column[node])
    for f in game.node_fields:
        column = v["node"][f.name]
        if column != HIDDEN:
            out.append(Text(f"    {title_of(f)}: {printable(screens.value_text(f.type_text, column[node], v['names']))}"))
    near = [str(game.node_ids[n]) for n in world.adjacency[node]]
    if near:
        out.append(Text(f"    next to: {printable(', '.join(near))}", style=DIM))
    return out


def _seat_info(screens: Screens, v: dict[str, Any], seat: int) -> list[Text]:
    out = [Text(f"{printable(v['names'][seat])} (a seat):", style=HEADING)]
    for f in screens.game.seat_fields:
        value = v["seats"][f.name][seat]
        if value != HIDDEN:
            out.append(Text(f"    {title_of(f)}: {printable(screens.value_text(f.type_text, value, v['names']))}"
                            f"{backs_text(v, 'seat', f.name, seat)}"))
    return out


def _field_info(screens: Screens, v: dict[str, Any], part: str, f: Any) -> list[Text]:
    out = [Text(f"{printable(title_of(f))} (a {part} field, {printable(f.type_text)}):", style=HEADING)]
    values = [v["global"][f.name]] if part == "global" else v["seats"][f.name]
    for k, value in enumerate(values):
        who = "" if part == "global" else f"{printable(v['names'][k])}: "
        out.append(Text(f"    {who}{printable(screens.value_text(f.type_text, value, v['names']))}"
                        f"{backs_text(v, part, f.name, None if part == 'global' else k)}"))
    return out


def _table(tables: Any, query: str) -> tuple[Any, str]:
    """A table, or one entry of it written `table.key.key` (`prices.bare`), with its path as the
    game's files spell it."""
    parts = query.split(".")
    name = next((t for t in tables if t.lower() == parts[0].lower()), None)
    if name is None:
        return None, ""
    value = tables[name][1]
    path = [name]
    for key in parts[1:]:
        if hasattr(value, "items"):
            hit = next((k for k in value if str(k).lower() == key.lower()), _MISSING)
            if hit is _MISSING:
                return None, ""
            value = value[hit]
            path.append(str(hit))
        elif isinstance(value, (list, tuple)) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
            path.append(key)
        else:
            return None, ""
    return value, ".".join(path)


_MISSING = object()


def _entries(tables: Any, lowered: str) -> list[list[Text]]:
    """The entries named `lowered` in the game's tables (`price.small` for 'small'), for a name that
    is nothing else."""
    found: list[list[Text]] = []
    for name, (_, table) in tables.items():
        if not hasattr(table, "items"):
            continue
        for key, value in table.items():
            if str(key).lower() == lowered and len(found) < MAX_MATCHES:
                path = f"{name}.{key}"
                found.append([Text(f"{printable(path)} (an entry of the table {printable(name)}):", style=HEADING),
                              *[Text(printable(line)) for line in in_words(value, 4)]])
    return found


def _attribute(attr: str, value: Any) -> list[Text]:
    """An item's or a node's attribute as lines: `name: value`, a map's entries under it."""
    label = attr.replace("_", " ")
    if isinstance(value, str) and "\n" in value:  # a text with new lines written in the file
        first, *more = printable(value, newlines=True).split("\n")
        return [Text(f"    {label}: {first}"), *[Text("      " + line) for line in more]]
    if _flat(value):
        return [Text(f"    {label}: {printable(_plain(value))}")]
    return [Text(f"    {label}:"), *[Text(printable(line)) for line in in_words(value, 6)]]


def _plain(value: Any) -> str:
    """One value in words on one line: yes/no, none, a list's entries after commas, a flat map's
    entries as `key: value`."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value) if value else "(none)"
    if hasattr(value, "items"):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) if value else "(empty)"
    return str(value)


def _flat(value: Any) -> bool:
    """True for a value that reads well on one line: a plain value, or a short list of them."""
    if isinstance(value, (list, tuple)):
        return all(not isinstance(v, (list, tuple)) and not hasattr(v, "items") for v in value)
    return not hasattr(value, "items")


def in_words(value: Any, indent: int = 0) -> list[str]:
    """Table data as a person reads it, never as a raw dict: one value on one line; a map's
    entries one a line as `key: value`, deeper maps indented under their key; a list of lists with
    each entry's position (as the rules count it, from 0)."""
    pad = " " * indent
    if _flat(value):
        return [pad + _plain(value)]
    lines: list[str] = []
    entries = value.items() if hasattr(value, "items") else enumerate(value)
    for key, entry in entries:
        if _flat(entry) and (not hasattr(entry, "items") or not entry):
            lines.append(f"{pad}{key}: {_plain(entry)}")
        elif hasattr(entry, "items") and all(not isinstance(v, (list, tuple)) and not hasattr(v, "items")
                                             for v in entry.values()):
            lines.append(f"{pad}{key} — {_plain(entry)}")
        else:
            lines.append(f"{pad}{key}:")
            lines += in_words(entry, indent + 2)
    return lines


def _thawed(value: Any) -> Any:
    """Frozen table data (tuples, read-only maps) as plain JSON-ready values."""
    if isinstance(value, (list, tuple)):
        return [_thawed(v) for v in value]
    if hasattr(value, "items"):
        return {str(k): _thawed(v) for k, v in value.items()}
    return value


def _all_names(screens: Screens, v: dict[str, Any]) -> list[str]:
    game = screens.game
    names = [str(n) for n in game.node_ids] + list(game.world.tables) + list(v["names"])
    for component in game.world.components.values():
        names += [str(n) for n in component.attr_values.get("name", component.ids)]
    names += [f.name for f in game.global_fields + game.seat_fields]
    return names


def _example(screens: Screens) -> str:
    game = screens.game
    for component in game.world.components.values():
        return str(component.attr_values.get("name", component.ids)[0])
    if game.node_ids:
        return str(game.node_ids[0])
    return next(iter(game.world.tables), "NAME")
