/* mazekit._cbraid: the sequential loops of braiding (mazekit.braiding) and of the flood generator
 * (mazekit.generators.flood), as compiled kernels.
 *
 * Each function is a line-by-line copy of its Python reference, which stays beside it: the
 * same cells in the same order, the same random draws (mt19937.h) in the same order, so the
 * same seed gives the same walls and leaves the random.Random in the same state. The arrays
 * are the flat frames the Python side already holds (bytearrays or numpy arrays, one closed
 * ring of padding around the grid), passed through the buffer protocol and changed in place.
 */
#include "mt19937.h"
#include "scratch.h"

#include <stdlib.h>
#include <string.h>

/* Wall bits N, E, S, W (model.DIRECTIONS) and the opposite of each direction 0..3. */
static const unsigned char BIT[4] = {1, 2, 4, 8};
static const unsigned char OPPOSITE[4] = {4, 8, 1, 2};
static const unsigned char DEGREE[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* Ask the cache for the line holding ``address`` ahead of its use: the loops below visit cells
 * in a random order, and at 16M cells each visit would otherwise wait on memory. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)(address))
#endif

/* A function that only prefetches has no effect the compiler can see: called, not inlined,
 * GCC drops the call as dead code, prefetches and all. Such helpers are always inlined. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCHING static inline __attribute__((always_inline))
#else
#define PREFETCHING static inline
#endif

/* How far ahead (in draws, in dead ends) the loops prefetch. */
#define AHEAD 8

/* The random() that ``ahead`` draws from now will return (ahead >= 1), without drawing: -1 when
 * it lies beyond the current block of 624 words. Only to prefetch: the draws stay mt_random's. */
static inline double mt_peek(const MTState *mt, int ahead) {
    int i = mt->index + 2 * (ahead - 1);
    if (i + 1 >= MT_N) return -1.0;
    uint32_t word[2] = {mt->state[i], mt->state[i + 1]};
    for (int k = 0; k < 2; k++) { /* the tempering of mt_next */
        uint32_t y = word[k];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        word[k] = y ^ (y >> 18);
    }
    return ((word[0] >> 5) * 67108864.0 + (word[1] >> 6)) * (1.0 / 9007199254740992.0);
}

/* Advance ``mt`` by one word without tempering it: a draw whose second word does not matter. */
static inline void mt_skip(MTState *mt) {
    if (mt->index >= MT_N)
        (void)mt_next(mt); /* the next block first */
    else
        mt->index++;
}

/* int(random() * 2), one draw: the 53-bit float is at least 1/2 exactly when the top bit of its
 * first word is set, so the second word is skipped, not tempered. */
static inline Py_ssize_t mt_below2(MTState *mt) {
    Py_ssize_t bit = (Py_ssize_t)(mt_next(mt) >> 31);
    mt_skip(mt);
    return bit;
}

/* One draw of Random.random() < 0.5, as 1 or 0 (see mt_below2). */
static inline unsigned mt_half(MTState *mt) { return (unsigned)mt_below2(mt) ^ 1U; }

/* ---------------------------------------------------------------------------------------
 * Braiding: the state of braid._Board over its flat frames.
 * ------------------------------------------------------------------------------------- */

typedef struct {
    unsigned char *frame, *moves, *usable, *real, *openable, *blocks;
    Py_ssize_t size;       /* cells of the frame: (H + 2) x stride */
    Py_ssize_t stride;     /* W + 2 */
    Py_ssize_t offsets[4]; /* per direction, the step to the neighbour */
    Py_ssize_t slots[4][6]; /* per direction, the slots (from the cell) of the blocks holding
                               the wall */
    long long remaining, loops;
} Board;

/* Fill the offsets and block slots of _Board.__init__ for a frame of this stride. */
static void board_tables(Board *b) {
    Py_ssize_t s = b->stride, base = 2 * s;
    b->offsets[0] = -s;
    b->offsets[1] = 1;
    b->offsets[2] = s;
    b->offsets[3] = -1;
    int k = 0;
    for (int dy = -2; dy <= 0; dy++)
        for (int dx = -1; dx <= 0; dx++, k++) b->slots[1][k] = base + dx + dy * s;
    k = 0;
    for (int dy = -1; dy <= 0; dy++)
        for (int dx = -2; dx <= 0; dx++, k++) b->slots[2][k] = base + dx + dy * s;
    for (k = 0; k < 6; k++) {
        b->slots[0][k] = b->slots[2][k] - s;
        b->slots[3][k] = b->slots[1][k] - 1;
    }
}

/* Whether ``cell`` lies off the outer ring, so that its neighbours and block slots are inside
 * the arrays (blocks has two more rows than the frame). Guards against inconsistent input. */
static inline int board_inside(const Board *b, Py_ssize_t cell) {
    return cell >= b->stride && cell < b->size - b->stride;
}

/* Whether opening the wall of ``cell`` towards ``d`` completes a 3x3 open block: some block
 * holding it has it as its last closed wall. */
static inline int board_completes(const Board *b, Py_ssize_t cell, int d) {
    const Py_ssize_t *slot = b->slots[d];
    const unsigned char *blocks = b->blocks;
    return blocks[cell + slot[0]] == 1 || blocks[cell + slot[1]] == 1 ||
           blocks[cell + slot[2]] == 1 || blocks[cell + slot[3]] == 1 ||
           blocks[cell + slot[4]] == 1 || blocks[cell + slot[5]] == 1;
}

/* _Board._set(cell, d, True): open the wall on both sides, count the loop, update the blocks,
 * and clear the real dead ends at both ends. */
static inline void board_open(Board *b, Py_ssize_t cell, int d) {
    Py_ssize_t near = cell + b->offsets[d];
    b->frame[cell] &= (unsigned char)(15 ^ BIT[d]);
    b->frame[near] &= (unsigned char)(15 ^ OPPOSITE[d]);
    b->moves[cell] |= BIT[d];
    b->moves[near] |= OPPOSITE[d];
    b->loops++;
    for (int k = 0; k < 6; k++) b->blocks[cell + b->slots[d][k]]--;
    if (b->real[cell]) {
        b->real[cell] = 0;
        b->remaining--;
    }
    if (b->real[near]) {
        b->real[near] = 0;
        b->remaining--;
    }
}

