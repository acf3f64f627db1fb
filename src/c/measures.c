/* mazekit._cmeasures: the sequential walks of the measures (mazekit.measures, mazekit.graph),
 * copies of their pure-Python reference that give the same numbers.
 *
 * Both walks peel leaves: a cell with one open wall left is a leaf; removing it may make its
 * one remaining neighbour a leaf. Pinned cells never peel. The reference queues the new leaf
 * after every leaf queued before it (a FIFO), an order the longest branch depends on where two
 * leaves meet last; where that cannot happen the kernel peels a corridor at once (chains).
 * - peel_branches: the longest dead-end branch (measures.longest_branch) and how many cells
 *   were peeled (on a tree pinned at the entry and the exit, all but the path between them).
 * - tree_betweenness: on a tree pinned at its root, a peeled cell's remaining neighbour is its
 *   parent, so subtree sizes add up as the leaves go, and give every cell's and passage's
 *   betweenness (graph.centrality._tree_betweenness); pinned at the exit too until the
 *   branches are gone, the same walk gives peel_branches' figures for stats --graph.
 * The Python side allocates every array (scratch included); the kernel fills them.
 *
 * Brandes' searches for the betweenness of a graph with loops (graph.brandes.brandes_sums):
 * brandes on a neighbour table, brandes_cells on the grid's open bits (an estimate's sampled
 * sources), with numpy's very float operations and sums, one source at a time. They allocate their
 * own scratch (a 64-byte node a cell) and let go of the interpreter lock while they search, so
 * graph.brandes.brandes_threads' threads use the cores. chain_sums: the chain method of
 * graph.chains.brandes_by_chains in one walk over the key cells (its own nodes and code).
 *
 * And the text of a large SVG (drawing/svg.py), where Python's formatting of half a million
 * rectangles was most of `mazekit render -o maze.svg`: svg_boxes and svg_runs write the very
 * characters svg.py's reference writes, from arrays of numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The wall bits of model.py. */
#define NORTH 1
#define EAST 2
#define SOUTH 4
#define WEST 8

/* Check that no open bit of `moves` (cells x width, flat) points out of the grid, so that
 * the walks below never index outside their arrays whatever a caller passes. */
static int check_moves(const uint8_t *moves, Py_ssize_t cells, Py_ssize_t width) {
    Py_ssize_t height = cells / width;
    for (Py_ssize_t y = 0; y < height; y++) {
        const uint8_t *row = moves + y * width;
        uint8_t outward = (uint8_t)((y == 0 ? NORTH : 0) | (y == height - 1 ? SOUTH : 0));
        uint8_t any = 0;
        for (Py_ssize_t x = 0; x < width; x++) any |= row[x] & (uint8_t)~(EAST | WEST);
        any |= (uint8_t)((row[0] & WEST) | (row[width - 1] & EAST));
        if (any & (outward | (uint8_t)~(NORTH | EAST | SOUTH | WEST) | WEST | EAST)) {
            PyErr_Format(PyExc_ValueError, "open bits in row %zd point out of the grid", y);
            return -1;
        }
    }
    return 0;
}

/* Check the sizes shared by both walks: left and an int32 scratch hold one item a cell, and
 * the width divides the cells. */
static int check_sizes(Py_buffer *moves, Py_buffer *left, Py_buffer *scratch, Py_ssize_t width) {
    Py_ssize_t cells = moves->len;
    if (width < 1 || cells % width) {
        PyErr_SetString(PyExc_ValueError, "width must be at least 1 and divide the cells");
        return -1;
    }
    if (left->len != cells || scratch->len != cells * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "left (uint8) and int32 scratch need one item a cell");
        return -1;
    }
    return check_moves((const uint8_t *)moves->buf, cells, width);
}

/* The neighbour a leaf peels into: its first open direction (N, E, S, W) whose cell is still
 * there, or -1 when none is (two leaves meeting last). `*bit` gets that direction. */
static inline Py_ssize_t near_of(const uint8_t *moves, const uint8_t *left, Py_ssize_t cell,
                                 Py_ssize_t width, int *bit) {
    uint8_t open = moves[cell];
    if ((open & NORTH) && left[cell - width]) {
        *bit = NORTH;
        return cell - width;
    }
    if ((open & EAST) && left[cell + 1]) {
        *bit = EAST;
        return cell + 1;
    }
    if ((open & SOUTH) && left[cell + width]) {
        *bit = SOUTH;
        return cell + width;
    }
    if ((open & WEST) && left[cell - 1]) {
        *bit = WEST;
        return cell - 1;
    }
    return -1;
}

/* Queue every cell that is a leaf from the start (left == 1), in flat order; their count. */
static Py_ssize_t first_leaves(const uint8_t *left, Py_ssize_t cells, int32_t *queue) {
    Py_ssize_t count = 0;
    for (Py_ssize_t cell = 0; cell < cells; cell++)
        if (left[cell] == 1) queue[count++] = (int32_t)cell;
    return count;
}

static void release(Py_buffer *buffers, int count) {
    for (int i = 0; i < count; i++) PyBuffer_Release(&buffers[i]);
}

/* Peel one leaf of the longest-branch walk: its depth goes to the neighbour it leaves, or to
 * *deepest where the branch ends (on the core, a pinned cell, or where two leaves meet).
 * The neighbour when peeling made it a leaf, else -1. */
static inline Py_ssize_t peel_branch(const uint8_t *moves, uint8_t *left, int32_t *level,
                                     Py_ssize_t cell, Py_ssize_t width, long *deepest) {
    int32_t depth = level[cell] + 1;
    int bit;
    left[cell] = 0;
    Py_ssize_t near = near_of(moves, left, cell, width, &bit);
    if (near < 0) {
        if (depth > *deepest) *deepest = depth;
        return -1;
    }
    if (level[near] < depth) level[near] = depth;
    if (--left[near] == 1) return near; /* at most once a cell: left only falls */
    if (depth > *deepest) *deepest = depth; /* a branch ends here, on the core or a pin */
    return -1;
}

/* peel_branches(moves, left, queue, level, width, chains) -> (deepest, peeled).
 * moves: open bits per cell; left: per cell the open walls still there (0: not a cell of the
 * walk, 255: pinned), consumed; queue, level: int32 scratch. A cell's level is the deepest
 * branch peeled into it; the deepest branch is the level + 1 of the last cell peeled of a
 * branch (measures.longest_branch).
 * The order: without `chains`, the reference's FIFO queue. With it, each first leaf in flat
 * order, then at once the neighbour it made a leaf, along the corridor: the same results when
 * every walked component keeps a pinned cell (then no two leaves ever meet, the one place an
 * order decides), and several times faster on a large grid, whose queue jumps across the
 * whole grid at every step. */
static PyObject *peel_branches(PyObject *self, PyObject *args) {
    Py_buffer b[4]; /* moves, left, queue, level */
    Py_ssize_t width;
    int chains;
    if (!PyArg_ParseTuple(args, "y*w*w*w*np", &b[0], &b[1], &b[2], &b[3], &width, &chains))
        return NULL;
    if (check_sizes(&b[0], &b[1], &b[2], width) < 0 || b[3].len != b[2].len) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "level needs one int32 a cell");
        release(b, 4);
        return NULL;
    }
    const uint8_t *moves = (const uint8_t *)b[0].buf;
    uint8_t *left = (uint8_t *)b[1].buf;
    int32_t *queue = (int32_t *)b[2].buf, *level = (int32_t *)b[3].buf;
    Py_ssize_t cells = b[0].len, peeled = 0;
    long deepest = 0;
    memset(level, 0, (size_t)cells * sizeof(int32_t));
    if (chains) {
        for (Py_ssize_t start = 0; start < cells; start++)
            for (Py_ssize_t cell = left[start] == 1 ? start : -1; cell >= 0; peeled++)
                cell = peel_branch(moves, left, level, cell, width, &deepest);
    } else {
        Py_ssize_t tail = first_leaves(left, cells, queue);
        for (; peeled < tail; peeled++) {
            Py_ssize_t near = peel_branch(moves, left, level, queue[peeled], width, &deepest);
            if (near >= 0) queue[tail++] = (int32_t)near;
        }
    }
    release(b, 4);
    return Py_BuildValue("(ln)", deepest, peeled);
}

/* One step of the tree walk: peel the leaf `cell` into its parent, the one neighbour still
 * there (low nibble of left not 0), whose subtree size it adds to; keep the direction to the
 * parent in the high nibble of the cell's left. With `levels`, the longest-branch figures of
 * peel_branch too. The parent when peeling made it a leaf, else -1; -2 when the cell has no
 * neighbour left (two leaves meeting: not a tree pinned at its root). */
static inline Py_ssize_t peel_tree(const uint8_t *moves, uint8_t *left, int32_t *node,
                                   Py_ssize_t cell, Py_ssize_t width, int levels,
                                   long *deepest) {
    uint8_t open = moves[cell];
    Py_ssize_t near;
    unsigned bit;
    left[cell] = 0;
    if ((open & NORTH) && (left[cell - width] & 15)) bit = NORTH, near = cell - width;
    else if ((open & EAST) && (left[cell + 1] & 15)) bit = EAST, near = cell + 1;
    else if ((open & SOUTH) && (left[cell + width] & 15)) bit = SOUTH, near = cell + width;
    else if ((open & WEST) && (left[cell - 1] & 15)) bit = WEST, near = cell - 1;
    else return -2;
    left[cell] = (uint8_t)(bit << 4);
    int32_t *mine = node + 2 * cell, *theirs = node + 2 * near; /* size, level */
    theirs[0] += mine[0];
    int32_t depth = mine[1] + 1;
    if (levels && theirs[1] < depth) theirs[1] = depth;
    if (--left[near] == 1) return near;
    if (levels && depth > *deepest) *deepest = depth; /* a branch ends on the core or a pin */
    return -1;
}

/* The walk of tree_betweenness: sizes and levels into `node` (two int32 a cell), directions
 * to the parents into the high nibbles of `left`. 0, or -1 when two leaves met (not a tree
 * pinned at its root: *peeled stops short of n - 1). */
