"""Code generation: takes checked syntax trees and gives Python source, type-checking as it goes
(the typing rules of expressions are `check/exprtypes.py`'s, asked for each node).

Expressions (`exprgen`, each built-in's code in `builtin_code`), names in scope (`scope`), statements
that never wait (`statements`), assignments (`assignment`), values kept from statements (`kept`),
statements that wait for a player (`waiting`), formulas (`formulas`), the agent path's direct
functions (`direct`), and the assembly of every function into a `Program` (`codegen`). Each
compiler part is a mixin of `Compiler`.
"""
