"""mazegen: a reusable perfect-maze generator with the 42 pattern."""

from mazegen.generator import MazeGenerator

__all__ = ["MazeGenerator"]
