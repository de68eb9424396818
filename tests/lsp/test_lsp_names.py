"""An editor asking about names over a real LSP session: completion on unfinished lines and after `x.`,
ability code in component files, document symbols, references and rename across a game's files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.load.loader import check_game, games_root
from lsp_helpers import Client, find, uri
from workbench_helpers import game_copy


@pytest.fixture()
def downtown(tmp_path: Path) -> Path:
    return game_copy(tmp_path, games_root() / "downtown", keep_tests=True)


@pytest.fixture()
def london(tmp_path: Path) -> Path:
    return game_copy(tmp_path, games_root() / "london")


def _editor(folder: Path) -> Iterator[Client]:
    client = Client(folder.parent)
    yield client
    errors = client.close()
    assert "Traceback" not in errors, errors


@pytest.fixture()
def editor(downtown: Path) -> Iterator[Client]:
    yield from _editor(downtown)


@pytest.fixture()
def london_editor(london: Path) -> Iterator[Client]:
    yield from _editor(london)


def _labels(client: Client, u: str, line: int, character: int) -> list[str]:
    return [i["label"] for i in client.request("textDocument/completion", client.position(u, line, character))["items"]]


def _apply(folder: Path, edit: dict[str, Any]) -> None:
    """Write a rename's edits into the files (each file's edits from its end, so positions hold)."""
    for target, edits in edit["changes"].items():
        path = next(p for p in folder.rglob("*") if p.is_file() and uri(p) == target)
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                        reverse=True):
            start, end = e["range"]["start"], e["range"]["end"]
            assert start["line"] == end["line"]
            text = lines[start["line"]]
            lines[start["line"]] = text[:start["character"]] + e["newText"] + text[end["character"]:]
        path.write_text("".join(lines), encoding="utf-8")


def test_an_unfinished_run_line_is_offered_every_phase_of_the_file_being_edited(downtown: Path,
                                                                                 editor: Client) -> None:
    rules = downtown / "round.rules"
    u = editor.open(rules)
    editor.wait_diagnostics(u, 0)
    line, col, found = editor.type_at(rules, "run buying", 0, len("run buying"), "run ")
    assert found   # the file no longer parses
    labels = _labels(editor, u, line, col + 4)
    own = [ln.split()[1].split("(")[0].rstrip(":") for ln in rules.read_text().splitlines() if ln.startswith("phase ")]
    assert len(own) >= 3 and set(own) <= set(labels), set(own) - set(labels)
    assert "payout" in labels and "len" not in labels     # the other files' phases, and phases only


def test_an_unfinished_line_is_offered_the_locals_around_it(downtown: Path, editor: Client) -> None:
    rules = downtown / "round.rules"
    u = editor.open(rules)
    editor.wait_diagnostics(u, 0)
    line, col, found = editor.type_at(rules, "run vote(lot)", 0, len("run vote(lot)"), "let z = ")
    assert found   # the file no longer parses
    labels = _labels(editor, u, line, col + len("let z = "))
    assert {"lot", "len", "seats"} <= set(labels)          # the loop's variable, built-ins, constants
    assert labels.index("lot") < labels.index("len")       # locals first


def test_completion_after_a_dot_offers_the_members_of_its_type(london: Path, london_editor: Client) -> None:
    rules = london / "activate.rules"
    u = london_editor.open(rules)
    london_editor.wait_diagnostics(u, 0)
    line, col = find(rules, "if c.money > 0:")
    card = set(_labels(london_editor, u, line, col + 5))         # after `c.`, c: card
    assert {"money", "colour", "prestige_now", "face_up"} <= card
    assert not {"hand", "loans", "poverty_free"} & card           # seat fields
    line, col = find(rules, "you.prestige += c.prestige_now")
    seat = set(_labels(london_editor, u, line, col + 4))         # after `you.`, you: seat
    assert {"hand", "prestige", "money", "loans"} <= seat and not {"colour", "prestige_now"} & seat


def test_definitions_and_hovers_inside_ability_code_of_a_component_file(london: Path, london_editor: Client) -> None:
    cards = london / "cards.yaml"
    u = london_editor.open(cards)
    london_editor.wait_diagnostics(u, 0)
    line, col = find(cards, "run show_tops(you)")
    found = london_editor.request("textDocument/definition", london_editor.position(u, line, col + 6))
    assert found[0]["uri"] == uri(london / "cards.rules")
    assert found[0]["range"]["start"]["line"] == find(london / "cards.rules", "phase show_tops")[0]
    found = london_editor.request("textDocument/definition", london_editor.position(u, line, col + 16))
    assert found is None or all(f["uri"] == u for f in found)       # `you`: the ability's parameter
    hover = london_editor.request("textDocument/hover", london_editor.position(u, line, col + 16))
    assert "you: seat" in hover["contents"]["value"]
    line, col = find(cards, "last_activated.face_up = true")
    hover = london_editor.request("textDocument/hover", london_editor.position(u, line, col + 3))
    assert "global field last_activated: card?" in hover["contents"]["value"]
    hover = london_editor.request("textDocument/hover", london_editor.position(u, line, col + 17))
    assert "card field face_up" in hover["contents"]["value"]
    items = london_editor.request("textDocument/completion", london_editor.position(u, line, col + 15))["items"]
    assert "face_up" in {i["label"] for i in items} and "hand" not in {i["label"] for i in items}


def test_document_symbols_list_a_files_definitions(downtown: Path, editor: Client) -> None:
    rules = downtown / "round.rules"
    u = editor.open(rules)
    editor.wait_diagnostics(u, 0)
    found = editor.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})
    names = [s["name"] for s in found]
    assert names[:3] == ["game", "planning", "vote"]
    vote = found[names.index("vote")]
    assert vote["range"]["start"]["line"] == find(rules, "phase vote")[0]


def test_references_of_a_field_across_the_games_files(downtown: Path, editor: Client) -> None:
    rules = downtown / "round.rules"
    u = editor.open(rules)
    editor.wait_diagnostics(u, 0)
    line, col = find(rules, "s.lobby")
    found = editor.request("textDocument/references", {**editor.position(u, line, col + 3),
                                                       "context": {"includeDeclaration": True}})
    files = {f["uri"].rsplit("/", 1)[1] for f in found}
    assert "game.yaml" in files and "round.rules" in files
    written = sum(p.read_text().count(".lobby") for p in downtown.glob("*.rules"))
    assert len([f for f in found if f["uri"].endswith(".rules")]) == written


@pytest.mark.parametrize(("file", "text", "skip", "new"), [
    ("round.rules", "run vote(lot)", 5, "ballot"),          # a phase
    ("round.rules", "s.lobby", 3, "foyer"),                 # a seat field, defined in game.yaml
    ("payout.rules", "let value = value_per_marker", 15, "worth_per_marker"),   # a formula
    ("round.rules", "run vote(lot)", 10, "site"),           # a loop variable
])
def test_a_rename_across_files_leaves_a_game_that_validates(downtown: Path, editor: Client, file: str, text: str,
                                                            skip: int, new: str) -> None:
    path = downtown / file
    u = editor.open(path)
    editor.wait_diagnostics(u, 0)
    line, col = find(path, text)
    old = path.read_text().splitlines()[line][col + skip:].split("(")[0].split(")")[0].split()[0]
    edit = editor.request("textDocument/rename", {**editor.position(u, line, col + skip), "newName": new})
    assert edit and edit["changes"]
    _apply(downtown, edit)
    _, diags, _ = check_game(downtown)
    assert [d for d in diags if d.severity == "error"] == []
    text_now = "".join(p.read_text() for p in downtown.rglob("*") if p.suffix in (".rules", ".yaml"))
    assert new in text_now
    if len(old) > 3:
        assert f" {old}(" not in text_now and f".{old} " not in text_now


def test_a_rename_to_a_name_that_cannot_be_one_is_refused(downtown: Path) -> None:
    client = Client(downtown.parent)
    try:
        rules = downtown / "round.rules"
        u = client.open(rules)
        client.wait_diagnostics(u, 0)
        line, col = find(rules, "run vote(lot)")
        ready = client.request("textDocument/prepareRename", client.position(u, line, col + 5))
        assert ready == {"range": {"start": {"line": line, "character": col + 4},
                                   "end": {"line": line, "character": col + 8}}, "placeholder": "vote"}
        assert client.request("textDocument/prepareRename", client.position(u, line, col + 1)) is None   # `run`
        for bad in ("two words", "for", "9lives"):
            client.next_id += 1
            client.send({"id": client.next_id, "method": "textDocument/rename",
                         "params": {**client.position(u, line, col + 5), "newName": bad}})
            answer = client.answer(client.next_id)
            assert answer["error"]["code"] == -32602 and bad in answer["error"]["message"]
        assert rules.read_text().count("vote") >= 2
    finally:
        client.close()


def test_a_rename_reaches_ability_code_in_component_files(london: Path, london_editor: Client) -> None:
    rules = london / "cards.rules"
    u = london_editor.open(rules)
    london_editor.wait_diagnostics(u, 0)
    line, col = find(rules, "phase show_tops")
    uses_in_cards = (london / "cards.yaml").read_text().count("run show_tops(")
    assert uses_in_cards >= 1
    edit = london_editor.request("textDocument/rename", {**london_editor.position(u, line, col + 8),
                                                         "newName": "reveal_tops"})
    assert len(edit["changes"][uri(london / "cards.yaml")]) == uses_in_cards
    _apply(london, edit)
    _, diags, _ = check_game(london)
    assert [d for d in diags if d.severity == "error"] == []
    assert "show_tops" not in "".join(p.read_text() for p in london.glob("*.*") if p.suffix in (".rules", ".yaml"))