static int tree_walk(const uint8_t *moves, uint8_t *left, int32_t *node, Py_ssize_t cells,
                     Py_ssize_t root, Py_ssize_t exit_, Py_ssize_t width, Py_ssize_t *peeled_out,
                     long *deepest_out, Py_ssize_t *branch_out) {
    Py_ssize_t peeled = 0;
    long deepest = 0;
    int status = 0;
    for (Py_ssize_t cell = 0; cell < cells; cell++) {
        node[2 * cell] = 1, node[2 * cell + 1] = 0;
        left[cell] &= 15; /* the high nibble marks peeled cells */
    }
    left[root] = 15; /* never 1, never 0: a pinned cell stays */
    uint8_t exit_walls = 0;
    if (exit_ >= 0 && left[exit_]) exit_walls = left[exit_], left[exit_] = 15;
    for (Py_ssize_t start = 0; start < cells && !status; start++)
        for (Py_ssize_t cell = left[start] == 1 ? start : -1; cell >= 0; peeled++) {
            cell = peel_tree(moves, left, node, cell, width, 1, &deepest);
            if (cell == -2) { /* not a tree pinned at its root */
                status = -1;
                break;
            }
        }
    *branch_out = peeled;
    if (exit_walls && !status) { /* let the exit go: the path peels towards the root */
        left[exit_] = (uint8_t)(left[exit_] - 15 + exit_walls);
        for (Py_ssize_t cell = left[exit_] == 1 ? exit_ : -1; cell >= 0; peeled++) {
            cell = peel_tree(moves, left, node, cell, width, 0, &deepest);
            if (cell == -2) {
                status = -1;
                break;
            }
        }
    }
    *peeled_out = peeled, *deepest_out = deepest;
    return status;
}

/* The values pass of tree_betweenness over a finished walk; east, south, east_open and
 * south_open may be NULL (not written). -1 (ValueError set) when a direction in `left` is not
 * one open bit of its cell: `left` did not come from tree_walk on these moves. */
static int tree_values_pass(const uint8_t *moves, const uint8_t *left, double *value,
                            Py_ssize_t cells, Py_ssize_t root, Py_ssize_t width, Py_ssize_t n,
                            double node_scale, double edge_scale, double *east, double *south,
                            uint8_t *east_open, uint8_t *south_open) {
    int32_t *node = (int32_t *)value; /* size and level of each cell, until its value */
    int32_t *rows = PyMem_Calloc(2 * ((size_t)width + 2), sizeof(int32_t));
    if (!rows) {
        PyErr_NoMemory();
        return -1;
    }
    double all = (double)(n - 1) * (double)(n - 1), *sides[2] = {east, south};
    /* subtree sizes of the row above and of this row (0 beyond either end) */
    int32_t *above = rows + 1, *here = rows + width + 3;
    for (Py_ssize_t row = 0; row < cells; row += width) {
        int32_t *swap = above;
        above = here, here = swap;
        for (Py_ssize_t x = 0; x < width; x++) here[x] = node[2 * (row + x)];
        for (Py_ssize_t x = 0; x < width; x++) {
            Py_ssize_t cell = row + x;
            unsigned up = left[cell] >> 4, open = moves[cell];
            if (!up && cell != root) { /* neither peeled nor the root: not reachable */
                value[cell] = 0.0;
                if (east_open) east_open[cell] = south_open[cell] = 0;
                continue;
            }
            if (up && ((up & (up - 1)) || !(open & up))) {
                PyMem_Free(rows);
                PyErr_SetString(PyExc_ValueError, "left does not hold a finished tree walk");
                return -1;
            }
            if (east_open)
                east_open[cell] = (open & EAST) != 0, south_open[cell] = (open & SOUTH) != 0;
            /* Without branches (which neighbours are children is a coin toss): a closed
             * direction reads the cell itself, and its square is multiplied by 0. */
            Py_ssize_t north = cell - (width & -(Py_ssize_t)(open & NORTH));
            Py_ssize_t east_ = cell + (Py_ssize_t)((open & EAST) >> 1);
            Py_ssize_t south_ = cell + (width & -(Py_ssize_t)((open & SOUTH) >> 2));
            Py_ssize_t west = cell - (Py_ssize_t)((open & WEST) >> 3);
            double an = above[x], ae = here[x + 1], as = node[2 * south_], aw = here[x - 1];
            double squares = /* of the children's sizes: the neighbours peeled into it */
                an * an * (double)(((open & NORTH) != 0) & (left[north] >> 4 == SOUTH)) +
                ae * ae * (double)(((open & EAST) != 0) & (left[east_] >> 4 == WEST)) +
                as * as * (double)(((open & SOUTH) != 0) & (left[south_] >> 4 == NORTH)) +
                aw * aw * (double)(((open & WEST) != 0) & (left[west] >> 4 == EAST));
            double a = here[x], beyond = cell == root ? 0.0 : (double)n - a;
            value[cell] = (all - (squares + beyond * beyond)) / 2 * node_scale;
            if (cell == root || !east) continue;
            /* the passage to the parent: east of the left cell or south of the upper one */
            Py_ssize_t at = cell - (width & -(Py_ssize_t)(up == NORTH)) - (Py_ssize_t)(up == WEST);
            sides[(up & (NORTH | SOUTH)) != 0][at] = a * ((double)n - a) * edge_scale;
        }
    }
    PyMem_Free(rows);
    return 0;
}

/* tree_betweenness(moves, left, root, exit, width, n, node_scale, edge_scale, cells, east,
 * south, east_open, south_open) -> (peeled, deepest, branch peeled).
 * The reachable cells form a tree of n cells; left holds their open walls (0 elsewhere),
 * consumed. Peeling pinned at the root gives each other cell its parent and its subtree size
 * a; its passage to the parent lies on a(n - a) paths; a cell lies on ((n-1)^2 - the sum of
 * the squares of the parts its removal leaves)/2 paths. Values are scaled as
 * graph.betweenness scales them, with the same float operations (every sum of squares is a
 * whole number under 2**53, so exact in any order), into the float64 grids cells (every
 * item written), east (passage to the east neighbour) and south (zeroed); east_open and
 * south_open (a byte a cell, every one written) get 1 where a reachable cell opens that way.
 * `exit` (a reachable cell other than the root, or -1) is pinned too at first: that walk is
 * stats' peeling (peel_branches, chains), whose deepest branch and count come back beside
 * the total; then the exit lets go and the path between the pins peels last. The same walk
 * for `stats --graph`'s two figures, where it was two walks.
 * The walk keeps each cell's subtree size and level, two int32 side by side (one cache line
 * for both), in the cell's own 8 bytes of `cells`, and touches nothing else but the bytes of
 * left. One pass in flat order then reads each cell's children off its neighbours'
 * directions and writes the floats in order over those pairs, the sizes of the row above and
 * of its own row kept aside (a float written during the walk, which jumps about a large
 * grid, would miss the cache at every step).
 * tree_sizes(moves, left, root, exit, width, cells) is the walk alone (the sizes stay in
 * `cells`, read as int32 pairs: size, level), and tree_values(moves, left, root, width, n,
 * node_scale, edge_scale, cells, east, south, east_open, south_open) the pass after it, the
 * last four None when not wanted: stats --graph reads the passages off the sizes between the
 * two instead of keeping two grids of floats (graph.centrality.tree_sizes). */
static PyObject *tree_betweenness(PyObject *self, PyObject *args) {
    Py_buffer b[7]; /* moves, left, cells, east, south, east_open, south_open */
    Py_ssize_t root, exit_, width, n;
    double node_scale, edge_scale;
    if (!PyArg_ParseTuple(args, "y*w*nnnnddw*w*w*w*w*", &b[0], &b[1], &root, &exit_, &width,
                          &n, &node_scale, &edge_scale, &b[2], &b[3], &b[4], &b[5], &b[6]))
        return NULL;
    Py_ssize_t cells = b[0].len, floats = cells * (Py_ssize_t)sizeof(double);
    if (width < 1 || cells % width || b[1].len != cells || b[2].len != floats ||
        b[3].len != floats || b[4].len != floats || b[5].len != cells || b[6].len != cells ||
        root < 0 || root >= cells || exit_ < -1 || exit_ >= cells || exit_ == root || n < 1 ||
        n > cells) {
        PyErr_SetString(PyExc_ValueError,
                        "left, east_open, south_open (a byte), cells, east, south (float64) need "
                        "one item a cell; the width divides the cells; root, exit and n in the "
                        "grid");
        release(b, 7);
        return NULL;
    }
    const uint8_t *moves = (const uint8_t *)b[0].buf;
    uint8_t *left = (uint8_t *)b[1].buf;
    if (check_moves(moves, cells, width) < 0) {
        release(b, 7);
        return NULL;
    }
    Py_ssize_t peeled, branch_peeled;
    long deepest;
    int status = tree_walk(moves, left, (int32_t *)b[2].buf, cells, root, exit_, width,
                           &peeled, &deepest, &branch_peeled);
    if (!status &&
        tree_values_pass(moves, left, (double *)b[2].buf, cells, root, width, n, node_scale,
                         edge_scale, (double *)b[3].buf, (double *)b[4].buf,
                         (uint8_t *)b[5].buf, (uint8_t *)b[6].buf) < 0) {
        release(b, 7);
        return NULL;
    }
    release(b, 7);
    return Py_BuildValue("(nln)", peeled, deepest, branch_peeled);
}

static PyObject *tree_sizes(PyObject *self, PyObject *args) {
    Py_buffer b[3]; /* moves, left, cells */
    Py_ssize_t root, exit_, width;
    if (!PyArg_ParseTuple(args, "y*w*nnnw*", &b[0], &b[1], &root, &exit_, &width, &b[2]))
        return NULL;
    Py_ssize_t cells = b[0].len;
    if (width < 1 || cells % width || b[1].len != cells ||
        b[2].len != cells * (Py_ssize_t)sizeof(double) || root < 0 || root >= cells ||
        exit_ < -1 || exit_ >= cells || exit_ == root) {
        PyErr_SetString(PyExc_ValueError,
                        "left (a byte) and cells (8 bytes) need one item a cell; the width "
                        "divides the cells; root and exit in the grid");
        release(b, 3);
        return NULL;
    }
    const uint8_t *moves = (const uint8_t *)b[0].buf;
    if (check_moves(moves, cells, width) < 0) {
        release(b, 3);
        return NULL;
    }
    Py_ssize_t peeled, branch_peeled;
    long deepest;
    tree_walk(moves, (uint8_t *)b[1].buf, (int32_t *)b[2].buf, cells, root, exit_, width,
              &peeled, &deepest, &branch_peeled);
    release(b, 3);
    return Py_BuildValue("(nln)", peeled, deepest, branch_peeled);
}

