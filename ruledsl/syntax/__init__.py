"""Syntax: takes the text of a `.rules` file (or a block of ability code) and gives frozen syntax trees.

The grammar (`rules.lark`) and the Lark parser that reads it (`parser`), the tree nodes with their
spans (`ast`), and two caches in the user's private folder: the parser's tables (`parser_tables`)
and trees already parsed (`parse_cache`). Syntax errors come out as plain-worded diagnostics.
"""