/* _Board._set(cell, d, False): close the wall on both sides; an end left with one open wall
 * and an openable closed one is a real dead end again. */
static void board_close(Board *b, Py_ssize_t cell, int d) {
    Py_ssize_t near = cell + b->offsets[d];
    b->frame[cell] |= BIT[d];
    b->frame[near] |= OPPOSITE[d];
    b->moves[cell] &= (unsigned char)(15 ^ BIT[d]);
    b->moves[near] &= (unsigned char)(15 ^ OPPOSITE[d]);
    b->loops--;
    for (int k = 0; k < 6; k++) b->blocks[cell + b->slots[d][k]]++;
    Py_ssize_t ends[2] = {cell, near};
    for (int e = 0; e < 2; e++) {
        Py_ssize_t end = ends[e];
        unsigned char here = b->moves[end];
        if (b->usable[end] && DEGREE[here & 15] == 1 && (b->openable[end] & ~here) &&
            !b->real[end]) {
            b->real[end] = 1;
            b->remaining++;
        }
    }
}

/* _Board._swap: open the dead end's wall that completes a block, and close a wall between the
 * block's centre and a side cell other than the dead end's new neighbour (one draw). Returns
 * -1 with ValueError when the wall is not in exactly one such block (inconsistent input; the
 * reference fails there too). */
static int board_swap(Board *b, MTState *mt, Py_ssize_t cell, int d) {
    Py_ssize_t slot = -1;
    int found = 0;
    for (int k = 0; k < 6; k++)
        if (b->blocks[cell + b->slots[d][k]] == 1) {
            slot = cell + b->slots[d][k];
            found++;
        }
    Py_ssize_t centre = slot - b->stride + 1; /* the slot is the top-left cell's index + 2 rows */
    if (found != 1 || !board_inside(b, centre)) {
        PyErr_SetString(PyExc_ValueError, "braid: a dead end's wall in no single 3x3 block");
        return -1;
    }
    board_open(b, cell, d);
    Py_ssize_t near = cell + b->offsets[d];
    int sides[4], count = 0;
    for (int side = 0; side < 4; side++)
        if (centre + b->offsets[side] != near) sides[count++] = side;
    board_close(b, centre, sides[mt_below(mt, count)]);
    return 0;
}

/* Shuffle a group of 2 or 3 directions as braid._Board.braid does inline (mazekit.rng.shuffle's
 * draws: the last item first). */
static inline void shuffle_small(MTState *mt, int *group, int size) {
    if (size == 3) {
        Py_ssize_t pick = mt_below(mt, 3);
        int keep = group[2];
        group[2] = group[pick];
        group[pick] = keep;
        size = 2;
    }
    if (size == 2) {
        Py_ssize_t pick = mt_below2(mt);
        int keep = group[1];
        group[1] = group[pick];
        group[pick] = keep;
    }
}

/* _Board.braid after the order is drawn: fix the real dead ends of ``order`` in turn until at
 * most ``target`` remain. 0, or -1 with an exception set. */
static int board_fix(Board *b, MTState *mt, const int32_t *order, Py_ssize_t count,
                     long long target) {
    for (Py_ssize_t i = 0; i < count; i++) {
        if (b->remaining <= target) break;
        if (i + AHEAD < count) { /* the lines the dead end AHEAD further will read */
            Py_ssize_t later = (Py_ssize_t)order[i + AHEAD], s = b->stride;
            if (board_inside(b, later)) {
                for (Py_ssize_t row = -s; row <= s; row += s) {
                    PREFETCH(b->real + later + row);
                    PREFETCH(b->usable + later + row);
                    PREFETCH(b->moves + later + row);
                    PREFETCH(b->frame + later + row);
                    PREFETCH(b->blocks + later + row + s);
                }
                PREFETCH(b->blocks + later + 2 * s);
            }
        }
        Py_ssize_t cell = (Py_ssize_t)order[i];
        if (!board_inside(b, cell)) {
            PyErr_SetString(PyExc_ValueError, "braid: a dead end on the frame's ring");
            return -1;
        }
        if (!b->real[cell]) continue;
        /* The closed sides towards usable cells, split by whether that cell is a real dead end
         * too, listed in N, E, S, W order without a branch: each side is written at the end
         * of its list, which moves on only when it belongs there. */
        int joins[4], others[4], njoins = 0, nothers = 0;
        unsigned closed = ~(unsigned)b->moves[cell];
        for (int d = 0; d < 4; d++) {
            Py_ssize_t near = cell + b->offsets[d];
            unsigned towards = (closed >> d & 1U) & (unsigned)(b->usable[near] != 0);
            unsigned end = (unsigned)(b->real[near] != 0);
            joins[njoins] = d;
            njoins += (int)(towards & end);
            others[nothers] = d;
            nothers += (int)(towards & ~end);
        }
        shuffle_small(mt, joins, njoins);
        shuffle_small(mt, others, nothers);
        int choices[8], nchoices = 0;
        for (int k = 0; k < njoins; k++) choices[nchoices++] = joins[k];
        for (int k = 0; k < nothers; k++) choices[nchoices++] = others[k];
        int opened = 0;
        for (int k = 0; k < nchoices && !opened; k++) {
            if (board_completes(b, cell, choices[k])) continue;
            board_open(b, cell, choices[k]);
            opened = 1;
        }
        if (!opened && nchoices && board_swap(b, mt, cell, choices[0]) < 0) return -1;
    }
    return 0;
}

