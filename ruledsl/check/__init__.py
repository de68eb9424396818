"""Checks: take syntax trees and the game's `World` and give diagnostics (and facts later stages use).

The type-checking walk of every phase and formula (`typewalk`, each statement's checks in
`stmtwalk`, expressions in `exprwalk`), which asks the typing rules of expressions (`exprtypes`, and
each built-in's in `builtin_types`) for each node and records the types it finds for the code
generation of `gen/` to read (`typerecord`), the names in scope at each point (`scope`, which
the code generation and the work budget use too), checked names (`namecheck`, with the
name classes of `nameterms`), the notes saying where a value's type comes from (`provenance`), which
phases run which and which are never reached (`callgraph`), choices whose options can visibly be
empty (`emptiness`), and the events the rules log (`events`).
"""
