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

/* A hint to fetch memory a loop will read soon (a no-op where the compiler has none). */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)(address))
#endif

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

/* Check the buffers and the stride: bytes, the same length, whole rows, and a blocked
 * outer ring, which is what lets every loop step to cell + offset without a bounds check.
 * 0 on success (buffers held), -1 with ValueError set (buffers released). */
static int frame_check(Frame *f) {
    f->walls = (unsigned char *)f->walls_view.buf;
    f->blocked = (const unsigned char *)f->blocked_view.buf;
    f->size = f->walls_view.len;
    const char *problem = NULL;
    if (f->walls_view.itemsize != 1 || f->blocked_view.itemsize != 1)
        problem = "walls and blocked must be buffers of bytes";
    else if (f->blocked_view.len != f->size)
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

/* The keys sort in two steps: by their top TOP_BITS bits (cache-friendly: few buckets),
 * then within each top bucket by the next bits, about one key per bucket. */
#define TOP_BITS 11
#define LOW_BITS (53 - TOP_BITS)

/* Sort keys[0..n-1] (and codes along) by key, stable: a counting sort on the bits under the
 * top ones into the scratch arrays, then an insertion sort within each small bucket.
 * ``counts`` has room for 2n items, ``spare_keys``/``spare_codes`` for n. */
static void kruskal_sort_bucket(uint64_t *keys, uint32_t *codes, Py_ssize_t n,
                                uint64_t *spare_keys, uint32_t *spare_codes, uint32_t *counts) {
    if (n <= 16) { /* small: an insertion sort in place */
        for (Py_ssize_t i = 1; i < n; i++) {
            uint64_t key = keys[i];
            uint32_t code = codes[i];
            Py_ssize_t j = i;
            for (; j > 0 && keys[j - 1] > key; j--) {
                keys[j] = keys[j - 1];
                codes[j] = codes[j - 1];
            }
            keys[j] = key;
            codes[j] = code;
        }
        return;
    }
    int bits = 0;
    while (bits < LOW_BITS && ((Py_ssize_t)1 << bits) < n) bits++;
    int shift = LOW_BITS - bits;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    Py_ssize_t buckets = (Py_ssize_t)1 << bits;
    memset(counts, 0, (size_t)(buckets + 1) * sizeof(uint32_t));
    for (Py_ssize_t i = 0; i < n; i++) counts[((keys[i] >> shift) & mask) + 1]++;
    for (Py_ssize_t b = 0; b < buckets; b++) counts[b + 1] += counts[b];
    for (Py_ssize_t i = 0; i < n; i++) { /* in order: equal keys keep their code order */
        uint32_t at = counts[(keys[i] >> shift) & mask]++;
        spare_keys[at] = keys[i];
        spare_codes[at] = codes[i];
    }
    /* counts[b] is now the end of bucket b; each bucket goes back sorted */
    uint32_t begin = 0;
    for (Py_ssize_t b = 0; b < buckets; b++) {
        uint32_t end = counts[b];
        for (uint32_t i = begin; i < end; i++) {
            uint64_t key = spare_keys[i];
            uint32_t code = spare_codes[i], j = i;
            for (; j > begin && keys[j - 1] > key; j--) { /* strict: ties stay in order */
                keys[j] = keys[j - 1];
                codes[j] = codes[j - 1];
            }
            keys[j] = key;
            codes[j] = code;
        }
        begin = end;
    }
}

/* The inner walls in the order of numpy's stable argsort of their keys (one draw each, in
 * code order), as codes[0..count-1]. The keys are drawn twice, a copy of the generator
 * counting the top buckets first, so the walls go straight to their bucket.
 * 0, or -1 with MemoryError set. */
static int kruskal_order(const Frame *f, MTState *mt, Py_ssize_t count, uint32_t *codes) {
    uint32_t top[(1 << TOP_BITS) + 1] = {0};
    uint64_t *keys = scratch(count, sizeof(uint64_t));
    if (keys == NULL) return -1;
    MTState counting = *mt; /* the same stream, drawn once to count (gauss_next untouched) */
    Py_ssize_t last = 2 * f->size;
    for (Py_ssize_t code = 0; code < last; code++)
        if (kruskal_inner(f, code)) top[(mt_bits53(&counting) >> LOW_BITS) + 1]++;
    Py_ssize_t largest = 0;
    for (int b = 0; b < 1 << TOP_BITS; b++) {
        if ((Py_ssize_t)top[b + 1] > largest) largest = top[b + 1];
        top[b + 1] += top[b];
    }
    uint64_t *spare_keys = scratch(largest, sizeof(uint64_t));
    uint32_t *spare_codes = scratch(largest, sizeof(uint32_t));
    uint32_t *counts = scratch(2 * largest + 1, sizeof(uint32_t));
    if (spare_keys == NULL || spare_codes == NULL || counts == NULL) {
        PyMem_Free(keys), PyMem_Free(spare_keys), PyMem_Free(spare_codes), PyMem_Free(counts);
        return -1;
    }
    for (Py_ssize_t code = 0; code < last; code++) {
        if (!kruskal_inner(f, code)) continue;
        uint64_t key = mt_bits53(mt);
        uint32_t at = top[key >> LOW_BITS]++;
        keys[at] = key;
        codes[at] = (uint32_t)code;
    }
    /* top[b] is now the end of top bucket b */
    Py_ssize_t begin = 0;
    for (int b = 0; b < 1 << TOP_BITS; b++) {
        kruskal_sort_bucket(keys + begin, codes + begin, (Py_ssize_t)top[b] - begin, spare_keys,
                            spare_codes, counts);
        begin = top[b];
    }
    PyMem_Free(keys), PyMem_Free(spare_keys), PyMem_Free(spare_codes), PyMem_Free(counts);
    return 0;
}

/* The root of ``cell``'s tree, halving the path on the way. A root holds minus the size of
 * its tree; any other cell its parent. */
static inline int32_t kruskal_find(int32_t *parent, int32_t cell) {
    while (parent[cell] >= 0) {
        int32_t up = parent[cell];
        if (parent[up] >= 0) parent[cell] = parent[up];
        cell = up;
    }
    return cell;
}

/* kruskal(walls, blocked, stride, rng): generators/kruskal.py's randomised Kruskal: one key
 * per inner wall, the walls in key order, union-find joining trees until one is left. Which
 * walls open depends only on the order, not on how the union-find keeps its trees. */
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
    int32_t *parent = NULL;
    MTState mt;
    if (codes == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(codes);
        frame_close(&f);
        return NULL;
    }
    if (kruskal_order(&f, &mt, count, codes) < 0 ||
        (parent = scratch(f.size, sizeof(int32_t))) == NULL) {
        mt_discard(&mt);
        PyMem_Free(codes);
        frame_close(&f);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < f.size; i++) parent[i] = -1;
    Py_ssize_t needed = cells - 1;
    for (Py_ssize_t k = 0; k < count && needed > 0; k++) {
        /* The walls come in random order, so each find starts with a cache miss: ask for the
         * cells of a wall a few ahead, and for the parent of one nearer (1.9 -> 1.3 s for
         * the union-find at 4000x4000, whose 64 MB of parents outgrow the cache) */
        if (k + 16 < count) {
            PREFETCH(&parent[codes[k + 16] >> 1]);
            PREFETCH(&parent[(codes[k + 16] >> 1) + f.stride]);
        }
        if (k + 8 < count && parent[codes[k + 8] >> 1] >= 0)
            PREFETCH(&parent[parent[codes[k + 8] >> 1]]);
        uint32_t code = codes[k];
        int32_t first = (int32_t)(code >> 1);
        int32_t second = first + (int32_t)((code & 1) ? f.stride : 1);
        int32_t root_a = kruskal_find(parent, first), root_b = kruskal_find(parent, second);
        if (root_a == root_b) continue;
        if (parent[root_a] > parent[root_b]) { /* the bigger tree (more negative) stays root */
            int32_t swap = root_a;
            root_a = root_b, root_b = swap;
        }
        parent[root_a] += parent[root_b];
        parent[root_b] = root_a;
        needed--;
        frame_open(&f, first, (code & 1) ? 2 : 1);
    }
    PyMem_Free(codes), PyMem_Free(parent);
    frame_close(&f);
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- wilson --------------------------------------------------------------------------- */

/* floor(4 * random()): the top two bits of the first of its two words (the 53-bit float
 * times 4 is below 1 past them), so the second word is skipped, not tempered. */
static inline int mt_quarter(MTState *mt) {
    int d = (int)(mt_next(mt) >> 30);
    if (mt->index >= MT_N)
        (void)mt_next(mt);
    else
        mt->index++;
    return d;
}

enum { WALK_FREE, WALK_TREE, WALK_BLOCKED };

/* wilson(walls, blocked, stride, rng): generators/wilson.py's loop-erased random walks. The
 * reference draws its directions (floor(4 * random())) through rng.floats a batch of 65,536
 * at a time, when the previous batch is used up; the draws left in the last batch are
 * consumed here too, so the generator ends where the reference leaves it. Like the reference,
 * it assumes the free cells connected (a Grid's are: the "42" keeps a corridor around it). */
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
    unsigned char *state = scratch(f.size, 1); /* WALK_FREE, WALK_TREE or WALK_BLOCKED */
    unsigned char *left_by = scratch(f.size, 1);
    MTState mt;
    if (state == NULL || left_by == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(state), PyMem_Free(left_by);
        frame_close(&f);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < f.size; i++) state[i] = f.blocked[i] ? WALK_BLOCKED : WALK_FREE;
    /* the root: the pick-th free cell in reading order */
    Py_ssize_t pick = mt_below(&mt, cells);
    for (Py_ssize_t i = 0; i < f.size; i++)
        if (!f.blocked[i] && pick-- == 0) {
            state[i] = WALK_TREE;
            break;
        }
    uint64_t drawn = 0;
    for (Py_ssize_t start = 0; start < f.size; start++) {
        if (state[start] != WALK_FREE) continue;
        Py_ssize_t cell = start;
        for (;;) { /* walk to the tree, remembering the last way out of each cell */
            int d = mt_quarter(&mt);
            drawn++;
            Py_ssize_t near = cell + f.offset[d];
            unsigned char there = state[near];
            if (there == WALK_BLOCKED) continue; /* the border or the "42": draw again */
            left_by[cell] = (unsigned char)d;
            cell = near;
            if (there == WALK_TREE) break;
        }
        for (cell = start; state[cell] != WALK_TREE; cell += f.offset[left_by[cell]]) {
            state[cell] = WALK_TREE;
            frame_open(&f, cell, left_by[cell]);
        }
    }
    if (drawn % WILSON_BATCH) /* the rest of the last batch */
        for (uint64_t rest = WILSON_BATCH - drawn % WILSON_BATCH; rest > 0; rest--)
            (void)mt_quarter(&mt);
    PyMem_Free(state), PyMem_Free(left_by);
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
