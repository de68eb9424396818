"""Optimisation: takes syntax trees or generated code and gives code that does the same, faster.

Analyses of the trees (`folding`: values known when compiling; `bounds`: numbers that cannot run
away; `mutation`: loops that need not copy their list; `purity`: formulas worth remembering;
`fresh_results`: formulas that always return a new list) and rewrites of the generated code
(`hoist`: costly unchanging parts computed once; `lift`: comprehensions made loops; `kept_locals`:
hoisted values in plain locals; `global_reads`: unchanged global fields read once).
"""
