/* mazekit._csearch: the sequential graph work of mazekit.search and mazekit.solvers over flat
 * grids (index y * W + x): open bits, component labels, breadth-first search, the shortest-path
 * walker, A* and dead-end filling. Each function is a copy of the pure-Python reference it
 * replaces, giving the same numbers; the Python side allocates the arrays and the kernel fills
 * them (uint8 open bits, int32 distances and labels). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { NORTH = 1, EAST = 2, SOUTH = 4, WEST = 8, ALL = 15 };

/* The four directions in N, E, S, W order, the order of every tie rule of mazekit. */
static const uint8_t BITS[4] = {NORTH, EAST, SOUTH, WEST};
static const char LETTERS[4] = {'N', 'E', 'S', 'W'};

/* A flat grid of open bits: its buffer, its width and its number of cells. */
typedef struct {
    const uint8_t *bits;
    Py_ssize_t width;
    Py_ssize_t cells;
} Grid;

/* The flat offsets of the four directions on a grid of ``width`` columns. */
static void offsets_of(Py_ssize_t width, Py_ssize_t offsets[4]) {
    offsets[0] = -width;
    offsets[1] = 1;
    offsets[2] = width;
    offsets[3] = -1;
}

/* Check a uint8 buffer of open bits as a grid of ``width`` columns: a whole number of rows,
 * and no bit on a border cell that points out of the grid. Only the border can point out, so
 * this costs O(W + H), and afterwards no step a bit allows leaves the buffer. */
static int grid_of(Py_buffer *buffer, Py_ssize_t width, Grid *grid) {
    if (buffer->itemsize != 1) {
        PyErr_SetString(PyExc_TypeError, "open bits: a uint8 buffer expected");
        return -1;
    }
    if (width < 1 || buffer->len == 0 || buffer->len % width) {
        PyErr_SetString(PyExc_ValueError, "open bits: the length is not a whole number of rows");
        return -1;
    }
    const uint8_t *bits = (const uint8_t *)buffer->buf;
    Py_ssize_t cells = buffer->len, last = cells - width;
    for (Py_ssize_t x = 0; x < width; x++) {
        if ((bits[x] & NORTH) || (bits[last + x] & SOUTH)) goto outside;
    }
    for (Py_ssize_t row = 0; row < cells; row += width) {
        if ((bits[row] & WEST) || (bits[row + width - 1] & EAST)) goto outside;
    }
    grid->bits = bits;
    grid->width = width;
    grid->cells = cells;
    return 0;
outside:
    PyErr_SetString(PyExc_ValueError, "open bits: a border cell opens out of the grid");
    return -1;
}

/* Check an int32 buffer of one value per cell of ``grid`` (distances, labels). */
static int check_cells(Py_buffer *buffer, const Grid *grid, const char *what) {
    if (buffer->itemsize != 4 || buffer->len != grid->cells * 4) {
        PyErr_Format(PyExc_ValueError, "%s: an int32 buffer of one value per cell expected", what);
        return -1;
    }
    return 0;
}

/* Check that ``cell`` is a flat index of ``grid``. */
static int check_index(Py_ssize_t cell, const Grid *grid, const char *what) {
    if (cell < 0 || cell >= grid->cells) {
        PyErr_Format(PyExc_ValueError, "%s: cell %zd is outside the grid", what, cell);
        return -1;
    }
    return 0;
}

/* The open bits of cell ``i`` (column x of a grid of ``cells`` cells): a wall is open when
 * both its cells say so and it is not on the border. The general case, with bounds tests. */
static uint8_t open_at(const uint8_t *w, Py_ssize_t i, Py_ssize_t x, Py_ssize_t width,
                       Py_ssize_t cells) {
    uint8_t open = 0;
    if (x + 1 < width && !(w[i] & EAST) && !(w[i + 1] & WEST)) open |= EAST;
    if (x > 0 && !(w[i] & WEST) && !(w[i - 1] & EAST)) open |= WEST;
    if (i + width < cells && !(w[i] & SOUTH) && !(w[i + width] & NORTH)) open |= SOUTH;
    if (i >= width && !(w[i] & NORTH) && !(w[i - width] & SOUTH)) open |= NORTH;
    return open;
}

