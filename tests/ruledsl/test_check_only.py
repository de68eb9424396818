"""Checking only (the language server's compile): validate's diagnostics, word for word, and a
Program that still runs the code a full compile makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.loader import check_game, games_root, shipped_games
from lang_helpers import parse_ok
from ruledsl.diagnostics import Span
from ruledsl.opt.purity import memoised, state_free
from ruledsl.types import INT, STR
from ruledsl.world import Field, World

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BROKEN = sorted(p for p in (EXAMPLES / "broken").iterdir() if (p / "game.yaml").is_file())


def _folders() -> list[Path]:
    return [games_root() / name for name in shipped_games()] + [EXAMPLES / "harbour"]


@pytest.mark.parametrize("folder", _folders() + BROKEN, ids=lambda p: p.name)
def test_checking_only_finds_what_compiling_finds(folder: Path) -> None:
    game, diags, sources = check_game(folder)
    checked, checked_diags, checked_sources = check_game(folder, check_only=True)
    assert checked_diags == diags
    assert checked_sources == sources
    assert (checked is None) == (game is None)


@pytest.mark.parametrize("folder", _folders(), ids=lambda p: p.name)
def test_a_program_only_checked_runs_the_code_a_compile_makes(folder: Path) -> None:
    game, _, _ = check_game(folder)
    checked, _, _ = check_game(folder, check_only=True)
    assert game is not None and checked is not None
    assert checked.program.source == game.program.source
    assert checked.program.formula_types == game.program.formula_types
    assert [c.var for c in checked.program.chooses] == [c.var for c in game.program.chooses]
    assert checked.program.option_names == game.program.option_names


def test_remembered_formulas_asked_among_a_few_are_the_same() -> None:
    fs = {f.name: f for f in parse_ok("""\
        formula shops() = [n for n in nodes if n.kind == "shop"]
        formula near(n: node) = [m for m in neighbours(n) if m.kind == "shop"]
        formula owned(n: node) = [m for m in nodes if m.owner == 0 and m != n]
        formula via(n: node) = len(near(n)) + len(owned(n))
        formula both(n: node) = [m for m in near(n) if m in shops()]
        formula loop(n: node) = [m for m in again(n)]
        formula again(n: node) = [m for m in loop(n)]
        """).formulas}
    span = Span("x.rules", 1, 1)
    world = World(seat_fields={}, global_fields={}, node_fields={"owner": Field("owner", INT, span)},
                  node_attrs={"kind": STR}, node_attr_values={"kind": ("road", "shop")}, node_ids=(1, 2),
                  adjacency=((1,), (0,)), tables={})
    every = memoised(fs, world)
    free = state_free(fs, world)
    for among in (["near"], ["via", "both"], ["both"], ["loop"], list(fs)):
        assert memoised(fs, world, among) == every & set(among)
        assert state_free(fs, world, among) & set(among) == free & set(among)
