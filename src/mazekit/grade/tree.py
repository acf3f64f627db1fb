"""Copy, walk and remove folder trees without one call (or one open file) per folder level.

A submission may ship, or its program make, a folder 100 000 levels deep: shutil.rmtree,
copytree and os.walk (before Python 3.12) recurse per level and end in RecursionError, and
a path that deep is far past PATH_MAX. Here a stack of names stands for the levels, only one
folder is open at a time, and every call is relative to that open folder.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Iterator

__all__ = ["DEPTH_LIMIT", "NOT_SEARCHED", "TooDeep", "copy_tree", "remove_tree", "search", "walk"]

# The deepest folder a copy takes. A real submission's deepest folder is a virtual
# environment's (about 10 levels) or a node_modules chain (a few dozen).
DEPTH_LIMIT = 256
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class TooDeep(OSError):
    """A folder of the tree lies deeper than DEPTH_LIMIT levels."""


class CopyFailed(Exception):
    """One file or folder could not be copied (its path, and why)."""

    def __init__(self, source: str, why: str) -> None:
        super().__init__(source, why)
        self.source, self.why = source, why


def _identity(fd: int) -> tuple[int, int]:
    status = os.fstat(fd)
    return status.st_dev, status.st_ino


def _open_folder(name: str, parent: int) -> int | None:
    """Open the folder ``name`` of ``parent`` (never through a link); None when it is not
    a folder (any more). A folder its owner made unreadable is opened up first."""
    try:
        return os.open(name, _DIR, dir_fd=parent)
    except PermissionError:
        with contextlib.suppress(OSError):
            os.chmod(name, 0o700, dir_fd=parent, follow_symlinks=True)
        with contextlib.suppress(OSError):
            return os.open(name, _DIR, dir_fd=parent)
    except OSError:
        pass
    return None


def _clear(fd: int) -> list[str]:
    """Unlink every entry of the open folder but its sub-folders, and return their names."""
    with contextlib.suppress(OSError):
        os.fchmod(fd, 0o700)  # a folder left read-only (``chmod 555``) by a non-root owner
    folders = []
    with contextlib.suppress(OSError), os.scandir(fd) as listing:
        for entry in listing:
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.name)
                    continue
            except OSError:
                pass
            with contextlib.suppress(OSError):
                os.unlink(entry.name, dir_fd=fd)
    return folders


def remove_tree(path: str | os.PathLike[str]) -> None:
    """Remove ``path`` and everything in it, however deep, as far as rights allow.

    Goes down one folder at a time and back up through ``..``, checking that ``..`` is the
    folder it came from: a program still running could move a folder of the tree away, and
    then ``..`` would lead out of it.
    """
    path = os.fspath(path)
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
            return
        fd = os.open(path, _DIR)
    except OSError:
        return
    levels: list[tuple[str, tuple[int, int], list[str]]] = []  # (name below, parent, to do)
    pending = _clear(fd)
    try:
        while True:
            if pending:
                name = pending.pop()
                child = _open_folder(name, fd)
                if child is None:
                    with contextlib.suppress(OSError):
                        os.unlink(name, dir_fd=fd)
                    continue
                levels.append((name, _identity(fd), pending))
                os.close(fd)
                fd, pending = child, _clear(child)
                continue
            if not levels:
                break
            name, parent_id, pending = levels.pop()
            parent = os.open("..", _DIR, dir_fd=fd)
            os.close(fd)
            fd = parent
            if _identity(fd) != parent_id:  # moved while we were below: stop here
                return
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=fd)
    except OSError:
        return
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(path)


def walk(top: str | os.PathLike[str]) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk, top-down, links not followed, without recursion, and no deeper than
    DEPTH_LIMIT levels below ``top`` (TooDeep past that)."""
    stack = [(os.fspath(top), 0)]
    while stack:
        base, depth = stack.pop()
        folders: list[str] = []
        files: list[str] = []
        try:
            with os.scandir(base) as listing:
                for entry in listing:
                    try:
                        is_folder = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_folder = False
                    (folders if is_folder else files).append(entry.name)
        except OSError:
            continue
        yield base, folders, files
        if folders and depth >= DEPTH_LIMIT:
            raise TooDeep(f"folders nested deeper than {DEPTH_LIMIT} levels")
        stack.extend((os.path.join(base, name), depth + 1) for name in reversed(folders))


# Folders a search of a submission's own files passes over: version control, virtual
# environments, builds and caches, none of them what the student wrote.
NOT_SEARCHED = frozenset({".git", ".venv", "venv", "env", "node_modules", "__pycache__", "build"})


def search(top: str | os.PathLike[str], levels: int) -> Iterator[tuple[str, list[str]]]:
    """The folders of ``top`` down to ``levels`` below it, each as its path relative to ``top``
    (``top`` itself ``.``) with the names of its files; NOT_SEARCHED and links passed over."""
    root = os.fspath(top)
    for base, folders, files in walk(root):
        where = os.path.relpath(base, root)
        depth = 0 if where == "." else where.count(os.sep) + 1
        folders[:] = [f for f in folders if f not in NOT_SEARCHED] if depth < levels else []
        yield where, files


def copy_tree(source: str, target: str, leave_out: frozenset[str] = frozenset()) -> None:
    """Copy the folder ``source`` to ``target`` as ``shutil.copytree(symlinks=True)`` does,
    leaving out the names in ``leave_out`` at every level, but never making a missing parent
    folder (a copy that Ctrl-C has just removed must not come back), and no deeper than
    DEPTH_LIMIT levels.

    OSError when ``source`` cannot be listed or ``target`` made; CopyFailed for any other
    file or folder, the first that fails (its ``why`` names a tree too deep).
    """
    made: list[tuple[str, str]] = []
    stack = [(source, target, 0)]
    while stack:
        folder, copy, depth = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = [entry for entry in listing if entry.name not in leave_out]
            os.mkdir(copy)
        except OSError as error:
            if folder == source:
                raise
            raise CopyFailed(folder, str(error)) from None
        made.append((folder, copy))
        for entry in entries:
            into = os.path.join(copy, entry.name)
            try:
                if entry.is_symlink():
                    os.symlink(os.readlink(entry.path), into)
                    shutil.copystat(entry.path, into, follow_symlinks=False)
                elif entry.is_dir():
                    if depth >= DEPTH_LIMIT:
                        raise CopyFailed(
                            entry.path, f"folders nested deeper than {DEPTH_LIMIT} levels"
                        )
                    stack.append((entry.path, into, depth + 1))
                else:
                    shutil.copy2(entry.path, into)
            except OSError as error:  # a named pipe, say (copy2 refuses to block on one)
                raise CopyFailed(entry.path, str(error)) from None
    for folder, copy in reversed(made):  # a folder's times, once nothing more goes into it
        try:
            shutil.copystat(folder, copy)
        except OSError as error:
            raise CopyFailed(folder, str(error)) from None