/* open_bits(walls, width, out): per cell the directions one can move in, a wall counting as
 * open only when both its cells say so and it is not on the border (search.open_bits). Cells
 * with four neighbours take a formula without branches that the compiler vectorises (each
 * neighbour's closing bit shifted onto the cell's own); the border takes open_at. */
static PyObject *open_bits(PyObject *self, PyObject *args) {
    Py_buffer walls, out;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "y*nw*", &walls, &width, &out)) return NULL;
    PyObject *result = NULL;
    if (walls.itemsize != 1 || out.itemsize != 1 || out.len != walls.len) {
        PyErr_SetString(PyExc_ValueError, "open_bits: two uint8 buffers of the same size expected");
        goto done;
    }
    if (width < 1 || walls.len % width) {
        PyErr_SetString(PyExc_ValueError, "open_bits: the length is not a whole number of rows");
        goto done;
    }
    const uint8_t *restrict w = (const uint8_t *)walls.buf;
    uint8_t *restrict bits = (uint8_t *)out.buf;
    Py_ssize_t cells = walls.len, height = cells / width;
    for (Py_ssize_t y = 0; y < height; y++) {
        Py_ssize_t row = y * width;
        if (y == 0 || y == height - 1 || width < 3) {
            for (Py_ssize_t x = 0; x < width; x++)
                bits[row + x] = open_at(w, row + x, x, width, cells);
            continue;
        }
        bits[row] = open_at(w, row, 0, width, cells);
        for (Py_ssize_t i = row + 1; i < row + width - 1; i++) {
            unsigned closed = w[i] | ((w[i + 1] >> 2) & EAST) | ((w[i - 1] << 2) & WEST) |
                              ((w[i + width] << 2) & SOUTH) | ((w[i - width] >> 2) & NORTH);
            bits[i] = (uint8_t)(~closed & ALL);
        }
        bits[row + width - 1] = open_at(w, row + width - 1, width - 1, width, cells);
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&walls);
    PyBuffer_Release(&out);
    return result;
}

/* The root of ``cell`` in the forest ``parent`` (parent[x] <= x), halving the path. */
static int32_t root_of(int32_t *parent, int32_t cell) {
    while (parent[cell] != cell) {
        parent[cell] = parent[parent[cell]];
        cell = parent[cell];
    }
    return cell;
}

/* labels(bits, width, out) -> components: label every cell with the smallest flat index of
 * its component (search.component_labels). Union-find in two scans, ``out`` being the
 * forest: the first joins each cell to its open west and north neighbours, always hooking
 * the larger root under the smaller, so a root is its tree's smallest cell and every parent
 * lies before its child; the second, in index order, reads each label off its parent's,
 * already final. Only the west and north bits are read (open_bits are symmetric). */
static PyObject *labels(PyObject *self, PyObject *args) {
    Py_buffer bits_buffer, out;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "y*nw*", &bits_buffer, &width, &out)) return NULL;
    PyObject *result = NULL;
    Grid grid;
    if (grid_of(&bits_buffer, width, &grid) < 0 || check_cells(&out, &grid, "labels") < 0)
        goto done;
    if (grid.cells > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "labels: too many cells for int32 labels");
        goto done;
    }
    int32_t *parent = (int32_t *)out.buf;
    for (Py_ssize_t i = 0; i < grid.cells; i++) {
        int32_t cell = (int32_t)i;
        parent[i] = cell;
        for (int d = 0; d < 2; d++) {
            static const uint8_t BEFORE[2] = {WEST, NORTH};
            if (!(grid.bits[i] & BEFORE[d])) continue;
            int32_t before = (int32_t)(d ? i - width : i - 1);
            int32_t a = root_of(parent, cell), b = root_of(parent, before);
            if (a < b) parent[b] = a;
            else parent[a] = b;
        }
    }
    Py_ssize_t components = 0;
    for (Py_ssize_t i = 0; i < grid.cells; i++) {
        if (parent[i] == i) components++;
        else parent[i] = parent[parent[i]];
    }
    result = PyLong_FromSsize_t(components);
