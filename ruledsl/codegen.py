"""Generated Python: the lines of each function, copies of stored values, and assembly into a Program."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import ast as A
from . import runtime_support as R
from .compiler_base import CompilerBase
from .diagnostics import Span
from .program import MODULE_NAME, PhaseCode, Program
from .types import ANY, Type


class _Function:
    """Lines of one generated function (or of the blocks of a resumable phase)."""

    def __init__(self, name: str, args: str, resumable: bool = False):
        self.name = name
        self.args = args
        self.resumable = resumable
        self.blocks: list[list[tuple[int, str, Span | None]]] = [[]]
        self.cur = 0
        self.depth = 1

    def emit(self, text: str, span: Span | None) -> None:
        self.blocks[self.cur].append((self.depth, text, span))

    def new_block(self) -> int:
        self.blocks.append([])
        return len(self.blocks) - 1

    def switch(self, block: int) -> None:
        self.cur = block
        self.depth = 1


@dataclass
class _Loop:
    native: bool
    end: int = -1


_FRESH = (A.ListLit, A.ListComp, A.MapLit, A.MapComp)


class AssemblyMixin(CompilerBase):
    """Turns the generated lines into functions, once, in a namespace with safe built-ins only."""

    def _assemble(self) -> Program:
        lines: list[str] = []
        spans: list[Span | None] = []
        block_names: dict[str, list[str]] = {}
        for fn in self.functions:
            if fn.resumable:
                names = []
                for i, block in enumerate(fn.blocks):
                    name = f"{fn.name}_b{i}"
                    names.append(name)
                    lines.append(f"def {name}(c, L):")
                    spans.append(None)
                    body = block or [(1, "return -1", None)]
                    if not body or not body[-1][1].startswith("return"):
                        body = body + [(1, "return -1", None)]
                    lines.append("    " + _prologue(body))
                    spans.append(None)
                    for depth, text, span in body:
                        lines.append("    " * depth + text)
                        spans.append(span)
                block_names[fn.name] = names
            else:
                lines.append(f"def {fn.name}({fn.args}):")
                spans.append(None)
                lines.append("    " + _prologue(fn.blocks[0]))
                spans.append(None)
                for depth, text, span in fn.blocks[0]:
                    lines.append("    " * depth + text)
                    spans.append(span)
        source = "\n".join(lines) + "\n"
        namespace: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS}
        namespace.update(_HELPERS)
        namespace.update(self.exprs.consts)
        namespace["_adj"] = self.world.adjacency
        namespace["_nid"] = self.world.node_ids
        namespace["_nids"] = tuple(str(n) for n in self.world.node_ids)
        code = compile(source, MODULE_NAME, "exec")
        exec(code, namespace)  # noqa: S102 - generated from the checked tree, see module docstring
        phases: dict[str, PhaseCode] = {}
        for name, phase in self.phases.items():
            fname = self.phase_fn[name]
            params = [p.name for p in phase.params]
            if name in self.resumable:
                phases[name] = PhaseCode(name, params, True,
                                         blocks=[namespace[b] for b in block_names[fname]])
            else:
                phases[name] = PhaseCode(name, params, False, function=namespace[fname])
        prompts = [namespace[spec.prompt_function] for spec in self.chooses]
        labels = [namespace[spec.label_function] if spec.label_function else None for spec in self.chooses]
        formulas = {name: (namespace[fn], params, ret) for name, (params, ret, fn) in self.formula_done.items()}
        return Program(phases, self.chooses, self.loop_spans, source, spans, prompts, formulas=formulas, labels=labels)


# Values that are never changed in place: sharing them is safe (tuples cannot be changed).
_FLAT = ("int", "str", "bool", "seat", "node", "none", "tuple")


def _fresh(e: A.Expr, t: Type) -> bool:
    """A new container that shares nothing: a literal or comprehension of plain values.

    `[grid[0], grid[1]]` is new, but its elements are grid's own lists: it must still be copied.
    """
    if isinstance(e, A.ListLit) and not e.items or isinstance(e, A.MapLit) and not e.pairs:
        return True
    if not isinstance(e, _FRESH):
        return False
    elem = t.args[0] if t.kind == "list" else t.args[1] if t.kind == "map" else ANY
    return elem.kind in _FLAT


def copy_code(code: str, t: Type) -> str:
    """Python that copies a value about to be stored, so no two places share a list or map.

    The static type says how deep the copy must go: a list of plain values needs one level.
    """
    if t.kind == "list" and t.args[0].kind in _FLAT:
        return f"{code}[:]"
    if t.kind == "map" and t.args[1].kind in _FLAT:
        return f"dict({code})"
    if t.kind == "list" and t.args[0].kind == "list" and t.args[0].args[0].kind in _FLAT:
        return f"[_x[:] for _x in {code}]"
    if t.kind in ("list", "map", "any"):
        return f"_dc({code})"
    return code


def _has_none(t: Type) -> bool:
    """Does a type still have a part known only as none (so a later value may tell more)?"""
    return t.kind == "none" or any(_has_none(a) for a in t.args)


def _prologue(body: list[tuple[int, str, Span | None]]) -> str:
    """Bind only the state columns a function reads: most formulas need one or none."""
    text = "\n".join(line for _, line, _ in body)
    binds = [f"{v} = c.{v}" for v in ("S", "N", "V", "C") if f"{v}[" in text]
    return "; ".join(binds) if binds else "pass"


def _reversed(items: list[Any]) -> list[Any]:
    return items[::-1]


_SAFE_BUILTINS = {"len": len, "sum": sum, "any": any, "all": all, "abs": abs, "sorted": sorted,
                  "list": list, "str": str, "dict": dict, "True": True, "False": False, "None": None}
_HELPERS: dict[str, Any] = {
    "_dc": R.deep_copy, "_draw": R.draw, "_remove": R.remove, "_max": R.rmax, "_min": R.rmin,
    "_range": R.rrange, "_unique": R.unique, "_index": R.index_of, "_div": R.div, "_mod": R.mod,
    "_reversed": _reversed, "_follow": R.follow, "_unique_by": R.unique_by, "_pay": R.pay,
}
