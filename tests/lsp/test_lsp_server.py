"""An editor connected to `cityrules lsp` over stdio: diagnostics as you type, definitions, hovers, completion."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter.load.loader import check_game, games_root
from lsp_helpers import Client, find, uri
from workbench_helpers import game_copy


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    return game_copy(tmp_path, games_root() / "downtown", keep_tests=True)


@pytest.fixture()
def editor(folder: Path) -> Iterator[Client]:
    client = Client(folder.parent)
    yield client
    errors = client.close()
    assert "Traceback" not in errors, errors


def test_a_mistyped_phase_shows_at_its_line_with_validates_message(folder: Path, editor: Client) -> None:
    rules = folder / "round.rules"
    u = editor.open(rules)
    assert editor.wait_diagnostics(u, 0) == []
    line, col, shown = editor.type_at(rules, "run planning", 4, 8, "planing")
    # What validate says of the same text, written to disk.
    rules.write_text(rules.read_text().replace("run planning", "run planing", 1))
    _, expected, _ = check_game(folder)
    error = next(d for d in expected if d.severity == "error")
    got = next(d for d in shown if d["severity"] == 1)
    assert got["code"] == error.code == "unknown-phase"
    assert got["message"] == f"{error.message} ({error.hint})" == "no phase called 'planing' (did you mean 'planning'?)"
    assert got["range"]["start"] == {"line": error.span.line - 1, "character": error.span.column - 1} == {
        "line": line, "character": col}
    assert got["range"]["end"] == {"line": line, "character": col + len("planing")}
    assert len(shown) == len(expected)


def test_diagnostics_follow_the_unsaved_text_and_clear_when_fixed(folder: Path, editor: Client) -> None:
    rules = folder / "round.rules"
    on_disk = rules.read_text()
    u = editor.open(rules)
    editor.wait_diagnostics(u, 0)
    line, col = find(rules, "run planning")
    before = time.perf_counter()
    editor.replace(rules, line, col + 4, col + 12, "planing")
    assert editor.wait_diagnostics(u, before)
    before = time.perf_counter()
    editor.replace(rules, line, col + 4, col + 11, "planning")
    assert editor.wait_diagnostics(u, before) == []
    assert rules.read_text() == on_disk


def test_a_change_in_game_yaml_reports_in_the_rules_file_it_breaks(folder: Path, editor: Client) -> None:
    game_file = folder / "game.yaml"
    u = editor.open(game_file)
    editor.wait_diagnostics(u, 0)
    line, col = find(game_file, "lobby_weight")
    before = time.perf_counter()
    editor.replace(game_file, line, col, col + len("lobby_weight"), "lobby_weigth")
    rules_uri = uri(folder / "round.rules")
    found = editor.wait_diagnostics(rules_uri, before)
    assert any("lobby_weight" in d["message"] and d["code"] == "unknown-name" for d in found)


def test_a_scenario_file_gets_validates_diagnostics(folder: Path, editor: Client) -> None:
    scenario = folder / "tests" / "payouts.yaml"
    u = editor.open(scenario)
    assert editor.wait_diagnostics(u, 0) == []
    line, col, found = editor.type_at(scenario, "auto: target", 6, 6, "tagret")
    assert [d["code"] for d in found] == ["unknown-name"]
    assert found[0]["message"].startswith("no decision 'tagret'") and "did you mean 'target'?" in found[0]["message"]
    assert found[0]["range"]["start"] == {"line": line, "character": col}


def test_go_to_definition_of_phases_formulas_tables_fields_and_locals(folder: Path, editor: Client) -> None:
    rules = folder / "round.rules"
    u = editor.open(rules)
    editor.wait_diagnostics(u, 0)

    def target(line: int, character: int) -> tuple[str, int]:
        found = editor.request("textDocument/definition", editor.position(u, line, character))
        assert found, (line, character)
        return found[0]["uri"].rsplit("/", 1)[1], found[0]["range"]["start"]["line"]

    line, col = find(rules, "run vote(lot)")
    assert target(line, col + 5) == ("round.rules", find(rules, "phase vote")[0])
    assert target(line, col + 10) == ("round.rules", find(rules, "for lot in")[0])  # the loop variable
    line, col = find(rules, "lobby_weight")
    assert target(line, col + 3) == ("game.yaml", find(folder / "game.yaml", "lobby_weight")[0])
    line, col = find(rules, "s.lobby")
    assert target(line, col + 3) == ("game.yaml", find(folder / "game.yaml", "lobby: {type")[0])
    payout = folder / "payout.rules"
    pu = editor.open(payout)
    line, col = find(payout, "let value = value_per_marker")
    found = editor.request("textDocument/definition", editor.position(pu, line, col + 15))
    assert found[0]["uri"] == pu and found[0]["range"]["start"]["line"] == find(payout, "formula value_per_marker")[0]


def test_hover_shows_type_and_description(folder: Path, editor: Client) -> None:
    payout = folder / "payout.rules"
    u = editor.open(payout)
    editor.wait_diagnostics(u, 0)
    line, col = find(payout, "gain value * mine + extra to s.money")
    text = editor.request("textDocument/hover", editor.position(u, line, col + 32))["contents"]["value"]
    assert "seat field money: int" in text and "cash; changes only by pay and gain" in text
    line, col = find(payout, "let value = value_per_marker")
    text = editor.request("textDocument/hover", editor.position(u, line, col + 15))["contents"]["value"]
    assert "formula value_per_marker(lot: node) -> int" in text


def test_completion_offers_the_names_in_scope(folder: Path, editor: Client) -> None:
    payout = folder / "payout.rules"
    u = editor.open(payout)
    editor.wait_diagnostics(u, 0)
    line, _ = find(payout, "let extra = bonus_for")
    items = editor.request("textDocument/completion", editor.position(u, line + 1, 4))["items"]
    labels = [i["label"] for i in items]
    for name in ("lot", "value", "owners", "extra", "prices", "mayor", "well_placed", "len", "seats"):
        assert name in labels, name
    assert labels.index("extra") < labels.index("prices")     # locals first
    assert "mine" not in labels                               # made later, inside a loop
    line, col = find(payout, "s.markers += mine")
    members = [i["label"] for i in editor.request(
        "textDocument/completion", editor.position(u, line, col + 2))["items"]]
    assert {"money", "markers", "lobby", "plaque", "shape"} <= set(members) and "prices" not in members


BROKEN_TEXTS = [
    "",
    "phase game:\n    run\n",
    "phase game(:\n",
    "\x00\x01\x02 binary \ud800 noise",
    "phase game:\n" + "    if true:\n" * 200,
    "formula f() = " + "(" * 5000,
    "phase game:\n\tlet x = 1\n",
    "x" * 200_000,
]


def test_broken_files_never_stop_the_server(folder: Path, editor: Client) -> None:
    rules = folder / "round.rules"
    game_file = folder / "game.yaml"
    scenario = folder / "tests" / "votes.yaml"
    uris = {p: editor.open(p) for p in (rules, game_file, scenario)}
    editor.wait_diagnostics(uris[rules], 0)
    for path in (rules, game_file, scenario):
        for text in BROKEN_TEXTS + ["key: [unclosed", "- &a [*a]", "state: {seat: 3}\nrules: 7\n"]:
            editor.versions[uris[path]] += 1
            before = time.perf_counter()
            editor.notify("textDocument/didChange", {
                "textDocument": {"uri": uris[path], "version": editor.versions[uris[path]]},
                "contentChanges": [{"text": text}]})
            found = editor.wait_diagnostics(uris[path], before)
            assert all(d["code"] != "internal" for d in found), found
            for ask in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
                editor.request(ask, editor.position(uris[path], 1, 3))
        editor.versions[uris[path]] += 1
        editor.notify("textDocument/didChange", {
            "textDocument": {"uri": uris[path], "version": editor.versions[uris[path]]},
            "contentChanges": [{"text": path.read_text()}]})
    before = time.perf_counter()
    editor.notify("textDocument/didSave", {"textDocument": {"uri": uris[rules]}})
    assert editor.wait_diagnostics(uris[rules], before) == []
    assert editor.proc.poll() is None


def test_a_diagnostics_notes_are_its_related_information(folder: Path, editor: Client,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # A table holding text used as a number: the error at the rules line notes where the data is.
    game_file = folder / "game.yaml"
    u = editor.open(game_file)
    editor.wait_diagnostics(u, 0)
    line, col = find(game_file, "parcels_per_lot: 4")
    start = col + len("parcels_per_lot: ")
    before = time.perf_counter()
    editor.replace(game_file, line, start, start + 1, "four")
    found = editor.wait_diagnostics(uri(folder / "buying.rules"), before)
    error = next(d for d in found if d["code"] == "type")
    [note] = error["relatedInformation"]
    assert note["location"]["uri"] == u
    assert note["location"]["range"] == {"start": {"line": line, "character": start},
                                         "end": {"line": line, "character": start + 4}}
    edited = game_file.read_text().replace("parcels_per_lot: 4", "parcels_per_lot: four")
    monkeypatch.chdir(folder.parent)   # where the server runs: file names in messages are relative to it
    _, expected, _ = check_game(folder, texts={game_file: edited})
    [same] = [d for d in expected if d.code == "type" and d.severity == "error" and d.span.file.endswith("buying.rules")]
    assert note["message"] == same.related[0].message


def test_go_to_definition_of_a_file_named_in_game_yaml(folder: Path, editor: Client) -> None:
    game_file = folder / "game.yaml"
    u = editor.open(game_file)
    editor.wait_diagnostics(u, 0)
    line, col = find(game_file, "payout.rules")
    found = editor.request("textDocument/definition", editor.position(u, line, col + 3))
    assert found == [{"uri": uri(folder / "payout.rules"),
                      "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}}]
    line, col = find(game_file, "start: game")
    found = editor.request("textDocument/definition", editor.position(u, line, col + 8))
    assert found[0]["uri"] == uri(folder / "round.rules")
    assert found[0]["range"]["start"]["line"] == find(folder / "round.rules", "phase game")[0]


def test_completion_in_a_scenario_file_offers_decisions_and_fields(folder: Path, editor: Client) -> None:
    scenario = folder / "tests" / "payouts.yaml"
    u = editor.open(scenario)
    editor.wait_diagnostics(u, 0)
    line, col = find(scenario, "auto: target")
    labels = {i["label"] for i in editor.request("textDocument/completion", editor.position(u, line, col + 8))["items"]}
    assert {"target", "kind", "parcels", "money", "plaque", "mayor"} <= labels
