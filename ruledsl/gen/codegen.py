"""Generated Python: the lines of each function, copies of stored values, and assembly into a Program."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .. import runtime_support as R
from ..budget.charge import PhaseWork, fold_charge
from ..builtins import BUILTINS
from ..compiler_base import CompilerBase
from ..diagnostics import Span
from ..opt.global_reads import GlobalReads
from ..opt.kept_locals import local_kept
from ..opt.lift import Known, lift_comprehensions
from ..program import MODULE_NAME, PhaseCode, ProgramCode
from ..syntax import ast as A
from ..types import ANY, Type


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

    def _assemble(self) -> ProgramCode:
        block_names: dict[str, list[str]] = {}
        known = self._known()
        functions: list[tuple[str, list[tuple[int, str, Span | None]]]] = []  # (def line, body)
        for fn in self.functions:
            if fn.resumable:
                names = []
                for i, block in enumerate(fn.blocks):
                    name = f"{fn.name}_b{i}"
                    names.append(name)
                    body = local_kept(lift_comprehensions(block, known)) or [(1, "return -1", None)]
                    if not body or not body[-1][1].startswith("return"):
                        body = body + [(1, "return -1", None)]
                    functions.append((f"def {name}(c, L):", body))
                block_names[fn.name] = names
            else:
                functions.append((f"def {fn.name}({fn.args}):", local_kept(lift_comprehensions(fn.blocks[0], known))))
        global_reads = GlobalReads([[text for _, text, _ in body] for _, body in functions])
        global_names: dict[str, str] = {}
        lines: list[str] = []
        spans: list[Span | None] = []
        for i, (head, body) in enumerate(functions):
            body, binds = global_reads.bind(i, body, global_names)
            lines.append(head)
            lines.append("    " + _prologue(body, self.exprs.columns, binds))
            spans.extend([None, None])
            for depth, text, span in body:
                lines.append("    " * depth + text)
                spans.append(span)
        lines = _resolve_work(lines, PhaseWork(self.phase_regions, {self.start} | self.ability_phases, self.calls))
        source = "\n".join(lines) + "\n"
        namespace: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS}
        namespace.update(_HELPERS)
        namespace.update(self.exprs.consts)
        namespace["_adj"] = self.world.adjacency
        namespace["_nid"] = self.world.node_ids
        namespace["_nids"] = tuple(str(n) for n in self.world.node_ids)
        code = compile(source, MODULE_NAME, "exec")
        exec(code, namespace)  # generated from the checked tree, see the module docstring
        phases: dict[str, PhaseCode] = {}
        for name, phase in self.phases.items():
            fname = self.phase_fn[name]
            params = [p.name for p in phase.params]
            if name in self.resumable:
                phases[name] = PhaseCode(name, params, True, blocks=[namespace[b] for b in block_names[fname]],
                                         direct=namespace[fname + "_d"])
            else:
                phases[name] = PhaseCode(name, params, False, function=namespace[fname], direct=namespace[fname])
        prompts = [namespace[spec.prompt_function] for spec in self.chooses]
        option_functions = [namespace[spec.options_function] if spec.options_function else None
                            for spec in self.chooses]
        labels = [namespace[spec.label_function] if spec.label_function else None for spec in self.chooses]
        details = [namespace[spec.detail_function] if spec.detail_function else None for spec in self.chooses]
        formulas = {name: (namespace[fn], params, ret) for name, (params, ret, fn) in self.formula_done.items()}
        return ProgramCode(phases, self.chooses, self.loop_spans, source, spans, prompts, labels=labels,
                           details=details, formulas=formulas, option_functions=option_functions)

    def _known(self) -> Known:
        """The constants and the sizes of the state's columns, for lift.py."""
        sizes, numbers = {}, set()
        for ref, path in self.exprs.columns.items():
            names = path[3:-2].split("']['")  # N['field'] or C['kind']['field']
            if path.startswith("N["):
                sizes[ref], f = len(self.world.node_ids), self.world.node_fields[names[0]]
            elif path.startswith("C["):
                kind = self.world.components[names[0]]
                sizes[ref], f = len(kind.ids), kind.fields[names[1]]
            else:
                continue
            if f.type.kind == "int" and not f.type.nullable:
                numbers.add(ref)
        return Known(dict(self.exprs.consts), sizes, numbers)