/* Check the six arrays of a _Board: the frames of one size, blocks two rows longer. */
static int board_check(Board *b, Py_buffer *bufs, Py_ssize_t stride) {
    Py_ssize_t size = bufs[0].len;
    if (stride < 3 || size % stride || size / stride < 3) {
        PyErr_SetString(PyExc_ValueError, "braid: the frame is not (H + 2) rows of a stride >= 3");
        return -1;
    }
    for (int k = 1; k < 5; k++)
        if (bufs[k].len != size) {
            PyErr_SetString(PyExc_ValueError, "braid: the frames differ in size");
            return -1;
        }
    if (bufs[5].len != size + 2 * stride) {
        PyErr_SetString(PyExc_ValueError, "braid: blocks must have two rows more than the frame");
        return -1;
    }
    b->frame = bufs[0].buf;
    b->moves = bufs[1].buf;
    b->usable = bufs[2].buf;
    b->real = bufs[3].buf;
    b->openable = bufs[4].buf;
    b->blocks = bufs[5].buf;
    b->size = size;
    b->stride = stride;
    board_tables(b);
    return 0;
}

/* Check an int64 buffer (order, codes); its item count in *count. */
static int int64_check(Py_buffer *buf, const char *name, Py_ssize_t *count) {
    if (buf->itemsize != 8 || buf->len % 8) {
        PyErr_Format(PyExc_TypeError, "braid: %s must be an int64 array", name);
        return -1;
    }
    *count = buf->len / 8;
    return 0;
}

static void release_all(Py_buffer *bufs, int count) {
    for (int k = 0; k < count; k++) PyBuffer_Release(&bufs[k]);
}

/* One cell of board(): its framed moves, openable, usable and real bytes; 1 for a real dead
 * end. ``i`` is the cell's index in the H x W inputs, ``f`` in the frames. The general case,
 * with bounds tests, for the border; board_row does the cells with four neighbours. */
static inline int board_cell(const unsigned char *w, const unsigned char *reach,
                             const unsigned char *pattern, Py_ssize_t x, Py_ssize_t y,
                             Py_ssize_t width, Py_ssize_t height, unsigned char *moves,
                             unsigned char *openable, unsigned char *usable, unsigned char *real,
                             Py_ssize_t f) {
    Py_ssize_t i = y * width + x;
    unsigned open = 0, facing = 0; /* open bits (search.open_bits); walls facing a free cell */
    if (y > 0) {
        open |= !(w[i] & 1) && !(w[i - width] & 4);
        facing |= !pattern[i - width];
    }
    if (x + 1 < width) {
        open |= (unsigned)(!(w[i] & 2) && !(w[i + 1] & 8)) << 1;
        facing |= (unsigned)!pattern[i + 1] << 1;
    }
    if (y + 1 < height) {
        open |= (unsigned)(!(w[i] & 4) && !(w[i + width] & 1)) << 2;
        facing |= (unsigned)!pattern[i + width] << 2;
    }
    if (x > 0) {
        open |= (unsigned)(!(w[i] & 8) && !(w[i - 1] & 2)) << 3;
        facing |= (unsigned)!pattern[i - 1] << 3;
    }
    unsigned use = reach[i] != 0 && !pattern[i];
    unsigned dead = use && DEGREE[open] == 1 && (facing & ~open);
    moves[f] = (unsigned char)open;
    openable[f] = (unsigned char)facing;
    usable[f] = (unsigned char)use;
    real[f] = (unsigned char)dead;
    return (int)dead;
}

/* The cells x = 1 .. W-2 of row y (0 < y < H-1) of board(), which have four neighbours: the
 * same bytes as board_cell by arithmetic alone, so that the compiler vectorises the loop (one
 * open wall: a non-zero power of two). Returns the real dead ends of the row. */
static long long board_row(const unsigned char *restrict w, const unsigned char *restrict reach,
                           const unsigned char *restrict pattern, Py_ssize_t width,
                           unsigned char *restrict moves, unsigned char *restrict openable,
                           unsigned char *restrict usable, unsigned char *restrict real) {
    long long dead_ends = 0;
    for (Py_ssize_t x = 1; x + 1 < width; x++) {
        unsigned closed = w[x] | ((w[x + 1] >> 2) & 2) | ((w[x - 1] << 2) & 8) |
                          ((w[x + width] << 2) & 4) | ((w[x - width] >> 2) & 1);
        unsigned open = ~closed & 15;
        unsigned facing = (unsigned)(pattern[x - width] == 0) | (unsigned)(pattern[x + 1] == 0) << 1 |
                          (unsigned)(pattern[x + width] == 0) << 2 |
                          (unsigned)(pattern[x - 1] == 0) << 3;
        unsigned use = (unsigned)(reach[x] != 0) & (unsigned)(pattern[x] == 0);
        unsigned dead = use & (unsigned)(open != 0) & (unsigned)((open & (open - 1)) == 0) &
                        (unsigned)((facing & ~open) != 0);
        moves[x] = (unsigned char)open;
        openable[x] = (unsigned char)facing;
        usable[x] = (unsigned char)use;
        real[x] = (unsigned char)dead;
        dead_ends += dead;
    }
    return dead_ends;
}

/* Per 3x3 block whose top-left cell is one of the ``count`` cells from ``m`` (its framed
 * moves) on, its closed inner walls (12 less the open ones) into ``closed``. */
static void board_blocks(const unsigned char *restrict m, Py_ssize_t stride, Py_ssize_t count,
                         unsigned char *restrict closed) {
    const unsigned char *restrict a = m, *restrict b = m + stride, *restrict c = m + 2 * stride;
    for (Py_ssize_t x = 0; x < count; x++) {
        int east = (a[x] >> 1 & 1) + (a[x + 1] >> 1 & 1) + (b[x] >> 1 & 1) +
                   (b[x + 1] >> 1 & 1) + (c[x] >> 1 & 1) + (c[x + 1] >> 1 & 1); /* 3 rows of 2 */
        int south = (a[x] >> 2 & 1) + (a[x + 1] >> 2 & 1) + (a[x + 2] >> 2 & 1) +
                    (b[x] >> 2 & 1) + (b[x + 1] >> 2 & 1) + (b[x + 2] >> 2 & 1); /* 2 rows of 3 */
        closed[x] = (unsigned char)(12 - east - south);
    }
}

