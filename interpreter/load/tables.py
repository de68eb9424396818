"""Tables and variants: a variant replaces tables by name, so the same rules run on other numbers."""

from __future__ import annotations

from typing import Any

from ruledsl.diagnostics import an, did_you_mean
from ruledsl.types import Type, assignable, type_of_data

from .base import LoaderBase, _freeze
from .yamlsource import PositionMap


class TablesMixin(LoaderBase):
    """Checks the variants' values against the tables they replace."""

    def apply_variant(self, data: dict[str, Any], pos: PositionMap, tables: dict[str, tuple[Type, Any]]) -> None:
        """A variant replaces tables by name: the same rules run on other numbers or switches."""
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
        if self.variant is None:
            return
        if self.variant not in options:
            hint = did_you_mean(self.variant, list(options))
            self.diags.error(pos.nearest(("options",)), "unknown-variant",
                             f"this game has no variant '{self.variant}'"
                             + (f" (variants: {', '.join(options)})" if options else " (it has none)"), hint)
            return
        for key, value in options[self.variant]["values"].items():
            if key in tables:
                tables[key] = (tables[key][0], _freeze(value))


def _same_shape(a: Type, b: Type) -> bool:
    return assignable(a, b) or assignable(b, a)
