"""`cityrules schema` writes the schemas validate checks with, as JSON an editor can read."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from interpreter.cli import main
from interpreter.load.loader import games_root
from interpreter.load.schema_check import load_schema


@pytest.mark.parametrize("draft", ["2020-12", "7"])
def test_the_schemas_written_check_the_shipped_files(tmp_path: Path, draft: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--out", str(tmp_path / "schemas"), "--draft", draft]) == 0
    written = sorted(p.name for p in (tmp_path / "schemas").iterdir())
    assert written == ["board.schema.json", "components.schema.json", "game.schema.json"]
    assert capsys.readouterr().out.split() == [str(tmp_path / "schemas" / n) for n in
                                               ("game.schema.json", "board.schema.json", "components.schema.json")]
    schemas = {n: json.loads((tmp_path / "schemas" / f"{n}.schema.json").read_text()) for n in
               ("game", "board", "components")}
    if draft == "2020-12":
        assert schemas["game"] == load_schema("game")
    validator = jsonschema.Draft7Validator if draft == "7" else jsonschema.Draft202012Validator
    for name in ("game", "board", "components"):
        validator.check_schema(schemas[name])
    london = games_root() / "london"
    validator(schemas["game"]).validate(yaml.safe_load((london / "game.yaml").read_text()))
    validator(schemas["components"]).validate(yaml.safe_load((london / "cards.yaml").read_text()))
    validator(schemas["board"]).validate(yaml.safe_load((games_root() / "city" / "board.yaml").read_text()))
    broken = yaml.safe_load((london / "game.yaml").read_text()) | {"seats": {"min": 2}}
    assert list(validator(schemas["game"]).iter_errors(broken))