/* board(walls, reachable, pattern, width, frame, moves, usable, real, openable, blocks)
 *   -> real dead ends
 * The frames of _Board.__init__ in one pass over the grid, instead of numpy's: the H x W walls,
 * cells reached from the entry and pattern cells (uint8 or bool, non-zero for yes) give the
 * framed walls (ring 15), moves (Analysis.moves: open bits), usable (reached, not pattern),
 * openable (board.openable_bits), real (Analysis.dead_ends[0]: usable, one open wall, a closed
 * one openable), all (H + 2) x (W + 2); and blocks ((H + 4) x (W + 2)): per 3x3 block, by its
 * top-left cell's framed index + 2 rows, its closed inner walls (Analysis.closed_in_blocks),
 * 100 where no block fits. Every output is written whole. */
static PyObject *py_board(PyObject *self, PyObject *args) {
    Py_buffer in[3], out[6];
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "y*y*y*nw*w*w*w*w*w*", &in[0], &in[1], &in[2], &width, &out[0],
                          &out[1], &out[2], &out[3], &out[4], &out[5]))
        return NULL;
    Py_ssize_t cells = in[0].len, height = width > 0 ? cells / width : 0, stride = width + 2;
    Py_ssize_t size = (height + 2) * stride;
    const char *problem = NULL;
    if (width < 1 || cells == 0 || cells % width)
        problem = "board: the walls are not whole rows";
    else if (in[1].len != cells || in[2].len != cells)
        problem = "board: reachable and pattern must have one byte per cell";
    for (int k = 0; k < 5 && !problem; k++)
        if (out[k].len != size) problem = "board: a frame is not (H + 2) x (W + 2) bytes";
    if (!problem && out[5].len != size + 2 * stride)
        problem = "board: blocks must have two rows more than the frame";
    if (problem) {
        release_all(in, 3);
        release_all(out, 6);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    const unsigned char *w = in[0].buf, *reach = in[1].buf, *pattern = in[2].buf;
    unsigned char *frame = out[0].buf, *moves = out[1].buf, *usable = out[2].buf,
                  *real = out[3].buf, *openable = out[4].buf, *blocks = out[5].buf;
    memset(frame, 15, (size_t)size);
    memset(moves, 0, (size_t)size);
    memset(usable, 0, (size_t)size);
    memset(real, 0, (size_t)size);
    memset(openable, 0, (size_t)size);
    memset(blocks, 100, (size_t)(size + 2 * stride));
    long long remaining = 0;
    for (Py_ssize_t y = 0; y < height; y++) {
        Py_ssize_t f = (y + 1) * stride + 1, i = y * width; /* the row's first cell */
        memcpy(frame + f, w + i, (size_t)width);
        if (y == 0 || y == height - 1 || width < 3) {
            for (Py_ssize_t x = 0; x < width; x++)
                remaining += board_cell(w, reach, pattern, x, y, width, height, moves, openable,
                                        usable, real, f + x);
            continue;
        }
        remaining += board_cell(w, reach, pattern, 0, y, width, height, moves, openable, usable,
                                real, f);
        remaining += board_row(w + i, reach + i, pattern + i, width, moves + f, openable + f,
                               usable + f, real + f);
        remaining += board_cell(w, reach, pattern, width - 1, y, width, height, moves, openable,
                                usable, real, f + width - 1);
    }
    for (Py_ssize_t y = 0; y + 3 <= height; y++) /* the blocks whose top-left is in row y */
        board_blocks(moves + (y + 1) * stride + 1, stride, width - 2, blocks + (y + 3) * stride + 1);
    release_all(in, 3);
    release_all(out, 6);
    return PyLong_FromLongLong(remaining);
}

/* mazekit.rng.shuffle of ``count`` int32. */
static void shuffle_int32(MTState *mt, int32_t *items, Py_ssize_t count) {
    for (Py_ssize_t last = count - 1; last > 0; last--) {
        Py_ssize_t pick = mt_below(mt, last + 1);
        int32_t keep = items[last];
        items[last] = items[pick];
        items[pick] = keep;
    }
}

/* braid(frame, moves, usable, real, openable, blocks, stride, remaining, loops, target, rng,
 *       block) -> (remaining, loops)
 * _Board.braid: the real dead ends in index order (np.flatnonzero of ``real``), cut in blocks
 * of ``block``; the blocks in a random order, each shuffled, then fixed in that order. The order is int32, built here: half the memory numpy's int64 took. */
