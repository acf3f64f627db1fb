"""PNG pictures: the Scene painted into a numpy array of palette indices, then encoded.

Painting works on whole rows and columns at once. The canvas, (H + 1) cells by (W + 1)
cells, is viewed as an (H + 1, cell, W + 1, cell) array, so that "the wall band of every
closed wall", "the inside of every cell" or "the path band of every path cell" are each one
broadcast assignment, whatever the maze's size. The encoder is a few lines of numpy and zlib
(a palette PNG needs no more): it packs the pixels as Pillow would (4 bits for the plain
themes' 8 inks) and filters every row by the row above (PNG filter "Up"), which turns the
many repeated pixel rows of a maze into zeros that deflate for free.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
import numpy.typing as npt

from .scene import STEP_BLOCK, Scene, check_size, glyph_joints, path_mask
from .theme import PLAIN_INKS, Ink

__all__ = ["ZLIB_LEVEL", "encode_png", "rasterize", "render_png"]

Pixels = npt.NDArray[np.uint8]

# zlib level of the PNG encoder: level 1 deflates a 1000x1000 maze at 4 px (16M pixels) 6
# times faster than zlib's default 6 for a file a third larger (specs/performance.md,
# "Measure kernels", has the figures of every level).
ZLIB_LEVEL = 1


def _planes(target: Pixels) -> list[Pixels]:
    """The [row, column] planes of a [row, dy, column, dx] view, one per pixel offset (dy, dx)
    in a cell: painting plane by plane lets numpy's inner loop run along a row of cells
    instead of the few pixels of one cell, several times faster on a large maze. A small maze
    drawn with large cells is one plane too many: then the whole view is the one plane."""
    rows, high, columns, wide = target.shape
    if rows * columns < high * wide:
        return []
    return [target[:, dy, :, dx] for dy in range(high) for dx in range(wide)]


def _paint(target: Pixels, ink: Ink, where: npt.NDArray[np.bool_]) -> None:
    """Set ``target`` to ``ink`` where the per-cell mask ``where`` (broadcast) is True.

    Plane by plane as x ^ ((x ^ ink) * where): three plain passes, several times faster than
    numpy's masked copy.
    """
    planes = _planes(target)
    if not planes:
        np.copyto(target, np.uint8(ink), where=where[:, None, :, None])
    for plane in planes:
        change = plane ^ np.uint8(ink)
        change *= where
        plane ^= change


def _fill(target: Pixels, ink: Ink, where: npt.NDArray[np.bool_]) -> None:
    """_paint on a part of the canvas nothing was painted on yet (0): ``ink`` where ``where``
    is True, 0 elsewhere, in one pass a plane."""
    planes = _planes(target)
    if not planes:
        np.copyto(target, np.uint8(ink), where=where[:, None, :, None])
    for plane in planes:
        np.multiply(where, np.uint8(ink), out=plane)


def rasterize(scene: Scene) -> Pixels:
    """The picture as an image-sized array of Ink values (height x width, uint8)."""
    geometry = scene.geometry
    check_size(geometry)
    rows, columns = geometry.rows, geometry.columns
    cell, wall, margin = geometry.cell, geometry.wall, geometry.margin
    image = np.zeros((geometry.height, geometry.width), dtype=np.uint8)  # Ink.BACKGROUND: 0
    if margin >= cell - wall:
        # The canvas fits in the image at (margin, margin): painted in place, no copy. Its
        # part beyond the last wall line lies in the margin, where nothing paints.
        canvas = image[margin : margin + (rows + 1) * cell, margin : margin + (columns + 1) * cell]
    else:
        canvas = np.zeros(((rows + 1) * cell, (columns + 1) * cell), dtype=np.uint8)
    line = canvas.strides[0]
    grid = np.lib.stride_tricks.as_strided(  # a view: [row, dy, column, dx]
        canvas, (rows + 1, cell, columns + 1, cell), (cell * line, line, cell, 1), writeable=True
    )

    # Cell insides, then wall bands between posts, then the posts any closed wall touches.
    inside = grid[:rows, wall:, :columns, wall:]
    planes = _planes(inside)
    if not planes:
        inside[...] = scene.cells[:, None, :, None]
    for plane in planes:
        plane[...] = scene.cells
    h_walls, v_walls = scene.h_walls, scene.v_walls
    _fill(grid[:, :wall, :columns, wall:], Ink.WALL, h_walls)
    _fill(grid[:rows, wall:, :, :wall], Ink.WALL, v_walls)
    posts = np.zeros((rows + 1, columns + 1), dtype=bool)
    posts[:, :-1] |= h_walls
    posts[:, 1:] |= h_walls
    posts[:-1, :] |= v_walls
    posts[1:, :] |= v_walls
    _fill(grid[:, :wall, :, :wall], Ink.WALL, posts)

    if scene.outline:
        _fill_glyph(scene, grid)
    elif scene.path_x.size:
        _paint_path(scene, grid)

    used_h, used_w = rows * cell + wall, columns * cell + wall
    if canvas.base is not image:
        image[margin : margin + used_h, margin : margin + used_w] = canvas[:used_h, :used_w]
    if scene.outline:
        _outline_walls(image, scene.outline)
        # the path and the sprites go over the outlined walls, painted on a clear layer
        layer = np.zeros_like(canvas)
        layer_grid = layer.reshape(rows + 1, cell, columns + 1, cell)
        if scene.path_x.size:
            _paint_path(scene, layer_grid)
        if scene.sprites is not None:
            _paint_sprites(scene, layer_grid)
        target = image[margin : margin + used_h, margin : margin + used_w]
        np.copyto(target, layer[:used_h, :used_w], where=layer[:used_h, :used_w] != 0)
    return image


def _fill_glyph(scene: Scene, grid: Pixels) -> None:
    """On a board the "42" is one filled shape: the walls and posts between its cells too."""
    rows, columns, wall = scene.geometry.rows, scene.geometry.columns, scene.geometry.wall
    vertical, horizontal, posts = glyph_joints(scene.cells)
    _paint(grid[:rows, wall:, 1:columns, :wall], Ink.PATTERN, vertical)
    _paint(grid[1:rows, :wall, :columns, wall:], Ink.PATTERN, horizontal)
    _paint(grid[1:rows, :wall, 1:columns, :wall], Ink.PATTERN, posts)


def _dilate(mask: npt.NDArray[np.bool_], reach: int) -> npt.NDArray[np.bool_]:
    """``mask`` grown by ``reach`` pixels in every direction (a square), clipped to its shape."""
    grown = mask.copy()
    for shift in range(1, reach + 1):
        grown[:, shift:] |= mask[:, :-shift]
        grown[:, :-shift] |= mask[:, shift:]
    wide = grown.copy()
    for shift in range(1, reach + 1):
        grown[shift:, :] |= wide[:-shift, :]
        grown[:-shift, :] |= wide[shift:, :]
    return grown


def _outline_walls(image: Pixels, line: int) -> None:
    """Double-line walls: the wall bands and "42" cells become background, edged by a line
    ``line`` px thick just outside them, in the wall ink."""
    band = image == Ink.WALL
    mass = band | (image == Ink.PATTERN)
    edge = _dilate(mass, line) & ~mass
    image[band] = Ink.BACKGROUND
    image[edge] = Ink.WALL


def _paint_sprites(scene: Scene, grid: Pixels) -> None:
    """Each sprite's stamp in the inside of every cell that holds it."""
    from .sprites import SPRITES, stamp

    assert scene.sprites is not None  # the caller checked
    geometry = scene.geometry
    rows, columns, wall = geometry.rows, geometry.columns, geometry.wall
    side = geometry.cell - wall
    insides = grid[:rows, wall:, :columns, wall:]  # [row, dy, column, dx]
    for sprite in SPRITES:
        where = scene.sprites == sprite
        picture = stamp(sprite, side)
        if where.sum() <= 16:  # a few cells: paint each one
            for y, x in np.argwhere(where).tolist():
                np.copyto(insides[y, :, x, :], picture, where=picture != 0)
        elif where.any():
            np.copyto(
                insides,
                picture[None, :, None, :],
                where=where[:, None, :, None] & (picture != 0)[None, :, None, :],
            )


