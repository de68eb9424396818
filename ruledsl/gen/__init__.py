"""Code generation: takes checked syntax trees and gives Python source, type-checking as it goes.

Expressions (`exprgen`), names in scope (`scope`), statements that never wait (`statements`),
assignments (`assignment`), values kept from statements (`kept`), statements that wait for a player
(`waiting`), formulas (`formulas`), the agent path's direct functions (`direct`), and the assembly
of every function into a `Program` (`codegen`). Each compiler part is a mixin of `Compiler`.
"""
