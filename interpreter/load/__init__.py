"""Loading a game folder: safe YAML with positions, schemas, board, components, fields, rules."""
