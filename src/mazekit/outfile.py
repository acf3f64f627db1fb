"""Safe output files: write beside the target, then rename, so a failure never loses data."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from typing import TYPE_CHECKING

from .errors import MazeError

if TYPE_CHECKING:
    from os import PathLike

__all__ = ["atomic_write"]


def atomic_write(target: str | PathLike[str], data: bytes) -> None:
    """Replace ``target`` with ``data`` in one rename; MazeError names the target on failure.

    A symbolic link is followed, so the file it points to is replaced and the link stays. The
    temporary file lives in the real file's folder so the rename never crosses a file system;
    an existing file keeps its permission bits. A target that exists but is no regular file
    (a FIFO, a device such as /dev/stdout) cannot be renamed over: it is written in place.
    """
    name = os.fspath(target)
    path = os.path.realpath(name)
    try:
        info = os.stat(path) if os.path.exists(path) else None
        if info is not None and not stat.S_ISREG(info.st_mode):
            with open(path, "wb") as stream:
                stream.write(data)
            return
        handle, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=os.path.dirname(path)
        )
    except OSError as error:
        raise MazeError(f"cannot write: {error.strerror or error}", name) from error
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if info is not None:
            os.chmod(temporary, info.st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise MazeError(f"cannot write: {error.strerror or error}", name) from error
        raise
