"""Tables and variants: a variant replaces tables by name, so the same rules run on other numbers.

A variant may extend another: it plays the other's values, then its own on top.
"""

from __future__ import annotations

from typing import Any

from ruledsl.diagnostics import an, did_you_mean
from ruledsl.types import Type, assignable, type_of_data

from .base import LoaderBase, _freeze
from .yamlsource import PositionMap


class TablesMixin(LoaderBase):
    """Checks the variants' values against the tables they replace."""

    def apply_variant(self, data: dict[str, Any], pos: PositionMap, tables: dict[str, tuple[Type, Any]],
                      paths: dict[str, tuple[str, ...]]) -> None:
        """A variant replaces tables by name: the same rules run on other numbers or switches.

        `paths` says where each table's value is written; a table the variant replaces is then
        written in the variant.
        """
        options = data.get("options") or {}
        for name, option in options.items():
            for key, value in option["values"].items():
                where = pos.nearest(("options", name, "values", key))
                self.whole_numbers(value, ("options", name, "values", key), pos)
                if key not in tables:
                    self.diags.error(where, "unknown-name", f"variant '{name}' sets '{key}', which is not a table",
                                     did_you_mean(key, list(tables)))
                elif not _same_shape(tables[key][0], type_of_data(value)):
                    self.diags.error(where, "type", f"variant '{name}' sets '{key}' to {an(type_of_data(value))}, "
                                     f"but the table is {an(tables[key][0])}")
        bases = self.variant_bases(options, pos)
        if self.variant is None:
            return
        if self.variant not in options:
            hint = did_you_mean(self.variant, list(options))
            self.diags.error(pos.nearest(("options",)), "unknown-variant",
                             f"this game has no variant '{self.variant}'"
                             + (f" (variants: {', '.join(options)})" if options else " (it has none)"), hint)
            return
        # The variant's values come last: they win over those of the variants it extends.
        for name in reversed(bases.get(self.variant, [self.variant])):
            for key, value in options[name]["values"].items():
                if key in tables:
                    tables[key] = (tables[key][0], _freeze(value))
                    paths[key] = ("options", name, "values", key)

    def variant_bases(self, options: dict[str, Any], pos: PositionMap) -> dict[str, list[str]]:
        """For each variant, itself then the variants it extends, nearest first.

        `extends: other` plays the other variant's values, then the variant's own on top. A
        variant extending one that does not exist, or itself through others, is an error.
        """
        chains: dict[str, list[str]] = {}
        order = {name: i for i, name in enumerate(options)}
        for name, option in options.items():
            chain = [name]
            base = option.get("extends")
            while base is not None:
                where = pos.nearest(("options", chain[-1], "extends"))
                if base not in options:
                    self.diags.error(where, "unknown-name", f"variant '{chain[-1]}' extends '{base}', which is not "
                                     "a variant of this game", did_you_mean(base, [o for o in options if o != name]))
                    break
                if base in chain:
                    # A circle is reported once, at the variant of the circle written first.
                    if base == name and all(order[name] <= order[other] for other in chain):
                        self.diags.error(pos.nearest(("options", name, "extends")), "recursion",
                                         f"variant '{name}' extends itself"
                                         + (f" (through {', '.join(chain[1:])})" if len(chain) > 1 else ""),
                                         "a variant builds on another that does not build on it")
                    break
                chain.append(base)
                base = options[base].get("extends")
            chains[name] = chain
        return chains


def _same_shape(a: Type, b: Type) -> bool:
    return assignable(a, b) or assignable(b, a)