static PyObject *py_braid(PyObject *self, PyObject *args) {
    Py_buffer bufs[6];
    Py_ssize_t stride;
    long long remaining, loops, target;
    PyObject *rng;
    Py_ssize_t block;
    if (!PyArg_ParseTuple(args, "w*w*w*w*w*w*nLLLOn", &bufs[0], &bufs[1], &bufs[2], &bufs[3],
                          &bufs[4], &bufs[5], &stride, &remaining, &loops, &target, &rng, &block))
        return NULL;
    Board b;
    if (board_check(&b, bufs, stride) < 0) {
        release_all(bufs, 6);
        return NULL;
    }
    if (block < 1) {
        release_all(bufs, 6);
        PyErr_SetString(PyExc_ValueError, "braid: a block of fewer than 1 dead end");
        return NULL;
    }
    if (b.size >= INT32_MAX) {
        release_all(bufs, 6);
        PyErr_SetString(PyExc_ValueError, "braid: more cells than int32 indices hold");
        return NULL;
    }
    b.remaining = remaining;
    b.loops = loops;
    Py_ssize_t count = 0;
    for (Py_ssize_t cell = 0; cell < b.size; cell++) count += b.real[cell] != 0;
    int32_t *order = PyMem_Malloc((size_t)(count + 1) * sizeof *order); /* + 1: see below */
    MTState mt;
    if (order == NULL || mt_load(rng, &mt) < 0) {
        release_all(bufs, 6);
        if (order == NULL) return PyErr_NoMemory();
        PyMem_Free(order);
        return NULL;
    }
    count = 0;
    for (Py_ssize_t cell = 0; cell < b.size; cell++) { /* written always, kept if real */
        order[count] = (int32_t)cell;
        count += b.real[cell] != 0;
    }
    /* The dead ends in blocks of ``block`` in index order, the blocks in a random order
     * (braiding.BLOCK): each block is shuffled and fixed in its turn, so the fixes of a turn
     * read a band of the grid, in cache; one block is the shuffle of all. */
    Py_ssize_t blocks = count > 0 ? (count - 1) / block + 1 : 0;
    int32_t *turns = PyMem_Malloc((size_t)(blocks + 1) * sizeof *turns);
    if (turns == NULL) {
        PyMem_Free(order);
        release_all(bufs, 6);
        mt_discard(&mt);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < blocks; k++) turns[k] = (int32_t)k;
    shuffle_int32(&mt, turns, blocks);
    int failed = 0;
    for (Py_ssize_t k = 0; k < blocks && !failed; k++) {
        Py_ssize_t start = (Py_ssize_t)turns[k] * block;
        Py_ssize_t size = count - start < block ? count - start : block;
        shuffle_int32(&mt, order + start, size);
        failed = board_fix(&b, &mt, order + start, size, target);
    }
    PyMem_Free(turns);
    PyMem_Free(order);
    release_all(bufs, 6);
    if (failed) {
        mt_discard(&mt);
        return NULL;
    }
    if (mt_store(rng, &mt) < 0) return NULL;
    return Py_BuildValue("LL", b.remaining, b.loops);
}

/* add_loops(frame, moves, usable, real, openable, blocks, codes, opened, stride, remaining,
 *           loops, wanted, rng) -> (remaining, loops, opened count)
 * The random opening of _Board.add_loops: pop random codes (2 x cell, + 1 for a south wall)
 * until ``wanted`` loops, opening each that completes no block, and list those opened. */
static PyObject *py_add_loops(PyObject *self, PyObject *args) {
    Py_buffer bufs[8];
    Py_ssize_t stride, count, room;
    long long remaining, loops, wanted;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*w*w*w*w*w*w*w*nLLLO", &bufs[0], &bufs[1], &bufs[2],
                          &bufs[3], &bufs[4], &bufs[5], &bufs[6], &bufs[7], &stride,
                          &remaining, &loops, &wanted, &rng))
        return NULL;
    Board b;
    if (board_check(&b, bufs, stride) < 0 || int64_check(&bufs[6], "codes", &count) < 0 ||
        int64_check(&bufs[7], "opened", &room) < 0) {
        release_all(bufs, 8);
        return NULL;
    }
    if (room < count) {
        release_all(bufs, 8);
        PyErr_SetString(PyExc_ValueError, "add_loops: opened must hold as many codes as codes");
        return NULL;
    }
    b.remaining = remaining;
    b.loops = loops;
    MTState mt;
    if (mt_load(rng, &mt) < 0) {
        release_all(bufs, 8);
        return NULL;
    }
    long long *codes = bufs[6].buf, *opened = bufs[7].buf;
    Py_ssize_t left = count, done = 0;
    int failed = 0;
    while (b.loops < wanted && left) {
        Py_ssize_t pick = mt_below(&mt, left); /* mazekit.rng.pop_random */
        long long code = codes[pick];
        codes[pick] = codes[--left];
        Py_ssize_t cell = (Py_ssize_t)(code >> 1);
        int d = (code & 1) ? 2 : 1; /* south or east */
        if (code < 0 || !board_inside(&b, cell)) {
            PyErr_SetString(PyExc_ValueError, "add_loops: a wall on the frame's ring");
            failed = 1;
            break;
        }
        if (board_completes(&b, cell, d)) continue;
        board_open(&b, cell, d);
        opened[done++] = code;
    }
    release_all(bufs, 8);
    if (failed) {
        mt_discard(&mt);
        return NULL;
    }
    if (mt_store(rng, &mt) < 0) return NULL;
    return Py_BuildValue("LLn", b.remaining, b.loops, done);
}

/* The tables of _Board._near_walls: for an east (side 0) or south (1) wall and a mask of which
 * of the 6 blocks holding it lie inside the grid, the sorted code deltas (code: 2 x cell, + 1
 * for a south wall) of the other walls of those blocks. */
typedef struct {
    Py_ssize_t delta[72];
    int count;
} Near;

static int delta_order(const void *a, const void *b) {
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return (x > y) - (x < y);
}

static void near_tables(const Board *b, Near table[2][64]) {
    Py_ssize_t s = b->stride;
    for (int side = 0; side < 2; side++) {
        Py_ssize_t per_block[6][12];
        for (int i = 0; i < 6; i++) {
            Py_ssize_t corner = b->slots[1 + side][i] - 2 * s; /* the block's top-left cell */
            int k = 0;
            for (int row = 0; row < 3; row++)
                for (int column = 0; column < 3; column++) {
                    Py_ssize_t at = corner + row * s + column;
                    if (column < 2) per_block[i][k++] = 2 * at - side;
                    if (row < 2) per_block[i][k++] = 2 * at + 1 - side;
                }
        }
        for (int mask = 0; mask < 64; mask++) {
            Near *near = &table[side][mask];
            Py_ssize_t all[72];
            int count = 0;
            for (int i = 0; i < 6; i++)
                if (mask >> i & 1)
                    for (int k = 0; k < 12; k++)
                        if (per_block[i][k] != 0) all[count++] = per_block[i][k];
            qsort(all, (size_t)count, sizeof(Py_ssize_t), delta_order);
            near->count = 0;
            for (int k = 0; k < count; k++)
                if (k == 0 || all[k] != all[k - 1]) near->delta[near->count++] = all[k];
        }
    }
}

/* The swap state of _Board._improve: ``live`` marks the codes of the walls opened for loops
 * (a set over every code), ``order`` holds them sorted at the start of each round. */
