/* mazekit._ccarve: the carving loops of the perfect generators (backtracker, prim, kruskal,
 * wilson, hunt-and-kill) and the path of the spanning tree they carve.
 *
 * Each function is the C copy of the Python reference in generators/<name>.py, step for step:
 * it works on the same padded frame (generators/grid.py: flat walls, a blocked ring around the
 * grid, the "42" blocked), draws Python's random stream in exactly the order the reference
 * draws it (mt19937.h) and writes the random state back, so the same seed gives the same bytes
 * and the generator goes on (into braiding) exactly as after the Python loop.
 */
#include "mt19937.h"
#include <string.h>

/* The wall bits of model.py, in the order N, E, S, W of model.DIRECTIONS. */
static const unsigned char BIT[4] = {1, 2, 4, 8};
static const unsigned char OPPOSITE[4] = {4, 8, 1, 2};
static const char LETTER[4] = {'N', 'E', 'S', 'W'};

/* wilson draws its directions through rng.floats in batches of this many (wilson.BATCH). */
#define WILSON_BATCH 65536

/* The padded frame a kernel carves: the walls (writable), the blocked cells, the four
 * neighbour offsets N, E, S, W (grid.Grid.moves). */
typedef struct {
    Py_buffer walls_view, blocked_view;
    unsigned char *walls;
    const unsigned char *blocked;
    Py_ssize_t size, stride, rows;
    Py_ssize_t offset[4];
} Frame;

/* Release the buffers frame_open took. */
static void frame_close(Frame *f) {
    PyBuffer_Release(&f->walls_view);
    PyBuffer_Release(&f->blocked_view);
}

/* Whether ``cell`` is a cell of the frame that may be carved. */
static int frame_free(const Frame *f, Py_ssize_t cell) {
    return cell >= 0 && cell < f->size && !f->blocked[cell];
}

/* Check the buffers and the stride: the same length, a whole number of rows, and a blocked
 * outer ring, which is what lets every loop step to cell + offset without a bounds check.
 * 0 on success (buffers held), -1 with ValueError set (buffers released). */
static int frame_check(Frame *f) {
    f->walls = (unsigned char *)f->walls_view.buf;
    f->blocked = (const unsigned char *)f->blocked_view.buf;
    f->size = f->walls_view.len;
    const char *problem = NULL;
    if (f->blocked_view.len != f->size)
        problem = "walls and blocked must have the same length";
    else if (f->stride < 3 || f->size % f->stride || f->size / f->stride < 3)
        problem = "the frame must be whole rows of stride >= 3, at least 3 rows";
    if (problem == NULL) {
        f->rows = f->size / f->stride;
        for (Py_ssize_t x = 0; x < f->stride && problem == NULL; x++)
            if (!f->blocked[x] || !f->blocked[f->size - 1 - x])
                problem = "the outer ring of the frame must be blocked";
        for (Py_ssize_t y = 0; y < f->rows && problem == NULL; y++)
            if (!f->blocked[y * f->stride] || !f->blocked[y * f->stride + f->stride - 1])
                problem = "the outer ring of the frame must be blocked";
    }
    if (problem != NULL) {
        frame_close(f);
        PyErr_SetString(PyExc_ValueError, problem);
        return -1;
    }
    f->offset[0] = -f->stride;
    f->offset[1] = 1;
    f->offset[2] = f->stride;
    f->offset[3] = -1;
    return 0;
}

/* Open the wall between ``cell`` and its neighbour in ``direction``, on both sides. */
static inline void frame_open(Frame *f, Py_ssize_t cell, int direction) {
    f->walls[cell] &= (unsigned char)~BIT[direction];
    f->walls[cell + f->offset[direction]] &= (unsigned char)~OPPOSITE[direction];
}

/* Scratch memory of ``count`` items of ``item`` bytes, zeroed; NULL with MemoryError set. */
static void *scratch(Py_ssize_t count, size_t item) {
    void *memory = PyMem_Calloc(count > 0 ? (size_t)count : 1, item);
    if (memory == NULL) PyErr_NoMemory();
    return memory;
}

/* ---- backtracker ---------------------------------------------------------------------- */

/* backtracker(walls, blocked, stride, entry, exit, rng) -> path letters or None.
 * generators/backtracker.py: a depth-first walk from the entry with an explicit stack; the
 * stack when the exit is pushed is the entry-exit path. */