done:
    PyBuffer_Release(&bits_buffer);
    PyBuffer_Release(&out);
    return result;
}

/* The breadth-first search of bfs() once its arguments are checked: fills ``dist`` and
 * returns the cells expanded, or -1 when out of memory. A FIFO queue expands cells in
 * order of distance; with a target, the search stops once every cell nearer than the target
 * is expanded, as the reference stops after the layer that reaches it.
 * Without branches on the maze: a closed direction steps to the cell itself (already
 * reached), and a neighbour is queued by writing it at the tail and moving the tail on only
 * when it was unreached. Which way a maze turns is random, so the branches of the plain
 * loop were mispredicted at every other step: 2.3x faster on a braided or a perfect maze
 * (1000x1000: 16 -> 7 ms), the same queue; a plain corridor, all predicted, lost 2 ms. */
static Py_ssize_t breadth_first(const Grid *grid, Py_ssize_t source, Py_ssize_t target,
                                uint8_t moves, int32_t *dist) {
    memset(dist, 0xff, (size_t)grid->cells * sizeof *dist); /* every count -1 */
    dist[source] = 0;
    if (source == target) return 0;
    /* The queue is a ring of cells (slot: position & mask) that doubles when it might fill:
     * it holds the frontier only, a few thousand cells in most mazes, not one slot per cell
     * (4 MB at 1000x1000 that a fresh process paid 1,000 page faults to touch). */
    Py_ssize_t capacity = 64;
    int32_t *queue = malloc((size_t)capacity * sizeof *queue);
    if (queue == NULL) return -1;
    Py_ssize_t offsets[4];
    offsets_of(grid->width, offsets);
    const uint8_t *bits = grid->bits;
    Py_ssize_t head = 0, tail = 0, expanded = 0, mask = capacity - 1;
    int32_t stop = INT32_MAX; /* the target's distance, once reached: expand nothing at it */
    queue[tail++] = (int32_t)source;
    while (head < tail) {
        if (tail - head > capacity - 5) { /* room for the cell's 4 writes, kept or not */
            int32_t *larger = malloc(2 * (size_t)capacity * sizeof *larger);
            if (larger == NULL) {
                free(queue);
                return -1;
            }
            for (Py_ssize_t at = head; at < tail; at++)
                larger[at & (2 * capacity - 1)] = queue[at & mask];
            free(queue);
            queue = larger;
            capacity *= 2;
            mask = capacity - 1;
        }
        Py_ssize_t cell = queue[head++ & mask];
        int32_t depth = dist[cell];
        if (depth >= stop) break;
        expanded++;
        unsigned open = bits[cell] & moves;
        int32_t deeper = depth + 1;
        for (int d = 0; d < 4; d++) {
            Py_ssize_t next = cell + (offsets[d] & -(Py_ssize_t)((open >> d) & 1));
            int32_t seen = dist[next];
            int32_t fresh = seen >> 31; /* -1 when unreached, else 0 */
            dist[next] = seen ^ ((seen ^ deeper) & fresh);
            queue[tail & mask] = (int32_t)next;
            tail -= fresh;
            if (next == target && fresh) stop = deeper;
        }
    }
    free(queue);
    return expanded;
}

/* bfs(bits, width, source, target, moves, dist) -> expanded: breadth-first step counts from
 * ``source`` (-1 where not reached), stepping only along ``moves``; target -1 for none
 * (search.bfs_flat). */
static PyObject *bfs(PyObject *self, PyObject *args) {
    Py_buffer bits_buffer, out;
    Py_ssize_t width, source, target;
    int moves;
    if (!PyArg_ParseTuple(args, "y*nnniw*", &bits_buffer, &width, &source, &target, &moves,
                          &out))
        return NULL;
    PyObject *result = NULL;
    Grid grid;
    if (grid_of(&bits_buffer, width, &grid) < 0 || check_cells(&out, &grid, "bfs") < 0 ||
        check_index(source, &grid, "bfs source") < 0)
        goto done;
    if (target != -1 && check_index(target, &grid, "bfs target") < 0) goto done;
    if (grid.cells > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "bfs: too many cells for int32 distances");
        goto done;
    }
    Py_ssize_t expanded = breadth_first(&grid, source, target, (uint8_t)(moves & ALL),
                                        (int32_t *)out.buf);
    result = expanded < 0 ? PyErr_NoMemory() : PyLong_FromSsize_t(expanded);