def _paint_path(scene: Scene, grid: Pixels) -> None:
    """The path band: a square in each path cell and a bridge for each step between two."""
    geometry = scene.geometry
    rows, columns = geometry.rows, geometry.columns
    start, end = geometry.path_offset, geometry.path_offset + geometry.path_width
    _paint(grid[:rows, start:end, :columns, start:end], Ink.PATH, path_mask(scene))
    # A step joins cell (min x, y) to its east or south neighbour; N and W steps are E and S
    # seen from the other side. A block of steps at a time, to keep temporaries short.
    east = np.zeros((rows, columns), dtype=bool)
    south = np.zeros((rows, columns), dtype=bool)
    for first in range(0, scene.path_x.size - 1, STEP_BLOCK):
        xs = scene.path_x[first : first + STEP_BLOCK + 1]
        ys = scene.path_y[first : first + STEP_BLOCK + 1]
        horizontal = ys[1:] == ys[:-1]
        east[ys[1:][horizontal], np.minimum(xs[1:], xs[:-1])[horizontal]] = True
        vertical = ~horizontal
        south[np.minimum(ys[1:], ys[:-1])[vertical], xs[1:][vertical]] = True
    east, south = east[:, :-1], south[:-1, :]
    _paint(grid[:rows, start:end, : columns - 1, end:], Ink.PATH, east)
    _paint(grid[:rows, start:end, 1:columns, :start], Ink.PATH, east)
    _paint(grid[: rows - 1, end:, :columns, start:end], Ink.PATH, south)
    _paint(grid[1:rows, :start, :columns, start:end], Ink.PATH, south)


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    check = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", check)


