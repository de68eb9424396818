"""Screen declarations: the formulas game.yaml names for `cityrules play` (notes, colours, final
breakdown, how items and fields are written), checked against the compiled rules."""

from __future__ import annotations

from typing import Any

from ruledsl.compiler import Program
from ruledsl.diagnostics import did_you_mean
from ruledsl.types import Type

from ..core.game import FieldSpec, ScreenSpec
from .base import LoaderBase
from .yamlsource import PositionMap


def screen_formula_names(data: dict[str, Any]) -> tuple[str, ...]:
    """Every formula game.yaml names for screens, so that none is reported as unused."""
    screen = data.get("screen") or {}
    names = list(screen.get("notes") or [])
    names += [screen[key] for key in ("colour", "breakdown", "projection", "about") if key in screen]
    names += [spec["text"] for spec in (data.get("components") or {}).values()
              if isinstance(spec, dict) and "text" in spec]
    for part in (data.get("state") or {}).values():
        for spec in (part or {}).values():
            if isinstance(spec, dict) and "text" in spec:
                names.append(spec["text"])
    return tuple(str(n) for n in names)


def _is_text(t: Type) -> bool:
    return t.kind in ("str", "any")


class ScreenMixin(LoaderBase):
    """Checks each formula named for screens: it exists and takes and gives what its place needs."""

    def screen(self, data: dict[str, Any], pos: PositionMap, program: Program,
               fields: dict[str, tuple[FieldSpec, ...]], kinds: set[str]) -> ScreenSpec:
        """The game's ScreenSpec; wrong names or signatures are diagnostics at their key."""
        screen = data.get("screen") or {}
        notes = []
        for i, name in enumerate(screen.get("notes") or []):
            if self._formula(program, name, ("screen", "notes", i), pos, "a note",
                             lambda ps, r: len(ps) == 0 or [p.kind for p in ps] == ["seat"],
                             "of no parameter or of the seat looking, giving a text, like: formula note(you: seat) = ..."):
                notes.append(name)
        colour = screen.get("colour", "")
        if colour and not self._formula(program, colour, ("screen", "colour"), pos, "colour",
                                        lambda ps, r: [p.kind for p in ps] == ["node"] and r.kind in ("str", "seat", "any"),
                                        "of one node giving a colour name or a seat, like: formula colour(n: node) = ...",
                                        text=False):
            colour = ""
        breakdown = screen.get("breakdown", "")
        if breakdown and not self._formula(program, breakdown, ("screen", "breakdown"), pos, "breakdown",
                                           lambda ps, r: [p.kind for p in ps] == ["seat"] and _is_parts(r),
                                           "of one seat giving a list of (text, points), like: "
                                           "formula parts(s: seat) = [(\"coins\", s.coins)]", text=False):
            breakdown = ""
        projection = screen.get("projection", "")
        if projection and not self._formula(program, projection, ("screen", "projection"), pos, "projection",
                                            lambda ps, r: [p.kind for p in ps] == ["seat"] and _is_parts(r),
                                            "of one seat giving a list of (text, points), like: "
                                            "formula if_it_ended_now(s: seat) = [(\"coins\", s.coins)]", text=False):
            projection = ""
        follow = self._follow(screen.get("follow") or [], pos, fields.get("seat", ()))
        about = screen.get("about", "")
        if about and not self._formula(program, about, ("screen", "about"), pos, "about",
                                       lambda ps, r: [p.kind for p in ps] == ["str"],
                                       "of one text (the name typed) giving a text, like: formula about(name: str) = ..."):
            about = ""
        item_text = {}
        for kind, spec in (data.get("components") or {}).items():
            name = spec.get("text") if isinstance(spec, dict) else None
            if name and kind in kinds and self._formula(
                    program, name, ("components", kind, "text"), pos, f"{kind} text",
                    lambda ps, r, kind=kind: [p.kind for p in ps] == [kind],
                    f"of one {kind} giving a text, like: formula {kind}_text(x: {kind}) = x.id"):
                item_text[kind] = name
        for part, specs in fields.items():
            for f in specs:
                if not f.text:
                    continue
                if part not in ("seat", "global"):
                    self.diags.error(pos.nearest(("state", part, f.name, "text")), "schema",
                                     f"'text' writes a seat or global field: {part} fields are shown "
                                     + ("by the board's display formulas" if part == "node" else "as their item is"),
                                     "see 'display' for nodes and a component kind's 'text' for items")
                    continue
                want = ["seat"] if part == "seat" else []
                example = "(s: seat)" if part == "seat" else "()"
                self._formula(program, f.text, ("state", part, f.name, "text"), pos, f"{f.name} text",
                              lambda ps, r, want=want: [p.kind for p in ps] == want,
                              f"of {'one seat' if want else 'no parameter'} giving a text, like: "
                              f"formula {f.name}_text{example} = ...")
        return ScreenSpec(tuple(notes), colour, breakdown, str(screen.get("legend", "")), item_text,
                          projection, follow, about, screen.get("grid") is True)

    def _follow(self, names: list[Any], pos: PositionMap, seat_fields: tuple[FieldSpec, ...]) -> tuple[str, ...]:
        """The seat fields `score` and `explain` follow: each a whole number everybody may see."""
        by_name = {f.name: f for f in seat_fields}
        kept = []
        for i, name in enumerate(names):
            where = pos.nearest(("screen", "follow", i))
            f = by_name.get(str(name))
            if f is None:
                self.diags.error(where, "unknown-name", f"follow: '{name}' is not a seat field",
                                 did_you_mean(str(name), list(by_name)))
            elif f.type_text != "int" or f.visible != "all":
                self.diags.error(where, "type", f"follow: the seat field '{name}' must be an int everybody sees "
                                 f"(it is {f.type_text}, visible: {f.visible}): score and explain show it for "
                                 "every seat")
            else:
                kept.append(f.name)
        return tuple(kept)

    def _formula(self, program: Program, name: str, path: tuple[Any, ...], pos: PositionMap, what: str,
                 fits: Any, shape: str, text: bool = True) -> bool:
        # The formulas' types, not their code: checking a game never generates its code.
        found = program.formula_types.get(name)
        where = pos.nearest(path)
        if found is None:
            self.diags.error(where, "unknown-name", f"{what} '{name}' is not a formula",
                             did_you_mean(name, list(program.formula_types)))
            return False
        params, result = found
        if not fits(params, result) or (text and not _is_text(result)):
            self.diags.error(where, "type", f"{what} '{name}' must be a formula {shape}")
            return False
        return True


def _is_parts(t: Type) -> bool:
    """list[tuple[str, int]]: the parts of a score, each a text and a number of points."""
    if t.kind != "list" or not t.args:
        return False
    part = t.args[0]
    return part.kind == "tuple" and len(part.args) == 2 and part.args[0].kind == "str" and part.args[1].kind == "int"