/* A writable buffer of `len` bytes from `object`, or none for None: 1, 0, or -1 on error. */
static int optional_buffer(PyObject *object, Py_buffer *view, Py_ssize_t len) {
    if (object == Py_None) return 0;
    if (PyObject_GetBuffer(object, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != len) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "east, south (float64) and the open masks (a byte) "
                                          "need one item a cell");
        return -1;
    }
    return 1;
}

static PyObject *tree_values(PyObject *self, PyObject *args) {
    Py_buffer b[3], opt[4]; /* moves, left, cells; east, south, east_open, south_open */
    PyObject *given[4];
    Py_ssize_t root, width, n;
    double node_scale, edge_scale;
    if (!PyArg_ParseTuple(args, "y*y*nnnddw*OOOO", &b[0], &b[1], &root, &width, &n,
                          &node_scale, &edge_scale, &b[2], &given[0], &given[1], &given[2],
                          &given[3]))
        return NULL;
    Py_ssize_t cells = b[0].len, floats = cells * (Py_ssize_t)sizeof(double);
    if (width < 1 || cells % width || b[1].len != cells || b[2].len != floats || root < 0 ||
        root >= cells || n < 1 || n > cells) {
        PyErr_SetString(PyExc_ValueError,
                        "left (a byte) and cells (float64) need one item a cell; the width "
                        "divides the cells; root and n in the grid");
        release(b, 3);
        return NULL;
    }
    int have[4] = {0, 0, 0, 0}, failed = 0;
    for (int i = 0; i < 4 && !failed; i++) {
        have[i] = optional_buffer(given[i], &opt[i], i < 2 ? floats : cells);
        failed = have[i] < 0;
    }
    if (!failed && (have[0] != have[1] || have[2] != have[3])) {
        PyErr_SetString(PyExc_ValueError,
                        "east and south, east_open and south_open: both or neither");
        failed = 1;
    }
    const uint8_t *moves = (const uint8_t *)b[0].buf;
    if (!failed) failed = check_moves(moves, cells, width) < 0;
    if (!failed)
        failed = tree_values_pass(moves, (const uint8_t *)b[1].buf, (double *)b[2].buf, cells,
                                  root, width, n, node_scale, edge_scale,
                                  have[0] > 0 ? (double *)opt[0].buf : NULL,
                                  have[1] > 0 ? (double *)opt[1].buf : NULL,
                                  have[2] > 0 ? (uint8_t *)opt[2].buf : NULL,
                                  have[3] > 0 ? (uint8_t *)opt[3].buf : NULL) < 0;
    for (int i = 0; i < 4; i++)
        if (have[i] > 0) PyBuffer_Release(&opt[i]);
    release(b, 3);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

/* kth_largest(values, count) -> float: the count-th largest of the float64 `values` (1 <=
 * count <= their number), counting equal values apart, as np.partition(values, size - count)
 * [size - count] gives it; NaN when a value is NaN (the caller then asks numpy). One pass
 * with a min-heap of the count largest so far: for a top 5 of a million cells, a read of
 * the array, where np.partition copies it and selects in several passes. */
static PyObject *kth_largest(PyObject *self, PyObject *args) {
    Py_buffer b;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "y*n", &b, &count)) return NULL;
    Py_ssize_t size = b.len / (Py_ssize_t)sizeof(double);
    if (b.len % (Py_ssize_t)sizeof(double) || count < 1 || count > size) {
        PyErr_SetString(PyExc_ValueError, "float64 values and 1 <= count <= their number");
        PyBuffer_Release(&b);
        return NULL;
    }
    const double *values = (const double *)b.buf;
    double *heap = PyMem_Malloc((size_t)count * sizeof(double));
    if (!heap) {
        PyBuffer_Release(&b);
        return PyErr_NoMemory();
    }
    int nan = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        double v = values[i];
        nan |= v != v;
        Py_ssize_t at;
        if (i < count) { /* fill the heap: sift the new value up */
            for (at = i; at > 0 && heap[(at - 1) / 2] > v; at = (at - 1) / 2)
                heap[at] = heap[(at - 1) / 2];
        } else if (v > heap[0]) { /* replace the smallest kept: sift down from the root */
            at = 0;
            for (;;) {
                Py_ssize_t child = 2 * at + 1;
                if (child >= count) break;
                if (child + 1 < count && heap[child + 1] < heap[child]) child++;
                if (heap[child] >= v) break;
                heap[at] = heap[child];
                at = child;
            }
        } else {
            continue;
        }
        heap[at] = v;
    }
    double found = nan ? Py_NAN : heap[0];
    PyMem_Free(heap);
    PyBuffer_Release(&b);
    return PyFloat_FromDouble(found);
}

/* The Brandes kernel must give numpy's very bits: no multiply and add fused into one rounding
 * (a build for a CPU with FMA would otherwise fuse coef * sigma into the sum it joins). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

/* One node of the Brandes kernel, in one 64-byte cache line: its N, E, S, W neighbours (the
 * spare, node n, for none); its path count sigma, then (once the backward pass has been by)
 * its coefficient (1 + delta) / sigma in the same slot; its mark, the search's base plus its
 * distance from the source (below the base: not reached by this search yet); and its sums
 * (its dependency, its E and S passages' shares). A search of a large maze jumps about its
 * cells: one line a node, not four arrays, is 4x fewer cache misses. The spare's value is 0
 * and its mark INT64_MAX (never new, never one step away), as numpy's spare column. */
typedef struct {
    int32_t near[4];
    double value;
    int64_t mark;
    double sums[3];
    int64_t cell; /* brandes_cells: the node's grid cell, where its sums are added */
} BrandesNode;

#if defined(__GNUC__)
#define BRANDES_PREFETCH(address) __builtin_prefetch(address, 1)
#else
#define BRANDES_PREFETCH(address) ((void)(address))
#endif
#define BRANDES_AHEAD 64 /* nodes of the queue ahead whose neighbours are fetched (twice: its own) */

/* Ask for the lines of the neighbours of node v (whose own line was asked for earlier): the
 * queue says which nodes come next, a search of a large maze misses the cache at nearly every
 * neighbour, and misses asked for together overlap. */
static inline void brandes_fetch(const BrandesNode *node, int32_t v) {
    for (int k = 0; k < 4; k++) BRANDES_PREFETCH(node + node[v].near[k]);
}

/* `value` where `keep`, else +0.0, without a branch (which neighbours are nearer is a coin
 * toss a branch predictor loses). */
static inline double brandes_masked(double value, int keep) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    bits &= (uint64_t)0 - (uint64_t)keep;
    memcpy(&value, &bits, sizeof bits);
    return value;
}

/* The forward pass of one source's search: every node it reaches gets its mark (base + its
 * distance) and its path count, in the reference's order (the nearer neighbours' counts, N,
 * E, S, W); the queue holds them nearest first. Their number. */
static Py_ssize_t brandes_forward(BrandesNode *node, int32_t *queue, int32_t source,
                                  int64_t base) {
    Py_ssize_t head = 0, tail = 1;
    queue[0] = source;
    node[source].mark = base;
    while (head < tail) { /* forward: the nearer neighbours' counts, N, E, S, W */
        if (head + 2 * BRANDES_AHEAD < tail)
            BRANDES_PREFETCH(node + queue[head + 2 * BRANDES_AHEAD]);
        if (head + BRANDES_AHEAD < tail) brandes_fetch(node, queue[head + BRANDES_AHEAD]);
        BrandesNode *here = node + queue[head++];
        int64_t mark = here->mark;
        double sigma = 0.0;
        for (int k = 0; k < 4; k++) {
            BrandesNode *near = node + here->near[k];
            int64_t seen = near->mark;
            int fresh = seen < base;
            sigma += brandes_masked(near->value, seen == mark - 1);
            near->mark = fresh ? mark + 1 : seen;
            queue[tail] = here->near[k];
            tail += fresh;
        }
        here->value = mark == base ? 1.0 : sigma;
    }
    return tail;
}

/* One source's search, its sums added into each node's sums (the spare's too: ignored):
 * graph.brandes.brandes_sums' plain case with the reference's float operations in its order
 * (see brandes below), the zeros it adds included (so an overflowed count gives NaN where
 * numpy's 0 * inf does). base: above every mark of the searches before; queue: n + 1 int32
 * of scratch. Every target weighs 1 (the chain method's weighted searches are chain_sums'). */
static void brandes_source(BrandesNode *node, int32_t *queue, int32_t source, int64_t base) {
    Py_ssize_t tail = brandes_forward(node, queue, source, base);
    for (Py_ssize_t i = tail - 1; i >= 0; i--) { /* backward: the farthest first */
        if (i >= 2 * BRANDES_AHEAD) BRANDES_PREFETCH(node + queue[i - 2 * BRANDES_AHEAD]);
        if (i >= BRANDES_AHEAD) brandes_fetch(node, queue[i - BRANDES_AHEAD]);
        BrandesNode *here = node + queue[i];
        int64_t mark = here->mark;
        double sigma = here->value, farther = 0.0, coef[4];
        for (int k = 0; k < 4; k++) {
            const BrandesNode *near = node + here->near[k];
            coef[k] = brandes_masked(near->value, near->mark == mark + 1);
            farther += coef[k];
        }
        node[here->near[0]].sums[2] += coef[0] * sigma; /* N: the north cell's S passage */
        here->sums[1] += coef[1] * sigma;
        here->sums[2] += coef[2] * sigma;
        node[here->near[3]].sums[1] += coef[3] * sigma; /* W: the west cell's E passage */
        double delta = sigma * farther;
        here->sums[0] += brandes_masked(delta, mark != base); /* a source is no node between */
        here->value = (1.0 + delta) / sigma;
    }
}

/* Fill each node's neighbours (the spare, n, for none) and clear the rest. */
static void brandes_nodes(const int32_t *table, Py_ssize_t n, BrandesNode *node) {
    memset(node, 0, (size_t)(n + 1) * sizeof(BrandesNode));
    for (Py_ssize_t v = 0; v < n; v++) {
        for (int k = 0; k < 4; k++) {
            int32_t near = table[4 * v + k];
            node[v].near[k] = near < 0 ? (int32_t)n : near;
        }
        node[v].mark = -1;
    }
    for (int k = 0; k < 4; k++) node[n].near[k] = (int32_t)n;
    node[n].mark = INT64_MAX;
}

