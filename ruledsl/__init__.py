"""The rules language: `.rules` text in, a checked and compiled `Program` out.

The compiler runs in stages, one sub-package each:

- `syntax/`: text → frozen syntax trees (grammar, parser, the caches of parsed text and parser tables);
- `check/`: trees and the `World` → diagnostics (the type-checking walk of every phase and formula,
  names, unreachable phases, empty choices, logged events) and the types the code generation reads;
- `gen/`: checked trees and their recorded types → generated Python source (expressions, statements,
  waiting points, formulas, the agent path's direct functions, assembly);
- `opt/`: generated code or trees → faster code with the same meaning (folding, bounds, hoisting, ...);
- `budget/`: the work budget: what each piece of rules costs and where the cost is charged.

At the top stay the entry points and what every stage shares: `compiler` (`compile_rules`),
`compiler_base`, `program`, `types`, `world`, `diagnostics`, `printable`, `runtime_support` (what
generated code calls), and the private cache folder (`user_cache`, `plain_json`).
"""
