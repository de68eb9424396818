"""The work budget: takes the syntax trees being compiled and gives the work charges in the code.

What each piece of rules costs (`cost`), the work of expressions counted as their code is generated
(`exprcost`), and where the work of statements is charged: per function or loop body, or at run
time (`charge`). Past the budget between two decisions, a game stops with a rule error.
"""
