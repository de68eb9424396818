"""A disk cache of what `validate` found in a game folder, so that an unchanged folder is not loaded again.

Checking a game (YAML, schema, board, parse, names, types, compilation, scenario files) gives a
list of diagnostics and the texts they quote; both depend only on

- every file of the game folder (each one's name and bytes: a file added, removed or changed
  anywhere in the folder changes the key, whether or not game.yaml names it),
- where the folder is and where the command runs (messages name files relative to the working
  folder), and the name it was given on the command line,
- the code that checks it: every file of the `ruledsl` and `interpreter` packages, the Python
  version, and the installed distributions (their names and versions).

A digest of all of those is the key. What the trial games `validate` plays after a clean check
found depends on the same, and on how many it played: it is kept beside the check. Entries live in the user's private cache folder
(`ruledsl.user_cache`: mode 0700, checked before use) as JSON that can only build diagnostics,
spans and text (`ruledsl.plain_json`): data, never code. A folder holding anything but plain
files and folders (a link, a pipe), too many files or too many bytes is not cached: it is checked
every time. `CITYRULES_NO_CACHE=1` switches the cache off; any problem with it only means the
folder is checked again.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from ruledsl import user_cache
from ruledsl.diagnostics import Diagnostic, Related, Span
from ruledsl.plain_json import Codec

from .files import read_plain, real_folder

MAX_FILES = 2_000
MAX_BYTES = 32 * 1024 * 1024
"""A game folder with more files or bytes than this is checked every time: hashing it would cost
more than the check saves (a shipped game has about twenty files and 200 KiB)."""
MAX_ENTRIES = 256
"""Checks of this many folders (or places a folder was named from) are kept; the oldest written go first."""
MAX_DEPTH = 16
"""Folders nested deeper than this are not cached (a game reads files at its top and in `tests/`)."""

_FORMAT = 1
"""Bumped when the layout of an entry changes."""

CODEC = Codec([Span, Diagnostic, Related])


@dataclass(frozen=True)
class Key:
    """Where an entry is kept (`entry`: the game's place and the code) and what it must match (`digest`)."""

    entry: str
    digest: str


@dataclass(frozen=True)
class Checked:
    """What checking a game folder found: every diagnostic, and the text of each file they quote."""

    diags: list[Diagnostic]
    sources: dict[str, str]


def key(target: str, folder: Path) -> Key | None:
    """The key of a game folder's check as `target` names it, or None when it is not to be cached."""
    if user_cache.folder_handle(_folder_name()) is None:
        return None
    real = real_folder(folder)
    contents = hashlib.sha256()
    try:
        if not _hash_tree(real, "", contents, [0, 0]):
            return None
    except OSError:  # a file that cannot be read is reported by the check itself, every time
        return None
    place = repr((_FORMAT, target, str(folder), str(real), os.getcwd(), sys.version, _distributions()))
    entry = hashlib.sha256(place.encode("utf-8", "surrogatepass")).hexdigest()
    return Key(entry, contents.hexdigest())


def load(where: Key) -> Checked | None:
    """What the check of this exact folder and code found, or None when it was never stored."""
    stored = user_cache.read_value(_folder_name(), where.entry + ".json", CODEC)
    if not (isinstance(stored, list) and len(stored) == 3 and stored[0] == where.digest
            and isinstance(stored[1], list) and all(_well_formed(d) for d in stored[1])
            and isinstance(stored[2], dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in stored[2].items())):
        return None
    return Checked(stored[1], stored[2])


def store(where: Key, checked: Checked) -> None:
    """Keep what the check found (written whole or not at all, replacing the folder's older entry)."""
    user_cache.write_value(_folder_name(), where.entry + ".json", CODEC,
                           [where.digest, checked.diags, checked.sources])
    user_cache.prune(_folder_name(), MAX_ENTRIES)


def _well_formed(diag: object) -> bool:
    """A diagnostic whose every part has the type printing it expects (the JSON could hold anything)."""
    return (isinstance(diag, Diagnostic) and _span(diag.span) and isinstance(diag.code, str)
            and isinstance(diag.message, str) and diag.severity in ("error", "warning")
            and (diag.hint is None or isinstance(diag.hint, str)) and isinstance(diag.related, tuple)
            and all(isinstance(r, Related) and _span(r.span) and isinstance(r.message, str) for r in diag.related))


def _span(span: object) -> bool:
    return (isinstance(span, Span) and isinstance(span.file, str)
            and all(type(n) is int for n in (span.line, span.column, span.end_line, span.end_column)))


def _hash_tree(folder: Path, prefix: str, digest: hashlib._Hash, counts: list[int], depth: int = 0) -> bool:
    """Add every name and file under `folder` to `digest`, in name order; False for what is not cached."""
    if depth > MAX_DEPTH:
        return False
    entries = []
    with os.scandir(folder) as listing:
        for entry in listing:  # counted before sorting: a folder of a million names is not listed whole
            counts[0] += 1
            if counts[0] > MAX_FILES:
                return False
            entries.append(entry)
    for entry in sorted(entries, key=lambda e: e.name):
        info = entry.stat(follow_symlinks=False)
        name = prefix + entry.name
        if stat.S_ISDIR(info.st_mode):
            digest.update(b"d%d:%s\0" % (len(name.encode("utf-8", "surrogateescape")),
                                         name.encode("utf-8", "surrogateescape")))
            if not _hash_tree(Path(entry.path), name + "/", digest, counts, depth + 1):
                return False
        elif stat.S_ISREG(info.st_mode):
            counts[1] += info.st_size
            if counts[1] > MAX_BYTES:
                return False
            data = read_plain(entry.path, MAX_BYTES)
            encoded = name.encode("utf-8", "surrogateescape")
            digest.update(b"f%d:%s%d:" % (len(encoded), encoded, len(data)))
            digest.update(data)
        else:  # a link, a pipe, a device: what the check makes of it depends on more than the folder
            return False
    return True


@lru_cache(maxsize=1)
def _folder_name() -> str:
    return f"checked-{_code_version()}"


@lru_cache(maxsize=1)
def _code_version() -> str:
    """A digest of every file of the code that checks a game (its Python, grammar and schemas)."""
    digest = hashlib.sha256()
    # Each package's folder from one of its modules: a package's own __file__ is None when a folder of
    # the same name earlier on the import path (tests/ruledsl) makes it a namespace package.
    for package, root in (("ruledsl", Path(user_cache.__file__).parent), ("interpreter", Path(__file__).parents[1])):
        digest.update(package.encode() + b"\0")
        for path in sorted(_code_files(root)):
            data = path.read_bytes()
            name = str(path.relative_to(root)).encode("utf-8", "surrogateescape")
            digest.update(b"%d:%s%d:" % (len(name), name, len(data)))
            digest.update(data)
    return digest.hexdigest()[:16]


def _code_files(root: Path) -> list[Path]:
    found = []
    with os.scandir(root) as listing:
        for entry in listing:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    found += _code_files(Path(entry.path))
            elif not entry.name.endswith((".pyc", ".pyo")):
                found.append(Path(entry.path))
    return found


@lru_cache(maxsize=1)
def _distributions() -> tuple[str, ...]:
    """The installed distributions with their versions (the `name-version.dist-info` folders on the path):
    a new version of the YAML, schema or grammar library may word a problem differently."""
    names: list[str] = []
    for place in sys.path:
        if place.endswith(("site-packages", "dist-packages")):
            try:
                names += sorted(n for n in os.listdir(place) if n.endswith((".dist-info", ".egg-info")))
            except OSError:
                continue
    return tuple(names)


_VALID = b"valid\n"


def known_valid(schema: str, raw: bytes) -> bool:
    """Whether these bytes of a YAML file were found to meet the schema before, by this code."""
    return user_cache.read(_schema_folder(), _schema_entry(schema, raw)) == _VALID


def schema_checked(schema: str, raw: bytes, check: Callable[[], list[Diagnostic]]) -> list[Diagnostic]:
    """What `check` (the schema check of these bytes) finds, skipped when the bytes were found to
    meet the schema before: the check is the slowest step of reading a big file unchanged since (a
    board, a card list). A file that meets it is remembered (only that fact: the entry holds nothing
    else); one that does not is checked every time."""
    folder, entry = _schema_folder(), _schema_entry(schema, raw)
    if user_cache.read(folder, entry) == _VALID:
        return []
    found = check()
    if not found:
        user_cache.write(folder, entry, _VALID)
        user_cache.prune(folder, MAX_ENTRIES)
    return found


def _schema_folder() -> str:
    return f"schema-valid-{_code_version()}"


def _schema_entry(schema: str, raw: bytes) -> str:
    digest = hashlib.sha256(repr((_FORMAT, schema, sys.version, _distributions())).encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update(raw)
    return digest.hexdigest()


def load_trials(where: Key, mode: str) -> tuple[int, list[Diagnostic]] | None:
    """What `validate`'s trial games (played as `mode` says: how many, up to what cap) found in this
    exact folder with this code: the number played and the diagnostics, or None when never stored."""
    stored = user_cache.read_value(_folder_name(), where.entry + ".trials.json", CODEC)
    if not (isinstance(stored, list) and len(stored) == 4 and stored[0] == where.digest and stored[1] == mode
            and type(stored[2]) is int and isinstance(stored[3], list) and all(_well_formed(d) for d in stored[3])):
        return None
    return stored[2], stored[3]


def store_trials(where: Key, mode: str, played: int, diags: list[Diagnostic]) -> None:
    """Keep what the trial games found (replacing the folder's older entry, whatever its mode)."""
    user_cache.write_value(_folder_name(), where.entry + ".trials.json", CODEC, [where.digest, mode, played, diags])
    user_cache.prune(_folder_name(), MAX_ENTRIES)