/* Whether a neighbour table (n x 4 nodes, -1 for none) and ``count`` sources name only
 * nodes below n: the kernels below index with them unchecked. */
static int nodes_valid(const int32_t *table, Py_ssize_t n, const int64_t *sources,
                       Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < 4 * n; i++)
        if (table[i] < -1 || table[i] >= n) return 0;
    for (Py_ssize_t i = 0; i < count; i++)
        if (sources[i] < 0 || sources[i] >= n) return 0;
    return 1;
}

/* Node memory of the Brandes kernels: where it lies, and the mapping behind it when it is
 * one of its own (else PyMem_Malloc gave it). */
typedef struct {
    char *memory, *mapping;
    size_t mapped;
} NodeMemory;

#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_FROM ((size_t)4 << 20)
#define HUGE_UPTO ((size_t)128 << 20)

/* Nodes for n nodes and the spare, aligned on a line, or NULL. On Linux, from 4 MB to 128 MB
 * (2M nodes), a mapping of its own on a 2 MB boundary asking for huge pages: a search jumps
 * about the whole array, and 64 MB of 4 KB pages are 16,000 page faults at first touch (the
 * fill: 41 ms, 15 with huge pages) and a TLB miss at nearly every node (20 sources: 420 ms,
 * 380). When Linux must compact memory to find the pages, the fill can take 0.1 s more;
 * beyond 128 MB (a 4000x4000 maze's 1 GB) that risk grows with the size (the carving
 * kernels saw 0.3 s at 320 MB), so ordinary pages. Free with nodes_free. */
static BrandesNode *brandes_alloc(Py_ssize_t n, NodeMemory *held) {
    size_t bytes = ((size_t)n + 2) * sizeof(BrandesNode); /* one more to align */
    held->memory = held->mapping = NULL, held->mapped = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_FROM && bytes <= HUGE_UPTO) {
        size_t mapped = bytes + HUGE_PAGE;
        void *mapping =
            mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping != MAP_FAILED) {
            uintptr_t at = ((uintptr_t)mapping + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
            (void)madvise((void *)at, bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
            held->mapping = mapping, held->mapped = mapped;
            return (BrandesNode *)(held->memory = (char *)at);
        }
    }
#endif
    held->memory = PyMem_Malloc(bytes);
    if (!held->memory) return NULL;
    return (BrandesNode *)(held->memory + (sizeof(BrandesNode) -
                                           (uintptr_t)held->memory % sizeof(BrandesNode)));
}

/* Give back what brandes_alloc took. */
static void nodes_free(NodeMemory *held) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (held->mapping) {
        munmap(held->mapping, held->mapped);
        return;
    }
#endif
    PyMem_Free(held->memory);
}

/* Brandes' sums over `count` sources on filled nodes into sides (nodes, east, south: n
 * float64 each, every item written), in batches of `batch` (see brandes below); total: 3(n+1)
 * zeroed doubles when batched (batch > 1 and count > 1), else unused; queue: n + 1 int32.
 * Runs without the interpreter lock. */
static void brandes_sums(BrandesNode *node, int32_t *queue, double *total, Py_ssize_t n,
                         const int64_t *sources, Py_ssize_t count, Py_ssize_t batch,
                         double *sides[3]) {
    int batched = batch > 1 && count > 1;
    for (Py_ssize_t start = 0; start < count; start += batch) {
        Py_ssize_t stop = start + batch < count ? start + batch : count;
        for (Py_ssize_t s = start; s < stop; s++)
            brandes_source(node, queue, (int32_t)sources[s], (int64_t)s * (n + 1) + 1);
        for (Py_ssize_t v = 0; batched && v < n; v++) {
            for (int k = 0; k < 3; k++) total[3 * v + k] += node[v].sums[k];
            node[v].sums[0] = node[v].sums[1] = node[v].sums[2] = 0.0;
        }
    }
    for (Py_ssize_t v = 0; v < n; v++)
        for (int k = 0; k < 3; k++) sides[k][v] = batched ? total[3 * v + k] : node[v].sums[k];
}

/* brandes(table, sources, batch, nodes, east, south): graph.brandes.brandes_sums' plain case (every
 * target weighs 1, nothing stored). table: the n x 4 int32 neighbour table (N, E, S, W; -1
 * none) of a grid, so bipartite: a neighbour is one step nearer or farther. sources: int64
 * nodes. The float64 outputs (n each, every item written) get the sums over the sources of
 * each node's dependency and of its E and S passages' shares.
 * The reference's float order, exactly: a count is the sum of the nearer neighbours' counts
 * in N, E, S, W order (numpy adds the others' zeros, which change nothing); the farther sum
 * likewise over coefficients; delta = sigma * farther; coef = (w + delta) / sigma; a passage
 * gets coef(farther end) * sigma(nearer end), once. numpy sums a batch's rows in source
 * order (a reduction over the outer axis is row after row) and adds that into the totals:
 * so each batch of `batch` sources sums into the nodes' own sums first, added to the totals
 * at its end (with batch 1, the nodes' sums are the totals: 0 + x is x). The interpreter
 * lock is let go while it runs. (Numbering the nodes depth-first, so that a corridor lies in
 * order in memory, made no difference once the lines are fetched ahead.) */