done:
    PyBuffer_Release(&bits_buffer);
    PyBuffer_Release(&out);
    return result;
}

/* walk(bits, width, dist, start, moves) -> str: THE walker (search.walk_shortest). From
 * ``start``, each step takes the first allowed open move in N, E, S, W order to a cell one
 * step nearer the goal; RuntimeError, as the reference, when no step gets nearer. */
static PyObject *walk(PyObject *self, PyObject *args) {
    Py_buffer bits_buffer, dist_buffer;
    Py_ssize_t width, start;
    int moves;
    if (!PyArg_ParseTuple(args, "y*ny*ni", &bits_buffer, &width, &dist_buffer, &start, &moves))
        return NULL;
    PyObject *letters = NULL;
    Grid grid;
    if (grid_of(&bits_buffer, width, &grid) < 0 || check_cells(&dist_buffer, &grid, "walk") < 0 ||
        check_index(start, &grid, "walk start") < 0)
        goto done;
    const int32_t *dist = (const int32_t *)dist_buffer.buf;
    Py_ssize_t offsets[4];
    offsets_of(width, offsets);
    uint8_t allowed = (uint8_t)(moves & ALL);
    /* Each step lowers the distance by one, so no walk that succeeds repeats a cell: a
     * distance of ``cells`` or more is bound to fail within ``cells`` steps. */
    Py_ssize_t remaining = dist[start] > 0 ? dist[start] : 0;
    Py_ssize_t length = remaining < grid.cells ? remaining : grid.cells;
    letters = PyUnicode_New(length, 127);
    if (letters == NULL) goto done;
    Py_UCS1 *text = PyUnicode_1BYTE_DATA(letters);
    Py_ssize_t cell = start;
    for (Py_ssize_t step = 0; remaining > 0; step++) {
        remaining--;
        uint8_t open = grid.bits[cell] & allowed;
        int d = 0;
        while (d < 4 && !((open & BITS[d]) && dist[cell + offsets[d]] == remaining)) d++;
        if (d == 4 || step >= length) {
            PyErr_Format(PyExc_RuntimeError, "no step from cell %zd gets nearer the goal", cell);
            Py_CLEAR(letters);
            goto done;
        }
        text[step] = (Py_UCS1)LETTERS[d];
        cell += offsets[d];
    }
done:
    PyBuffer_Release(&bits_buffer);
    PyBuffer_Release(&dist_buffer);
    return letters;
}

/* A growable stack of cells, for A*'s two lists of open cells. */
typedef struct {
    int32_t *items;
    Py_ssize_t size, capacity;
} Stack;

/* Push ``cell``; -1 when out of memory. */
static int push(Stack *stack, Py_ssize_t cell) {
    if (stack->size == stack->capacity) {
        Py_ssize_t capacity = stack->capacity ? 2 * stack->capacity : 1024;
        int32_t *items = realloc(stack->items, (size_t)capacity * sizeof *items);
        if (items == NULL) return -1;
        stack->items = items;
        stack->capacity = capacity;
    }
    stack->items[stack->size++] = (int32_t)cell;
    return 0;
}

/* The A* of solvers/astar.py once its arguments are checked, step for step (the same lists,
 * the same pops, the same stale entries), so that it expands the same cells: fills ``dist``
 * and returns the cells expanded, or -1 when out of memory. */
