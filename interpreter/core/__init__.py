"""The engine: a loaded game, its state, decisions, the one view of hidden information, journals."""
