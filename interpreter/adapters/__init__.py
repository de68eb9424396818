"""Research interfaces (the optional extra `cityrules[rl]`): any game folder as a PettingZoo or OpenSpiel game.

Both see the game only through `interpreter.core.view.view`, the seat's own view: observations,
information states and masks never hold what the seat may not see.
"""
