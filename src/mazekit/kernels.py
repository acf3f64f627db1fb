"""Which compiled kernels this install has, and the one switch that turns them all off.

The kernels (src/c/*.c, built by setup.py when a C compiler is there) are faster copies of
pure-Python reference code that stays in place: a module asks ``load("search")`` for its
kernel and falls back to its own Python when it gets None. Setting MAZEKIT_KERNELS=python
forces the reference everywhere; the differential tests prove both give the same results
(specs/performance.md).
"""

from __future__ import annotations

import importlib
import os
from typing import Any

__all__ = ["ENVIRONMENT", "KERNELS", "describe", "load"]

ENVIRONMENT = "MAZEKIT_KERNELS"
# Every kernel setup.py builds, as mazekit._c<name>.
KERNELS = ("rng", "braid")


def load(name: str) -> Any:
    """The compiled module mazekit._c<name>, or None: not built, or MAZEKIT_KERNELS=python.

    Any, since a compiled module has no Python types: callers wrap each call in a typed
    function (the module's .pyi stub documents the signatures).
    """
    if os.environ.get(ENVIRONMENT, "").strip().lower() == "python":
        return None
    try:
        return importlib.import_module(f"mazekit._c{name}")
    except ImportError:
        return None


def describe() -> str:
    """One line for ``mazekit --version``: the kernels in use, or why the reference runs."""
    if os.environ.get(ENVIRONMENT, "").strip().lower() == "python":
        return f"kernels: pure Python ({ENVIRONMENT}=python)"
    built = [name for name in KERNELS if load(name) is not None]
    if len(built) == len(KERNELS):
        return "kernels: C (" + ", ".join(built) + ")"
    missing = [name for name in KERNELS if name not in built]
    if not built:
        return "kernels: pure Python (no C kernels built: no compiler at install?)"
    return "kernels: C (" + ", ".join(built) + "), pure Python (" + ", ".join(missing) + ")"