static PyObject *backtracker(PyObject *self, PyObject *args) {
    Frame f;
    Py_ssize_t start, goal;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*y*nnnO", &f.walls_view, &f.blocked_view, &f.stride, &start,
                          &goal, &rng))
        return NULL;
    if (frame_check(&f) < 0) return NULL;
    if (!frame_free(&f, start) || !frame_free(&f, goal)) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "entry and exit must be free cells of the frame");
        return NULL;
    }
    unsigned char *visited = scratch(f.size, 1);
    Py_ssize_t *stack = scratch(f.size, sizeof(Py_ssize_t));
    char *letters = scratch(f.size, 1); /* letters[i]: the step from stack[i] to stack[i+1] */
    MTState mt;
    if (visited == NULL || stack == NULL || letters == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(visited), PyMem_Free(stack), PyMem_Free(letters);
        frame_close(&f);
        return NULL;
    }
    memcpy(visited, f.blocked, (size_t)f.size); /* blocked cells count as visited */
    PyObject *path = NULL;
    int found = 0;
    Py_ssize_t depth = 0, cell = start;
    stack[0] = start;
    visited[start] = 1;
    for (;;) {
        int options[4], count = 0;
        for (int d = 0; d < 4; d++)
            if (!visited[cell + f.offset[d]]) options[count++] = d;
        if (count == 0) { /* backtrack */
            if (depth == 0) break;
            cell = stack[--depth];
            continue;
        }
        int d = options[mt_below(&mt, count)];
        frame_open(&f, cell, d);
        letters[depth] = LETTER[d];
        cell += f.offset[d];
        visited[cell] = 1;
        stack[++depth] = cell;
        if (cell == goal && !found) {
            found = 1;
            path = PyUnicode_DecodeASCII(letters, depth, NULL);
            if (path == NULL) break;
        }
    }
    PyMem_Free(visited), PyMem_Free(stack), PyMem_Free(letters);
    frame_close(&f);
    if (found && path == NULL) { /* out of memory for the letters: drop the draws too */
        mt_discard(&mt);
        return NULL;
    }
    if (mt_store(rng, &mt) < 0) {
        Py_XDECREF(path);
        return NULL;
    }
    if (path == NULL) Py_RETURN_NONE;
    return path;
}

/* ---- prim ----------------------------------------------------------------------------- */

enum { UNSEEN, FRONTIER, TREE, BLOCKED };

/* Put ``cell`` in the tree and its unseen neighbours in the frontier (prim.grow). */
static inline void prim_grow(const Frame *f, unsigned char *state, Py_ssize_t *frontier,
                             Py_ssize_t *length, Py_ssize_t cell) {
    state[cell] = TREE;
    for (int d = 0; d < 4; d++) {
        Py_ssize_t near = cell + f->offset[d];
        if (state[near] == UNSEEN) {
            state[near] = FRONTIER;
            frontier[(*length)++] = near;
        }
    }
}

/* prim(walls, blocked, stride, entry, rng): generators/prim.py's randomised Prim, its
 * frontier a swap-remove list (rng.pop_random) exactly as the Python list. */
static PyObject *prim(PyObject *self, PyObject *args) {
    Frame f;
    Py_ssize_t start;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*y*nnO", &f.walls_view, &f.blocked_view, &f.stride, &start,
                          &rng))
        return NULL;
    if (frame_check(&f) < 0) return NULL;
    if (!frame_free(&f, start)) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "entry must be a free cell of the frame");
        return NULL;
    }
    unsigned char *state = scratch(f.size, 1);
    Py_ssize_t *frontier = scratch(f.size, sizeof(Py_ssize_t));
    MTState mt;
    if (state == NULL || frontier == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(state), PyMem_Free(frontier);
        frame_close(&f);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < f.size; i++) state[i] = f.blocked[i] ? BLOCKED : UNSEEN;
    Py_ssize_t length = 0;
    prim_grow(&f, state, frontier, &length, start);
    while (length > 0) {
        Py_ssize_t pick = mt_below(&mt, length);
        Py_ssize_t cell = frontier[pick];
        frontier[pick] = frontier[--length];
        int joins[4], count = 0;
        for (int d = 0; d < 4; d++)
            if (state[cell + f.offset[d]] == TREE) joins[count++] = d;
        /* a frontier cell always touches the tree: count >= 1 */
        frame_open(&f, cell, joins[mt_below(&mt, count)]);
        prim_grow(&f, state, frontier, &length, cell);
    }
    PyMem_Free(state), PyMem_Free(frontier);
    frame_close(&f);
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- kruskal -------------------------------------------------------------------------- */

/* Random.random() as the integer of its 53 bits: the float is exactly this over 2**53, so
 * these integers sort as the floats do and are equal exactly when the floats are. */
static inline uint64_t mt_bits53(MTState *mt) {
    uint64_t a = mt_next(mt) >> 5, b = mt_next(mt) >> 6;
    return (a << 26) | b;
}

