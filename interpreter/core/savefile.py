"""Saved files that survive a kill and leak to nobody: atomic owner-only writes, bounded reads, a lock.

A save goes to a temporary file of a name no other writer uses (created with O_EXCL, never through
a symbolic link, mode 0600), is flushed to the disk, then renamed over the target: a reader, or a
session killed at any moment, sees the old file or the new one, never a torn one. Only regular
files are read or replaced: a device, a folder or a pipe at the target is refused, not written into.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path
from types import TracebackType

try:  # advisory locks: POSIX only; elsewhere a second session is not detected
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

MAX_READ = 32 * 1024 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class SaveError(ValueError):
    """A file cannot be read or written where asked; the message says what is wrong, on one line."""


class SaveExists(SaveError):
    """A new file was asked for and the name is taken: a saved file is never overwritten."""


def _reason(err: OSError) -> str:
    return {errno.ENOTDIR: "a part of the path is a file, not a folder",
            errno.EACCES: "permission denied", errno.EPERM: "permission denied",
            errno.EROFS: "the file system is read-only", errno.ENOSPC: "the disk is full",
            errno.ENOENT: "no such file or folder", errno.EISDIR: "it is a folder",
            errno.ELOOP: "it is a symbolic link", errno.ENAMETOOLONG: "the name is too long",
            errno.EDQUOT: "the disk quota is exceeded"}.get(err.errno or 0, err.strerror or str(err))


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_target(path: Path) -> None:
    """Raise SaveError unless `path` is absent or a regular file, in a folder that exists or can be made."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise SaveError(f"{path}: cannot save here: {_reason(err)}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise SaveError(f"{path}: cannot save here: it is {_kind(st.st_mode)}")
    parent = path.parent
    try:
        pst = os.stat(parent)
    except FileNotFoundError:
        return  # made by the first save
    except OSError as err:
        raise SaveError(f"{path}: cannot save here: {_reason(err)}") from None
    if not stat.S_ISDIR(pst.st_mode):
        raise SaveError(f"{path}: cannot save here: {parent} is a file, not a folder")


def read_text(path: Path, limit: int = MAX_READ) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes; SaveError says why not."""
    try:
        fd = os.open(path, os.O_RDONLY | _CLOEXEC | _NONBLOCK)
    except OSError as err:
        raise SaveError(f"{path}: cannot read it: {_reason(err)}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(f"{path}: cannot read it: it is {_kind(st.st_mode)}")
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise SaveError(f"{path}: too large ({limit // (1024 * 1024)} MiB at most)")
    except OSError as err:
        raise SaveError(f"{path}: cannot read it: {_reason(err)}") from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as err:
        raise SaveError(f"{path}: not UTF-8 text (byte {err.start})") from None


def temp_prefix(path: Path) -> str:
    """The start of the name of every temporary file a save of `path` makes (hidden, in its folder)."""
    return f".{path.name}."


def write_atomic(path: Path, text: str, new: bool = False) -> None:
    """Replace `path` by `text` atomically, owner-only (0600), durable once this returns.

    With `new`, the file must not exist yet: an existing one is never replaced (SaveError).
    """
    check_target(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as err:
        raise SaveError(f"{path}: cannot save here: {_reason(err)}") from None
    tmp = path.with_name(f"{temp_prefix(path)}{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    except OSError as err:
        raise SaveError(f"{path}: cannot save here: {_reason(err)}") from None
    try:
        try:
            data = text.encode("utf-8")
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        if new:
            # link() never replaces: two sessions racing for one new name cannot both win.
            os.link(tmp, path, follow_symlinks=False)
        else:
            os.replace(tmp, path)
        _sync_folder(path.parent)
    except FileExistsError:
        raise SaveExists(f"{path}: already exists; a saved game is never overwritten") from None
    except OSError as err:
        raise SaveError(f"{path}: cannot save here: {_reason(err)}") from None
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is still atomic
    finally:
        os.close(fd)


def remove_stale_temps(path: Path) -> None:
    """Delete temporary files a killed writer of `path` left behind (call while holding its lock)."""
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    prefix = temp_prefix(path)
    for name in names:
        if name.startswith(prefix) and name.endswith(".tmp"):
            try:
                os.unlink(path.parent / name)
            except OSError:
                pass


class FileLock:
    """An exclusive lock on `path` held by one process at a time, released when it ends (even killed).

    The lock lives in a hidden file beside the target; `acquire` raises SaveError naming the
    other holder when it is taken.
    """

    def __init__(self, path: Path):
        self.path = path
        self.lock_path = path.with_name(f".{path.name}.lock")
        self.fd: int | None = None

    def acquire(self) -> "FileLock":
        """Take the lock or raise SaveError."""
        if fcntl is None:  # pragma: no cover - not POSIX
            return self
        check_target(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as err:
            raise SaveError(f"{self.path}: cannot save here: {_reason(err)}") from None
        while True:
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o600)
            except OSError as err:
                raise SaveError(f"{self.path}: cannot lock it: {_reason(err)}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                os.close(fd)
                who = f" (process {holder})" if holder.isdigit() else ""
                raise SaveError(f"{self.path}: another session is playing this game{who}") from None
            # The file may have been removed by its last holder between open and flock: lock the
            # file that is at the path now, not an orphan.
            try:
                same = os.fstat(fd).st_ino == os.stat(self.lock_path, follow_symlinks=False).st_ino
            except OSError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
        self.fd = fd
        return self

    def release(self) -> None:
        """Give the lock up and remove its file."""
        if self.fd is None:
            return
        try:
            os.unlink(self.lock_path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    def __enter__(self) -> "FileLock":
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
