"""Safe output files: nothing the user did not ask to replace is lost (specs/errors.md).

A regular file is written beside the target, then renamed over it, so a failure never leaves
half a file. What a rename would harm is written in place instead: a descriptor of this process
(``/dev/stdout``, ``/dev/fd/N``), a FIFO or device, a file with other hard links or an owner
the new file could not get back. A read-only file is refused unless forced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Iterable, Iterator

from .errors import MazeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike

__all__ = [
    "READ_ONLY_MESSAGE",
    "Chunks",
    "atomic_write",
    "check_writable",
    "descriptor_of",
    "remove_temporaries",
    "same_file",
]

# bytes, or byte chunks (a bytearray too: a big grid is written without a copy)
Chunks = bytes | Iterable[bytes | bytearray]

# As the kernel does (Linux follows at most 40 links in one path), a longer chain is a loop.
MAX_LINKS = 40
READ_ONLY_MESSAGE = "cannot write: the file is read-only (--force replaces it)"
_COPY_BLOCK = 1 << 20

# Temporary files being written: the Ctrl-C handler of mazekit.__main__ removes them.
_TEMPORARIES: set[str] = set()


def remove_temporaries() -> None:
    """Remove every temporary file still being written (called on Ctrl-C, before exiting)."""
    for name in list(_TEMPORARIES):
        with contextlib.suppress(OSError):
            os.unlink(name)
        _TEMPORARIES.discard(name)


def _own_descriptor(directory: str, name: str) -> int | None:
    """N when ``directory/name`` is /proc/<this process>/fd/N (or a thread's), else None."""
    if not name.isdigit():
        return None
    if directory == "/dev/fd":  # where /dev/fd is a folder of its own (BSD, macOS)
        return int(name)
    parts = directory.split("/")  # ['', 'proc', pid, 'fd'] or ['', 'proc', pid, 'task', tid, 'fd']
    if len(parts) not in (4, 6) or parts[:2] != ["", "proc"]:
        return None
    if parts[2] != str(os.getpid()) or parts[-1] != "fd":
        return None
    if len(parts) == 6 and (parts[3] != "task" or not parts[4].isdigit()):
        return None
    return int(name)


def _resolve(name: str) -> str | int:
    """What ``name`` stands for: a descriptor of this process (``/dev/stdout``, ``/dev/fd/1``,
    ``/proc/self/fd/1``) as an int, else the path with every symbolic link followed.

    Unlike realpath, a descriptor is never replaced by the file it happens to point to, and
    a loop raises ELOOP instead of coming back unresolved.
    """
    if "\0" in name:
        raise OSError(errno.EINVAL, "the name contains a NUL byte")
    if name.endswith("/"):
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR))
    path = os.path.join(os.getcwd(), name)
    for _ in range(MAX_LINKS + 1):
        parent = os.path.realpath(os.path.dirname(path))
        base = os.path.basename(path)
        path = os.path.join(parent, base)
        descriptor = _own_descriptor(parent, base)
        if descriptor is not None:
            return descriptor
        try:
            link = os.readlink(path)
        except OSError as error:
            if error.errno in (errno.EINVAL, errno.ENOENT):  # not a link, or nothing there
                return path
            raise
        path = os.path.join(parent, link)
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))


def descriptor_of(target: str | PathLike[str]) -> int | None:
    """The descriptor of this process that ``target`` names (1 for ``/dev/stdout``), or None."""
    try:
        resolved = _resolve(os.fspath(target))
    except OSError:
        return None
    return resolved if isinstance(resolved, int) else None


def same_file(first: str | PathLike[str], second: str | PathLike[str]) -> bool:
    """Whether two names reach the same existing file (links followed), as the kernel sees it."""
    try:
        a, b = os.stat(os.fspath(first)), os.stat(os.fspath(second))
    except (OSError, ValueError):
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _chunks(data: Chunks) -> Iterator[bytes | bytearray]:
    """The data as a sequence of byte chunks (a bytes object is one chunk)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        yield bytes(data)
    else:
        yield from data


def _write_all(descriptor: int, chunk: bytes | bytearray) -> None:
    """Write a whole chunk to a raw descriptor, however many calls that takes."""
    view = memoryview(chunk)
    while view:
        view = view[os.write(descriptor, view) :]


def _write_descriptor(descriptor: int, data: Chunks) -> None:
    """Write to a descriptor this process holds, at its offset and in its mode (``>>``)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            if stream.fileno() == descriptor:
                stream.flush()  # what Python holds for that descriptor goes first
    for chunk in _chunks(data):
        _write_all(descriptor, chunk)


def _write_special(path: str, data: Chunks) -> None:
    """A FIFO or a device: opened and written as the shell's ``>`` would."""
    with open(path, "wb") as stream:
        for chunk in _chunks(data):
            stream.write(chunk)


def _temporary(directory: str, base: str, mode: int) -> tuple[int, str]:
    """A new, registered temporary file beside the target, with ``mode`` less the umask."""
    for _ in range(100):
        name = os.path.join(directory, f".{base}.{os.urandom(4).hex()}.tmp")
        _TEMPORARIES.add(name)  # before it exists, so an interrupt can never leave it behind
        try:
            return os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL, mode), name
        except FileExistsError:
            _TEMPORARIES.discard(name)
        except BaseException:
            _TEMPORARIES.discard(name)
            raise
    raise OSError(errno.EEXIST, os.strerror(errno.EEXIST))


