"""The language server (`cityrules lsp`): validate's diagnostics as you type, definitions, hovers, completion.

`project` checks a game folder from the editor's texts and re-checks only what changed, `symbols`
knows what every name of a game means and where it is written, `server` speaks LSP over stdio
(pygls, the optional extra `cityrules[lsp]`).
"""
