"""The faces of a maze's plane drawing, which tell the passages on a loop from the bridges
(edit --close-bottleneck closes only passages on a loop)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..model import ALL_WALLS, EAST, NORTH, SOUTH, WEST

__all__ = ["faces"]


def faces(walls: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """The face of the passage graph around each corner of the grid, as (H+1) x (W+1) labels.

    Drawn in the plane, the open passages split it into faces; two corners lie in the same
    face exactly when closed walls (an incoherent wall is closed, the border always) join
    them. A passage is a bridge, the only link between two parts, exactly when the corners at
    the two ends of the wall it crosses lie in the same face (planar duality): every bridge
    of the maze in one labelling, not one search per passage. Closing a passage that is no
    bridge merges its two faces.
    """
    from ..search import component_labels, passages

    height, width = walls.shape
    east, south = passages(walls)
    across = np.ones((height + 1, width), dtype=np.bool_)  # corner (r, c) to (r, c + 1)
    across[1:height] = ~south
    down = np.ones((height, width + 1), dtype=np.bool_)  # corner (r, c) to (r + 1, c)
    down[:, 1:width] = ~east
    links = np.zeros((height + 1, width + 1), dtype=np.uint8)
    across_bits, down_bits = across.view(np.uint8), down.view(np.uint8)  # 0 or 1, a byte each
    links[:, :-1] |= across_bits * np.uint8(EAST)  # bytes: no int64 np.where of every corner
    links[:, 1:] |= across_bits * np.uint8(WEST)
    links[:-1, :] |= down_bits * np.uint8(SOUTH)
    links[1:, :] |= down_bits * np.uint8(NORTH)
    return component_labels(links ^ np.uint8(ALL_WALLS), bits=links)