typedef struct {
    unsigned char *live;
    Py_ssize_t codes, count; /* codes marked, of ``codes`` possible */
    long long *order;
    Near near[2][64];
} Swaps;

/* One try of _improve on the wall ``code``: close it, open every closed wall between usable
 * cells of its blocks that may now open; none opened puts it back. */
static void swap_try(Board *b, Swaps *w, long long code) {
    Py_ssize_t cell = (Py_ssize_t)(code >> 1), s = b->stride;
    int side = (int)(code & 1), d = 1 + side, inside = 0;
    board_close(b, cell, d);
    for (int i = 0; i < 6; i++)
        if (b->blocks[cell + b->slots[d][i]] <= 12) inside |= 1 << i;
    const Near *near = &w->near[side][inside];
    long long gained[72];
    int count = 0;
    for (int k = 0; k < near->count; k++) {
        long long wall = code + near->delta[k];
        Py_ssize_t at = (Py_ssize_t)(wall >> 1);
        int way = (int)(wall & 1);
        if (wall < 0 || !board_inside(b, at)) continue; /* only with inconsistent input */
        if (b->moves[at] & (way ? 4 : 2) || !(b->usable[at] && b->usable[at + (way ? s : 1)]))
            continue;
        if (board_completes(b, at, 1 + way)) continue;
        board_open(b, at, 1 + way);
        gained[count++] = wall;
    }
    if (count == 0) {
        board_open(b, cell, d);
        return;
    }
    if (w->live[code]) {
        w->live[code] = 0;
        w->count--;
    }
    for (int k = 0; k < count; k++)
        if (!w->live[gained[k]]) {
            w->live[gained[k]] = 1;
            w->count++;
        }
}

/* _Board._improve: rounds over the live walls in a random order (drawn as far as the tries
 * go) until ``wanted`` loops, or the rounds or the budget run out. 0, or -1 (no memory). */
static int board_improve(Board *b, Swaps *w, MTState *mt, long long wanted, long rounds,
                         long long budget) {
    for (long round = 0; round < rounds; round++) {
        PyMem_Free(w->order);
        w->order = PyMem_Malloc((size_t)(w->count ? w->count : 1) * sizeof(long long));
        if (w->order == NULL) return -1;
        Py_ssize_t count = 0;
        for (Py_ssize_t code = 0; code < w->codes; code++)
            if (w->live[code]) w->order[count++] = code;
        for (Py_ssize_t index = 0; index < count; index++) {
            if (b->loops >= wanted || budget == 0) return 0;
            budget--;
            Py_ssize_t pick = index + mt_below(mt, count - index);
            long long code = w->order[pick];
            w->order[pick] = w->order[index];
            w->order[index] = code;
            swap_try(b, w, code);
        }
    }
    return 0;
}

/* improve(frame, moves, usable, real, openable, blocks, opened, stride, remaining, loops,
 *         wanted, rounds, budget, rng) -> (remaining, loops) */
static PyObject *py_improve(PyObject *self, PyObject *args) {
    Py_buffer bufs[7];
    Py_ssize_t stride, count;
    long long remaining, loops, wanted, budget;
    long rounds;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*w*w*w*w*w*y*nLLLlLO", &bufs[0], &bufs[1], &bufs[2],
                          &bufs[3], &bufs[4], &bufs[5], &bufs[6], &stride, &remaining, &loops,
                          &wanted, &rounds, &budget, &rng))
        return NULL;
    Board b;
    Swaps *w = NULL;
    if (board_check(&b, bufs, stride) < 0 || int64_check(&bufs[6], "opened", &count) < 0) {
        release_all(bufs, 7);
        return NULL;
    }
    b.remaining = remaining;
    b.loops = loops;
    const long long *opened = bufs[6].buf;
    const char *problem = NULL;
    for (Py_ssize_t i = 0; i < count && !problem; i++)
        if (opened[i] < 0 || !board_inside(&b, (Py_ssize_t)(opened[i] >> 1)))
            problem = "improve: a wall on the frame's ring";
    if (problem == NULL) {
        w = PyMem_Calloc(1, sizeof(Swaps));
        if (w != NULL) w->live = PyMem_Calloc((size_t)(2 * b.size), 1);
    }
    MTState mt;
    if (problem != NULL || w == NULL || w->live == NULL || mt_load(rng, &mt) < 0) {
        if (problem != NULL) PyErr_SetString(PyExc_ValueError, problem);
        else if (w == NULL || w->live == NULL) PyErr_NoMemory();
        if (w != NULL) PyMem_Free(w->live);
        PyMem_Free(w);
        release_all(bufs, 7);
        return NULL;
    }
    w->codes = 2 * b.size;
    for (Py_ssize_t i = 0; i < count; i++)
        if (!w->live[opened[i]]) {
            w->live[opened[i]] = 1;
            w->count++;
        }
    near_tables(&b, w->near);
    int failed = board_improve(&b, w, &mt, wanted, rounds, budget);
    PyMem_Free(w->order);
    PyMem_Free(w->live);
    PyMem_Free(w);
    release_all(bufs, 7);
    if (failed) {
        mt_discard(&mt);
        return PyErr_NoMemory();
    }
    if (mt_store(rng, &mt) < 0) return NULL;
    return Py_BuildValue("LL", b.remaining, b.loops);
}

/* ---------------------------------------------------------------------------------------
 * Flood (generators/flood.py): random walls, open 3x3 blocks broken, flood fills.
 * ------------------------------------------------------------------------------------- */

/* Step 1, _random_walls: every wall between two carvable cells, in code order (cell by cell,
 * east before south), opens when its draw is under 1/2. The draw clears the wall's bits by
 * arithmetic, not by a branch: a coin flip mispredicts every other time (2M times at 1000x1000,
 * a third of the step's time). */