/* Whether the wall ``code`` (2 * cell east, 2 * cell + 1 south) joins two carvable cells:
 * grid.inner_walls lists exactly these, in increasing code order. */
static inline int kruskal_inner(const Frame *f, Py_ssize_t code) {
    Py_ssize_t cell = code >> 1;
    return !f->blocked[cell] && !f->blocked[cell + ((code & 1) ? f->stride : 1)];
}

/* The root of ``cell``'s tree, halving the path on the way (kruskal._join). */
static inline int32_t kruskal_find(int32_t *parent, int32_t cell) {
    while (parent[cell] != cell) {
        parent[cell] = parent[parent[cell]];
        cell = parent[cell];
    }
    return cell;
}

/* The inner walls in the order of numpy's stable argsort of their keys (one draw each, in
 * code order): a bucket sort on the keys' top bits, then an insertion sort within each
 * bucket (about one key per bucket), ties kept in code order. The keys are drawn twice (a
 * copy of the generator counts the buckets first), which spares an array of keys.
 * Fills codes[0..count-1]; 0, or -1 with MemoryError set. */
static int kruskal_order(const Frame *f, MTState *mt, Py_ssize_t count, uint32_t *codes) {
    int bits = 1;
    while (bits < 40 && ((Py_ssize_t)1 << bits) < count) bits++;
    int shift = 53 - bits;
    size_t buckets = (size_t)1 << bits;
    uint32_t *start = scratch((Py_ssize_t)buckets + 1, sizeof(uint32_t));
    uint64_t *keys = scratch(count, sizeof(uint64_t));
    if (start == NULL || keys == NULL) {
        PyMem_Free(start), PyMem_Free(keys);
        return -1;
    }
    MTState counting = *mt; /* same stream, drawn once to count (gauss_next not touched) */
    Py_ssize_t last = 2 * f->size;
    for (Py_ssize_t code = 0; code < last; code++)
        if (kruskal_inner(f, code)) start[(mt_bits53(&counting) >> shift) + 1]++;
    for (size_t b = 0; b < buckets; b++) start[b + 1] += start[b];
    for (Py_ssize_t code = 0; code < last; code++) {
        if (!kruskal_inner(f, code)) continue;
        uint64_t key = mt_bits53(mt);
        uint32_t at = start[key >> shift]++;
        keys[at] = key;
        codes[at] = (uint32_t)code;
    }
    /* start[b] is now the end of bucket b: sort each bucket by key, stable */
    uint32_t begin = 0;
    for (size_t b = 0; b < buckets; b++) {
        uint32_t end = start[b];
        for (uint32_t i = begin + 1; i < end; i++) {
            uint64_t key = keys[i];
            uint32_t code = codes[i], j = i;
            for (; j > begin && keys[j - 1] > key; j--) {
                keys[j] = keys[j - 1];
                codes[j] = codes[j - 1];
            }
            keys[j] = key;
            codes[j] = code;
        }
        begin = end;
    }
    PyMem_Free(start), PyMem_Free(keys);
    return 0;
}

/* kruskal(walls, blocked, stride, rng): generators/kruskal.py's randomised Kruskal: one key
 * per inner wall, the walls in key order, union-find joining trees until one is left. */
static PyObject *kruskal(PyObject *self, PyObject *args) {
    Frame f;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*y*nO", &f.walls_view, &f.blocked_view, &f.stride, &rng))
        return NULL;
    if (frame_check(&f) < 0) return NULL;
    if (f.size > INT32_MAX / 2) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "kruskal: the frame is too big");
        return NULL;
    }
    Py_ssize_t count = 0, cells = 0;
    for (Py_ssize_t code = 0; code < 2 * f.size; code++) count += kruskal_inner(&f, code);
    for (Py_ssize_t i = 0; i < f.size; i++) cells += !f.blocked[i];
    uint32_t *codes = scratch(count, sizeof(uint32_t));
    int32_t *parent = scratch(f.size, sizeof(int32_t));
    int32_t *size = scratch(f.size, sizeof(int32_t));
    MTState mt;
    if (codes == NULL || parent == NULL || size == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(codes), PyMem_Free(parent), PyMem_Free(size);
        frame_close(&f);
        return NULL;
    }
    if (kruskal_order(&f, &mt, count, codes) < 0) {
        mt_discard(&mt);
        PyMem_Free(codes), PyMem_Free(parent), PyMem_Free(size);
        frame_close(&f);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < f.size; i++) parent[i] = (int32_t)i, size[i] = 1;
    Py_ssize_t needed = cells - 1;
    for (Py_ssize_t k = 0; k < count && needed > 0; k++) {
        uint32_t code = codes[k];
        int32_t first = (int32_t)(code >> 1);
        int32_t second = first + (int32_t)((code & 1) ? f.stride : 1);
        int32_t root_a = kruskal_find(parent, first), root_b = kruskal_find(parent, second);
        if (root_a == root_b) continue;
        if (size[root_a] < size[root_b]) {
            int32_t swap = root_a;
            root_a = root_b, root_b = swap;
        }
        parent[root_b] = root_a;
        size[root_a] += size[root_b];
        needed--;
        frame_open(&f, first, (code & 1) ? 2 : 1);
    }
    PyMem_Free(codes), PyMem_Free(parent), PyMem_Free(size);
    frame_close(&f);
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- wilson --------------------------------------------------------------------------- */

