"""Reading a game's own files: only regular files that are inside the game's folder, and only so much.

A game folder may come from a stranger. The schema already keeps the names game.yaml gives to
plain file names, but a name can still be a symbolic link: `x.rules → /etc/shadow` would have
validate quote a secret line by line, and `cards.yaml → /proc/self/status` or a named pipe could
hang it. So every file is resolved first and must end up inside the folder (a link to another file
of the folder is fine); a link leading out, a loop of links, or anything but a regular file is a
problem reported without reading the target. The file is then opened without following links and
without waiting (a pipe swapped in at the last moment is refused, not waited on), and read up to a
limit.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class Unreadable:
    """Why a file the game names cannot be read: a diagnostic code, a message and a hint."""

    code: str
    message: str
    hint: str | None = None


class NotPlainFile(OSError):
    """What was opened is a folder, a pipe or a device, not a plain file."""

    def __init__(self, path: str | Path, mode: int):
        super().__init__(f"{path} is not a plain file")
        self.mode = mode


def read_plain(path: str | Path, limit: int) -> bytes:
    """The first `limit` + 1 bytes of a plain file, opened without following a link or waiting on a
    pipe swapped in (NotPlainFile when it is not a plain file; OSError when it cannot be read)."""
    fd = os.open(path, _FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotPlainFile(path, info.st_mode)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(limit + 1)
    finally:
        os.close(fd)


def real_folder(folder: Path) -> Path:
    """The game folder with every link resolved: the files must be inside this."""
    try:
        return folder.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(folder))


def read_game_file(folder: Path, name: str, limit: int) -> bytes | Unreadable:
    """The first `limit` + 1 bytes of the file `name` of a (resolved) game folder, or why not.

    The caller decides what to say about a file longer than `limit`.
    """
    path = folder / name
    if not os.path.lexists(path):
        return Unreadable("missing-file", f"'{name}' not found")
    try:
        real = path.resolve()
    except RuntimeError:  # Python 3.11 and 3.12 report a loop of links this way
        return _loop(name)
    except OSError as err:
        return _loop(name) if err.errno == errno.ELOOP else _unreadable(name, err)
    if not real.is_relative_to(folder):
        return Unreadable("file-outside", f"'{name}' is a link to a file outside the game folder: "
                          "a game may read only its own files", "copy the file into the game folder")
    try:
        return read_plain(real, limit)
    except FileNotFoundError:
        return Unreadable("missing-file", f"'{name}' not found" + (" (it is a link to nothing)" if path.is_symlink()
                                                                    else ""))
    except NotPlainFile as err:
        kind = "a folder" if stat.S_ISDIR(err.mode) else "not a regular file"
        return Unreadable("file-unreadable", f"'{name}' is {kind}", "a game's files are plain text files")
    except OSError as err:
        return _loop(name) if err.errno == errno.ELOOP else _unreadable(name, err)


def _loop(name: str) -> Unreadable:
    return Unreadable("file-loop", f"'{name}' is a link that leads back to itself (a loop of links)",
                      "replace the link by the file itself")


def _unreadable(name: str, err: OSError) -> Unreadable:
    return Unreadable("file-unreadable", f"cannot read '{name}': {err.strerror or type(err).__name__}")
