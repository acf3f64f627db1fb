"""Helpers for the differential tests: run a module's pure-Python reference instead of its
compiled kernel, and tell whether the kernel is there (specs/performance.md, "Tests")."""

from __future__ import annotations

import shutil
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

import pytest


@contextmanager
def reference_only(*modules: ModuleType) -> Iterator[None]:
    """Within the block, the given modules run their pure-Python reference code.

    Every module with a kernel binds it as the module global ``_KERNEL`` (None: reference);
    a context manager rather than monkeypatch, since hypothesis tests call it per example.
    """
    saved = [(module, module._KERNEL) for module in modules]
    for module in modules:
        module._KERNEL = None
    try:
        yield
    finally:
        for module, kernel in saved:
            module._KERNEL = kernel


def require_kernel(module: ModuleType) -> None:
    """Skip when ``module`` has no compiled kernel: an install made without a C compiler
    (test_kernels.py fails instead when a compiler is there and the kernel is missing)."""
    if module._KERNEL is None:
        pytest.skip(f"{module.__name__} has no compiled kernel in this install")


def compiler_present() -> bool:
    """Whether the C compiler Python's build would use is on this machine."""
    command = (sysconfig.get_config_var("CC") or "cc").split()
    return bool(command) and shutil.which(command[0]) is not None
