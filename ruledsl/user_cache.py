"""The user's private cache folder: files only this user can have written, read without following links.

A cache is read by every later run, so a cache file another user could plant is code or data
they slip into someone else's process. The folder is `$CITYRULES_CACHE_DIR`, else
`$XDG_CACHE_HOME/cityrules`, else `~/.cache/cityrules`; it is used only when

- it is a real folder (not a symbolic link), owned by this user, writable by nobody else: it is
  created with mode 0700, and a folder of ours with looser read rights is tightened to 0700, but
  one that others may write to (or that another user owns) is refused, not repaired;
- every folder above it is owned by this user or by root, and writable by nobody else unless it
  is sticky (like /tmp), so that nobody can swap the folder for another after it was checked.

The folder is then held open and every file is reached through that handle, opened without
following links, and used only when it is a plain file owned by this user. `CITYRULES_NO_CACHE=1`
turns every cache off. Any problem only means there is no cache: nothing here raises.
"""

from __future__ import annotations

import os
import secrets
import stat
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .plain_json import Codec

MAX_ENTRY_BYTES = 64 * 1024 * 1024
"""A cache file larger than this is not read (a parse of a 1 MiB rules file is far smaller)."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def cache_root() -> Path | None:
    """Where the cache folder should be, or None when caching is off."""
    if os.environ.get("CITYRULES_NO_CACHE"):
        return None
    base = os.environ.get("CITYRULES_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "cityrules"


def _supported() -> bool:
    """Checks need owners, modes and folder handles (POSIX); elsewhere nothing is cached."""
    return os.name == "posix" and hasattr(os, "geteuid") and os.open in os.supports_dir_fd


def safe_ancestor(info: os.stat_result) -> bool:
    """A folder above the cache: owned by us or root, and nobody else may rename what it holds."""
    if info.st_uid not in (0, os.geteuid()):
        return False
    others_write = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return not others_write or bool(info.st_mode & stat.S_ISVTX)


def private(info: os.stat_result) -> bool:
    """A folder or file only this user can have written."""
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _ancestors_safe(folder: Path) -> bool:
    try:
        real = Path(os.path.realpath(folder.parent))
        return all(safe_ancestor(os.stat(p)) for p in (real, *real.parents))
    except OSError:
        return False


def _open_private(path: Path, parent_fd: int | None = None) -> int | None:
    """A handle on `path` (a name inside `parent_fd` when given), made with mode 0700 if missing."""
    where = {"dir_fd": parent_fd} if parent_fd is not None else {}
    name = path.name if parent_fd is not None else str(path)
    try:
        os.mkdir(name, 0o700, **where)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, **where)
    except OSError:  # a link, a file, or no permission: not ours to use
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISDIR(info.st_mode) or not private(info):
            raise PermissionError(path)
        if info.st_mode & 0o077:
            os.fchmod(fd, 0o700)  # ours, and only others' reading is allowed: close that too
        return fd
    except OSError:
        os.close(fd)
        return None


def folder_handle(sub: str = "") -> int | None:
    """An open handle on the private cache folder (or its subfolder `sub`), or None: no cache.

    The handle stays open for the life of the process, so the folder checked is the one used.
    """
    root = cache_root()
    if root is None or not _supported():
        return None
    return _handle(root, sub)


@lru_cache(maxsize=None)
def _handle(root: Path, sub: str) -> int | None:
    if sub:
        parent = _handle(root, "")
        return None if parent is None else _open_private(Path(sub), parent)
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not _ancestors_safe(root):
        return None
    return _open_private(root)


def read(sub: str, name: str) -> bytes | None:
    """The bytes of a cache file, or None when it is missing, not a plain file of ours, or too big."""
    folder = folder_handle(sub)
    if folder is None:
        return None
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=folder)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not private(info) or info.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(MAX_ENTRY_BYTES + 1)[:MAX_ENTRY_BYTES]
    except OSError:
        return None
    finally:
        os.close(fd)


def write(sub: str, name: str, data: bytes) -> None:
    """Store a cache file whole or not at all: a new private file, then renamed over the old one."""
    folder = folder_handle(sub)
    if folder is None:
        return
    temporary = f".{name}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600,
                     dir_fd=folder)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:  # a full disk or a read-only home must not stop a game from loading
        try:
            os.unlink(temporary, dir_fd=folder)
        except OSError:
            pass


def prune(sub: str, keep: int) -> None:
    """Remove all but the `keep` most recently written entries of the subfolder `sub`.

    For a cache whose entries are named after something that changes without end (a folder's
    place), which would otherwise grow with every folder ever seen.
    """
    folder = folder_handle(sub)
    if folder is None:
        return
    try:
        names = [n for n in os.listdir(folder) if not n.startswith(".")]
    except OSError:
        return
    if len(names) <= keep:
        return
    aged = []
    for name in names:
        try:
            aged.append((os.stat(name, dir_fd=folder, follow_symlinks=False).st_mtime_ns, name))
        except OSError:
            continue
    for _, name in sorted(aged)[:max(0, len(aged) - keep)]:
        try:
            os.unlink(name, dir_fd=folder)
        except OSError:
            pass


def read_value(sub: str, name: str, codec: Codec) -> object | None:
    """The value a cache file holds as `codec`'s JSON, or None when there is none or it is not such JSON
    (damaged, or written by other code). The caller checks the value is what it stored."""
    data = read(sub, name)
    if data is None:
        return None
    try:
        value: object = codec.loads(data)
    except ValueError:
        return None
    return value


def write_value(sub: str, name: str, codec: Codec, value: object) -> None:
    """Store `value` as `codec`'s JSON (whole or not at all); a value it cannot write is not stored."""
    if folder_handle(sub) is None:
        return
    try:
        text = codec.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return
    write(sub, name, text.encode("ascii"))
