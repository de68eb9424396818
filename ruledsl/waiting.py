"""Statements that may wait for a player: a resumable phase is split into blocks at each of them."""

from __future__ import annotations

from . import ast as A
from . import runtime_support as R
from .codegen import _Function, _Loop
from .compiler_base import CompilerBase
from .program import ChooseSpec
from .scope import Scope
from .types import SEAT, Type, assignable, list_of


class WaitingMixin(CompilerBase):
    """`choose`, and the runs, ifs and loops that contain one, as blocks the engine can pause between."""

    def _suspending(self, s: A.Stmt, scope: Scope, fn: _Function, loops: list[_Loop]) -> None:
        emit = fn.emit
        if isinstance(s, A.Choose):
            self._choose(s, scope, fn)
        elif isinstance(s, A.Keep):
            self._keep(s, scope, fn, waits=True)
        elif isinstance(s, A.RunAbility):
            call = self._run_ability(s, scope)
            after = fn.new_block()
            if call:
                emit(call, s.span)
            emit(f"return {after}", s.span)
            fn.switch(after)
        elif isinstance(s, A.Run):
            args = self._run_args(s, scope)
            phase = self.phases[s.phase]
            pairs = ", ".join(f"{p.name!r}: {a}" for p, a in zip(phase.params, args))
            after = fn.new_block()
            emit(f"c.call({s.phase!r}, {{{pairs}}})", s.span)
            emit(f"return {after}", s.span)
            fn.switch(after)
        elif isinstance(s, A.If):
            end = fn.new_block()
            for cond, body in s.branches:
                then = fn.new_block()
                emit(f"if {self.exprs.cond(cond, scope)}: return {then}", cond.span)
                nxt = fn.cur
                fn.switch(then)
                child = scope.child()
                self._stmts(body, child, fn, loops, "resumable")
                self._warn_unused(child)
                fn.emit(f"return {end}", None)
                fn.switch(nxt)
                fn.depth = 1
            if s.orelse:
                child = scope.child()
                self._stmts(s.orelse, child, fn, loops, "resumable")
                self._warn_unused(child)
            fn.emit(f"return {end}", None)
            fn.switch(end)
        elif isinstance(s, A.While):
            head, body_b, end = fn.new_block(), fn.new_block(), fn.new_block()
            emit(f"return {head}", s.span)
            fn.switch(head)
            self._tick(s.span, fn)
            fn.emit(f"if not {self.exprs.cond(s.cond, scope)}: return {end}", s.span)
            fn.emit(f"return {body_b}", s.span)
            fn.switch(body_b)
            child = scope.child()
            self._stmts(s.body, child, fn, loops + [_Loop(False, end)], "resumable")
            self._warn_unused(child)
            fn.emit(f"return {head}", None)
            fn.switch(end)
        elif isinstance(s, A.For):
            it, t = self._value(s.iter, scope)
            self.exprs.check(t, ("list",), s.iter.span, "what a for loop runs over")
            k = scope.fresh("")
            seq, idx = f"L['$s{k}']", f"L['$i{k}']"
            head, body_b, end = fn.new_block(), fn.new_block(), fn.new_block()
            emit(f"{seq} = {it}", s.span)
            emit(f"{idx} = 0", s.span)
            emit(f"return {head}", s.span)
            fn.switch(head)
            inner = scope.child()
            var = self._declare(s.var, t.elem, s.span, inner, "loop")
            inner.vars[s.var].used = True
            fn.emit(f"if {idx} >= len({seq}): return {end}", s.span)
            fn.emit(f"{var} = {seq}[{idx}]", s.span)
            fn.emit(f"{idx} += 1", s.span)
            fn.emit(f"return {body_b}", s.span)
            fn.switch(body_b)
            self._stmts(s.body, inner, fn, loops + [_Loop(False, end)], "resumable")
            self._warn_unused(inner)
            fn.emit(f"return {head}", None)
            fn.switch(end)
        else:
            self._simple(s, scope, fn, loops, "resumable")

    def _choose(self, s: A.Choose, scope: Scope, fn: _Function) -> None:
        spec_id = len(self.chooses)
        # Prompts are text for people: built only when someone looks at the decision, never
        # on a bot's hot path. The prompt function sees the same locals as the choice.
        prompt_fn = f"_Q{spec_id}"
        if s.each_var is None:
            by, bt = self.exprs.expr(s.by, scope)
            self.exprs.check(bt, ("seat",), s.by.span, "who chooses")
            opts, ot = self._value(s.options, scope)
            prompt = self.exprs.template(s.prompt, scope) if s.prompt else repr(f"Choose {s.var}")
            self.exprs.check(ot, ("list",), s.options.span, "the options of a choice")
            elem = ot.elem
            var_type = elem
            call = f"c.choose({spec_id}, L, {by}, {opts})"
            seat_param = "_seat"
            label_scope = scope
        else:
            seats, st = self.exprs.expr(s.by, scope)
            if not assignable(list_of(SEAT), st):
                self.diags.error(s.by.span, "type", f"'each' runs over a list of seats, not {st}",
                                 related=self.exprs.explain(s.by.span, st))
            inner = Scope(scope, scope.persistent, scope.counter)
            self.exprs.no_shadow(s.each_var, s.span, scope)
            sv = inner.declare(s.each_var, SEAT, "comp", s.span, comp=True)
            sv.used = True
            opts, ot = self._value(s.options, inner)
            self.exprs.check(ot, ("list",), s.options.span, "the options of a choice")
            prompt = self.exprs.template(s.prompt, inner) if s.prompt else repr(f"Choose {s.var}")
            elem = ot.elem
            var_type = list_of(elem.or_none())
            call = f"c.choose_each({spec_id}, L, {seats}, lambda {sv.code}: {opts})"
            seat_param = sv.code
            label_scope = inner
        prompt_function = _Function(prompt_fn, f"c, L, {seat_param}")
        prompt_function.emit(f"return {prompt}", s.prompt.span if s.prompt else s.span)
        self.functions.append(prompt_function)
        label_fn = self._label_function(s, spec_id, elem, label_scope, seat_param)
        nids = self.world.node_ids
        comps = self.world.ids_by_kind()
        self.chooses.append(ChooseSpec(s.var, R.make_formatter(elem, nids, comps),
                                       R.make_identifier(elem, nids, comps),
                                       s.secret, s.each_var is not None, s.span, prompt_fn, label_fn))
        self._declare(s.var, var_type, s.span, scope)
        after = fn.new_block()
        fn.emit(call, s.span)
        fn.emit(f"return {after}", s.span)
        fn.switch(after)

    def _label_function(self, s: A.Choose, spec_id: int, elem: Type, scope: Scope, seat_param: str) -> str:
        """The function giving one option's text from the choice's `label` template ("" without one).

        Inside the template the choice's variable names the option being labelled, as it will
        name the answer after the choice; like the prompt, it runs only when a person looks.
        """
        if s.label is None:
            return ""
        inner = Scope(scope, False, scope.counter)
        option = inner.declare(s.var, elem, "comp", s.span, comp=True)
        option.used = True
        text = self.exprs.template(s.label, inner)
        name = f"_O{spec_id}"
        function = _Function(name, f"c, L, {seat_param}, {option.code}")
        function.emit(f"return {text}", s.label.span)
        self.functions.append(function)
        return name