static void flood_random_walls(unsigned char *walls, const unsigned char *blocked,
                               Py_ssize_t size, Py_ssize_t stride, MTState *mt) {
    for (Py_ssize_t cell = 0; cell < size; cell++) {
        if (blocked[cell]) continue;
        if (cell + 1 < size && !blocked[cell + 1]) {
            unsigned open = mt_half(mt);
            walls[cell] &= (unsigned char)~(open << 1);     /* east */
            walls[cell + 1] &= (unsigned char)~(open << 3); /* west */
        }
        if (cell + stride < size && !blocked[cell + stride]) {
            unsigned open = mt_half(mt);
            walls[cell] &= (unsigned char)~(open << 2);          /* south */
            walls[cell + stride] &= (unsigned char)~(open << 0); /* north */
        }
    }
}

/* Step 2, _break_open_areas: in reading order, close one random inner wall (of 12: the 6 east
 * walls row by row, then the 6 south walls) of each 3x3 block still fully open. The walls are
 * coherent here, so one side tells whether a wall is open. Walls only close in this step, so a
 * block that was not fully open before it is not after: a sweep without branches over each
 * row of blocks (``closed``, per column, the east bit of 3 cells and the south bit of 2, OR-ed)
 * finds the few blocks fully open at the start, and only those are checked again in order. */
static void flood_break_open_areas(unsigned char *walls, Py_ssize_t width, Py_ssize_t height,
                                   Py_ssize_t stride, MTState *mt) {
    Py_ssize_t at[12];
    unsigned char bit[12];
    int k = 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2; c++, k++) at[k] = r * stride + c, bit[k] = 2;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++, k++) at[k] = r * stride + c, bit[k] = 4;
    if (width < 3 || height < 3) return;
    unsigned char *closed = PyMem_Malloc((size_t)width);
    for (Py_ssize_t y = 0; y + 3 <= height; y++) {
        const unsigned char *row = walls + (y + 1) * stride + 1;
        if (closed != NULL) {
            for (Py_ssize_t x = 0; x < width; x++)
                closed[x] = (unsigned char)(((row[x] | row[x + stride] | row[x + 2 * stride]) & 2) |
                                            ((row[x] | row[x + stride]) & 4));
        }
        for (Py_ssize_t x = 0; x + 3 <= width; x++) {
            if (closed != NULL && (((closed[x] | closed[x + 1]) & 6) | (closed[x + 2] & 4)))
                continue; /* not fully open at the start, so not now */
            Py_ssize_t top_left = (y + 1) * stride + x + 1;
            int open = 1;
            for (k = 0; k < 12 && open; k++) open = !(walls[top_left + at[k]] & bit[k]);
            if (!open) continue;
            k = (int)mt_below(mt, 12);
            Py_ssize_t cell = top_left + at[k];
            walls[cell] |= bit[k];
            walls[cell + (bit[k] == 2 ? 1 : stride)] |= bit[k] == 2 ? 8 : 1;
        }
    }
    PyMem_Free(closed);
}

/* The state of steps 3 and 4: ``candidates`` are closed walls out of the region, coded
 * cell * 4 + direction (a cell is flooded once and lists at most 4, so 4 per cell is room
 * enough); ``queue`` the cells of the flood under way. 32 bits each: the frame is checked to
 * have fewer than 2^30 cells. ``seen`` is a bit per cell (blocked cells count as seen): the
 * pops of step 4 look at the far cell of a random candidate, and at 4000x4000 a byte per
 * cell (16 MB) missed the cache on most of them, a bit per cell (2 MB) does not. */
typedef struct {
    unsigned char *walls;
    uint64_t *seen;
    uint32_t *candidates, *queue;
    Py_ssize_t count; /* candidates listed */
    Py_ssize_t offsets[4];
} Flood;

/* Whether ``cell`` is seen (0 or 1). */
static inline unsigned flood_seen(const uint64_t *seen, Py_ssize_t cell) {
    return (unsigned)(seen[cell >> 6] >> (cell & 63)) & 1U;
}

/* Mark ``cell`` seen when ``mark`` is 1 (without a branch). */
static inline void flood_mark(uint64_t *seen, Py_ssize_t cell, unsigned mark) {
    seen[cell >> 6] |= (uint64_t)mark << (cell & 63);
}

/* flood() of carve: mark ``start`` seen and flood through open walls, breadth first, listing
 * every closed wall out of the region to an unseen cell. Without branches on the maze, whose
 * walls are coin flips: each side's code and cell are written at the ends of the candidates
 * and of the queue, which move on only when the side is a candidate or a cell to flood (the
 * arrays have room: 4 codes a cell, and a queue of every cell). */
static void flood_fill(Flood *f, Py_ssize_t start) {
    Py_ssize_t head = 0, tail = 0, count = f->count;
    uint64_t *seen = f->seen;
    uint32_t *candidates = f->candidates, *queue = f->queue;
    flood_mark(seen, start, 1);
    queue[tail++] = (uint32_t)start;
    while (head < tail) {
        Py_ssize_t cell = queue[head++];
        unsigned here = f->walls[cell];
        for (int d = 0; d < 4; d++) {
            Py_ssize_t near = cell + f->offsets[d];
            unsigned fresh = flood_seen(seen, near) ^ 1U, wall = (here >> d) & 1U;
            unsigned flood = fresh & ~wall;
            candidates[count] = (uint32_t)(cell * 4 + d);
            count += fresh & wall;
            flood_mark(seen, near, flood);
            queue[tail] = (uint32_t)near;
            tail += flood;
        }
    }
    f->count = count;
}

/* The pops take a random one of the last FLOOD_WINDOW candidates listed, not of all of them
 * (mazekit.generators.flood.WINDOW): those lie near the regions flooded last, so the slot,
 * the far cell and the region a pop opens are in cache; over the whole bag, at 4000x4000 a
 * pop missed the cache on each (specs/performance.md). */
#define FLOOD_WINDOW 16384

/* The slot a pop picks with the draw ``r`` among ``count`` candidates: rng.pop_random over
 * the last min(count, FLOOD_WINDOW). */
static inline Py_ssize_t flood_pick(Py_ssize_t count, double r) {
    Py_ssize_t span = count < FLOOD_WINDOW ? count : FLOOD_WINDOW;
    return count - span + (Py_ssize_t)(r * (double)span);
}

