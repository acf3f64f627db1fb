"""The compiled kernels: built where a compiler is, reported by --version, switchable off,
and drawing Python's own random stream (specs/performance.md)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import __version__, kernels, rng
from tests.conftest import Invoke
from tests.kernels import compiler_present, reference_only, require_kernel

ROOT = Path(__file__).resolve().parent.parent


def test_every_kernel_is_built_where_a_compiler_is() -> None:
    if not compiler_present():
        pytest.skip("no C compiler on this machine: the pure-Python reference runs")
    assert [name for name in kernels.KERNELS if kernels.load(name) is None] == []


@pytest.mark.parametrize("size", [0, 5, (1 << 19) - 1, 1 << 19, 1_000_000, 3_000_001])
def test_a_large_kernel_buffer_is_whole_writable_and_aligned_to_huge_pages(size: int) -> None:
    """kernels.large_empty: ``size`` int32 items of its own, on a 2 MB boundary from 2 MB on."""
    array = kernels.large_empty(size, np.int32)
    assert array.shape == (size,) and array.dtype == np.int32 and array.flags.c_contiguous
    array[:] = 7  # writable, every item
    assert int(array.sum()) == 7 * size
    if size * 4 >= kernels.HUGE_PAGE:
        assert array.ctypes.data % kernels.HUGE_PAGE == 0


def test_version_names_the_kernels_in_use() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mazekit", "--version"], capture_output=True, text=True
    )
    first, second = result.stdout.splitlines()
    assert (result.returncode, first) == (0, f"mazekit, version {__version__}")
    assert second == kernels.describe()
    if compiler_present():
        assert second == "kernels: C (" + ", ".join(kernels.KERNELS) + ")"


def test_the_environment_switch_turns_every_kernel_off() -> None:
    environment = {**os.environ, kernels.ENVIRONMENT: "python"}
    result = subprocess.run(
        [sys.executable, "-m", "mazekit", "--version"],
        capture_output=True,
        text=True,
        env=environment,
    )
    assert result.stdout.splitlines()[1] == "kernels: pure Python (MAZEKIT_KERNELS=python)"


@given(
    seed=st.integers(0, 2**40),
    skip=st.integers(0, 700),
    count=st.integers(0, 2000),
    gauss=st.booleans(),
)
def test_bulk_floats_are_the_stream_of_random(
    seed: int, skip: int, count: int, gauss: bool
) -> None:
    require_kernel(rng)
    fast, slow = random.Random(seed), random.Random(seed)
    for generator in (fast, slow):
        for _ in range(skip):  # start anywhere in the 624-word block
            generator.random()
        if gauss:  # gauss keeps a second value aside: the state must carry it through
            generator.gauss(0.0, 1.0)
    drawn = rng.floats(fast, count)
    with reference_only(rng):
        expected = rng.floats(slow, count)
    assert np.array_equal(drawn, expected)
    assert fast.getstate() == slow.getstate()
    assert fast.random() == slow.random()


def test_an_install_without_a_compiler_runs_the_reference(invoke: Invoke, tmp_path: Path) -> None:
    """The build backend (what pip calls) builds a wheel with CC=false (every kernel fails
    to compile): it installs, says so, and generates the same bytes as this install."""
    # built from a copy: the backend builds in the source folder, and this run's other
    # workers (and the install in use) read the clone's src/ meanwhile
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", source / "src", ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    # the PEP 517 hook itself, in this environment (its setuptools is the build's): pip's
    # isolated build environment and its own start-up cost seconds and test nothing of ours
    hook = f"from setuptools import build_meta; build_meta.build_wheel({str(wheels)!r})"
    build = subprocess.run(
        [sys.executable, "-c", hook],
        capture_output=True,
        text=True,
        cwd=source,
        env={**os.environ, "CC": "false"},
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("mazekit-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        assert [name for name in archive.namelist() if name.endswith(".so")] == []
        archive.extractall(site)
    environment = {**os.environ, "PYTHONPATH": str(site)}
    environment.pop(kernels.ENVIRONMENT, None)
    command = [sys.executable, "-m", "mazekit"]
    version = subprocess.run(
        [*command, "--version"], capture_output=True, text=True, env=environment, cwd=tmp_path
    )
    assert version.stdout.splitlines()[1] == (
        "kernels: pure Python (no C kernels built: no compiler at install?)"
    )
    arguments = ["generate", "--width", "40", "--height", "30", "--seed", "7", "-o", "-"]
    for algorithm in ("kruskal", "wilson"):
        plain = subprocess.run(
            [*command, *arguments, "--algorithm", algorithm],
            capture_output=True,
            env=environment,
            cwd=tmp_path,
        )
        here = invoke([*arguments, "--algorithm", algorithm])  # this install, with its kernels
        assert plain.returncode == 0 and plain.stdout == here.stdout_bytes
