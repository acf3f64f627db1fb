"""Safe output files: write beside the target, then rename, so a failure never loses data."""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import TYPE_CHECKING

from .errors import MazeError

if TYPE_CHECKING:
    from os import PathLike

__all__ = ["atomic_write"]


def atomic_write(target: str | PathLike[str], data: bytes) -> None:
    """Replace ``target`` with ``data`` in one rename; MazeError names the target on failure.

    The temporary file lives in the target's folder so the rename never crosses a file system;
    an existing file keeps its permission bits.
    """
    path = os.fspath(target)
    folder = os.path.dirname(path) or "."
    try:
        mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else None
        handle, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder
        )
    except OSError as error:
        raise MazeError(f"cannot write: {error.strerror or error}", str(target)) from error
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if mode is not None:
            os.chmod(temporary, mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise MazeError(f"cannot write: {error.strerror or error}", str(target)) from error
        raise