/* Prefetch for the pops to come. Most pops find their far cell seen already and list nothing,
 * so the pop ``k`` draws on most likely finds count - k + 1 candidates: prefetch the far cell
 * of the candidate SEEN_AHEAD draws on (the window's slots stay in cache). A wrong guess costs
 * a useless prefetch, never a different result. */
#define SEEN_AHEAD 8
PREFETCHING void flood_prefetch(const Flood *f, const MTState *mt) {
    Py_ssize_t count = f->count;
    if (count <= SEEN_AHEAD) return;
    double next = mt_peek(mt, SEEN_AHEAD);
    if (next >= 0) {
        uint32_t code = f->candidates[flood_pick(count - SEEN_AHEAD + 1, next)];
        PREFETCH(f->seen + (((Py_ssize_t)(code / 4) + f->offsets[code % 4]) >> 6));
    }
}

/* Steps 3 and 4: flood from the entry; while candidates remain, pop a random one of the last
 * FLOOD_WINDOW and, when its far cell is still unseen, open it and flood on from there. */
static void flood_connect(Flood *f, Py_ssize_t entry, MTState *mt) {
    flood_fill(f, entry);
    while (f->count) {
        flood_prefetch(f, mt);
        Py_ssize_t pick = flood_pick(f->count, mt_random(mt));
        uint32_t code = f->candidates[pick];
        f->candidates[pick] = f->candidates[--f->count];
        int d = (int)(code % 4);
        Py_ssize_t cell = (Py_ssize_t)(code / 4), near = cell + f->offsets[d];
        if (flood_seen(f->seen, near)) continue;
        f->walls[cell] &= (unsigned char)(15 ^ BIT[d]);
        f->walls[near] &= (unsigned char)(15 ^ OPPOSITE[d]);
        flood_fill(f, near);
    }
}

/* flood_carve(walls, blocked, stride, entry, rng): generators.flood.carve on a Grid's frame. */
static PyObject *py_flood_carve(PyObject *self, PyObject *args) {
    Py_buffer bufs[2];
    Py_ssize_t stride, entry;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*y*nnO", &bufs[0], &bufs[1], &stride, &entry, &rng))
        return NULL;
    Py_ssize_t size = bufs[0].len;
    const char *problem = NULL;
    if (stride < 3 || size % stride || size / stride < 3)
        problem = "flood_carve: the frame is not (H + 2) rows of a stride >= 3";
    else if (bufs[1].len != size)
        problem = "flood_carve: walls and blocked differ in size";
    else if (size >= ((Py_ssize_t)1 << 30))
        problem = "flood_carve: more cells than the kernel's 32-bit codes hold";
    else if (entry < stride || entry >= size - stride || entry % stride == 0 ||
             entry % stride == stride - 1)
        problem = "flood_carve: the entry lies on the frame's ring";
    else {
        const unsigned char *blocked = bufs[1].buf;
        for (Py_ssize_t i = 0; i < stride && !problem; i++)
            if (!blocked[i] || !blocked[size - 1 - i]) problem = "flood_carve: an open ring";
        for (Py_ssize_t i = 0; i < size && !problem; i += stride)
            if (!blocked[i] || !blocked[i + stride - 1]) problem = "flood_carve: an open ring";
    }
    MTState mt;
    if (problem != NULL || mt_load(rng, &mt) < 0) {
        release_all(bufs, 2);
        if (problem != NULL) PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    unsigned char *walls = bufs[0].buf;
    flood_random_walls(walls, bufs[1].buf, size, stride, &mt);
    flood_break_open_areas(walls, stride - 2, size / stride - 2, stride, &mt);
    size_t sizes[3] = {((size_t)size + 63) / 64 * sizeof(uint64_t),
                       4 * (size_t)size * sizeof(uint32_t), (size_t)size * sizeof(uint32_t)};
    Flood f = {walls, scratch_alloc(sizes[0]), scratch_alloc(sizes[1]), scratch_alloc(sizes[2]),
               0, {-stride, 1, stride, -1}};
    int failed = f.seen == NULL || f.candidates == NULL || f.queue == NULL;
    if (!failed) {
        const unsigned char *blocked = bufs[1].buf; /* blocked cells count as seen */
        memset(f.seen, 0, sizes[0]);
        for (Py_ssize_t i = 0; i < size; i++) flood_mark(f.seen, i, blocked[i] != 0);
        flood_connect(&f, entry, &mt);
    }
    scratch_free(f.seen, sizes[0]);
    scratch_free(f.candidates, sizes[1]);
    scratch_free(f.queue, sizes[2]);
    release_all(bufs, 2);
    if (failed) {
        mt_discard(&mt);
        return PyErr_NoMemory();
    }
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"braid", py_braid, METH_VARARGS,
     "braid(frame, moves, usable, real, openable, blocks, stride, remaining, loops, target, rng, "
     "block) -> (remaining, loops): shuffle the real dead ends a block at a time, the blocks in "
     "a random order, and fix them in that order."},
    {"add_loops", py_add_loops, METH_VARARGS,
     "add_loops(frame, moves, usable, real, openable, blocks, codes, opened, stride, "
     "remaining, loops, wanted, rng) -> (remaining, loops, opened count)."},
    {"improve", py_improve, METH_VARARGS,
     "improve(frame, moves, usable, real, openable, blocks, opened, stride, remaining, loops, "
     "wanted, rounds, budget, rng) -> (remaining, loops): swap walls for loops."},
    {"board", py_board, METH_VARARGS,
     "board(walls, reachable, pattern, width, frame, moves, usable, real, openable, blocks) -> "
     "real dead ends: the frames of a _Board in one pass."},
    {"flood_carve", py_flood_carve, METH_VARARGS,
     "flood_carve(walls, blocked, stride, entry, rng): the flood generator's carve."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mazekit._cbraid", "Braiding and flood loops (compiled kernel).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__cbraid(void) { return PyModule_Create(&module); }
