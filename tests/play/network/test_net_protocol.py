"""The wire format, the seat codes and the commands' argument checks."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from interpreter.play.network.codes import codes_path, load_codes, new_codes, save_codes, seat_of
from interpreter.play.network.protocol import HEADER, ProtocolError, decode, encode
from play_helpers import cli


def test_a_message_is_a_length_then_a_json_object_with_a_type() -> None:
    data = encode({"type": "answer", "option": "lot:7", "name": "Chloé"})
    (size,) = HEADER.unpack(data[:4])
    assert size == len(data) - 4
    assert decode(data[4:]) == {"type": "answer", "option": "lot:7", "name": "Chloé"}
    for bad in (b"\xff\xfe", b"[1, 2]", b'{"type": 3}', b"NaN", b'{"type": "x", "n": Infinity}', b"[" * 100_000):
        with pytest.raises(ProtocolError):
            decode(bad)


def test_codes_are_long_secret_per_human_seat_and_kept_owner_only(tmp_path: Path) -> None:
    codes = new_codes(["human", "random", "human"])
    assert codes[1] is None and codes[0] != codes[2]
    assert all(c is not None and len(c) >= 21 for c in (codes[0], codes[2]))
    assert seat_of(codes, codes[2] or "") == 2
    assert seat_of(codes, "") is None and seat_of(codes, (codes[0] or "")[:-1]) is None
    path = codes_path(tmp_path / "game.json")
    save_codes(path, codes)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_codes(path, ["human", "random", "human"]) == codes
    with pytest.raises(ValueError, match="not the seat codes of this table"):
        load_codes(path, ["human", "human", "human"])
    with pytest.raises(ValueError, match="never overwritten"):
        save_codes(path, new_codes(["human"]))
    path.write_text(json.dumps({"format": "cityrules-table-codes", "codes": ["short", None, "x"]}))
    with pytest.raises(ValueError):
        load_codes(path, ["human", "random", "human"])


def test_a_code_never_starts_with_a_dash_so_the_printed_join_line_works(monkeypatch: pytest.MonkeyPatch) -> None:
    # `cityrules join HOST --code -Abc...` reads the code as an option: the host's line would fail.
    drawn = iter(["-dashFirstXXXXXXXXXXXX", "-againDashXXXXXXXXXXXX", "plainCodeXXXXXXXXXXXXX"])
    monkeypatch.setattr("interpreter.play.network.codes.secrets.token_urlsafe", lambda n: next(drawn))
    assert new_codes(["human"]) == ["plainCodeXXXXXXXXXXXXX"]


@pytest.mark.parametrize("args,message", [
    (["host", "downtown"], "--seats is needed"),
    (["host", "downtown", "--seats", "random,random,random"], "at least one human seat"),
    (["host"], "name a game"),
    (["join", "localhost:7531"], "give --code CODE"),
    (["join", "nowhere", "--watch"], "is not HOST:PORT"),
])
def test_the_commands_refuse_what_cannot_work_in_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    run = cli(*args, env={"XDG_STATE_HOME": str(tmp_path)})
    assert run.returncode == 2 and message in run.stderr, run.stderr
    # A refused table leaves no session behind (`play --resume` would list it).
    assert not list(tmp_path.rglob("*")), list(tmp_path.rglob("*"))


def test_joining_a_table_that_is_not_there_says_so() -> None:
    run = cli("join", "127.0.0.1:9", "--watch")
    assert run.returncode == 1 and "Cannot reach the table at 127.0.0.1:9" in run.stdout
