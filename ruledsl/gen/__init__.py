"""Code generation: takes syntax trees checked by the type-checking walk (`check/typewalk.py`) and the
types it recorded, and gives Python source. It runs only on rules without errors, asks no typing
rule and reports nothing.

Expressions (`exprgen`, each built-in's code in `builtin_code`), statements
that never wait (`statements`), assignments (`assignment`), values kept from statements (`kept`),
statements that wait for a player (`waiting`), formulas (`formulas`), the agent path's direct
functions (`direct`), and the assembly of every function into a `Program` (`codegen`). Each
compiler part is a mixin of `Compiler`.
"""