static Py_ssize_t a_star(const Grid *grid, Py_ssize_t start, Py_ssize_t goal, int32_t *dist) {
    Py_ssize_t width = grid->width, start_x = start % width, start_y = start / width;
    Py_ssize_t offsets[4], expanded = 0;
    offsets_of(width, offsets);
    uint8_t *closed = calloc((size_t)grid->cells, 1);
    Stack current = {NULL, 0, 0}, later = {NULL, 0, 0};
    for (Py_ssize_t i = 0; i < grid->cells; i++) dist[i] = -1;
    dist[goal] = 0;
    int reached_start = 0;
    if (closed == NULL || push(&current, goal) < 0) goto failed;
    while (1) {
        if (current.size == 0) {
            if (reached_start || later.size == 0) break;
            Stack swap = current; /* the f + 2 list becomes the current one */
            current = later;
            later = swap;
            continue;
        }
        Py_ssize_t cell = current.items[--current.size];
        if (closed[cell]) continue; /* a stale entry: reached again by a shorter route */
        closed[cell] = 1;
        expanded++;
        reached_start = reached_start || cell == start;
        int32_t step = dist[cell] + 1;
        Py_ssize_t x = cell % width, y = cell / width;
        for (int d = 0; d < 4; d++) {
            if (!(grid->bits[cell] & BITS[d])) continue;
            Py_ssize_t offset = offsets[d], next = cell + offset;
            int32_t known = dist[next];
            if (closed[next] || (0 <= known && known <= step)) continue;
            dist[next] = step;
            /* decided by the offset, as the reference does (on a one-column grid S is +1) */
            int nearer = offset == 1    ? x < start_x
                         : offset == -1 ? x > start_x
                         : offset > 0   ? y < start_y
                                        : y > start_y;
            if (push(nearer ? &current : &later, next) < 0) goto failed;
        }
    }
    free(closed);
    free(current.items);
    free(later.items);
    return expanded;
failed:
    free(closed);
    free(current.items);
    free(later.items);
    return -1;
}

/* astar(bits, width, start, goal, dist) -> expanded: solvers/astar.py's search. */
static PyObject *astar(PyObject *self, PyObject *args) {
    Py_buffer bits_buffer, out;
    Py_ssize_t width, start, goal;
    if (!PyArg_ParseTuple(args, "y*nnnw*", &bits_buffer, &width, &start, &goal, &out))
        return NULL;
    PyObject *result = NULL;
    Grid grid;
    if (grid_of(&bits_buffer, width, &grid) < 0 || check_cells(&out, &grid, "astar") < 0 ||
        check_index(start, &grid, "astar start") < 0 || check_index(goal, &grid, "astar goal") < 0)
        goto done;
    if (grid.cells > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "astar: too many cells for int32 distances");
        goto done;
    }
    Py_ssize_t expanded = a_star(&grid, start, goal, (int32_t *)out.buf);
    result = expanded < 0 ? PyErr_NoMemory() : PyLong_FromSsize_t(expanded);
done:
    PyBuffer_Release(&bits_buffer);
    PyBuffer_Release(&out);
    return result;
}

/* fill_dead_ends(bits, width, keep_a, keep_b) -> filled: solvers/dead_end_fill.fill in place.
 * From each cell with one open wall, fill it (close that wall on both sides) and go on into
 * the neighbour while it is left with one open wall, never filling a kept cell. A cell
 * whose count drops to one is walked into at once, so taking the cells with one open wall
 * as the scan meets them is the reference's list of the leaves it started with. */
static PyObject *fill_dead_ends(PyObject *self, PyObject *args) {
    Py_buffer bits_buffer;
    Py_ssize_t width, keep_a, keep_b;
    if (!PyArg_ParseTuple(args, "w*nnn", &bits_buffer, &width, &keep_a, &keep_b)) return NULL;
    PyObject *result = NULL;
    Grid grid;
    if (grid_of(&bits_buffer, width, &grid) < 0) goto done;
    uint8_t *bits = (uint8_t *)bits_buffer.buf;
    /* for a cell whose one open wall is bit b: the step to its neighbour, and the bits the
     * neighbour keeps open (all but the opposite of b) */
    static const uint8_t OPPOSITE[4] = {SOUTH, WEST, NORTH, EAST};
    Py_ssize_t offsets[4], offset[16] = {0}, filled = 0;
    uint8_t keep[16];
    offsets_of(width, offsets);
    memset(keep, ALL, sizeof keep);
    for (int d = 0; d < 4; d++) {
        offset[BITS[d]] = offsets[d];
        keep[BITS[d]] = (uint8_t)(ALL & ~OPPOSITE[d]);
    }
    for (Py_ssize_t leaf = 0; leaf < grid.cells; leaf++) {
        Py_ssize_t cell = leaf;
        while (cell != keep_a && cell != keep_b) {
            uint8_t b = bits[cell];
            if (b != NORTH && b != EAST && b != SOUTH && b != WEST) break; /* not one open wall */
            Py_ssize_t next = cell + offset[b];
            bits[cell] = 0;
            bits[next] &= keep[b];
            filled++;
            cell = next;
        }
    }
    result = PyLong_FromSsize_t(filled);
done:
    PyBuffer_Release(&bits_buffer);
    return result;
}