/* wilson(walls, blocked, stride, rng): generators/wilson.py's loop-erased random walks. The
 * reference draws its directions (floor(4 * random())) through rng.floats a batch of 65,536
 * at a time, when the previous batch is used up; the draws left in the last batch are
 * consumed here too, so the generator ends where the reference leaves it. */
static PyObject *wilson(PyObject *self, PyObject *args) {
    Frame f;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*y*nO", &f.walls_view, &f.blocked_view, &f.stride, &rng))
        return NULL;
    if (frame_check(&f) < 0) return NULL;
    Py_ssize_t cells = 0;
    for (Py_ssize_t i = 0; i < f.size; i++) cells += !f.blocked[i];
    if (cells == 0) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "wilson: no free cell to carve");
        return NULL;
    }
    unsigned char *in_tree = scratch(f.size, 1);
    unsigned char *left_by = scratch(f.size, 1);
    MTState mt;
    if (in_tree == NULL || left_by == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(in_tree), PyMem_Free(left_by);
        frame_close(&f);
        return NULL;
    }
    /* the root: the pick-th free cell in reading order */
    Py_ssize_t pick = mt_below(&mt, cells);
    for (Py_ssize_t i = 0; i < f.size; i++)
        if (!f.blocked[i] && pick-- == 0) {
            in_tree[i] = 1;
            break;
        }
    Py_ssize_t left = 0; /* draws left in the current batch */
    for (Py_ssize_t start = 0; start < f.size; start++) {
        if (f.blocked[start] || in_tree[start]) continue;
        Py_ssize_t cell = start;
        while (!in_tree[cell]) { /* walk, remembering the last way out of each cell */
            if (left == 0) left = WILSON_BATCH;
            left--;
            int d = (int)(mt_random(&mt) * 4.0);
            Py_ssize_t near = cell + f.offset[d];
            if (!f.blocked[near]) { /* a step into the border or the "42" is drawn again */
                left_by[cell] = (unsigned char)d;
                cell = near;
            }
        }
        for (cell = start; !in_tree[cell]; cell += f.offset[left_by[cell]]) {
            in_tree[cell] = 1;
            frame_open(&f, cell, left_by[cell]);
        }
    }
    for (; left > 0; left--) mt_random(&mt); /* the rest of the last batch */
    PyMem_Free(in_tree), PyMem_Free(left_by);
    frame_close(&f);
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- hunt-and-kill -------------------------------------------------------------------- */

/* hunt_and_kill(walls, blocked, stride, rng): generators/hunt_and_kill.py: random walks
 * from the first free cell, each restarted at the first unvisited cell (reading order) next
 * to the tree, found by a scan that starts at a pointer which only moves forward. */
static PyObject *hunt_and_kill(PyObject *self, PyObject *args) {
    Frame f;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "w*y*nO", &f.walls_view, &f.blocked_view, &f.stride, &rng))
        return NULL;
    if (frame_check(&f) < 0) return NULL;
    Py_ssize_t first = 0;
    while (first < f.size && f.blocked[first]) first++;
    if (first == f.size) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "hunt_and_kill: no free cell to carve");
        return NULL;
    }
    unsigned char *visited = scratch(f.size, 1);
    unsigned char *in_tree = scratch(f.size, 1); /* visited and carvable */
    MTState mt;
    if (visited == NULL || in_tree == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(visited), PyMem_Free(in_tree);
        frame_close(&f);
        return NULL;
    }
    memcpy(visited, f.blocked, (size_t)f.size); /* blocked cells count as visited */
    Py_ssize_t pointer = first, cell = first;
    visited[cell] = in_tree[cell] = 1;
    for (;;) {
        for (;;) { /* walk (kill) until stuck */
            int options[4], count = 0;
            for (int d = 0; d < 4; d++)
                if (!visited[cell + f.offset[d]]) options[count++] = d;
            if (count == 0) break;
            int d = options[mt_below(&mt, count)];
            frame_open(&f, cell, d);
            cell += f.offset[d];
            visited[cell] = in_tree[cell] = 1;
        }
        /* hunt: the first unvisited cell in reading order that touches the tree; every
         * cell before the pointer is visited (blocked ones count as visited) */
        while (pointer < f.size && visited[pointer]) pointer++;
        Py_ssize_t found = -1;
        int joins[4], count = 0;
        for (Py_ssize_t scan = pointer; scan < f.size && found < 0; scan++) {
            if (visited[scan]) continue;
            for (int d = 0; d < 4; d++)
                if (in_tree[scan + f.offset[d]]) joins[count++] = d;
            if (count) found = scan;
        }
        if (found < 0) break;
        int d = joins[mt_below(&mt, count)];
        frame_open(&f, found, d);
        cell = found;
        visited[cell] = in_tree[cell] = 1;
    }
    PyMem_Free(visited), PyMem_Free(in_tree);
    frame_close(&f);
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- the path of a carved tree -------------------------------------------------------- */

