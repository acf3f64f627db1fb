"""Braiding: open walls of real dead ends, then walls for loops, until a maze is a board.

Opens walls of real dead ends (specs/dead-ends.md) until few are left, then opens further walls
until the board has enough loops (specs/pacman.md), and never opens a border wall, a wall of a
pattern cell, or a wall that would make a 3x3 open area. ``mazekit generate --imperfect`` and
``mazekit pacmanize`` both stand on this engine; it starts from the facts of an Analysis, so a
caller that has validated the maze already does not compute them again.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from .analysis import Analysis, BoolGrid
from .board import MAX_DEAD_ENDS, MIN_LOOPS, openable_bits
from .errors import BoardError
from .kernels import large_empty, load
from .model import ALL_WALLS, DEGREE, DIRECTIONS, EAST, NORTH, SOUTH, WEST, Maze, Walls
from .rng import make_rng, pop_random, shuffle
from .search import shortest_path

__all__ = ["braid", "braid_walls"]

# The compiled loops of _Board.braid and _Board.add_loops (src/c/braid.c), or None.
_KERNEL = load("braid")

# Per direction 0..3 (N, E, S, W: model.DIRECTIONS), its wall bit and its opposite's.
_BITS = tuple(d.bit for d in DIRECTIONS)
_OPPOSITE = tuple(d.opposite for d in DIRECTIONS)


def braid_walls(
    facts: Analysis,
    *,
    max_dead_ends: int = MAX_DEAD_ENDS,
    min_loops: int = MIN_LOOPS,
    target: int | None = None,
    rng: random.Random | None = None,
    source: str | None = None,
) -> Walls:
    """The walls of ``facts.maze`` braided into a board; the maze itself is not changed.

    Opens walls of real dead ends, in a random order, until at most ``target`` (default
    ``max_dead_ends``) are left, then opens random walls until there are ``min_loops`` loops.
    Raises BoardError when the result would keep more than ``max_dead_ends`` real dead ends
    or fewer than ``min_loops`` loops; ``source`` names the maze in it.
    """
    return _braided(facts, max_dead_ends, min_loops, target, rng, source).walls()


def _braided(
    facts: Analysis,
    max_dead_ends: int,
    min_loops: int,
    target: int | None,
    rng: random.Random | None,
    source: str | None,
) -> _Board:
    """The board of braid_walls once braided, its open bits at hand for the new path."""
    board = _Board(facts, rng or make_rng(0), source)
    board.braid(max_dead_ends if target is None else target)
    board.add_loops(min_loops)
    if board.remaining > max_dead_ends:
        one = board.remaining == 1
        raise BoardError(
            f"{board.remaining} real dead end{'' if one else 's'} "
            f"{'remains' if one else 'remain'}, more than the {max_dead_ends} allowed "
            f"({'its' if one else 'their'} walls face cells that cannot be reached)",
            source,
        )
    return board


def braid(
    maze: Maze,
    *,
    max_dead_ends: int = MAX_DEAD_ENDS,
    min_loops: int = MIN_LOOPS,
    target: int | None = None,
    rng: random.Random | None = None,
    pattern: BoolGrid | None = None,
    facts: Analysis | None = None,
    source: str | None = None,
) -> Maze:
    """A braided copy of ``maze`` (see braid_walls) with a new shortest path.

    ``pattern`` replaces the "42" as the cells never opened; ``facts`` is an Analysis of
    ``maze`` already at hand (its pattern then rules); ``source`` names the maze in errors.
    """
    facts = facts if facts is not None else Analysis(maze, pattern_mask=pattern)
    board = _braided(facts, max_dead_ends, min_loops, target, rng, source)
    walls, bits = board.walls(), board.open_bits()  # its moves: no new open_bits pass
    del board  # its frames (6 bytes a cell) are not needed by the search
    path = shortest_path(walls, maze.entry, maze.exit, bits) if maze.contains(maze.exit) else None
    return Maze(walls, maze.entry, maze.exit, path or "")


# Per set of open bits 0..15, the directions (0..3: N, E, S, W) whose wall is closed.
_CLOSED = tuple(tuple(d for d in range(4) if not bits & _BITS[d]) for bits in range(16))
_KEEP = tuple(ALL_WALLS ^ bit for bit in _BITS)  # per direction, the mask that clears its bit
_NO_BLOCK = 100  # closed-wall count of a block slot outside the grid: never comes down to 1
# Swapping walls when random opening falls short of --min-loops (specs/pacman.md): at most
# _SWAP_ROUNDS passes over the walls opened for loops, and at most _SWAP_BUDGET tries in all.
_SWAP_ROUNDS = 12
_SWAP_BUDGET = 60_000


def _block_counts(facts: Analysis, stride: int) -> bytearray:
    """Closed inner walls of every 3x3 block (Analysis.closed_in_blocks), by its top-left
    cell's framed index + 2 rows.

    A wall completes an open area exactly when some block holding it has it as its one closed
    wall (a count of 1). Slots of blocks that do not fit in the grid hold _NO_BLOCK.
    """
    height, width = facts.maze.walls.shape
    counts = np.full((height + 4, stride), _NO_BLOCK, dtype=np.uint8)
    if height >= 3 and width >= 3:
        counts[3 : height + 1, 1 : width - 1] = facts.closed_in_blocks
    return bytearray(counts.tobytes())


# A _Board's flat arrays: bytearrays for the reference's loops, slices of one numpy array for
# the kernels (which take any writable buffer).
Frame = bytearray | npt.NDArray[np.uint8]


class _Board:
    """Braiding state over flat arrays padded by one closed ring (no bounds checks needed).

    ``blocks`` keeps, for every 3x3 block, how many of its 12 inner walls are closed, so that
    whether a wall may open is 6 look-ups, and opening or closing it 6 updates.
    """

    def __init__(self, facts: Analysis, rng: random.Random, source: str | None = None) -> None:
        self.source = source
        walls = facts.maze.walls
        height, width = walls.shape
        self.width, self.height = width, height
        self.stride = stride = width + 2
        self.loops = facts.loops
        self.rng = rng
        self.shuffle = shuffle
        self.offsets = (-stride, 1, stride, -1)
        self.frame: Frame
        self.moves: Frame
        self.usable: Frame
        self.real: Frame
        self.openable: Frame
        self.blocks: Frame
        if _KERNEL is not None:  # the same frames in one pass, none of the facts' numpy arrays
            # One array holds them all, in huge pages when big (kernels.large_empty): six
            # bytearrays cost a fresh process 1,800 page faults at 1M cells, more than the pass.
            size = (height + 2) * stride
            store = large_empty(6 * size + 2 * stride, np.uint8)
            self.frame, self.moves, self.usable, self.real, self.openable = (
                store[k * size : (k + 1) * size] for k in range(5)
            )
            self.blocks = store[5 * size :]
            self.remaining = _KERNEL.board(
                np.ascontiguousarray(walls, dtype=np.uint8),
                np.ascontiguousarray(facts.reachable), np.ascontiguousarray(facts.pattern),
                width, self.frame, self.moves, self.usable, self.real, self.openable, self.blocks,
            )  # fmt: skip
        else:
            usable = facts.reachable & ~facts.pattern
            real, moves = facts.dead_ends[0], facts.moves

            def framed(inner: npt.NDArray[np.uint8], ring: int) -> bytearray:
                frame = np.full((height + 2, stride), ring, dtype=np.uint8)
                frame[1:-1, 1:-1] = inner
                return bytearray(frame.tobytes())

            self.frame = framed(walls.astype(np.uint8), ALL_WALLS)
            self.moves = framed(moves, 0)  # coherent open walls only
            self.usable = framed(usable.astype(np.uint8), 0)
            self.real = framed(real.astype(np.uint8), 0)
            self.openable = framed(openable_bits(facts.pattern), 0)
            self.remaining = int(real.sum())
            self.blocks = _block_counts(facts, stride)
        # Per direction, the block slots (relative to the cell) of the blocks holding that wall.
        base = 2 * stride
        east = tuple(base + dx + dy * stride for dy in (-2, -1, 0) for dx in (-1, 0))
        south = tuple(base + dx + dy * stride for dy in (-1, 0) for dx in (-2, -1, 0))
        self.block_offsets = (
            tuple(slot - stride for slot in south),
            east,
            south,
            tuple(slot - 1 for slot in east),
        )

    def walls(self) -> Walls:
        """The current walls as an H x W array."""
        frame = np.frombuffer(self.frame, dtype=np.uint8).reshape(self.height + 2, self.stride)
        return frame[1:-1, 1:-1].copy()

    def open_bits(self) -> npt.NDArray[np.uint8]:
        """search.open_bits of the current walls, as an H x W array: ``moves`` is kept equal to
        it (a wall opens and closes on both sides at once), so it is only cut out of the frame."""
        moves = np.frombuffer(self.moves, dtype=np.uint8).reshape(self.height + 2, self.stride)
        return moves[1:-1, 1:-1].copy()

    def _set(self, cell: int, direction: int, opened: bool) -> None:
        """Open (or close) the wall of ``cell`` towards ``direction`` on both sides."""
        near = cell + self.offsets[direction]
        bit, opposite = _BITS[direction], _OPPOSITE[direction]
        blocks = self.blocks
        if opened:
            self.frame[cell] &= ALL_WALLS ^ bit
            self.frame[near] &= ALL_WALLS ^ opposite
            self.moves[cell] |= bit
            self.moves[near] |= opposite
            self.loops += 1
            for slot in self.block_offsets[direction]:
                blocks[cell + slot] -= 1
            for end in (cell, near):
                if self.real[end]:
                    self.real[end] = 0
                    self.remaining -= 1
        else:
            self.frame[cell] |= bit
            self.frame[near] |= opposite
            self.moves[cell] &= ALL_WALLS ^ bit
            self.moves[near] &= ALL_WALLS ^ opposite
            self.loops -= 1
            for slot in self.block_offsets[direction]:
                blocks[cell + slot] += 1
            for end in (cell, near):  # closing may bring back a dead end braiding had opened
                here = self.moves[end]
                if (
                    self.usable[end]
                    and DEGREE[here] == 1
                    and self.openable[end] & ~here
                    and not self.real[end]
                ):
                    self.real[end] = 1
                    self.remaining += 1

    def _swap(self, cell: int, direction: int) -> None:
        """Open a wall of a dead end that completes a 3x3 block, and close one inside it.

        A dead end is a corner of that block (it has two inner walls there), so the block is
        unique. The wall closed lies between the block's centre and a side cell other than
        the dead end's new neighbour: the centre keeps 3 open walls and the side cell at least
        2, the block stays connected, and the loop count does not change.
        """
        (slot,) = [
            cell + offset
            for offset in self.block_offsets[direction]
            if self.blocks[cell + offset] == 1
        ]
        self._set(cell, direction, True)
        centre = slot - self.stride + 1  # the slot is the top-left cell's index + 2 rows
        near = cell + self.offsets[direction]
        sides = [d for d in range(4) if centre + self.offsets[d] != near]
        self._set(centre, sides[int(self.rng.random() * len(sides))], False)

    def braid(self, target: int) -> None:
        """Fix real dead ends in a random order until at most ``target`` remain.

        Each gets one wall opened towards a usable cell, preferring one that is a dead end too
        (one opening fixes two), never one that completes a 3x3 block unless every choice
        does (then _swap). The hot loop of pacmanize: everything it touches is a local.
        """
        real, moves, usable, frame, blocks = (
            self.real,
            self.moves,
            self.usable,
            self.frame,
            self.blocks,
        )
        offsets, block_offsets, rng, shuffle = (
            self.offsets,
            self.block_offsets,
            self.rng,
            self.shuffle,
        )
        if _KERNEL is not None:  # the same loop compiled, the list of dead ends and shuffle too
            self.remaining, self.loops = _KERNEL.braid(
                frame, moves, usable, real, self.openable, blocks, self.stride,
                self.remaining, self.loops, target, rng,
            )  # fmt: skip
            return
        cells = np.flatnonzero(np.frombuffer(real, dtype=np.uint8))
        order: list[int] = cells.tolist()
        del cells
        shuffle(order, rng)
        rand = rng.random
        remaining, loops = self.remaining, self.loops
        for cell in order:
            if remaining <= target:
                break
            if not real[cell]:
                continue
            joins: list[int] = []
            others: list[int] = []
            for direction in _CLOSED[moves[cell]]:
                near = cell + offsets[direction]
                if usable[near]:
                    (joins if real[near] else others).append(direction)
            # shuffled as mazekit.rng.shuffle does (same draws), inline for 2 or 3 items
            for group in (joins, others) if joins else (others,):
                size = len(group)
                if size == 3:
                    pick = int(rand() * 3)
                    group[2], group[pick] = group[pick], group[2]
                    size = 2
                if size == 2:
                    pick = int(rand() * 2)
                    group[1], group[pick] = group[pick], group[1]
            choices = joins + others if joins else others
            for direction in choices:
                slots = block_offsets[direction]
                if (
                    blocks[cell + slots[0]] == 1
                    or blocks[cell + slots[1]] == 1
                    or blocks[cell + slots[2]] == 1
                    or blocks[cell + slots[3]] == 1
                    or blocks[cell + slots[4]] == 1
                    or blocks[cell + slots[5]] == 1
                ):
                    continue
                near = cell + offsets[direction]
                frame[cell] &= _KEEP[direction]
                frame[near] &= _KEEP[direction ^ 2]
                moves[cell] |= _BITS[direction]
                moves[near] |= _OPPOSITE[direction]
                for slot in slots:
                    blocks[cell + slot] -= 1
                loops += 1
                real[cell] = 0
                remaining -= 1
                if real[near]:
                    real[near] = 0
                    remaining -= 1
                break
            else:
                if choices:  # rare: hand the counts over to the general methods and back
                    self.remaining, self.loops = remaining, loops
                    self._swap(cell, choices[0])
                    remaining, loops = self.remaining, self.loops
        self.remaining, self.loops = remaining, loops

    def loop_bound(self, candidates: int) -> int:
        """At most how many loops fit: every wall between usable cells open but those needed.

        Each 3x3 block of usable cells (not already open) needs one of its walls closed, and
        a wall lies in at most 6 blocks, so at least blocks / 6 of the ``candidates`` (closed
        walls between usable cells) stay closed. The same for every seed.
        """
        usable = np.frombuffer(self.usable, dtype=np.uint8).reshape(-1, self.stride) != 0
        rows = usable[:, :-2] & usable[:, 1:-1] & usable[:, 2:]
        full = rows[:-2] & rows[1:-1] & rows[2:]  # by the top-left cell's framed row, column
        counts = np.frombuffer(self.blocks, dtype=np.uint8).reshape(-1, self.stride)
        closed = counts[2 : 2 + full.shape[0], : full.shape[1]] > 0  # slot: 2 rows down
        blocks = int((full & closed).sum())
        return self.loops + candidates - (blocks + 5) // 6

    def add_loops(self, wanted: int) -> None:
        """Open random walls between usable cells until there are ``wanted`` loops.

        When every wall left would complete a 3x3 open area first, swap walls (_improve);
        BoardError when that falls short too.
        """
        if self.loops >= wanted:
            return
        usable = np.frombuffer(self.usable, dtype=np.uint8).astype(bool)
        moves = np.frombuffer(self.moves, dtype=np.uint8)
        stride = self.stride
        east = usable[:-1] & usable[1:] & ((moves[:-1] & EAST) == 0)
        south = usable[:-stride] & usable[stride:] & ((moves[:-stride] & SOUTH) == 0)
        walls = np.sort(np.concatenate((np.flatnonzero(east) * 2, np.flatnonzero(south) * 2 + 1)))
        del east, south
        bound = self.loop_bound(len(walls))
        if wanted > bound:
            raise BoardError(
                f"cannot make {wanted} loops: at most {bound} fit without a 3x3 open area",
                self.source,
            )
        if _KERNEL is not None:  # the same random opening compiled
            opened_codes = np.empty_like(walls)
            self.remaining, self.loops, count = _KERNEL.add_loops(
                self.frame, self.moves, self.usable, self.real, self.openable, self.blocks,
                walls, opened_codes, stride, self.remaining, self.loops, wanted, self.rng,
            )  # fmt: skip
            self._finish_loops(wanted, opened_codes[:count])
            return
        codes: list[int] = walls.tolist()
        del walls
        rand = self.rng.random
        frame, moves_, real, blocks = self.frame, self.moves, self.real, self.blocks
        sides = (
            (1, EAST, WEST, self.block_offsets[1]),
            (stride, SOUTH, NORTH, self.block_offsets[2]),
        )
        opened: list[int] = []
        loops = self.loops
        while loops < wanted and codes:
            code = pop_random(codes, rand)
            cell = code >> 1
            step, bit, opposite, slots = sides[code & 1]
            if (
                blocks[cell + slots[0]] == 1
                or blocks[cell + slots[1]] == 1
                or blocks[cell + slots[2]] == 1
                or blocks[cell + slots[3]] == 1
                or blocks[cell + slots[4]] == 1
                or blocks[cell + slots[5]] == 1
            ):
                continue
            near = cell + step
            frame[cell] &= ALL_WALLS ^ bit
            frame[near] &= ALL_WALLS ^ opposite
            moves_[cell] |= bit
            moves_[near] |= opposite
            for slot in slots:
                blocks[cell + slot] -= 1
            loops += 1
            for end in (cell, near):
                if real[end]:
                    real[end] = 0
                    self.remaining -= 1
            opened.append(code)
        self.loops = loops
        self._finish_loops(wanted, np.array(opened, dtype=np.int64))

    def _finish_loops(self, wanted: int, opened: npt.NDArray[np.int64]) -> None:
        """After random opening: swap walls when it fell short, BoardError when still short."""
        if self.loops < wanted:
            self._improve(wanted, opened)
        if self.loops < wanted:
            raise BoardError(
                f"cannot make {wanted} loops: braiding found room for {self.loops} without a "
                "3x3 open area (another --seed may find more)",
                self.source,
            )

    def _near_walls(self) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """Walls sharing a 3x3 block with a wall, as sorted code deltas (code: 2 x cell + 0
        for an east wall, + 1 for a south wall), for an east and for a south wall, indexed by
        which of the 6 blocks holding the wall lie inside the grid (a 6-bit mask)."""
        stride = self.stride
        tables: list[list[tuple[int, ...]]] = []
        for side in (0, 1):
            per_block: list[set[int]] = []
            for slot in self.block_offsets[1 + side]:
                corner = slot - 2 * stride  # the block's top-left cell, from the wall's cell
                deltas: set[int] = set()
                for row in range(3):
                    for column in range(3):
                        at = corner + row * stride + column
                        if column < 2:
                            deltas.add(2 * at - side)
                        if row < 2:
                            deltas.add(2 * at + 1 - side)
                deltas.discard(0)
                per_block.append(deltas)
            tables.append(
                [
                    tuple(
                        sorted(set().union(*(d for i, d in enumerate(per_block) if mask >> i & 1)))
                    )
                    for mask in range(64)
                ]
            )
        return tables[0], tables[1]

    def _improve(self, wanted: int, opened: npt.NDArray[np.int64]) -> None:
        """Swap walls until there are ``wanted`` loops, or the rounds or the budget run out.

        Each try closes a wall ``add_loops`` opened and opens every closed wall between usable
        cells that shares a 3x3 block with it and may now open: two or more is a loop gained,
        one moves the search on (a swap), none puts the wall back. Only walls opened for loops
        are closed, so every wall braiding opened stays open: every cell stays reached, and no
        cell has fewer open walls than braiding left it (no dead end it fixed comes back).
        """
        if _KERNEL is not None:  # the same tries compiled
            self.remaining, self.loops = _KERNEL.improve(
                self.frame, self.moves, self.usable, self.real, self.openable, self.blocks,
                opened, self.stride, self.remaining, self.loops, wanted, _SWAP_ROUNDS,
                _SWAP_BUDGET, self.rng,
            )  # fmt: skip
            return
        moves, usable, blocks = self.moves, self.usable, self.blocks
        block_offsets, near_walls = self.block_offsets, self._near_walls()
        steps = (1, self.stride)  # to the far cell of an east wall, of a south wall
        rand = self.rng.random
        live = set(opened.tolist())
        budget = _SWAP_BUDGET
        for _ in range(_SWAP_ROUNDS):
            order = sorted(live)
            count = len(order)
            for index in range(count):  # a random order, drawn as far as the tries go
                if self.loops >= wanted or budget == 0:
                    return
                budget -= 1
                pick = index + int(rand() * (count - index))
                order[index], order[pick] = order[pick], order[index]
                code = order[index]
                cell, side = code >> 1, code & 1
                slots = block_offsets[1 + side]
                self._set(cell, 1 + side, False)
                inside = 0  # which of the 6 blocks holding the wall lie inside the grid
                for index, slot in enumerate(slots):
                    if blocks[cell + slot] <= 12:
                        inside |= 1 << index
                gained: list[int] = []
                for delta in near_walls[side][inside]:
                    wall = code + delta
                    at, way = wall >> 1, wall & 1
                    if moves[at] & (SOUTH if way else EAST) or not (
                        usable[at] and usable[at + steps[way]]
                    ):
                        continue
                    others = block_offsets[1 + way]
                    if (
                        blocks[at + others[0]] == 1
                        or blocks[at + others[1]] == 1
                        or blocks[at + others[2]] == 1
                        or blocks[at + others[3]] == 1
                        or blocks[at + others[4]] == 1
                        or blocks[at + others[5]] == 1
                    ):
                        continue
                    self._set(at, 1 + way, True)
                    gained.append(wall)
                if gained:
                    live.discard(code)
                    live.update(gained)
                else:
                    self._set(cell, 1 + side, True)