/* trace(bits, width, start, path) -> (index, cell, repeats): follow the path's letters from
 * ``start`` (search.trace_path). The first step no open bit allows (a wall, the border, or a
 * byte that is no letter) stops the walk: (its index, the cell it starts from, False).
 * Otherwise (-1, the cell the path ends on, whether it enters some cell twice), the cells
 * seen kept as one bit each. */
static PyObject *trace(PyObject *self, PyObject *args) {
    Py_buffer bits_buffer, path;
    Py_ssize_t width, start;
    if (!PyArg_ParseTuple(args, "y*nny*", &bits_buffer, &width, &start, &path)) return NULL;
    PyObject *result = NULL;
    uint8_t *seen = NULL;
    Grid grid;
    if (grid_of(&bits_buffer, width, &grid) < 0 || check_index(start, &grid, "trace start") < 0)
        goto done;
    seen = calloc((size_t)(grid.cells / 8 + 1), 1);
    if (seen == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t offsets[4];
    offsets_of(width, offsets);
    int8_t direction[256]; /* per byte, its direction 0..3 (N, E, S, W), -1 for no letter */
    memset(direction, -1, sizeof direction);
    for (int d = 0; d < 4; d++) direction[(unsigned char)LETTERS[d]] = (int8_t)d;
    const unsigned char *letters = (const unsigned char *)path.buf;
    Py_ssize_t cell = start, bad = -1;
    int repeats = 0;
    seen[cell >> 3] |= (uint8_t)(1U << (cell & 7));
    for (Py_ssize_t i = 0; i < path.len; i++) {
        int d = direction[letters[i]];
        if (d < 0 || !(grid.bits[cell] & BITS[d])) {
            bad = i;
            repeats = 0;
            break;
        }
        cell += offsets[d];
        uint8_t mask = (uint8_t)(1U << (cell & 7));
        repeats |= (seen[cell >> 3] & mask) != 0;
        seen[cell >> 3] |= mask;
    }
    result = Py_BuildValue("nnO", bad, cell, repeats ? Py_True : Py_False);
done:
    free(seen);
    PyBuffer_Release(&bits_buffer);
    PyBuffer_Release(&path);
    return result;
}

static PyMethodDef methods[] = {
    {"open_bits", open_bits, METH_VARARGS,
     "open_bits(walls, width, out): per cell the directions one can move in."},
    {"labels", labels, METH_VARARGS,
     "labels(bits, width, out) -> components: the smallest flat index of each component."},
    {"bfs", bfs, METH_VARARGS,
     "bfs(bits, width, source, target, moves, dist) -> expanded: breadth-first step counts."},
    {"walk", walk, METH_VARARGS,
     "walk(bits, width, dist, start, moves) -> str: the first shortest path, N, E, S, W."},
    {"astar", astar, METH_VARARGS,
     "astar(bits, width, start, goal, dist) -> expanded: solvers.astar's search."},
    {"fill_dead_ends", fill_dead_ends, METH_VARARGS,
     "fill_dead_ends(bits, width, keep_a, keep_b) -> filled: dead-end filling in place."},
    {"trace", trace, METH_VARARGS,
     "trace(bits, width, start, path) -> (index, cell, repeats): follow a path of letters."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mazekit._csearch", "Grid searches (compiled kernel).", -1, methods,
};

PyMODINIT_FUNC PyInit__csearch(void) { return PyModule_Create(&module); }
