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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    import numpy as np
    import numpy.typing as npt

__all__ = ["ENVIRONMENT", "KERNELS", "describe", "large_empty", "load"]

ENVIRONMENT = "MAZEKIT_KERNELS"
# Every kernel setup.py builds, as mazekit._c<name>.
KERNELS = ("rng", "search", "carve", "measures", "braid", "cops")


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


HUGE_PAGE = 1 << 21  # bytes of a transparent huge page on x86-64 and arm64 Linux


def large_empty(size: int, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """An uninitialised 1-D array of ``size`` items for a kernel to fill, cut on a 2 MB
    boundary from one of at least 4 MiB when it is 2 MB or more.

    numpy asks Linux for transparent huge pages from 4 MiB on, and only a whole aligned 2 MB
    span can take one: a fresh process then faults the array in 2 MB at a time, not 4 KB
    (a fault costs microseconds; 1M cells of int32 were 1,000 faults). Elsewhere it is only
    an array with some untouched address space around it.
    """
    import numpy as np

    nbytes = size * np.dtype(dtype).itemsize
    if nbytes < HUGE_PAGE:
        return np.empty(size, dtype=dtype)
    span = np.empty(max(nbytes + HUGE_PAGE, 2 * HUGE_PAGE), dtype=np.uint8)
    start = -span.ctypes.data % HUGE_PAGE
    return span[start : start + nbytes].view(dtype)
