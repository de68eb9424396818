"""The language server's checker re-checks only what changed, and its names know every part of a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.base import DataMemo, LoaderBase
from interpreter.load.loader import check_game, games_root, shipped_games
from interpreter.lsp.project import GameProject, Report, game_folder
from interpreter.lsp.symbols import Symbols, word_at
from ruledsl.diagnostics import Diagnostic
from workbench_helpers import game_copy

HARBOUR = Path(__file__).resolve().parents[2] / "examples" / "harbour"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    return game_copy(tmp_path, games_root() / "downtown", keep_tests=True)


def test_only_what_changed_is_checked_again(folder: Path) -> None:
    project = GameProject(folder)
    first = project.check({})
    assert first.game_checked and first.scenarios_checked == 2 and first.game is not None
    again = project.check({})
    assert not again.game_checked and again.scenarios_checked == 0
    scenario = folder / "tests" / "votes.yaml"
    edited = project.check({scenario: scenario.read_text() + "\n# a comment\n"})
    assert not edited.game_checked and edited.scenarios_checked == 1
    rules = folder / "round.rules"
    changed = project.check({rules: rules.read_text() + "\n# a comment\n"})
    assert changed.game_checked and changed.scenarios_checked == 2   # the game changed: scenarios again


def test_a_file_changed_on_disk_is_noticed(folder: Path) -> None:
    project = GameProject(folder)
    project.check({})
    rules = folder / "payout.rules"
    rules.write_text(rules.read_text().replace("formula complete(", "formula completed("))
    report = project.check({})
    assert report.game_checked and report.game is None
    assert any(d.code == "unknown-name" for ds in report.diagnostics.values() for d in ds)


def test_a_scenario_file_linked_out_of_the_folder_is_refused_unread(folder: Path) -> None:
    # As validate does (files.py): the link's target is never read, even when the editor has it open.
    outside = folder.parent / "secret.yaml"
    outside.write_text("scenarios: []\n# a line no game may quote\n")
    link = folder / "tests" / "linked.yaml"
    link.symlink_to(outside)
    project = GameProject(folder)
    for texts in ({}, {link: outside.read_text()}):
        report = project.check(texts)
        [refused] = report.diagnostics[link]
        assert refused.code == "file-outside" and refused.span.file.endswith("linked.yaml")
        assert not any("no game may quote" in text for text in report.sources.values())


def test_game_folder_of_each_kind_of_file(folder: Path) -> None:
    assert game_folder(folder / "round.rules") == folder.resolve()
    assert game_folder(folder / "tests" / "votes.yaml") == folder.resolve()
    assert game_folder(folder.parent / "elsewhere.rules") is None


@pytest.mark.parametrize("name", [*shipped_games(), "harbour"])
def test_every_phase_and_formula_of_a_game_is_found_where_it_is_written(name: str) -> None:
    source = HARBOUR if name == "harbour" else games_root() / name
    report = GameProject(source).check({})
    assert report.game is not None, report.diagnostics
    symbols = Symbols(source.resolve(), report.sources, report.game)
    phases = set(report.game.program.phases)
    found = {s.name for group in symbols.by_name.values() for s in group if s.kind == "phase"}
    assert {p for p in phases if p.isidentifier()} <= found
    for group in symbols.by_name.values():
        for s in group:
            if s.span is None:
                continue
            text = report.sources[s.span.file].splitlines()[s.span.line - 1]
            assert s.name in text, (s, text)
    for name_, (_, params, result) in report.game.program.formulas.items():
        formula = [s for s in symbols.by_name.get(name_, []) if s.kind == "formula"]
        if formula:
            assert formula[0].detail.endswith(f"-> {result}")


def test_words_and_locals(folder: Path) -> None:
    report = GameProject(folder).check({})
    symbols = Symbols(folder.resolve(), report.sources, report.game)
    shown = next(s for s in report.sources if s.endswith("payout.rules"))
    text = report.sources[shown]
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if "s.markers += mine" in line) + 1
    cursor = word_at(text, shown, n, lines[n - 1].index("mine") + 2)
    assert cursor is not None and cursor.word == "mine" and not cursor.after_dot
    meant = symbols.lookup(cursor, shown, n)
    assert [s.kind for s in meant] == ["local"] and meant[0].span is not None
    assert lines[meant[0].span.line - 1].strip().startswith("let mine")
    member = word_at(text, shown, n, lines[n - 1].index("markers") + 1)
    assert member is not None and member.after_dot
    kinds = {s.kind for s in symbols.lookup(member, shown, n)}
    assert kinds == {"seat field", "node field"}
    assert word_at(text, shown, 10_000, 1) is None


def _found(report: Report) -> list[Diagnostic]:
    """A report's diagnostics in validate's order (by file, then place: files come out grouped)."""
    return [d for diags in report.diagnostics.values() for d in diags]


def test_an_edit_in_one_file_changes_what_another_file_shows(tmp_path: Path) -> None:
    # The game's data is kept between checks (DataMemo): every step must still be validate's.
    london = game_copy(tmp_path, games_root() / "london")
    cards, game, rules = london / "cards.yaml", london / "game.yaml", london / "activate.rules"
    renamed = cards.read_text().replace("activation_cost:", "activation_price:")
    assert renamed != cards.read_text()
    typed = rules.read_text().replace("run swap(you)", "run swa(you)")
    steps: list[dict[Path, str]] = [
        {},
        {rules: typed},                                                  # the rules only: the data is kept
        {cards: renamed},                                                # a component file's attribute
        {cards: renamed, rules: typed},
        {cards: cards.read_text()},                                      # as on disk again
        {game: game.read_text().replace("loan_amount:", "loan_amnt:")},  # a table the rules read
        {},
    ]
    project = GameProject(london)
    for i, texts in enumerate(steps):
        report = project.check(texts)
        _, validated, _ = check_game(london, texts=texts)
        assert _found(report) == validated, i
        in_rules = {path.name for path, diags in report.diagnostics.items() if diags and path.suffix == ".rules"}
        assert bool(in_rules) == (i in (1, 2, 3, 5)), (i, in_rules)
    cards.write_text(renamed)   # changed outside the editor: the file on disk is read again
    report = project.check({})
    assert _found(report) == check_game(london)[1] and report.game is None


def test_a_keystroke_in_a_rules_file_reads_no_data_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    london = game_copy(tmp_path, games_root() / "london")
    rules, cards = london / "activate.rules", london / "cards.yaml"
    kept: list[object] = []
    keep = DataMemo.keep

    def counted(memo: DataMemo, loader: LoaderBase, result: object) -> None:
        kept.append(result)
        keep(memo, loader, result)

    monkeypatch.setattr(DataMemo, "keep", counted)
    project = GameProject(london)
    project.check({})
    project.check({rules: rules.read_text() + "\n# a comment\n"})
    project.check({rules: rules.read_text().replace("run swap(you)", "run swa(you)")})
    assert len(kept) == 1
    project.check({cards: cards.read_text() + "\n# a comment\n"})
    assert len(kept) == 2


def test_a_keystroke_writes_no_parse_to_the_disk_cache(folder: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("CITYRULES_CACHE_DIR", str(cache))
    monkeypatch.delenv("CITYRULES_NO_CACHE", raising=False)
    project = GameProject(folder)
    project.check({})
    stored = sorted(cache.glob("ast-*/*.json"))
    rules = folder / "round.rules"
    for n in range(3):   # what the editor holds, new at each keystroke
        project.check({rules: rules.read_text() + f"\n# typed {n}\n"})
    assert sorted(cache.glob("ast-*/*.json")) == stored