/* tree_path(walls, blocked, stride, entry, exit) -> path letters or None.
 * The letters of the walk from entry to exit through the open walls, found depth-first: in
 * a perfect maze (a spanning tree) it is the one path, so the first shortest path too. A
 * visited mark keeps the walk finite on any input; None when the exit is out of reach. */
static PyObject *tree_path(PyObject *self, PyObject *args) {
    Frame f;
    Py_ssize_t start, goal;
    if (!PyArg_ParseTuple(args, "y*y*nnn", &f.walls_view, &f.blocked_view, &f.stride, &start,
                          &goal))
        return NULL;
    if (frame_check(&f) < 0) return NULL;
    if (!frame_free(&f, start) || !frame_free(&f, goal)) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "entry and exit must be free cells of the frame");
        return NULL;
    }
    unsigned char *visited = scratch(f.size, 1);
    Py_ssize_t *stack = scratch(f.size, sizeof(Py_ssize_t));
    char *tried = scratch(f.size, 1); /* tried[i]: directions tried from stack[i], 0..4 */
    if (visited == NULL || stack == NULL || tried == NULL) {
        PyMem_Free(visited), PyMem_Free(stack), PyMem_Free(tried);
        frame_close(&f);
        return NULL;
    }
    Py_ssize_t depth = 0;
    stack[0] = start;
    visited[start] = 1;
    while (stack[depth] != goal) {
        Py_ssize_t cell = stack[depth];
        if (tried[depth] == 4) { /* every way out tried: back up */
            if (depth == 0) break;
            depth--;
            continue;
        }
        int d = tried[depth]++;
        Py_ssize_t near = cell + f.offset[d];
        /* open on this side and free (the ring is blocked: near is in the frame) */
        if (!(f.walls[cell] & BIT[d]) && !f.blocked[near] && !visited[near]) {
            visited[near] = 1;
            stack[++depth] = near;
            tried[depth] = 0;
        }
    }
    PyObject *path = NULL;
    if (stack[depth] == goal) {
        /* tried[i] - 1 is the direction stepped from stack[i] to stack[i + 1] */
        for (Py_ssize_t i = 0; i < depth; i++) tried[i] = LETTER[tried[i] - 1];
        path = PyUnicode_DecodeASCII(tried, depth, NULL);
    } else {
        path = Py_NewRef(Py_None);
    }
    PyMem_Free(visited), PyMem_Free(stack), PyMem_Free(tried);
    frame_close(&f);
    return path;
}

static PyMethodDef methods[] = {
    {"backtracker", backtracker, METH_VARARGS,
     "backtracker(walls, blocked, stride, entry, exit, rng) -> path letters or None."},
    {"prim", prim, METH_VARARGS, "prim(walls, blocked, stride, entry, rng): carve by Prim."},
    {"kruskal", kruskal, METH_VARARGS, "kruskal(walls, blocked, stride, rng): carve by Kruskal."},
    {"wilson", wilson, METH_VARARGS, "wilson(walls, blocked, stride, rng): carve by Wilson."},
    {"hunt_and_kill", hunt_and_kill, METH_VARARGS,
     "hunt_and_kill(walls, blocked, stride, rng): carve by hunt-and-kill."},
    {"tree_path", tree_path, METH_VARARGS,
     "tree_path(walls, blocked, stride, entry, exit) -> the letters of the tree's path, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mazekit._ccarve", "The carving loops (compiled kernel).", -1, methods,
};

PyMODINIT_FUNC PyInit__ccarve(void) { return PyModule_Create(&module); }