def _copy_in_place(path: str, source: int, size: int) -> None:
    """Overwrite ``path`` with the ``size`` bytes staged in ``source``, keeping its inode.

    Space is reserved first, so a full disk fails before a byte of the old content changes.
    """
    target = os.open(path, os.O_WRONLY)
    try:
        try:
            if hasattr(os, "posix_fallocate"):  # not on macOS
                os.posix_fallocate(target, 0, max(size, 1))
        except OSError as error:
            if error.errno == errno.ENOSPC:
                raise
        os.lseek(source, 0, os.SEEK_SET)
        while block := os.read(source, _COPY_BLOCK):
            _write_all(target, block)
        os.ftruncate(target, size)
    finally:
        os.close(target)


def _read_only(path: str, info: os.stat_result) -> bool:
    """Whether the user protected the file: we may not write it, or nobody may (mode a-w).

    The second test is what makes root, whom the kernel never refuses, ask for --force too.
    """
    return not os.access(path, os.W_OK) or not info.st_mode & 0o222


def _write_regular(
    name: str, path: str, info: os.stat_result | None, data: Chunks, force: bool
) -> None:
    """Write a regular file (or a new one): staged in a temporary file, then renamed or copied."""
    if info is not None and _read_only(path, info) and not force:
        raise MazeError(READ_ONLY_MESSAGE, name)
    in_place = info is not None and info.st_nlink > 1 and not _read_only(path, info)
    try:
        # Private until it gets the old file's mode: the old file may be private too.
        mode = 0o666 if info is None else 0o600
        handle, temporary = _temporary(os.path.dirname(path), os.path.basename(path), mode)
    except PermissionError:
        if info is None or _read_only(path, info):
            raise
        # A folder we may not write, but a file we may: stage in memory, then copy.
        staged = b"".join(_chunks(data))
        with open(path, "r+b") as stream:
            stream.write(staged)
            stream.truncate()
        return
    replaced = False
    try:
        size = 0
        for chunk in _chunks(data):
            _write_all(handle, chunk)
            size += len(chunk)
        if info is not None and not in_place:
            temp_info = os.fstat(handle)
            if (temp_info.st_uid, temp_info.st_gid) != (info.st_uid, info.st_gid):
                try:
                    os.fchown(handle, info.st_uid, info.st_gid)
                except PermissionError:
                    # Only the file itself keeps its owner: write into it (unless forced
                    # over a file we may not write, which then becomes ours).
                    in_place = not _read_only(path, info)
            os.fchmod(handle, stat.S_IMODE(info.st_mode))  # after fchown, which drops setuid
        if in_place:
            _copy_in_place(path, handle, size)
        else:
            os.replace(temporary, path)
            replaced = True
    finally:
        os.close(handle)
        if not replaced:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        _TEMPORARIES.discard(temporary)


def atomic_write(target: str | PathLike[str], data: Chunks, *, force: bool = False) -> None:
    """Write ``data`` (bytes, or an iterable of byte chunks) to ``target``, safely.

    MazeError names the target on failure, and an existing file is then left as it was. The
    rules, each in specs/errors.md: a descriptor of this process and a FIFO or device are
    written in place; a regular file is written beside the target and renamed over it,
    keeping its permission bits and owner, except that a file with other hard links, or
    whose owner the new file cannot get, is overwritten in place (staged first); a read-only
    file is refused unless ``force``; symbolic links are followed, and a loop is an error.
    """
    name = os.fspath(target)
    try:
        found = _lookup(name)
        if isinstance(found, int):
            _write_descriptor(found, data)
            return
        resolved, info = found
        if info is not None and not stat.S_ISREG(info.st_mode):
            _write_special(resolved, data)
            return
        _write_regular(name, resolved, info, data, force)
    except OSError as error:
        raise MazeError(f"cannot write: {error.strerror or error}", name) from error


def _lookup(name: str) -> int | tuple[str, os.stat_result | None]:
    """Where a write to ``name`` lands: the descriptor a /dev/fd name stands for, else the
    path with its links resolved and its status (None: no file there yet)."""
    resolved = _resolve(name)
    if isinstance(resolved, int):
        return resolved
    try:
        return resolved, os.stat(resolved)
    except FileNotFoundError:
        return resolved, None


def check_writable(target: str | PathLike[str], *, force: bool = False) -> None:
    """Raise now the MazeError that ``atomic_write(target, ...)`` would surely raise later: for
    a command whose data takes minutes to make (``grade --all``), so a mistyped ``-o`` costs
    nothing but the message. A new file is tried for real: a temporary file is made beside
    the target, as atomic_write makes it, and removed. Nothing is opened that could block (a
    FIFO) or be changed; a write that then fails for another reason (a full disk) still
    reports it at the end.
    """
    name = os.fspath(target)
    try:
        found = _lookup(name)
        if isinstance(found, int):
            return
        resolved, info = found
        if info is not None and not stat.S_ISREG(info.st_mode):
            if stat.S_ISDIR(info.st_mode):
                raise OSError(errno.EISDIR, os.strerror(errno.EISDIR))
            return
        if info is not None and _read_only(resolved, info) and not force:
            raise MazeError(READ_ONLY_MESSAGE, name)
        try:
            handle, temporary = _temporary(
                os.path.dirname(resolved), os.path.basename(resolved), 0o600
            )
        except PermissionError:
            if info is None:
                raise
            return  # a file we may write in a folder we may not: atomic_write writes in place
        os.close(handle)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        _TEMPORARIES.discard(temporary)
    except OSError as error:
        raise MazeError(f"cannot write: {error.strerror or error}", name) from error