static PyObject *brandes(PyObject *self, PyObject *args) {
    Py_buffer b[5]; /* table, sources, nodes, east, south */
    Py_ssize_t batch;
    if (!PyArg_ParseTuple(args, "y*y*nw*w*w*", &b[0], &b[1], &batch, &b[2], &b[3], &b[4]))
        return NULL;
    Py_ssize_t n = b[0].len / (Py_ssize_t)(4 * sizeof(int32_t));
    Py_ssize_t count = b[1].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t floats = n * (Py_ssize_t)sizeof(double);
    int bad = b[0].len % (Py_ssize_t)(4 * sizeof(int32_t)) ||
              b[1].len % (Py_ssize_t)sizeof(int64_t) || b[2].len != floats ||
              b[3].len != floats || b[4].len != floats || batch < 1 || n >= INT32_MAX ||
              count >= INT32_MAX;
    const int32_t *table = (const int32_t *)b[0].buf;
    const int64_t *sources = (const int64_t *)b[1].buf;
    bad = bad || !nodes_valid(table, n, sources, count);
    if (bad) {
        PyErr_SetString(PyExc_ValueError,
                        "an n x 4 int32 table of nodes (or -1), int64 sources among them, "
                        "batch >= 1, and nodes, east, south float64 of n items");
        release(b, 5);
        return NULL;
    }
    int batched = batch > 1 && count > 1;
    NodeMemory memory;
    BrandesNode *node = brandes_alloc(n, &memory);
    int32_t *queue = PyMem_Malloc(((size_t)n + 1) * sizeof(int32_t));
    double *total = batched ? PyMem_Calloc(3 * ((size_t)n + 1), sizeof(double)) : NULL;
    int ok = node && queue && (total || !batched);
    if (ok) {
        double *sides[3] = {(double *)b[2].buf, (double *)b[3].buf, (double *)b[4].buf};
        Py_BEGIN_ALLOW_THREADS
        brandes_nodes(table, n, node);
        brandes_sums(node, queue, total, n, sources, count, batch, sides);
        Py_END_ALLOW_THREADS
    }
    nodes_free(&memory), PyMem_Free(queue), PyMem_Free(total);
    release(b, 5);
    if (!ok) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

#define BRANDES_TILE 8 /* a tile of 8 x 8 cells: 64 nodes of 64 bytes, one 4 KB page */

/* Number the cells `flat` (ascending) as nodes: `map` gets each cell's node (-1: none). In
 * flat order (node v is cell flat[v]), or `tiled`: tile by tile, BRANDES_TILE x BRANDES_TILE
 * cells, the tiles in rows and the cells of a tile in rows. A search steps to the cells
 * above and below as often as to the sides; in flat order those lie a row of the grid away
 * (a 4000-wide grid's row of nodes: 256 KB), on other pages of memory, so beyond the huge
 * pages (brandes_alloc) nearly every step misses the TLB. In a tile, most neighbours share
 * the node's page. The sums do not depend on the numbering: a node's count adds its nearer
 * neighbours N, E, S, W whatever their numbers, and each passage gets one share a search. */
static void cells_number(Py_ssize_t cells, Py_ssize_t width, const int64_t *flat, Py_ssize_t n,
                         int tiled, int32_t *map) {
    memset(map, 0xff, (size_t)cells * sizeof(int32_t)); /* -1 everywhere */
    if (!tiled) {
        for (Py_ssize_t v = 0; v < n; v++) map[flat[v]] = (int32_t)v;
        return;
    }
    for (Py_ssize_t v = 0; v < n; v++) map[flat[v]] = -2; /* a node, not numbered yet */
    Py_ssize_t height = cells / width;
    int32_t next = 0;
    for (Py_ssize_t top = 0; top < height; top += BRANDES_TILE)
        for (Py_ssize_t left = 0; left < width; left += BRANDES_TILE)
            for (Py_ssize_t y = top; y < top + BRANDES_TILE && y < height; y++)
                for (Py_ssize_t x = left; x < left + BRANDES_TILE && x < width; x++)
                    if (map[y * width + x] == -2) map[y * width + x] = next++;
}

/* Fill the nodes of the cells `flat` (ascending) from their open bits `moves` (a grid of
 * `width` columns, checked by check_moves), numbered by cells_number into `map`: a node's
 * neighbours are the nodes of the cells its open directions lead to (the spare, n, for
 * none), as graph.table.reachable_graph's table has them, and its cell is kept. 0, or -1 when
 * an open direction leads to a cell that is not among `flat` (then the nodes are not the
 * graph of those cells). Each line is written whole, once: no memset before. */
static int cells_nodes(const uint8_t *moves, Py_ssize_t cells, Py_ssize_t width,
                       const int64_t *flat, Py_ssize_t n, const int32_t *map, BrandesNode *node) {
    static const uint8_t bits[4] = {NORTH, EAST, SOUTH, WEST};
    const Py_ssize_t step[4] = {-width, 1, width, -1};
    for (Py_ssize_t v = 0; v <= n; v++) {
        Py_ssize_t cell = v < n ? flat[v] : 0;
        uint8_t open = v < n ? moves[cell] : 0; /* the spare: no neighbours */
        BrandesNode *here = node + (v < n ? map[cell] : n);
        for (int k = 0; k < 4; k++) {
            int32_t near = (open & bits[k]) ? map[cell + step[k]] : (int32_t)n;
            if (near < 0) return -1;
            here->near[k] = near;
        }
        here->value = 0.0;
        here->mark = v < n ? -1 : INT64_MAX;
        here->sums[0] = here->sums[1] = here->sums[2] = 0.0;
        here->cell = v < n ? cell : -1;
    }
    (void)cells;
    return 0;
}

/* Brandes' sums of brandes_sums, added into float64 grids (cells, east, south) at each
 * node's cell flat[v] instead of written in node order: numpy's batches (see brandes), each
 * added into the grids at its end, the grids' zeros standing for the totals' (0 + x is x;
 * without batches, one addition at the end, as brandes' nodes' own sums are its totals).
 * No totals buffer and no node-ordered copy: 48 bytes a node of fresh memory fewer. */
static void turn_wait(const int64_t *turn, int64_t share);
static void turn_pass(int64_t *turn, int64_t share);

static void brandes_into_cells(BrandesNode *node, int32_t *queue, Py_ssize_t n,
                               const int32_t *sources, Py_ssize_t count, Py_ssize_t batch,
                               double *sides[3], int64_t *turn, int64_t share) {
    Py_ssize_t every = batch > 1 && count > 1 ? batch : count; /* sources between additions */
    for (Py_ssize_t start = 0; start < count; start += every) {
        Py_ssize_t stop = start + every < count ? start + every : count;
        for (Py_ssize_t s = start; s < stop; s++)
            brandes_source(node, queue, sources[s], (int64_t)s * (n + 1) + 1);
        if (turn) turn_wait(turn, share); /* one addition (the caller checked): in share order */
        for (Py_ssize_t v = 0; v < n; v++) {
            for (int k = 0; k < 3; k++) sides[k][node[v].cell] += node[v].sums[k];
            node[v].sums[0] = node[v].sums[1] = node[v].sums[2] = 0.0;
        }
    }
    if (turn) turn_pass(turn, share);
}

/* The turns of threads that add into the same grids (brandes_cells' `turn`): share k waits
 * until the int64 at turn reads k, adds, then sets k + 1. Both run without the interpreter
 * lock; a waiting thread sleeps 0.2 ms at a time (it waits only at its end, for the share
 * before to add: a few milliseconds at most on a machine whose cores are free). */
static void turn_wait(const int64_t *turn, int64_t share) {
    while (__atomic_load_n(turn, __ATOMIC_ACQUIRE) != share) {
        struct timespec pause = {0, 200000};
        nanosleep(&pause, NULL);
    }
}

static void turn_pass(int64_t *turn, int64_t share) {
    __atomic_store_n(turn, share + 1, __ATOMIC_RELEASE);
}

/* brandes_cells(moves, width, flat, sources, batch, cells, east, south[, turn, share, tiled]):
 * brandes() on the graph of the cells `flat` (int64 flat indices, ascending: source v is cell
 * flat[v]) joined by their open bits `moves` (uint8, the grid), so without
 * graph.table.reachable_graph's n x 4 table: the kernel reads the neighbours off the bits as
 * it fills its nodes. The same graph, so the same floats as brandes() with that table, added
 * into the float64 grids cells, east and south (a cell each; zeros from the caller make them
 * brandes()' outputs, laid out on the grid). ValueError when an open direction of a cell
 * leads out of the grid or to a cell not in `flat`. The cell -> node map of the fill lives in
 * the queue's memory (made large enough). The nodes are numbered tile by tile
 * (cells_number) when they pass the huge pages' 128 MB, or as `tiled` says (1 or 0; -1, the
 * default: by that size).
 * With `turn` (a one-int64 array shared by threads) and `share` k, and one addition (batch 1
 * or one source), the addition waits until turn reads k and then sets k + 1 (turn_wait):
 * threads add their shares into the same grids one after the other, in share order, the
 * floats of adding each share's grids after (0 + a is a), with one set of grids. */
static PyObject *brandes_cells(PyObject *self, PyObject *args) {
    Py_buffer b[6], turn_view; /* moves, flat, sources, cells, east, south; turn */
    Py_ssize_t width, batch, share = 0, tiled = -1;
    PyObject *turn_object = Py_None;
    if (!PyArg_ParseTuple(args, "y*ny*y*nw*w*w*|Onn", &b[0], &width, &b[1], &b[2], &batch,
                          &b[3], &b[4], &b[5], &turn_object, &share, &tiled))
        return NULL;
    int64_t *turn = NULL; /* given: every exit passes the turn, so no later share waits forever */
    if (turn_object != Py_None) {
        if (PyObject_GetBuffer(turn_object, &turn_view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
            release(b, 6);
            return NULL;
        }
        if (turn_view.len != (Py_ssize_t)sizeof(int64_t)) {
            PyBuffer_Release(&turn_view);
            release(b, 6);
            PyErr_SetString(PyExc_ValueError, "turn: one int64");
            return NULL;
        }
        turn = (int64_t *)turn_view.buf;
    }
    Py_ssize_t cells = b[0].len;
    Py_ssize_t n = b[1].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t count = b[2].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t floats = cells * (Py_ssize_t)sizeof(double);
    const int64_t *flat = (const int64_t *)b[1].buf, *sources = (const int64_t *)b[2].buf;
    int bad = width < 1 || cells % width || b[1].len % (Py_ssize_t)sizeof(int64_t) ||
              b[2].len % (Py_ssize_t)sizeof(int64_t) || b[3].len != floats ||
              b[4].len != floats || b[5].len != floats || batch < 1 || cells >= INT32_MAX ||
              count >= INT32_MAX || (turn && (share < 0 || (batch > 1 && count > 1)));
    for (Py_ssize_t v = 0; !bad && v < n; v++)
        bad = flat[v] < (v ? flat[v - 1] + 1 : 0) || flat[v] >= cells;
    for (Py_ssize_t s = 0; !bad && s < count; s++) bad = sources[s] < 0 || sources[s] >= n;
    if (bad)
        PyErr_SetString(PyExc_ValueError,
                        "uint8 moves of a grid the width divides, ascending int64 cells among "
                        "them, int64 sources among those, batch >= 1, and cells, east, south "
                        "float64 of a grid cell each; with a turn, one batch and a share >= 0");
    else if (check_moves((const uint8_t *)b[0].buf, cells, width) < 0)
        bad = 1;
    NodeMemory memory = {NULL, NULL, 0};
    BrandesNode *node = bad ? NULL : brandes_alloc(n, &memory);
    size_t queued = (size_t)(cells > n ? cells : n + 1); /* the map first, then the queue */
    int32_t *queue = bad ? NULL : PyMem_Malloc(queued * sizeof(int32_t));
    int32_t *numbered = bad ? NULL : PyMem_Malloc(((size_t)count + 1) * sizeof(int32_t));
    int ok = node && queue && numbered, closed = 0;
    if (tiled < 0) tiled = ((size_t)n + 2) * sizeof(BrandesNode) > HUGE_UPTO;
    double *sides[3] = {(double *)b[3].buf, (double *)b[4].buf, (double *)b[5].buf};
    Py_BEGIN_ALLOW_THREADS
    if (ok) {
        cells_number(cells, width, flat, n, tiled != 0, queue);
        for (Py_ssize_t s = 0; s < count; s++) numbered[s] = queue[flat[sources[s]]];
        closed = cells_nodes((const uint8_t *)b[0].buf, cells, width, flat, n, queue, node) == 0;
    }
    if (closed) brandes_into_cells(node, queue, n, numbered, count, batch, sides, turn, share);
    else if (turn) turn_wait(turn, share), turn_pass(turn, share);
    Py_END_ALLOW_THREADS
    if (node) nodes_free(&memory);
    PyMem_Free(queue), PyMem_Free(numbered);
    if (turn) PyBuffer_Release(&turn_view);
    release(b, 6);
    if (bad) return NULL;
    if (!ok) return PyErr_NoMemory();
    if (!closed) {
        PyErr_SetString(PyExc_ValueError, "an open direction leads to a cell not among the cells");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The chain method (graph.chains.brandes_by_chains, specs/stats.md "Chains") in one walk,
 * chain_sums: over the key nodes in order, at each the searches from it and from the other ends of
 * its chains (each kept only while a key still to come needs it: a band of rows, not keys x n),
 * the bins of the chains it starts, its target weights and its backward pass. Every float is
 * the reference's (graph.brandes.forward, the bincounts, KeyPaths.through, brandes_sums), in
 * its order. */

/* A node of the chain method's searches, 32 bytes (two to a cache line): its N, E, S, W
 * neighbours (the spare, node n, for none), its distance from the source (-1: not reached;
 * the spare's INT32_MAX: never new, never one step away) and its path count, then its
 * coefficient (w + delta) / sigma once the backward pass has been by (the spare's 0). */
typedef struct {
    int32_t near[4];
    int32_t mark, unused;
    double paths;
} ChainNode;

/* A stored search: int16 distances (-1: not reached), path counts, and the nodes it reached
 * in the order it reached them (int16: n < 2**15). NULL when not kept. */
typedef struct {
    int16_t *dist, *order;
    double *sigma;
    Py_ssize_t reached;
} ChainRow;

/* The breadth-first search from `source` into `row`: each path count the sum of the nearer
 * neighbours' in N, E, S, W order, graph.brandes.forward's floats (the zeros numpy adds for the
 * others change nothing). queue: n + 1 int32 of scratch (a neighbour is written past the end,
 * not counted). Without a branch on the neighbours, whose order is a coin toss. */
static void chain_search(ChainNode *node, Py_ssize_t n, int32_t source, int32_t *queue,
                         ChainRow *row) {
    for (Py_ssize_t v = 0; v < n; v++) node[v].mark = -1, node[v].paths = 0.0;
    Py_ssize_t head = 0, tail = 1;
    queue[0] = source;
    node[source].mark = 0;
    while (head < tail) {
        ChainNode *here = node + queue[head++];
        int32_t d = here->mark;
        double sum = 0.0;
        for (int k = 0; k < 4; k++) {
            ChainNode *near = node + here->near[k];
            int32_t seen = near->mark, fresh = seen < 0;
            sum += brandes_masked(near->paths, seen == d - 1);
            near->mark = fresh ? d + 1 : seen;
            queue[tail] = here->near[k];
            tail += fresh;
        }
        here->paths = d == 0 ? 1.0 : sum;
    }
    for (Py_ssize_t v = 0; v < n; v++)
        row->dist[v] = (int16_t)node[v].mark, row->sigma[v] = node[v].paths;
    for (Py_ssize_t i = 0; i < tail; i++) row->order[i] = (int16_t)queue[i];
    row->reached = tail;
}

/* The backward pass of the stored search `row`, with target weights `wanted`: the farthest
 * nodes first, each coefficient (w + delta) / sigma, delta = sigma * the sum of the farther
 * neighbours' coefficients (N, E, S, W), and every passage coef * sigma from both ends (the
 * nearer end's is the one not 0): brandes_sums' float operations (its kernel's brandes_source),
 * added into the batch's sums, four to a node (its own, its E and S passages', unused; n + 1
 * nodes: the spare's are ignored), one cache line for two nodes. */
static void chain_backward(ChainNode *node, Py_ssize_t n, const ChainRow *row,
                           const double *wanted, double *sums) {
    for (Py_ssize_t v = 0; v < n; v++) node[v].mark = row->dist[v], node[v].paths = row->sigma[v];
    for (Py_ssize_t i = row->reached - 1; i >= 0; i--) {
        int32_t v = row->order[i];
        ChainNode *here = node + v;
        int32_t d = here->mark;
        double sigma = here->paths, farther = 0.0, coef[4];
        for (int k = 0; k < 4; k++) {
            const ChainNode *near = node + here->near[k];
            coef[k] = brandes_masked(near->paths, near->mark == d + 1);
            farther += coef[k];
        }
        double *mine = sums + 4 * (Py_ssize_t)v;
        sums[4 * (Py_ssize_t)here->near[0] + 2] += coef[0] * sigma; /* N: its S passage */
        mine[1] += coef[1] * sigma;
        mine[2] += coef[2] * sigma;
        sums[4 * (Py_ssize_t)here->near[3] + 1] += coef[3] * sigma; /* W: its E passage */
        double delta = sigma * farther;
        mine[0] += brandes_masked(delta, d != 0); /* a source is no node between */
        here->paths = (wanted[v] + delta) / sigma;
    }
}

/* x = L + d(b,t) - d(a,t) of target t of a chain whose ends' searches are `a`, `b`; within
 * 0..2L for the searches of one graph (d(a,b) <= L), clamped there whatever they hold. */
static inline int64_t chain_x(const ChainRow *a, const ChainRow *b, int64_t length,
                              Py_ssize_t t) {
    int64_t x = length + b->dist[t] - a->dist[t];
    return x < 0 ? 0 : x > 2 * length ? 2 * length : x;
}

/* The chain's bins, over the targets t outside its inner nodes (marked `own`): beyond[k] the
 * number with x >= k (k in 0..2L+1), and ties[k] the sum of sigma(a,t) / (sigma(a,t) +
 * sigma(b,t)) over those with x = k, in target order (numpy's bincount), for the even k in
 * 2..2L-2 that chain_local reads (0 elsewhere). counts: 2L + 2 int64 of scratch. */
static void chain_bins(const ChainRow *a, const ChainRow *b, int64_t length, Py_ssize_t n,
                       const int32_t *mark, int32_t own, int64_t *counts, double *beyond,
                       double *ties) {
    for (int64_t k = 0; k <= 2 * length + 1; k++) counts[k] = 0, ties[k] = 0.0;
    for (Py_ssize_t t = 0; t < n; t++) {
        if (mark[t] == own) continue;
        int64_t x = chain_x(a, b, length, t);
        counts[x]++;
        if (x % 2 == 0 && x >= 2 && x <= 2 * length - 2)
            ties[x] += a->sigma[t] / (a->sigma[t] + b->sigma[t]);
    }
    int64_t running = 0;
    for (int64_t k = 2 * length + 1; k >= 0; k--) running += counts[k], beyond[k] = (double)running;
}

/* Add to `wanted` the inner sources of a chain leaving through its end a (at_b 0) or b, per
 * target, 0 at its inner nodes (`inner`, L - 1 of them: their weights are put back, as
 * w + 0.0 is w): through()'s floats. No branch in the loop but the rare tie, and no index
 * computed from the distances (x needs no clamp here). */
static void chain_through(const ChainRow *a, const ChainRow *b, int64_t length, int at_b,
                          Py_ssize_t n, const int64_t *inner, double *keep, double *wanted) {
    const int16_t *restrict da = a->dist, *restrict db = b->dist;
    const double *restrict sa = a->sigma, *restrict sb = b->sigma;
    double *restrict add = wanted;
    int32_t top = (int32_t)length - 1, edge = 2 * (int32_t)length - 2;
    double last = (double)(length - 1);
    for (int64_t i = 0; i < length - 1; i++) keep[i] = wanted[inner[i]];
    for (Py_ssize_t t = 0; t < n; t++) {
        int32_t x = (int32_t)length + db[t] - da[t], half = ((x + 1) >> 1) - 1;
        double via_a = (double)(half < 0 ? 0 : half > top ? top : half);
        if ((x & 1) == 0 && x >= 2 && x <= edge) via_a += sa[t] / (sa[t] + sb[t]);
        add[t] += at_b ? last - via_a : via_a;
    }
    for (int64_t i = 0; i < length - 1; i++) wanted[inner[i]] = keep[i];
}

/* The weight of target b in the search from a of a chain a..b (a != b): its pairs of inner
 * cells that run around the chain through a and b, summed over the gaps as the reference's
 * loop sums them (reach = L + d(a,b); at a tie, around takes sigma(a,b) of the paths). */
static double chain_around(int64_t length, int64_t d_ab, double s_ab) {
    double total = 0.0;
    for (int64_t gap = 1; gap < length - 1; gap++) {
        double around = 2 * gap > length + d_ab ? 1.0 : 2 * gap < length + d_ab ? 0.0
                                                                            : s_ab / (1.0 + s_ab);
        if (around != 0.0) total += 2.0 * around * (double)(length - 1 - gap);
    }
    return total;
}

/* numpy's sum of `count` float64 (np.add.reduce of a contiguous array: 0.0 plus its pairwise
 * sum; blocks of up to 128 summed in 8 interleaved parts), so a sum the reference takes with
 * numpy is the same float here. */
static double chain_pairwise(const double *a, Py_ssize_t count) {
    if (count < 8) {
        double total = 0.0;
        for (Py_ssize_t i = 0; i < count; i++) total += a[i];
        return total;
    }
    if (count <= 128) {
        double r[8];
        Py_ssize_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < count - (count % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        double total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < count; i++) total += a[i];
        return total;
    }
    Py_ssize_t half = count / 2;
    half -= half % 8;
    return chain_pairwise(a, half) + chain_pairwise(a + half, count - half);
}

/* The pairs a chain's inner sources make inside and along it (graph.chains.chain_sums
 * over the chains, its reference, with its float operations in its order): the chain's nodes
 * c[0..L] get inner_add and its passages edge_add, added into `nodes`, `east`, `south`.
 * beyond, ties: the chain's bins; d_ab, s_ab: d(a,b), sigma(a,b); scratch: 7L + 8 float64. */
static void chain_local(const int32_t *table, const int64_t *cells, int64_t length, Py_ssize_t n,
                        const double *beyond, const double *ties, int64_t d_ab, double s_ab,
                        double *scratch, double *nodes, double *east, double *south) {
    int64_t m = length - 1; /* inner sources i = 1..m, at index i - 1 */
    int loop = cells[0] == cells[length];
    double *leave_a = scratch, *leave_b = leave_a + m, *at_a = leave_b + m, *at_b = at_a + m;
    double *after_a = at_b + m, *before_b = after_a + m, *inner_add = before_b + m;
    double *edge_add = inner_add + length + 1;
    double tie_a = 1.0 / (1.0 + s_ab), tie_b = s_ab / (s_ab + 1.0);
    for (int64_t i = 1; i <= m; i++) {
        leave_a[i - 1] = beyond[2 * i + 1] + ties[2 * i];
        leave_b[i - 1] = (double)(n - m) - leave_a[i - 1];
        at_a[i - 1] = (2 * i < length + d_ab ? 1.0 : 0.0) + (2 * i == length + d_ab ? tie_a : 0.0);
        at_b[i - 1] = (2 * i < length - d_ab ? 1.0 : 0.0) + (2 * i == length - d_ab ? tie_b : 0.0);
    }
    after_a[m - 1] = leave_a[m - 1], before_b[0] = leave_b[0];
    for (int64_t j = m - 2; j >= 0; j--) after_a[j] = after_a[j + 1] + leave_a[j];
    for (int64_t j = 1; j < m; j++) before_b[j] = before_b[j - 1] + leave_b[j];
    for (int64_t k = 0; k <= length; k++) inner_add[k] = 0.0;
    for (int64_t k = 1; k <= m; k++) {
        inner_add[k] += k <= m - 1 ? after_a[k] : 0.0; /* i > k */
        inner_add[k] += k >= 2 ? before_b[k - 2] : 0.0; /* i < k */
    }
    for (int64_t j = 0; j < m; j++) at_a[j] = leave_a[j] - at_a[j];
    inner_add[0] += chain_pairwise(at_a, m);
    for (int64_t j = 0; j < m; j++) at_b[j] = leave_b[j] - (1.0 - at_b[j]);
    inner_add[length] += chain_pairwise(at_b, m);
    for (int64_t e = 0; e < length; e++) {
        edge_add[e] = 0.0;
        edge_add[e] += e < m ? after_a[e] : 0.0; /* i > k */
        edge_add[e] += e >= 1 ? before_b[e - 1] : 0.0; /* i <= k */
    }
    /* pairs of inner cells: along the chain, or around through a ... b */
    int64_t reach = loop ? length : length + d_ab;
    double paths_ab = loop ? 1.0 : s_ab;
    for (int64_t gap = 1; gap < m; gap++) {
        double direct, around;
        if (2 * gap < reach) direct = 1.0, around = 0.0;
        else if (2 * gap > reach) direct = 0.0, around = 1.0;
        else direct = 1.0 / (1.0 + paths_ab), around = paths_ab / (1.0 + paths_ab);
        double pairs = (double)(m - gap), twice_direct = 2 * direct, twice_around = 2 * around;
        if (direct != 0.0) {
            for (int64_t k = 1; k <= m; k++) {
                int64_t low = k - gap + 1 > 1 ? k - gap + 1 : 1;
                int64_t high = k - 1 < m - gap ? k - 1 : m - gap;
                inner_add[k] += twice_direct * (double)(high - low + 1 > 0 ? high - low + 1 : 0);
            }
            for (int64_t e = 0; e < length; e++) {
                int64_t low = e - gap + 1 > 1 ? e - gap + 1 : 1;
                int64_t high = e < m - gap ? e : m - gap;
                edge_add[e] += twice_direct * (double)(high - low + 1 > 0 ? high - low + 1 : 0);
            }
        }
        if (around != 0.0) {
            for (int64_t k = 1; k <= m; k++) {
                int64_t one = m - gap - k > 0 ? m - gap - k : 0;
                int64_t two = k - gap - 1 > 0 ? k - gap - 1 : 0;
                inner_add[k] += twice_around * (double)(one + two);
            }
            for (int64_t e = 0; e < length; e++) {
                int64_t one = m - gap - e > 0 ? m - gap - e : 0;
                int64_t two = e - gap > 0 ? e - gap : 0;
                edge_add[e] += twice_around * (double)(one + two);
            }
            inner_add[0] += twice_around * pairs;
            if (!loop) inner_add[length] += twice_around * pairs;
        }
    }
    if (loop) inner_add[0] += inner_add[length], inner_add[length] = 0.0;
    for (int64_t k = 0; k <= length; k++) nodes[cells[k]] += inner_add[k];
    for (int64_t e = 0; e < length; e++) { /* the passage's west or north end holds it */
        int64_t from = cells[e], to = cells[e + 1];
        const int32_t *near = table + 4 * from;
        int horizontal = near[1] == to || near[3] == to;
        int64_t low = from < to ? from : to;
        (horizontal ? east : south)[low] += edge_add[e];
    }
}

/* The row of the search at the other end of chain end `end` (2 x chain + 1 at b, 0 at a). */
static inline int64_t chain_other(const int64_t *info, int64_t end) {
    return info[4 * (end / 2) + (end % 2 ? 0 : 1)];
}

/* Whether `count` int64 items all lie in [0, limit). */
static int chain_within(const int64_t *items, Py_ssize_t count, int64_t limit) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (items[i] < 0 || items[i] >= limit) return 0;
    return 1;
}

/* Whether `ends` (keys + 1 starts `ends_start`, already within range and in order) list each of
 * the 2 x chains chain ends exactly once, at the key row `info` names for it: the walk reads
 * both ends' searches of a chain at the rows listed, so an end listed at another row, twice or
 * not at all would be read from a search never made or already freed. -1: out of memory. */
static int chain_ends_match(const int64_t *info, Py_ssize_t chains, const int64_t *ends_start,
                            const int64_t *ends, Py_ssize_t keys) {
    if (ends_start[0] != 0 || ends_start[keys] != 2 * chains) return 0;
    char *seen = PyMem_Calloc((size_t)(2 * chains) + 1, 1);
    if (!seen) return -1;
    int ok = 1;
    for (Py_ssize_t r = 0; ok && r < keys; r++)
        for (int64_t e = ends_start[r]; ok && e < ends_start[r + 1]; e++) {
            int64_t end = ends[e];
            ok = !seen[end] && info[4 * (end / 2) + end % 2] == r;
            seen[end] = 1;
        }
    PyMem_Free(seen);
    return ok;
}

/* chain_sums(table, keys, info, inner, ends_start, ends, batches, nodes, east, south,
 *            local_nodes, local_east, local_south)
 * table: the n x 4 int32 neighbour table (-1: none), n <= 32767 (int16 distances and nodes);
 * keys: the int64 key nodes, sources of the searches, in order (row r of the searches is
 * keys[r]); info: per chain, int64 (a's row, b's row, L >= 2, where its L - 1 inner nodes
 * start in the int64 `inner`), numbered as graph.chains.find_chains finds them (by a); ends:
 * per key row r, from ends_start[r] to ends_start[r + 1] (keys + 1 items), the chains ending there
 * in order, as 2 x chain + (1 at b, 0 at a).
 * The sources are shared as graph.brandes.split_sources shares them among `workers` threads
 * (len(batches): key i to share i % workers), each share summed in batches of batches[k] as
 * brandes_sums sums them: the float64 outputs nodes, east, south hold a share's sums a row
 * (workers x n), for the caller to add in order. local_*: the float64 sums (n each) of the
 * reference's loop over the chains (chain_local), in chain order. The interpreter lock is let
 * go while it runs. */
static PyObject *chain_sums(PyObject *self, PyObject *args) {
    Py_buffer b[13]; /* the arguments in order */
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*w*w*w*w*w*w*", &b[0], &b[1], &b[2], &b[3],
                          &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12]))
        return NULL;
    const Py_ssize_t word = (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n = b[0].len / (4 * (Py_ssize_t)sizeof(int32_t)), keys = b[1].len / word;
    Py_ssize_t chains = b[2].len / (4 * word), inner_count = b[3].len / word;
    Py_ssize_t end_count = b[5].len / word, workers = b[6].len / word;
    const int32_t *table = b[0].buf;
    const int64_t *key = b[1].buf, *info = b[2].buf, *inner = b[3].buf, *ends_start = b[4].buf,
                  *ends = b[5].buf, *batches = b[6].buf;
    Py_ssize_t floats = workers * n * (Py_ssize_t)sizeof(double);
    Py_ssize_t local = n * (Py_ssize_t)sizeof(double);
    int bad = b[0].len % (4 * (Py_ssize_t)sizeof(int32_t)) || n < 1 || n > INT16_MAX ||
              b[1].len % word || b[2].len % (4 * word) || b[3].len % word ||
              b[4].len != (keys + 1) * word || b[5].len % word || b[6].len % word ||
              workers < 1 || b[7].len != floats || b[8].len != floats || b[9].len != floats ||
              b[10].len != local || b[11].len != local || b[12].len != local ||
              !nodes_valid(table, n, key, keys) || !chain_within(inner, inner_count, n) ||
              !chain_within(ends, end_count, 2 * chains);
    for (Py_ssize_t k = 0; !bad && k < workers; k++) bad = batches[k] < 1;
    for (Py_ssize_t r = 0; !bad && r < keys; r++)
        bad = ends_start[r] < 0 || ends_start[r] > ends_start[r + 1] ||
              ends_start[r + 1] > end_count;
    for (Py_ssize_t c = 0; !bad && c < chains; c++) {
        const int64_t *at = info + 4 * c;
        bad = at[0] < 0 || at[0] >= keys || at[1] < 0 || at[1] >= keys || at[2] < 2 ||
              at[2] > n || at[3] < 0 || at[3] > inner_count - (at[2] - 1);
    }
    int match = bad ? 1 : chain_ends_match(info, chains, ends_start, ends, keys);
    if (match < 0) {
        release(b, 13);
        return PyErr_NoMemory();
    }
    bad = bad || !match;
    if (bad) {
        PyErr_SetString(PyExc_ValueError,
                        "an n x 4 int32 table (n <= 32767), int64 key nodes, chains (a's row, "
                        "b's row, L >= 2, inner start) and inner nodes, each chain end once at "
                        "its key's row of keys + 1 starts, batches >= 1 a worker, float64 sums "
                        "of workers x n "
                        "and local sums of n");
        release(b, 13);
        return NULL;
    }
    size_t items = (size_t)n + 1;
    ChainNode *node = PyMem_Malloc(items * sizeof(ChainNode));
    ChainRow *rows = PyMem_Calloc((size_t)keys + 1, sizeof(ChainRow));
    int32_t *ints = PyMem_Malloc((2 * items + (size_t)keys) * sizeof(int32_t));
    int64_t *counts = PyMem_Malloc((3 * items + 2) * sizeof(int64_t)); /* and a chain's cells */
    /* wanted, a share's batch sums (4 x items a worker), a chain's bins and chain_local's */
    size_t doubles_count = 13 * items + 4 * items * (size_t)workers + 16;
    double *doubles = PyMem_Malloc(doubles_count * sizeof(double));
    char **spare = PyMem_Malloc(((size_t)keys + 1) * sizeof(char *)); /* freed row memory */
    int ok = node && rows && ints && counts && doubles && spare;
    Py_ssize_t spares = 0;
    size_t row_bytes = (size_t)n * (2 * sizeof(int16_t) + sizeof(double));
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        int32_t *queue = ints, *mark = ints + items, *last = ints + 2 * items, stamp = 0;
        int64_t *cells = counts + 2 * items + 2;
        double *wanted = doubles, *acc = doubles + items;
        double *beyond = acc + 4 * items * (size_t)workers, *ties = beyond + 2 * items + 2;
        double *scratch = ties + 2 * items + 2;
        double *out[3] = {b[7].buf, b[8].buf, b[9].buf}, *own_sums[3] = {b[10].buf, b[11].buf,
                                                                          b[12].buf};
        for (Py_ssize_t v = 0; v <= n; v++)
            for (int k = 0; k < 4; k++)
                node[v].near[k] = v == n || table[4 * v + k] < 0 ? (int32_t)n : table[4 * v + k];
        node[n].mark = INT32_MAX, node[n].paths = 0.0;
        memset(mark, 0, (size_t)n * sizeof(int32_t));
        for (int k = 0; k < 3; k++) {
            memset(out[k], 0, (size_t)(workers * n) * sizeof(double));
            memset(own_sums[k], 0, (size_t)n * sizeof(double));
        }
        for (Py_ssize_t r = 0; r < keys; r++) { /* the last key that needs row r */
            last[r] = (int32_t)r;
            for (int64_t e = ends_start[r]; e < ends_start[r + 1]; e++) {
                int64_t other = chain_other(info, ends[e]);
                if (other > last[r]) last[r] = (int32_t)other;
            }
        }
        for (Py_ssize_t r = 0; r < keys && ok; r++) {
            /* the searches from r and from the other ends of its chains */
            for (int64_t e = ends_start[r] - 1; e < ends_start[r + 1] && ok; e++) {
                int64_t need = e < ends_start[r] ? r : chain_other(info, ends[e]);
                ChainRow *row = rows + need;
                if (row->dist) continue;
                char *memory = spares ? spare[--spares] : malloc(row_bytes);
                if (!memory) {
                    ok = 0;
                    break;
                }
                row->sigma = (double *)memory;
                row->dist = (int16_t *)(memory + (size_t)n * sizeof(double));
                row->order = row->dist + n;
                chain_search(node, n, (int32_t)key[need], queue, row);
            }
            if (!ok) break;
            /* the chains it starts (their loop of the reference), then its target weights */
            for (Py_ssize_t t = 0; t < n; t++) wanted[t] = 1.0;
            for (int64_t e = ends_start[r]; e < ends_start[r + 1]; e++) {
                const int64_t *at = info + 4 * (ends[e] / 2);
                const ChainRow *a = rows + at[0], *z = rows + at[1];
                if (stamp == INT32_MAX) { /* stamps run out: start them again */
                    memset(mark, 0, (size_t)n * sizeof(int32_t));
                    stamp = 0;
                }
                int32_t own = ++stamp;
                for (int64_t i = 0; i < at[2] - 1; i++) mark[inner[at[3] + i]] = own;
                if (ends[e] % 2 == 0) {
                    int64_t far = key[at[1]];
                    chain_bins(a, z, at[2], n, mark, own, counts, beyond, ties);
                    cells[0] = key[at[0]], cells[at[2]] = far;
                    for (int64_t i = 1; i < at[2]; i++) cells[i] = inner[at[3] + i - 1];
                    chain_local(table, cells, at[2], n, beyond, ties, a->dist[far],
                                a->sigma[far], scratch, own_sums[0], own_sums[1], own_sums[2]);
                }
                chain_through(a, z, at[2], (int)(ends[e] % 2), n, inner + at[3], scratch,
                              wanted);
            }
            for (int64_t e = ends_start[r]; e < ends_start[r + 1]; e++) {
                const int64_t *at = info + 4 * (ends[e] / 2);
                Py_ssize_t far = (Py_ssize_t)key[at[1]];
                if (ends[e] % 2 || at[0] == at[1]) continue;
                double weight = chain_around(at[2], rows[at[0]].dist[far], rows[at[0]].sigma[far]);
                if (weight != 0.0) wanted[far] += weight;
            }
            /* the backward pass, into its share's batch sums, added at the batch's end */
            Py_ssize_t k = r % workers, j = r / workers;
            Py_ssize_t share = (keys - k + workers - 1) / workers;
            double *sums = acc + 4 * items * (size_t)k;
            if (j % batches[k] == 0) memset(sums, 0, 4 * items * sizeof(double));
            chain_backward(node, n, rows + r, wanted, sums);
            if ((j + 1) % batches[k] == 0 || j + 1 == share)
                for (int s = 0; s < 3; s++)
                    for (Py_ssize_t v = 0; v < n; v++) out[s][k * n + v] += sums[4 * v + s];
            /* let go of the searches no key to come needs */
            for (int64_t e = ends_start[r] - 1; e < ends_start[r + 1]; e++) {
                int64_t done = e < ends_start[r] ? r : chain_other(info, ends[e]);
                if (last[done] != r || !rows[done].dist) continue;
                spare[spares++] = (char *)rows[done].sigma;
                rows[done].dist = NULL;
            }
        }
        for (Py_ssize_t r = 0; r < keys; r++)
            if (rows[r].dist) free(rows[r].sigma);
        while (spares) free(spare[--spares]);
        Py_END_ALLOW_THREADS
    }
    PyMem_Free(node), PyMem_Free(rows), PyMem_Free(ints), PyMem_Free(counts);
    PyMem_Free(doubles), PyMem_Free(spare);
    release(b, 13);
    if (!ok) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* Write the decimal digits of `value` at `out` (a '-' first when negative); the end. */
static char *put_int(char *out, long long value) {
    char digits[24];
    int count = 0;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value
                                             : (unsigned long long)value;
    if (value < 0) *out++ = '-';
    do {
        digits[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    while (count) *out++ = digits[--count];
    return out;
}

/* Write a number given doubled (2v): "v" when whole, "v.5" when not (svg._number's text
 * of the float v, for |v| well under 1e16). */
static char *put_half(char *out, long long doubled) {
    long long whole = doubled / 2; /* toward zero, as is the ".5" below */
    if (doubled < 0 && doubled % 2) *out++ = '-', whole = -whole, doubled = -doubled;
    out = put_int(out, whole);
    if (doubled % 2) *out++ = '.', *out++ = '5';
    return out;
}

/* Borrow `count` int64 buffers of one common length; their length in items, or -1. */
static Py_ssize_t get_columns(PyObject *args, Py_buffer *b, int count) {
    PyObject *items[4];
    if (!PyArg_UnpackTuple(args, "columns", count, count, &items[0], &items[1], &items[2],
                           &items[3]))
        return -1;
    for (int i = 0; i < count; i++) {
        if (PyObject_GetBuffer(items[i], &b[i], PyBUF_SIMPLE) < 0) {
            release(b, i);
            return -1;
        }
    }
    for (int i = 0; i < count; i++) {
        if (b[i].len % (Py_ssize_t)sizeof(int64_t) || b[i].len != b[0].len) {
            PyErr_SetString(PyExc_ValueError, "int64 buffers of one length expected");
            release(b, count);
            return -1;
        }
    }
    return b[0].len / (Py_ssize_t)sizeof(int64_t);
}

/* The longest text of one number: a sign, 19 digits, ".5". */
#define NUMBER_CHARS 24

/* svg_boxes(x, y, w, h) -> str: "M{x} {y}h{w}v{h}h-{w}z" for each rectangle (int64 arrays),
 * the path data of svg._boxes_path. */
static PyObject *svg_boxes(PyObject *self, PyObject *args) {
    Py_buffer b[4];
    Py_ssize_t count = get_columns(args, b, 4);
    if (count < 0) return NULL;
    const int64_t *x = b[0].buf, *y = b[1].buf, *w = b[2].buf, *h = b[3].buf;
    char *text = PyMem_Malloc((size_t)count * (5 * NUMBER_CHARS + 8) + 1);
    if (!text) {
        release(b, 4);
        return PyErr_NoMemory();
    }
    char *out = text;
    for (Py_ssize_t i = 0; i < count; i++) {
        *out++ = 'M';
        out = put_int(out, x[i]);
        *out++ = ' ';
        out = put_int(out, y[i]);
        *out++ = 'h';
        out = put_int(out, w[i]);
        *out++ = 'v';
        out = put_int(out, h[i]);
        *out++ = 'h', *out++ = '-';
        out = put_int(out, w[i]);
        *out++ = 'z';
    }
    PyObject *result = PyUnicode_DecodeASCII(text, out - text, NULL);
    PyMem_Free(text);
    release(b, 4);
    return result;
}

/* svg_runs(x0, y0, x1, y1) -> str: for each straight run of the path, from (x0, y0) to
 * (x1, y1), all doubled (int64 arrays): "M{x0} {y0}H{x1}" along a row, else "M{x0} {y0}V{y1}",
 * the path data of svg._path_path. */
static PyObject *svg_runs(PyObject *self, PyObject *args) {
    Py_buffer b[4];
    Py_ssize_t count = get_columns(args, b, 4);
    if (count < 0) return NULL;
    const int64_t *x0 = b[0].buf, *y0 = b[1].buf, *x1 = b[2].buf, *y1 = b[3].buf;
    char *text = PyMem_Malloc((size_t)count * (3 * NUMBER_CHARS + 4) + 1);
    if (!text) {
        release(b, 4);
        return PyErr_NoMemory();
    }
    char *out = text;
    for (Py_ssize_t i = 0; i < count; i++) {
        *out++ = 'M';
        out = put_half(out, x0[i]);
        *out++ = ' ';
        out = put_half(out, y0[i]);
        if (y1[i] == y0[i]) {
            *out++ = 'H';
            out = put_half(out, x1[i]);
        } else {
            *out++ = 'V';
            out = put_half(out, y1[i]);
        }
    }
    PyObject *result = PyUnicode_DecodeASCII(text, out - text, NULL);
    PyMem_Free(text);
    release(b, 4);
    return result;
}

static PyMethodDef methods[] = {
    {"peel_branches", peel_branches, METH_VARARGS,
     "peel_branches(moves, left, queue, level, width, chains) -> (deepest, peeled)."},
    {"tree_betweenness", tree_betweenness, METH_VARARGS,
     "tree_betweenness(moves, left, root, exit, width, n, node_scale, edge_scale, cells, "
     "east, south, east_open, south_open) -> (peeled, deepest, branch peeled)."},
    {"tree_sizes", tree_sizes, METH_VARARGS,
     "tree_sizes(moves, left, root, exit, width, cells) -> (peeled, deepest, branch peeled): "
     "the walk of tree_betweenness alone, sizes left in cells as int32 pairs."},
    {"tree_values", tree_values, METH_VARARGS,
     "tree_values(moves, left, root, width, n, node_scale, edge_scale, cells, east, south, "
     "east_open, south_open): the values pass after tree_sizes (the last four may be None)."},
    {"kth_largest", kth_largest, METH_VARARGS,
     "kth_largest(values, count) -> float: the count-th largest float64 value (NaN: ask numpy)."},
    {"brandes", brandes, METH_VARARGS,
     "brandes(table, sources, batch, nodes, east, south): Brandes' sums, "
     "graph.brandes.brandes_sums."},
    {"brandes_cells", brandes_cells, METH_VARARGS,
     "brandes_cells(moves, width, flat, sources, batch, cells, east, south[, turn, share, "
     "tiled]): "
     "brandes() on the open bits of the cells flat, without a neighbour table, added into "
     "grids (in turn, by share, when given a turn)."},
    {"chain_sums", chain_sums, METH_VARARGS,
     "chain_sums(table, keys, info, inner, ends_start, ends, batches, nodes, east, south, "
     "local_nodes, local_east, local_south): the chain method's sums "
     "(graph.chains.brandes_by_chains)."},
    {"svg_boxes", svg_boxes, METH_VARARGS,
     "svg_boxes(x, y, w, h) -> str: the SVG path data of rectangles (int64 arrays)."},
    {"svg_runs", svg_runs, METH_VARARGS,
     "svg_runs(x0, y0, x1, y1) -> str: the SVG path data of straight runs, doubled (int64)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mazekit._cmeasures", "Leaf peeling and SVG text (compiled kernel).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__cmeasures(void) { return PyModule_Create(&module); }
