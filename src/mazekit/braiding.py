"""Braiding: open walls of real dead ends, then walls for loops, until a maze is a board.

Opens walls of real dead ends (specs/dead-ends.md) until few are left, then opens further walls
until the board has enough loops (specs/pacman.md), and never opens a border wall, a wall of a
pattern cell, or a wall that would make a 3x3 open area. ``mazekit generate --imperfect`` and
``mazekit pacmanize`` both stand on this engine; it starts from the facts of an Analysis, so a
caller that has validated the maze already does not compute them again.

The steps, each a method of _Board:

1. frame the facts: walls, open bits, usable cells, real dead ends, and per 3x3 block its
   closed inner walls (a wall whose block has it as the one closed wall may not open);
2. braid: the real dead ends in a random order (blocks of BLOCK in index order, the blocks
   in a random order, each shuffled); each opens a wall towards a usable cell, another dead
   end first, never one that completes a 3x3 block (_swap when each would);
3. add_loops: random closed walls between usable cells, until there are enough loops;
4. _improve, when that falls short: move walls opened for loops to make room for more.

The C twin (src/c/braid.c) runs the same steps with the same random draws.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from .analysis import Analysis, BoolGrid
from .board import MAX_DEAD_ENDS, MIN_LOOPS, openable_bits
from .errors import BoardError
from .kernels import large_empty, load
from .model import ALL_WALLS, DEGREE, DIRECTIONS, EAST, SOUTH, Maze, Walls
from .rng import below, make_rng, pop_random, shuffle
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
_NO_BLOCK = 100  # closed-wall count of a block slot outside the grid: never comes down to 1
# Swapping walls when random opening falls short of --min-loops (specs/pacman.md): at most
# _SWAP_ROUNDS passes over the walls opened for loops, and at most _SWAP_BUDGET tries in all.
_SWAP_ROUNDS = 12
_SWAP_BUDGET = 60_000
# The real dead ends are shuffled and fixed a block of this many at a time (in index order,
# the blocks in a random order: BRAID_BLOCK in src/c/braid.c), so that the fixes of a block
# read one band of a large grid, in cache (specs/performance.md); one block is a plain shuffle.
BLOCK = 1 << 18


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

    A cell is an index into the frames (row * stride + column, the ring included); a wall is
    a cell and a direction 0..3 (N, E, S, W), or, for the walls opened for loops, a code:
    2 x cell, + 1 for its south wall (0 for its east wall). The frames:

    - ``frame``: the walls; ``moves``: the open bits of coherent walls (search.open_bits);
    - ``usable``: reachable cells outside the "42"; ``openable``: the walls that may open;
    - ``real``: the real dead ends still to fix (``remaining`` of them);
    - ``blocks``: per 3x3 block, how many of its 12 inner walls are closed, so whether a wall
      may open is 6 look-ups, and opening or closing it 6 updates.

    This is the reference: each step below is written to be read. Its C twin (src/c/braid.c,
    mazekit._cbraid) runs the same steps with the same random draws, and
    tests/test_braid_kernels.py holds the two to the same bytes.
    """

    def __init__(self, facts: Analysis, rng: random.Random, source: str | None = None) -> None:
        self.source = source
        height, width = facts.maze.walls.shape
        self.width, self.height = width, height
        self.stride = stride = width + 2
        self.loops = facts.loops
        self.rng = rng
        self.offsets = (-stride, 1, stride, -1)  # per direction, the step to the neighbour
        self.frame: Frame
        self.moves: Frame
        self.usable: Frame
        self.real: Frame
        self.openable: Frame
        self.blocks: Frame
        self.remaining: int
        if _KERNEL is not None:
            self._frame_in_one_pass(facts)
        else:
            self._frame_the_facts(facts)
        # Per direction, the block slots (relative to the cell) of the 6 blocks holding that
        # wall; a block's slot is its top-left cell's index + 2 rows (see _block_counts).
        base = 2 * stride
        east = tuple(base + dx + dy * stride for dy in (-2, -1, 0) for dx in (-1, 0))
        south = tuple(base + dx + dy * stride for dy in (-1, 0) for dx in (-2, -1, 0))
        self.block_offsets = (
            tuple(slot - stride for slot in south),
            east,
            south,
            tuple(slot - 1 for slot in east),
        )

    def _frame_the_facts(self, facts: Analysis) -> None:
        """The frames from the Analysis's numpy grids, each padded by its ring value."""
        height, stride = self.height, self.stride

        def framed(inner: npt.NDArray[np.uint8], ring: int) -> bytearray:
            frame = np.full((height + 2, stride), ring, dtype=np.uint8)
            frame[1:-1, 1:-1] = inner
            return bytearray(frame.tobytes())

        real = facts.dead_ends[0]
        self.frame = framed(facts.maze.walls.astype(np.uint8), ALL_WALLS)
        self.moves = framed(facts.moves, 0)  # coherent open walls only
        self.usable = framed((facts.reachable & ~facts.pattern).astype(np.uint8), 0)
        self.real = framed(real.astype(np.uint8), 0)
        self.openable = framed(openable_bits(facts.pattern), 0)
        self.remaining = int(real.sum())
        self.blocks = _block_counts(facts, stride)

    def _frame_in_one_pass(self, facts: Analysis) -> None:
        """The same frames from the kernel's one pass over the walls, none of the facts' numpy
        grids. One array holds them all, in huge pages when big (kernels.large_empty): six
        bytearrays cost a fresh process 1,800 page faults at 1M cells, more than the pass."""
        height, width, stride = self.height, self.width, self.stride
        size = (height + 2) * stride
        store = large_empty(6 * size + 2 * stride, np.uint8)
        self.frame, self.moves, self.usable, self.real, self.openable = (
            store[k * size : (k + 1) * size] for k in range(5)
        )
        self.blocks = store[5 * size :]
        walls = facts.maze.walls
        self.remaining = _KERNEL.board(
            np.ascontiguousarray(walls, dtype=np.uint8),
            np.ascontiguousarray(facts.reachable), np.ascontiguousarray(facts.pattern),
            width, self.frame, self.moves, self.usable, self.real, self.openable, self.blocks,
        )  # fmt: skip

    def walls(self) -> Walls:
        """The current walls as an H x W array."""
        frame = np.frombuffer(self.frame, dtype=np.uint8).reshape(self.height + 2, self.stride)
        return frame[1:-1, 1:-1].copy()

    def open_bits(self) -> npt.NDArray[np.uint8]:
        """search.open_bits of the current walls, as an H x W array: ``moves`` is kept equal to
        it (a wall opens and closes on both sides at once), so it is only cut out of the frame."""
        moves = np.frombuffer(self.moves, dtype=np.uint8).reshape(self.height + 2, self.stride)
        return moves[1:-1, 1:-1].copy()

    # The questions every step asks.

    def _completes_open_area(self, cell: int, direction: int) -> bool:
        """Whether opening this wall makes a 3x3 open area: a block holding it has it as its
        one closed wall."""
        blocks = self.blocks
        return any(blocks[cell + slot] == 1 for slot in self.block_offsets[direction])

    def _blocks_inside(self, cell: int, direction: int) -> int:
        """Which of the 6 blocks holding this wall lie inside the grid, as a 6-bit mask (a
        block outside holds _NO_BLOCK; one inside at most 12 closed walls)."""
        slots = self.block_offsets[direction]
        return sum(1 << i for i, slot in enumerate(slots) if self.blocks[cell + slot] <= 12)

    def _is_new_dead_end(self, cell: int) -> bool:
        """Whether ``cell`` has become a real dead end that is not counted yet: usable, one
        open wall, and a wall it may open."""
        here = self.moves[cell]
        return bool(
            self.usable[cell]
            and DEGREE[here] == 1
            and self.openable[cell] & ~here
            and not self.real[cell]
        )

    # The two changes: every step opens or closes walls through these.

    def _open(self, cell: int, direction: int) -> None:
        """Open the wall of ``cell`` towards ``direction`` on both sides: one loop more, its
        blocks one closed wall fewer, and either side that was a real dead end is fixed."""
        near = cell + self.offsets[direction]
        self.frame[cell] &= ALL_WALLS ^ _BITS[direction]
        self.frame[near] &= ALL_WALLS ^ _OPPOSITE[direction]
        self.moves[cell] |= _BITS[direction]
        self.moves[near] |= _OPPOSITE[direction]
        self.loops += 1
        for slot in self.block_offsets[direction]:
            self.blocks[cell + slot] -= 1
        for end in (cell, near):
            if self.real[end]:
                self.real[end] = 0
                self.remaining -= 1

    def _close(self, cell: int, direction: int) -> None:
        """Close that wall on both sides: one loop fewer, its blocks one closed wall more, and
        a side left with one open wall is a real dead end again."""
        near = cell + self.offsets[direction]
        self.frame[cell] |= _BITS[direction]
        self.frame[near] |= _OPPOSITE[direction]
        self.moves[cell] &= ALL_WALLS ^ _BITS[direction]
        self.moves[near] &= ALL_WALLS ^ _OPPOSITE[direction]
        self.loops -= 1
        for slot in self.block_offsets[direction]:
            self.blocks[cell + slot] += 1
        for end in (cell, near):
            if self._is_new_dead_end(end):
                self.real[end] = 1
                self.remaining += 1

    # Braiding: the real dead ends.

    def braid(self, target: int) -> None:
        """Fix real dead ends in a random order until at most ``target`` remain."""
        if _KERNEL is not None:  # the same steps compiled, the list of dead ends and shuffle too
            self.remaining, self.loops = _KERNEL.braid(
                self.frame, self.moves, self.usable, self.real, self.openable, self.blocks,
                self.stride, self.remaining, self.loops, target, self.rng, BLOCK,
            )  # fmt: skip
            return
        order: list[int] = np.flatnonzero(np.frombuffer(self.real, dtype=np.uint8)).tolist()
        turns = list(range(0, len(order), BLOCK))
        shuffle(turns, self.rng)
        for start in turns:  # each block shuffled in its turn, then fixed
            block = order[start : start + BLOCK]
            shuffle(block, self.rng)
            for cell in block:
                if self.remaining <= target:
                    break
                if self.real[cell]:  # an earlier opening may have fixed it already
                    self._fix_dead_end(cell)

    def _walls_to_try(self, cell: int) -> list[int]:
        """The closed walls of dead end ``cell`` towards usable cells, in the order to try:
        those towards another real dead end first (one opening fixes two), each group in a
        random order."""
        joins: list[int] = []
        others: list[int] = []
        for direction in _CLOSED[self.moves[cell]]:
            near = cell + self.offsets[direction]
            if self.usable[near]:
                (joins if self.real[near] else others).append(direction)
        shuffle(joins, self.rng)
        shuffle(others, self.rng)
        return joins + others

    def _fix_dead_end(self, cell: int) -> None:
        """Open the first wall to try that makes no 3x3 open area; when each does, _swap."""
        choices = self._walls_to_try(cell)
        for direction in choices:
            if not self._completes_open_area(cell, direction):
                self._open(cell, direction)
                return
        if choices:  # rare: every wall completes a block
            self._swap(cell, choices[0])

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
        self._open(cell, direction)
        centre = slot - self.stride + 1  # the slot is the top-left cell's index + 2 rows
        near = cell + self.offsets[direction]
        sides = [d for d in range(4) if centre + self.offsets[d] != near]
        self._close(centre, sides[below(self.rng, len(sides))])

    # Loops: random walls between usable cells.

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

        BoardError at once when more than loop_bound are wanted; when every wall left would
        complete a 3x3 open area first, swap walls (_improve); BoardError when that falls
        short too.
        """
        if self.loops >= wanted:
            return
        codes = self._closed_inner_walls()
        bound = self.loop_bound(len(codes))
        if wanted > bound:
            raise BoardError(
                f"cannot make {wanted} loops: at most {bound} fit without a 3x3 open area",
                self.source,
            )
        if _KERNEL is not None:  # the same random opening compiled
            opened = np.empty_like(codes)
            self.remaining, self.loops, count = _KERNEL.add_loops(
                self.frame, self.moves, self.usable, self.real, self.openable, self.blocks,
                codes, opened, self.stride, self.remaining, self.loops, wanted, self.rng,
            )  # fmt: skip
            self._finish_loops(wanted, opened[:count])
            return
        self._finish_loops(wanted, self._open_random_walls(codes.tolist(), wanted))

    def _closed_inner_walls(self) -> npt.NDArray[np.int64]:
        """The codes of the closed walls between two usable cells, in increasing order."""
        usable = np.frombuffer(self.usable, dtype=np.uint8).astype(bool)
        moves = np.frombuffer(self.moves, dtype=np.uint8)
        stride = self.stride
        east = usable[:-1] & usable[1:] & ((moves[:-1] & EAST) == 0)
        south = usable[:-stride] & usable[stride:] & ((moves[:-stride] & SOUTH) == 0)
        return np.sort(np.concatenate((np.flatnonzero(east) * 2, np.flatnonzero(south) * 2 + 1)))

    def _open_random_walls(self, codes: list[int], wanted: int) -> npt.NDArray[np.int64]:
        """Draw walls from ``codes`` at random and open each that makes no 3x3 open area,
        until there are ``wanted`` loops or no wall is left; the codes of those opened."""
        opened: list[int] = []
        while self.loops < wanted and codes:
            code = pop_random(codes, self.rng.random)
            cell, direction = code >> 1, 1 + (code & 1)  # EAST or SOUTH
            if not self._completes_open_area(cell, direction):
                self._open(cell, direction)
                opened.append(code)
        return np.array(opened, dtype=np.int64)

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
        """Walls sharing a 3x3 block with a wall, as sorted code deltas, for an east and for a
        south wall, indexed by which of the 6 blocks holding the wall lie inside the grid (the
        mask of _blocks_inside)."""
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
        near_walls = self._near_walls()
        live = set(opened.tolist())  # the walls opened for loops, as they stand now
        budget = _SWAP_BUDGET
        for _ in range(_SWAP_ROUNDS):
            order = sorted(live)
            count = len(order)
            for index in range(count):  # a random order, drawn as far as the tries go
                if self.loops >= wanted or budget == 0:
                    return
                budget -= 1
                pick = index + below(self.rng, count - index)
                order[index], order[pick] = order[pick], order[index]
                code = order[index]
                gained = self._try_moving(code, near_walls)
                if gained:
                    live.discard(code)
                    live.update(gained)

    def _try_moving(
        self, code: int, near_walls: tuple[list[tuple[int, ...]], list[tuple[int, ...]]]
    ) -> list[int]:
        """One try of _improve: close wall ``code``, then open every wall near it that may
        open now; the codes opened, or none (and ``code`` is opened again)."""
        cell, side = code >> 1, code & 1
        self._close(cell, 1 + side)
        gained: list[int] = []
        for delta in near_walls[side][self._blocks_inside(cell, 1 + side)]:
            wall = code + delta
            at, way = wall >> 1, wall & 1
            if self._may_open_for_a_loop(at, 1 + way):
                self._open(at, 1 + way)
                gained.append(wall)
        if not gained:
            self._open(cell, 1 + side)
        return gained

    def _may_open_for_a_loop(self, cell: int, direction: int) -> bool:
        """Whether the east or south wall of ``cell`` is closed, joins two usable cells, and
        makes no 3x3 open area."""
        return bool(
            not self.moves[cell] & _BITS[direction]
            and self.usable[cell]
            and self.usable[cell + self.offsets[direction]]
            and not self._completes_open_area(cell, direction)
        )