def _packed(pixels: Pixels, bits: int) -> Pixels:
    """Rows of ``pixels`` (values below 2**bits) packed ``8 // bits`` to a byte, the leftmost
    pixel in the high bits, each row padded with zeros to a whole byte (the PNG layout)."""
    if bits == 8:
        return pixels
    per_byte = 8 // bits
    packed = np.left_shift(pixels[:, 0::per_byte], np.uint8(8 - bits))  # every byte's first
    for i in range(1, per_byte):
        part = pixels[:, i::per_byte]
        shift = 8 - bits * (i + 1)
        packed[:, : part.shape[1]] |= part << np.uint8(shift) if shift else part
    return packed


def encode_png(pixels: Pixels, palette: list[tuple[int, int, int]]) -> bytes:
    """The PNG file of palette indices ``pixels`` (H x W) in ``palette``'s colours.

    Chunks IHDR, PLTE, IDAT and IEND only (no time, no text), so the bytes are reproducible;
    1, 2 or 4 bits a pixel when the palette has at most 2, 4 or 16 colours, else 8.
    """
    height, width = pixels.shape
    colors = len(palette)
    bits = 1 if colors <= 2 else 2 if colors <= 4 else 4 if colors <= 16 else 8
    packed = _packed(pixels, bits)
    rows = np.empty((height, packed.shape[1] + 1), dtype=np.uint8)
    rows[:, 0] = 2  # filter Up: each byte minus the one above (the first row: minus 0)
    rows[:, 1:] = packed
    np.subtract(rows[1:, 1:], packed[:-1], out=rows[1:, 1:])  # modulo 256, as PNG wants
    del packed
    header = struct.pack(">IIBBBBB", width, height, bits, 3, 0, 0, 0)  # colour type 3: palette
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(channel for rgb in palette for channel in rgb)),
            _chunk(b"IDAT", zlib.compress(rows.data, ZLIB_LEVEL)),
            _chunk(b"IEND", b""),
        ]
    )


def render_png(scene: Scene) -> bytes:
    """The PNG file of ``scene``: a palette image, no metadata, so the bytes are reproducible."""
    pixels = rasterize(scene)
    # the plain themes' eight inks, or as many as the picture uses: plain pictures keep the
    # palette they had before the board's sprites were added to Ink
    inks = max(PLAIN_INKS, int(pixels.max()) + 1)
    return encode_png(pixels, list(scene.palette[:inks]))
