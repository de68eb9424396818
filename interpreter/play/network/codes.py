"""Seat codes: each human seat's secret, kept beside the host's journal (owner-only) for --resume."""

from __future__ import annotations

import hmac
import json
import secrets
from pathlib import Path

from ...core.savefile import SaveError, read_text, write_atomic

FORMAT = "cityrules-table-codes"
CODE_BYTES = 16  # 128 bits: guessing is hopeless even at a million tries a second


def codes_path(journal_path: Path) -> Path:
    """Where the codes of the table saved in `journal_path` are kept (not a `*.json`: not listed as a session)."""
    return journal_path.with_name(journal_path.name + ".codes")


def new_codes(kinds: list[str]) -> list[str | None]:
    """A fresh code for every human seat, None for the bots' seats."""
    return [_new_code() if kind == "human" else None for kind in kinds]


def _new_code() -> str:
    """A random code that does not start with '-': the host prints `cityrules join HOST --code CODE`,
    and a command line reads a word starting with '-' as an option, not as the code."""
    while True:
        code = secrets.token_urlsafe(CODE_BYTES)
        if not code.startswith("-"):
            return code


def save_codes(path: Path, codes: list[str | None]) -> None:
    """Write the codes owner-only; an existing file is never replaced."""
    write_atomic(path, json.dumps({"format": FORMAT, "codes": codes}) + "\n", new=True)


def load_codes(path: Path, kinds: list[str]) -> list[str | None]:
    """The codes saved for a table of these seat kinds; ValueError says why they cannot be used."""
    try:
        data = json.loads(read_text(path, limit=64 * 1024))
    except SaveError as err:
        raise ValueError(f"the table's seat codes: {err}") from None
    except ValueError:
        raise ValueError(f"{path}: not a file of seat codes") from None
    codes = data.get("codes") if isinstance(data, dict) and data.get("format") == FORMAT else None
    if not isinstance(codes, list) or len(codes) != len(kinds):
        raise ValueError(f"{path}: not the seat codes of this table")
    for code, kind in zip(codes, kinds):
        if (kind == "human") != isinstance(code, str) or (isinstance(code, str) and len(code) < 16):
            raise ValueError(f"{path}: not the seat codes of this table")
    return list(codes)


def seat_of(codes: list[str | None], given: str) -> int | None:
    """The seat whose code is `given`, compared in constant time against every code; None for a wrong one."""
    found = None
    given_bytes = given.encode("utf-8", "replace")
    for seat, code in enumerate(codes):
        # Every code is compared, whatever matched: the time taken tells nothing about which did.
        if code is not None and hmac.compare_digest(code.encode("utf-8"), given_bytes):
            found = seat
    return found
