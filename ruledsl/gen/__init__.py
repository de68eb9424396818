"""Code generation: takes checked syntax trees and gives Python source, type-checking statements as it
goes (each expression is checked first by the walk of `check/exprwalk.py`, whose recorded types its
code is written from).

Expressions (`exprgen`, each built-in's code in `builtin_code`), names in scope (`scope`), statements
that never wait (`statements`), assignments (`assignment`), values kept from statements (`kept`),
statements that wait for a player (`waiting`), formulas (`formulas`), the agent path's direct
functions (`direct`), and the assembly of every function into a `Program` (`codegen`). Each
compiler part is a mixin of `Compiler`.
"""