# The kinds of values that may be changed in place: lists and maps (and values of unknown kind).
# Every other value is never changed in place, so sharing it is safe: numbers, texts, seats, nodes,
# items of a component kind, and tuples (which cannot be changed).
_CONTAINERS = ("list", "map", "any")


def flat(t: Type) -> bool:
    """Is a value of this type never changed in place?"""
    return t.kind not in _CONTAINERS


def _fresh(e: A.Expr, t: Type) -> bool:
    """A new container that shares nothing: a literal or comprehension of plain values.

    `[grid[0], grid[1]]` is new, but its elements are grid's own lists: it must still be copied.
    """
    if isinstance(e, A.ListLit) and not e.items or isinstance(e, A.MapLit) and not e.pairs:
        return True
    if isinstance(e, A.BinOp) and e.op == "+" and t.kind == "list":  # a new list, of shared elements
        return flat(t.args[0])
    if not isinstance(e, _FRESH):
        return False
    elem = t.args[0] if t.kind == "list" else t.args[1] if t.kind == "map" else ANY
    return flat(elem)


def copy_code(code: str, t: Type) -> str:
    """Python that copies a value about to be stored, so no two places share a list or map.

    The static type says how deep the copy must go: a list of plain values needs one level.
    """
    if t.kind == "list" and flat(t.args[0]):
        return f"{code}[:]"
    if t.kind == "map" and flat(t.args[1]):
        return f"dict({code})"
    if t.kind == "list" and t.args[0].kind == "list" and flat(t.args[0].args[0]):
        return f"[_x[:] for _x in {code}]"
    if t.kind in ("list", "map", "any"):
        return f"_dc({code})"
    return code


def _prologue(body: list[tuple[int, str, Span | None]], columns: dict[str, str], globals_: list[str]) -> str:
    """Bind only the state a function reads: the global fields, each column it uses as a local, and
    the global fields it reads through a local (`globals_`, global_reads.py)."""
    text = "\n".join(line for _, line, _ in body)
    binds = ["V = c.V"] if "V[" in text else []
    binds += [f"{ref} = c.{columns[ref]}" for ref in sorted(set(_COLUMN.findall(text)), key=lambda r: int(r[2:]))]
    binds += globals_
    return "; ".join(binds) if binds else "pass"


_COLUMN = re.compile(r"\b_f\d+\b")
_NOTHING = re.compile(r"^(\s*)(try: )?c\.steps -= 0$")


def _resolve_work(lines: list[str], work: "PhaseWork") -> list[str]:
    """Put the phases' work into the charges (budget.PhaseWork); a charge of nothing goes, with its
    check (each is replaced by `pass`, so that lines keep their numbers)."""
    out = [work.resolve(line) if "\x01" in line or "\x02" in line else line for line in lines]
    out = [fold_charge(line) if "c.steps -= " in line else line for line in out]
    for i, line in enumerate(out):
        found = _NOTHING.match(line)
        if found and i + 2 < len(out):
            indent = found.group(1)
            out[i] = indent + ("try: pass" if found.group(2) else "pass")
            check = i + 2 if found.group(2) else i + 1
            if out[check].strip().startswith("if c.steps < 0:"):
                out[check] = indent + "pass"
    return out


_SAFE_BUILTINS = {"len": len, "sum": sum, "any": any, "all": all, "abs": abs, "sorted": sorted,
                  "list": list, "str": str, "dict": dict, "True": True, "False": False, "None": None}
_HELPERS: dict[str, Any] = {
    "_Err": Exception,  # for the work budget's guarded charges (budget.charge_lines): rules cannot name it
    "_dc": R.deep_copy, "_draw": R.draw, "_remove": R.remove, "_div": R.div, "_mod": R.mod,
    "_U": R.UNSET, "_set": R.keep, "_cnt": R.count, "_cat": R.cat, "_tcat": R.text_cat, "_num": R.number,
    "_llen": R.list_length, "_pay": R.pay, "_hset": set,
    # What the built-ins of the rules call (their registry, ruledsl/builtins.py).
    **{name: fn for b in BUILTINS.values() for name, fn in b.runtime.items()},
}
