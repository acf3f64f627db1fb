"""Build the optional C kernels (specs/performance.md); everything else is in pyproject.toml.

Each kernel is an optional extension: with no C compiler the build skips it, the install still
succeeds, and mazekit runs its pure-Python reference code instead (``mazekit --version`` says
which). The kernels use only the C API and the buffer protocol, so no numpy headers are needed.
"""

from setuptools import Extension, setup

KERNELS = ["rng", "search", "carve", "measures", "braid", "cops"]

setup(
    ext_modules=[
        Extension(
            f"mazekit._c{name}",
            sources=[f"src/c/{name}.c"],
            depends=["src/c/mt19937.h", "src/c/scratch.h"],
            optional=True,
        )
        for name in KERNELS
    ]
)
