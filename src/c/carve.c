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
#include "scratch.h"
#include <string.h>

/* The wall bits of model.py, in the order N, E, S, W of model.DIRECTIONS. */
static const unsigned char BIT[4] = {1, 2, 4, 8};
static const unsigned char OPPOSITE[4] = {4, 8, 1, 2};
static const char LETTER[4] = {'N', 'E', 'S', 'W'};

/* The directions set in a 4-bit mask, lowest first, for picking the k-th of them, and how
 * many there are: a choice among the free neighbours without a branch per neighbour. */
static const signed char NTH_DIRECTION[16][4] = {
    {-1, -1, -1, -1}, {0, -1, -1, -1}, {1, -1, -1, -1}, {0, 1, -1, -1},
    {2, -1, -1, -1},  {0, 2, -1, -1},  {1, 2, -1, -1},  {0, 1, 2, -1},
    {3, -1, -1, -1},  {0, 3, -1, -1},  {1, 3, -1, -1},  {0, 1, 3, -1},
    {2, 3, -1, -1},   {0, 2, 3, -1},   {1, 2, 3, -1},   {0, 1, 2, 3},
};
static const unsigned char BITS_SET[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* wilson draws its directions through rng.floats in batches of this many (wilson.BATCH). */
#define WILSON_BATCH 65536

/* A hint that a condition is almost always true, so the compiler lays out its code as the
 * straight path (a no-op where the compiler has no such hint). */
#if defined(__GNUC__) || defined(__clang__)
#define LIKELY(condition) __builtin_expect(!!(condition), 1)
#else
#define LIKELY(condition) (condition)
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

/* Parse a kernel's (walls, blocked, stride, rng) into ``f`` and ``rng`` and check the frame:
 * 0 with the buffers held, -1 with the error set (buffers released). */
static int frame_args(PyObject *args, Frame *f, PyObject **rng) {
    if (!PyArg_ParseTuple(args, "w*y*nO", &f->walls_view, &f->blocked_view, &f->stride, rng))
        return -1;
    return frame_check(f);
}

/* The entry and the exit of a path must be free cells of the checked frame ``f``: 0, or -1
 * with the error set and the buffers released. */
static int frame_check_ends(Frame *f, Py_ssize_t entry, Py_ssize_t goal) {
    if (frame_free(f, entry) && frame_free(f, goal)) return 0;
    frame_close(f);
    PyErr_SetString(PyExc_ValueError, "entry and exit must be free cells of the frame");
    return -1;
}

/* frame_args for the kernels that carve a path too, (walls, blocked, stride, entry, exit,
 * rng): the entry and the exit must be free cells. */
static int frame_args_between(PyObject *args, Frame *f, Py_ssize_t *entry, Py_ssize_t *goal,
                              PyObject **rng) {
    if (!PyArg_ParseTuple(args, "w*y*nnnO", &f->walls_view, &f->blocked_view, &f->stride, entry,
                          goal, rng))
        return -1;
    if (frame_check(f) < 0) return -1;
    return frame_check_ends(f, *entry, *goal);
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

/* ---- random words in bulk ----------------------------------------------------------- */

/* The loops that draw many words (the twist of the state, the tempering of a block, both
 * inlined from mt19937.h) are compiled twice on x86 with GCC or clang: as the build's
 * default (SSE2 on x86-64) and for AVX2, taken when the processor has it, which handles
 * twice as many words per instruction (wilson's 32M directions at 1000x1000, seed 1:
 * 20 -> 12 ms). The words are the same either way. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define WIDE_DRAWS 1
#define INLINED static inline __attribute__((always_inline))
#else
#define WIDE_DRAWS 0
#define INLINED static inline
#endif

/* Move ``mt`` on by ``count`` words without tempering them (the words are not used). */
static void mt_skip(MTState *mt, uint64_t count) {
    while (count > 0) {
        if (mt->index >= MT_N) mt_twist(mt);
        uint64_t take = (uint64_t)(MT_N - mt->index);
        if (take > count) take = count;
        mt->index += (int)take;
        count -= take;
    }
}

/* The next ``count`` values of floor(4 * random()) into ``out``. That is the top two bits of
 * the first of the two words behind a float (the 53-bit float times 4 is below 1 past
 * them), so only the first word of each pair is tempered. */
INLINED void bulk_quarters(MTState *mt, unsigned char *out, size_t count) {
    while (count > 0) {
        if (mt->index >= MT_N) mt_twist(mt);
        size_t pairs = (size_t)(MT_N - mt->index) / 2;
        if (pairs > count) pairs = count;
        const uint32_t *words = mt->state + mt->index;
        /* mt_temper(word) >> 30 with only the steps that reach the top two bits: the last
         * step (>> 18) leaves them as they are, the third sets them from bits 16 and 15, and
         * of bits 31, 30, 16 and 15 the second step's mask (0x9d2c5680) has bit 31 only */
        for (size_t i = 0; i < pairs; i++) {
            uint32_t y = words[2 * i];
            y ^= y >> 11;
            y ^= (y << 7) & 0x80000000U;
            out[i] = (unsigned char)((y ^ (y << 15)) >> 30);
        }
        out += pairs;
        count -= pairs;
        mt->index += 2 * (int)pairs;
        if (count > 0 && mt->index == MT_N - 1) { /* a pair across two blocks of the state */
            *out++ = (unsigned char)(mt_next(mt) >> 30);
            mt_skip(mt, 1);
            count--;
        }
    }
}

static void words_default(MTState *mt, uint32_t *out, size_t count) { mt_fill(mt, out, count); }
static void quarters_default(MTState *mt, unsigned char *out, size_t count) {
    bulk_quarters(mt, out, count);
}
#if WIDE_DRAWS
__attribute__((target("avx2"))) static void words_avx2(MTState *mt, uint32_t *out, size_t count) {
    mt_fill(mt, out, count);
}
__attribute__((target("avx2"))) static void quarters_avx2(MTState *mt, unsigned char *out,
                                                          size_t count) {
    bulk_quarters(mt, out, count);
}
#endif

/* Which compilation the processor runs, asked once per kernel call. */
typedef struct {
    void (*words)(MTState *mt, uint32_t *out, size_t count);
    void (*quarters)(MTState *mt, unsigned char *out, size_t count);
} Draws;

static Draws draws_for_this_processor(void) {
    Draws draws = {words_default, quarters_default};
#if WIDE_DRAWS
    __builtin_cpu_init(); /* idempotent; needed before the first question in some loaders */
    if (__builtin_cpu_supports("avx2")) draws = (Draws){words_avx2, quarters_avx2};
#endif
    return draws;
}

/* Python's random stream for a loop that draws an unknown number of floats: the words of
 * the current block of the state, tempered a block at a time in a loop the compiler
 * vectorises, instead of one by one (mt_next). A block is only taken from where the state
 * stands to its end, so stream_close can give the words not used back: the generator then
 * stands exactly where as many mt_next calls would have left it. */
typedef struct {
    MTState *mt;
    Draws draws;
    int at, end; /* the next word of ``words``, the end of those taken */
    uint32_t words[MT_N];
} Stream;

/* Start drawing from ``mt`` (loaded); stream_close before using ``mt`` again. */
static void stream_open(Stream *stream, MTState *mt) {
    stream->mt = mt;
    stream->draws = draws_for_this_processor();
    stream->at = stream->end = 0;
}

/* The next word of the stream. */
static inline uint32_t stream_word(Stream *stream) {
    if (stream->at == stream->end) { /* the rest of this block, or the whole next one */
        stream->end = stream->mt->index >= MT_N ? MT_N : MT_N - stream->mt->index;
        stream->draws.words(stream->mt, stream->words, (size_t)stream->end);
        stream->at = 0;
    }
    return stream->words[stream->at++];
}

/* int(random() * n), as mt_below, from the stream. */
static inline Py_ssize_t stream_below(Stream *stream, Py_ssize_t n) {
    uint32_t a = stream_word(stream) >> 5, b = stream_word(stream) >> 6;
    double x = (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    return (Py_ssize_t)(x * (double)n);
}

/* Give the words taken but not used back to the generator. */
static void stream_close(Stream *stream) {
    stream->mt->index -= stream->end - stream->at;
    stream->at = stream->end = 0;
}

/* A kernel's result, a path (or None) from rooted_path, with the draws written back to
 * ``rng``; NULL when the path could not be made (out of memory: the draws are dropped too)
 * or the state could not be stored. */
static PyObject *path_result(PyObject *path, PyObject *rng, MTState *mt) {
    if (path == NULL) {
        mt_discard(mt);
        return NULL;
    }
    if (mt_store(rng, mt) < 0) {
        Py_DECREF(path);
        return NULL;
    }
    return path;
}

/* The path of a rooted tree whose cells each know the direction to their parent, bits
 * ``shift`` and ``shift + 1`` of their ``state`` byte (prim's tree and wilson's are such
 * trees, grown from the entry or from a random root): the letters from ``entry`` up to the
 * lowest common ancestor, then down to ``exit``. A tree has one path, the one
 * search.shortest_path finds; this way costs the length of two branches, not a search of
 * the grid (Grid.tree_path: 9 ms at 1000x1000). */
static PyObject *rooted_path(const Frame *f, const unsigned char *state, int shift,
                             Py_ssize_t root, Py_ssize_t entry, Py_ssize_t exit) {
    Py_ssize_t depth_entry = 0, depth_exit = 0, a = entry, b = exit;
    for (Py_ssize_t cell = entry; cell != root; cell += f->offset[(state[cell] >> shift) & 3])
        depth_entry++;
    for (Py_ssize_t cell = exit; cell != root; cell += f->offset[(state[cell] >> shift) & 3])
        depth_exit++;
    Py_ssize_t up = depth_entry, down = depth_exit; /* steps from entry up, down to exit */
    for (; depth_entry > depth_exit; depth_entry--) a += f->offset[(state[a] >> shift) & 3];
    for (; depth_exit > depth_entry; depth_exit--) b += f->offset[(state[b] >> shift) & 3];
    while (a != b) {
        a += f->offset[(state[a] >> shift) & 3];
        b += f->offset[(state[b] >> shift) & 3];
        depth_entry--;
    }
    up -= depth_entry, down -= depth_entry; /* depth_entry: the common ancestor's depth */
    char *letters = scratch(up + down, 1);
    if (letters == NULL) return NULL;
    Py_ssize_t at = 0;
    for (Py_ssize_t cell = entry; at < up; cell += f->offset[(state[cell] >> shift) & 3])
        letters[at++] = LETTER[(state[cell] >> shift) & 3];
    at = up + down;
    for (Py_ssize_t cell = exit; at > up; cell += f->offset[(state[cell] >> shift) & 3])
        letters[--at] = LETTER[((state[cell] >> shift) + 2) & 3]; /* the way back down */
    PyObject *path = PyUnicode_DecodeASCII(letters, up + down, NULL);
    PyMem_Free(letters);
    return path;
}

/* The letters of the walk from ``start`` to ``goal`` through the open walls, found
 * depth-first: in a perfect maze (a spanning tree) it is the one path, so the first shortest
 * path too. A visited mark keeps the walk finite on any input; None when the goal is out of
 * reach, NULL with MemoryError set. Each cell on the stack keeps the open ways it has not
 * tried yet as bits, so a step takes the lowest one with no branch per wall (twice faster
 * than trying N, E, S, W in turn: the open walls of a random tree are a mispredicted branch
 * each). */
static PyObject *tree_walk(const Frame *f, Py_ssize_t start, Py_ssize_t goal) {
    unsigned char *visited = scratch(f->size, 1);
    unsigned char *ways = scratch(f->size, 1); /* ways[i]: the untried open ways at depth i */
    unsigned char *steps = scratch(f->size, 1); /* steps[i]: the direction from depth i on */
    if (visited == NULL || ways == NULL || steps == NULL) {
        PyMem_Free(visited), PyMem_Free(ways), PyMem_Free(steps);
        return NULL;
    }
    Py_ssize_t depth = 0, cell = start;
    ways[0] = (unsigned char)(~f->walls[start] & 15);
    visited[start] = 1;
    while (cell != goal) {
        unsigned int open = ways[depth];
        if (open == 0) { /* every way out tried: back up the step that came here */
            if (depth == 0) break;
            cell -= f->offset[steps[--depth]];
            continue;
        }
        int d = NTH_DIRECTION[open][0]; /* the lowest way left */
        ways[depth] = (unsigned char)(open & (open - 1));
        Py_ssize_t near = cell + f->offset[d];
        /* free and not visited (the ring is blocked: near is in the frame) */
        if (f->blocked[near] | visited[near]) continue;
        visited[near] = 1;
        steps[depth++] = (unsigned char)d;
        cell = near;
        ways[depth] = (unsigned char)(~f->walls[near] & 15 & ~OPPOSITE[d]); /* not back */
    }
    PyObject *path = NULL;
    if (cell == goal) {
        for (Py_ssize_t i = 0; i < depth; i++) steps[i] = (unsigned char)LETTER[steps[i]];
        path = PyUnicode_DecodeASCII((const char *)steps, depth, NULL);
    } else {
        path = Py_NewRef(Py_None);
    }
    PyMem_Free(visited), PyMem_Free(ways), PyMem_Free(steps);
    return path;
}

/* ---- backtracker ---------------------------------------------------------------------- */

/* backtracker(walls, blocked, stride, entry, exit, rng) -> path letters or None.
 * generators/backtracker.py: a depth-first walk from the entry with an explicit stack; the
 * stack when the exit is pushed is the entry-exit path. */
static PyObject *backtracker(PyObject *self, PyObject *args) {
    Frame f;
    Py_ssize_t start, goal;
    PyObject *rng;
    if (frame_args_between(args, &f, &start, &goal, &rng) < 0) return NULL;
    if (f.size > INT32_MAX) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "backtracker: the frame is too big");
        return NULL;
    }
    unsigned char *visited = scratch(f.size, 1);
    int32_t *stack = scratch(f.size, sizeof(int32_t));
    char *letters = scratch(f.size, 1); /* letters[i]: the step from stack[i] to stack[i+1] */
    MTState mt;
    if (visited == NULL || stack == NULL || letters == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(visited), PyMem_Free(stack), PyMem_Free(letters);
        frame_close(&f);
        return NULL;
    }
    memcpy(visited, f.blocked, (size_t)f.size); /* blocked cells count as visited */
    Stream stream;
    stream_open(&stream, &mt);
    PyObject *path = NULL;
    int found = 0;
    Py_ssize_t depth = 0, cell = start;
    stack[0] = (int32_t)start;
    visited[start] = 1;
    for (;;) {
        int options = 0; /* the unvisited neighbours, as bits */
        for (int d = 0; d < 4; d++) options |= !visited[cell + f.offset[d]] << d;
        if (options == 0) { /* backtrack */
            if (depth == 0) break;
            cell = stack[--depth];
            continue;
        }
        int d = NTH_DIRECTION[options][stream_below(&stream, BITS_SET[options])];
        frame_open(&f, cell, d);
        letters[depth] = LETTER[d];
        cell += f.offset[d];
        visited[cell] = 1;
        stack[++depth] = (int32_t)cell;
        if (cell == goal && !found) {
            found = 1;
            path = PyUnicode_DecodeASCII(letters, depth, NULL);
            if (path == NULL) break;
        }
    }
    stream_close(&stream);
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

/* A cell's state in prim: UNSEEN, FRONTIER, BLOCKED, or TREE with the direction of the
 * cell it joined (its parent, towards the entry) in bits 2-3, for the path. */
enum { UNSEEN, FRONTIER, TREE, BLOCKED };
#define PRIM_HUGE ((Py_ssize_t)4 << 20) /* cells from which the states go in huge pages */

/* Free prim's ``size`` states, from scratch_alloc if ``huge``, else from scratch. */
static void prim_free(unsigned char *state, int huge, Py_ssize_t size) {
    if (huge)
        scratch_free(state, (size_t)size);
    else
        PyMem_Free(state);
}
#define PRIM_STATE(byte) ((byte) & 3)

/* Put ``cell`` in the tree and its unseen neighbours in the frontier (prim.grow), without a
 * branch per neighbour: each is written past the end and kept only when it was unseen. */
static inline void prim_grow(const Frame *f, unsigned char *state, int32_t *frontier,
                             Py_ssize_t *length, Py_ssize_t cell, int parent) {
    state[cell] = (unsigned char)(TREE | parent << 2);
    Py_ssize_t n = *length;
    for (int d = 0; d < 4; d++) {
        Py_ssize_t near = cell + f->offset[d];
        int unseen = state[near] == UNSEEN;
        frontier[n] = (int32_t)near;
        n += unseen;
        state[near] = unseen ? FRONTIER : state[near];
    }
    *length = n;
}

/* prim(walls, blocked, stride, entry, exit, rng) -> path letters or None: generators/prim.py's
 * randomised Prim, its frontier a swap-remove list (rng.pop_random) exactly as the Python
 * list; the path comes from the parent each cell joined (None if the exit is out of reach). */
static PyObject *prim(PyObject *self, PyObject *args) {
    Frame f;
    Py_ssize_t start, goal;
    PyObject *rng;
    if (frame_args_between(args, &f, &start, &goal, &rng) < 0) return NULL;
    if (f.size > INT32_MAX - 4) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "prim: the frame is too big");
        return NULL;
    }
    /* The states in huge pages once they fill some (PRIM_HUGE): at 4000x4000 the frontier's
     * cells lie on thousands of rows, and small pages missed the TLB on most picks. */
    int huge = f.size >= PRIM_HUGE;
    unsigned char *state = huge ? scratch_alloc((size_t)f.size) : scratch(f.size, 1);
    int32_t *frontier = scratch(f.size + 4, sizeof(int32_t)); /* room to write past the end */
    MTState mt;
    if (state == NULL || frontier == NULL || mt_load(rng, &mt) < 0) {
        if (state == NULL || frontier == NULL) PyErr_NoMemory();
        prim_free(state, huge, f.size);
        PyMem_Free(frontier);
        frame_close(&f);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < f.size; i++) state[i] = f.blocked[i] ? BLOCKED : UNSEEN;
    Stream stream;
    stream_open(&stream, &mt);
    Py_ssize_t length = 0;
    prim_grow(&f, state, frontier, &length, start, 0);
    while (length > 0) {
        Py_ssize_t pick = stream_below(&stream, length);
        Py_ssize_t cell = frontier[pick];
        frontier[pick] = frontier[--length];
        int joins = 0; /* the directions to the tree, as bits */
        for (int d = 0; d < 4; d++) joins |= (PRIM_STATE(state[cell + f.offset[d]]) == TREE) << d;
        /* a frontier cell always touches the tree: at least one bit */
        int d = NTH_DIRECTION[joins][stream_below(&stream, BITS_SET[joins])];
        frame_open(&f, cell, d);
        prim_grow(&f, state, frontier, &length, cell, d);
    }
    stream_close(&stream);
    PyObject *path = Py_None;
    if (PRIM_STATE(state[goal]) == TREE) /* the entry is the root */
        path = rooted_path(&f, state, 2, start, start, goal);
    else
        Py_INCREF(path);
    prim_free(state, huge, f.size);
    PyMem_Free(frontier);
    frame_close(&f);
    return path_result(path, rng, &mt);
}

/* ---- kruskal -------------------------------------------------------------------------- */

/* Kruskal's tree is the minimum spanning forest of the inner walls under the order (key,
 * code) of the reference's sort (numpy's stable argsort of the keys, the codes ascending). The
 * order is strict, so that forest is the only one, and any algorithm that finds it opens the
 * very walls the reference opens, from the very same draws. The kernel opens only walls the
 * cut property proves in it (the least wall out of a set of cells is in the forest): each
 * cell's least wall as the keys are drawn; then, a band of rows at a time while it is in
 * cache, the band's other walls in key order, each opening when it is the least wall out of
 * a piece, walls across the band's edges counted; last, Boruvka's rounds over the walls the
 * bands left, each a pass in code order in which every piece takes its least wall out. The
 * reference's way (a sort, then union-find over cells taken in random order) reads memory at
 * random: at 4000x4000 its 64 MB of parents missed the cache on almost every wall, 233 ns a
 * cell against 122 at 1000x1000 (specs/performance.md, "Generators and heat at 4000x4000"). */

#define NO_KEY UINT64_MAX /* a key has 53 bits: no wall */

/* The random keys of the walls, drawn a row of the frame at a time: Random.random() of a
 * wall is the pair of words (a, b) taken as the 53-bit integer (a >> 5) << 26 | b >> 6,
 * exactly the float times 2**53, so these integers compare (and tie) as the floats do.
 * ``words`` holds a row's words (2 keys a cell at most) and 2 more, read but not used. */
typedef struct {
    MTState *mt;
    Draws draws;
    Py_ssize_t left; /* keys still to draw from mt */
    uint32_t *words;
} Keys;

/* Start drawing ``count`` keys from ``mt`` (never more: the state ends where it must). */
static void keys_start(Keys *keys, MTState *mt, Py_ssize_t count) {
    keys->mt = mt;
    keys->draws = draws_for_this_processor();
    keys->left = count;
}

/* The words of the next ``count`` keys (the caller draws no more keys than it said). */
static inline const uint32_t *keys_row(Keys *keys, Py_ssize_t count) {
    if (count > keys->left) count = keys->left;
    keys->draws.words(keys->mt, keys->words, (size_t)(2 * count));
    keys->left -= count;
    return keys->words;
}

/* The key of the pair of words at ``pair``. */
static inline uint64_t keys_of(const uint32_t *pair) {
    return (uint64_t)(pair[0] >> 5) << 26 | (pair[1] >> 6);
}

/* The root of ``x`` in ``parent``, halving the path on the way (a parent is never greater
 * than its child: a root joins under the smaller one). */
static inline int32_t kruskal_find(int32_t *parent, int32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* The roots of ``*a`` and ``*b`` in ``parent``, found together (one loop, whose end is one
 * branch, not two), halving both paths. */
static inline void kruskal_find2(int32_t *parent, int32_t *a, int32_t *b) {
    int32_t x = *a, y = *b;
    for (;;) {
        int32_t up_x = parent[x], up_y = parent[y];
        if ((up_x == x) & (up_y == y)) break;
        int32_t top_x = parent[up_x], top_y = parent[up_y]; /* a root's is itself */
        parent[x] = top_x, parent[y] = top_y;
        x = top_x, y = top_y;
    }
    *a = x, *b = y;
}

/* Join the trees of roots ``a`` and ``b`` (distinct), the greater under the smaller. */
static inline void kruskal_link(int32_t *parent, int32_t a, int32_t b) {
    if (a < b)
        parent[b] = a;
    else
        parent[a] = b;
}

/* A piece's least wall out so far: its key, and where it is in the list. */
typedef struct {
    uint64_t key;
    uint32_t wall;
} Best;

/* What the rounds work on: the frame; the walls left (``count`` of them: keys, codes and
 * the numbers of their two pieces, ``first`` and ``second``: of the wall's first and second
 * cell as the bands leave them, then ``first`` < ``second`` after each pass); the pieces
 * the rounds start with on the two sides of each wall (``home``, two a wall, for the path);
 * per piece, its least wall out (``best``: its key and where it is, in one line of the cache),
 * and two arrays
 * that take turns as the union-find of the round's pieces (``join``) and the numbers the
 * last round gave them (``number``); the walls the rounds opened and their ``home`` pieces. */
typedef struct {
    Frame *f;
    uint64_t *keys;
    uint32_t *codes;
    int32_t *first, *second;
    Py_ssize_t count;
    int32_t *home;
    Best *best;
    int32_t *join, *number;
    uint32_t *opened; /* the walls the rounds opened, ``opened_count`` of them */
    int32_t *opened_home;
    Py_ssize_t opened_count;
} Forest;

/* A band of ``rows`` rows, contracted while it is in cache once the first round has settled
 * its last row (specs/performance.md, "kruskal: the same tree, a band of rows at a time").
 * ``choice`` keeps the wall each cell took in the first round; ``label`` is the union-find
 * over the band's cells and ``exit`` the least key of a wall across the band's top or bottom
 * edge from each piece (at its root); ``top`` and ``bottom`` the keys of the walls across
 * those edges (row by row: the walls from the row above the band, those from its last row),
 * ``stash`` the walls across the bottom edge set aside while the others are sorted into
 * ``sorted`` (``counts``: the counting sort's buckets). The bands' pieces are numbered on
 * across bands (``pieces`` so far) in ``join``, a union-find over them that the first
 * round's walls open across the bands' edges join (``edge``: the pieces of the last band's
 * bottom row, -1 where blocked). The walls across the last band's bottom edge, whose cells
 * below are this band's, are listed from ``stash_at``; ``entry_piece`` and ``goal_piece``
 * are those of the cells ``entry`` and ``goal``. */
typedef struct {
    Py_ssize_t rows;  /* the band's height */
    Py_ssize_t cells; /* at most this many cells in a band, else only its pieces */
    int32_t pieces;  /* the pieces the bands so far left, numbered on from 0 */
    int32_t *join, *edge;
    Py_ssize_t stash_at, entry, goal;
    int32_t entry_piece, goal_piece;
    int32_t *label;
    unsigned char *choice; /* per cell of the row above the band, the band and the row below,
                            * the wall the first round took (4: none) */
    uint64_t *exit, *top, *bottom, *stash_keys, *sorted_keys;
    uint32_t *stash_codes, *sorted_codes, *counts;
} Band;

static void kruskal_band(Forest *w, Band *band, Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t start);

/* The first round, as the keys are drawn, row by row of the frame: each cell takes the least
 * of its (up to 4) walls (N, W, E, S: that is code order, so a tie keeps the first), which
 * opens (the band's ``choice`` keeps it). The walls of a row are settled once the cells of
 * the next row have chosen: then those not taken are listed, and once a band's last row is
 * settled, the band is contracted (kruskal_band). ``rows`` holds 2 rows of keys (east and
 * south walls each), ``chosen`` 2 rows of marks of the walls taken. */
static void kruskal_first_round(Forest *w, Keys *keys, uint64_t *rows, unsigned char *chosen,
                                Band *band) {
    Frame *f = w->f;
    Py_ssize_t stride = f->stride, height = f->size / stride;
    for (Py_ssize_t x = 0; x < 2 * stride; x++) rows[2 * stride + x] = NO_KEY; /* row -1 */
    for (Py_ssize_t x = 0; x < stride; x++) band->top[x] = NO_KEY;
    Py_ssize_t band_start = 0, segment = 0; /* the band's first row, its first wall listed */
    for (Py_ssize_t y = 0; y <= height; y++) {
        int now = (int)(y & 1), then = now ^ 1;
        uint64_t *east = rows + 2 * stride * now, *south = east + stride;
        uint64_t *east_before = rows + 2 * stride * then, *south_before = east_before + stride;
        unsigned char *picked = chosen + 2 * stride * now;
        unsigned char *picked_before = chosen + 2 * stride * then;
        const unsigned char *blocked = f->blocked + y * stride;
        if (y < height) { /* draw the row's keys, in code order, all at once, and choose */
            int below = y + 1 < height;
            Py_ssize_t count = 0;
            for (Py_ssize_t x = 0; x < stride; x++) {
                int free = !blocked[x];
                count += (free && !blocked[x + 1]) + (free && below && !blocked[x + stride]);
            }
            const uint32_t *word = keys_row(keys, count);
            for (Py_ssize_t x = 0; x < stride; x++) {
                int free = !blocked[x];
                int across = free && !blocked[x + 1], down = free && below && !blocked[x + stride];
                uint64_t key = keys_of(word); /* past the row's last key: unused */
                east[x] = across ? key : NO_KEY;
                word += 2 * across;
                key = keys_of(word);
                south[x] = down ? key : NO_KEY;
                word += 2 * down;
            }
            memset(picked, 0, (size_t)(2 * stride));
            unsigned char *choice = band->choice + (y - band_start + 1) * stride; /* the row's */
            choice[0] = 4; /* the blocked first column */
            for (Py_ssize_t x = 1; x < stride; x++) { /* without branches: keys are random */
                uint64_t best = south_before[x];
                int d = 0; /* N, then W, E and S as they beat it */
                int west = east[x - 1] < best;
                best = west ? east[x - 1] : best, d = west ? 3 : d;
                int here = east[x] < best;
                best = here ? east[x] : best, d = here ? 1 : d;
                int down = south[x] < best; /* a mask: GCC made a branch of this ?: */
                best ^= (best ^ south[x]) & -(uint64_t)down, d ^= (d ^ 2) & -down;
                choice[x] = (unsigned char)(best == NO_KEY ? 4 : d);
                if (best == NO_KEY) continue; /* blocked, or shut in by blocked cells */
                static const int SIDE[4] = {1, 0, 1, 0}; /* the wall's row of marks */
                static const int SHIFT[4] = {0, 0, 0, -1};
                unsigned char *marks = d == 0 ? picked_before : picked;
                marks[SIDE[d] * stride + x + SHIFT[d]] = 1; /* it opens in kruskal_band */
            }
        }
        if (y == 0) continue;
        /* Each square of 4 cells across the row before and this one is a cycle of 4 walls:
         * its greatest wall, when greater than the other 3, never opens (the greatest wall
         * of a cycle is in no minimum spanning forest), so it is not listed. That leaves 9.1M
         * walls of 32.0M for the rounds at 4000x4000 instead of 20.6M. A wall a cell chose
         * is never one: it is less than the square's other wall of that cell. */
        if (y < height)
            for (Py_ssize_t x = 0; x + 1 < stride; x++) {
                uint64_t top = east_before[x], bottom = east[x];
                uint64_t left = south_before[x], right = south_before[x + 1];
                uint64_t across = top > bottom ? top : bottom, down = left > right ? left : right;
                int square = (across != NO_KEY) & (down != NO_KEY); /* 4 free cells */
                unsigned char *east_mark = top > bottom ? picked_before + x : picked + x;
                unsigned char *south_mark = picked_before + stride + x + (left > right ? 0 : 1);
                *east_mark |= (unsigned char)(square & (across > down) & (top != bottom));
                *south_mark |= (unsigned char)(square & (down > across) & (left != right));
            }
        /* the row before is settled: list its walls not taken (without branches) */
        Py_ssize_t base = (y - 1) * stride, listed = w->count;
        for (Py_ssize_t x = 0; x < stride; x++) {
            uint32_t code = (uint32_t)(2 * (base + x));
            w->keys[listed] = east_before[x], w->codes[listed] = code;
            listed += (east_before[x] != NO_KEY) & !picked_before[x];
            w->keys[listed] = south_before[x], w->codes[listed] = code + 1;
            listed += (south_before[x] != NO_KEY) & !picked_before[stride + x];
        }
        w->count = listed;
        if (y - band_start == band->rows || y == height) { /* the band's last row is settled */
            memcpy(band->bottom, south_before, (size_t)stride * sizeof(uint64_t));
            if (y == height) /* below the frame: no choices */
                memset(band->choice + (y - band_start + 1) * stride, 4, (size_t)stride);
            kruskal_band(w, band, band_start, y, segment);
            /* the band's last row and this one: the next band's row above and first row */
            memmove(band->choice, band->choice + (y - band_start) * stride, (size_t)(2 * stride));
            uint64_t *edge = band->top;
            band->top = band->bottom, band->bottom = edge;
            band_start = y, segment = w->count;
        }
    }
}

/* Number the pieces the bands' pieces make once joined across the bands' edges (``join``,
 * the bands' union-find, in which a parent is less than its child) 0, 1, ... in the order
 * of their first band's piece, and give the walls left and the entry and the goal those
 * numbers. The number of pieces. */
static int32_t kruskal_join_bands(Forest *w, Band *band) {
    int32_t pieces = 0, *join = band->join;
    for (int32_t i = 0; i < band->pieces; i++) join[i] = join[i] == i ? pieces++ : join[join[i]];
    for (Py_ssize_t e = 0; e < w->count; e++)
        w->first[e] = join[w->first[e]], w->second[e] = join[w->second[e]];
    band->entry_piece = join[band->entry_piece], band->goal_piece = join[band->goal_piece];
    return pieces;
}

/* The later rounds. Each is a pass over the walls left, in place, that names each wall's two
 * pieces by the numbers of this round (the first pass takes the bands' numbers; later ones
 * map the last round's numbers through ``number``), drops the walls inside a piece, keeps
 * only the lesser of two walls in a row between the same two pieces (the other is the
 * greatest wall of a cycle: it never opens; a piece's walls to a neighbour come in runs
 * along a row), and finds each piece's least wall out. Then each piece's least wall opens
 * and joins its two pieces (``join``, a union-find), and the new pieces are numbered. The
 * pieces fall about fourfold a round, the walls nearly twofold. */

/* Make wall ``at`` (key, code) the least wall out of piece ``p`` if ``take`` and it is less
 * (in key, then code: the reference's order) than the one found so far; without branches but
 * for a tie of keys, which hardly ever happens. */
static inline void kruskal_best(Forest *w, int32_t p, uint64_t key, uint32_t code, Py_ssize_t at,
                                int take) {
    uint64_t so_far = w->best[p].key;
    uint32_t wall = w->best[p].wall;
    int less = key < so_far;
    if (so_far == key) less = code < w->codes[wall];
    less &= take;
    w->best[p].key = so_far ^ ((so_far ^ key) & -(uint64_t)less); /* masks: GCC branched */
    w->best[p].wall = wall ^ ((wall ^ (uint32_t)at) & -(uint32_t)less);
}

/* Keep the wall (key, code) between pieces a and b at ``kept``, unless the wall kept last is
 * between the same two: then the lesser of both stays there. Drop it when a == b. The new
 * ``kept``; the wall kept brings its ``home`` pieces (from index ``from``). Without branches:
 * whether the pieces are the same, or the pair repeats, or the new wall is less, is random. */
static inline Py_ssize_t kruskal_keep(Forest *w, Py_ssize_t kept, int32_t a, int32_t b,
                                      uint64_t key, uint32_t code, Py_ssize_t from) {
    int32_t lo = a < b ? a : b, hi = a < b ? b : a;
    int between = a != b;
    Py_ssize_t last = kept > 0 ? kept - 1 : 0;
    /* not if a == b; & for &&, masks for ?:, which GCC made branches of */
    int repeat = (kept > 0) & (w->first[last] == lo) & (w->second[last] == hi);
    Py_ssize_t at = kept - repeat;
    uint64_t there = w->keys[at];
    uint32_t there_code = w->codes[at];
    int take = between & (!repeat | (key < there) | ((key == there) & (code < there_code)));
    w->keys[at] = there ^ ((there ^ key) & -(uint64_t)take);
    w->codes[at] = there_code ^ ((there_code ^ code) & -(uint32_t)take);
    int32_t home_a = w->home[2 * from], home_b = w->home[2 * from + 1]; /* ``from`` >= ``at`` */
    w->home[2 * at] ^= (w->home[2 * at] ^ home_a) & -take;
    w->home[2 * at + 1] ^= (w->home[2 * at + 1] ^ home_b) & -take;
    w->first[at] = lo, w->second[at] = hi; /* the same on a repeat; unused when a == b */
    kruskal_best(w, lo, key, code, at, take);
    kruskal_best(w, hi, key, code, at, take);
    return kept + (between & !repeat);
}

/* Sort the band's ``n`` walls (keys, codes, in code order) into ``key``/``code`` by (key,
 * code): a counting sort on the keys' top bits (random keys: a wall or so a bucket), stable,
 * then insertion, which only moves walls within a bucket (a tie of keys keeps code order). */
static void kruskal_sort(const uint64_t *keys, const uint32_t *codes, Py_ssize_t n,
                         uint64_t *key, uint32_t *code, uint32_t *counts) {
    int bits = 1;
    while (bits < 30 && ((Py_ssize_t)1 << bits) < n) bits++;
    Py_ssize_t buckets = (Py_ssize_t)1 << bits;
    int shift = 53 - bits;
    memset(counts, 0, (size_t)(buckets + 1) * sizeof(uint32_t));
    for (Py_ssize_t e = 0; e < n; e++) counts[(keys[e] >> shift) + 1]++;
    for (Py_ssize_t b = 0; b < buckets; b++) counts[b + 1] += counts[b];
    for (Py_ssize_t e = 0; e < n; e++) {
        uint32_t at = counts[keys[e] >> shift]++;
        key[at] = keys[e], code[at] = codes[e];
    }
    for (Py_ssize_t e = 1; e < n; e++) {
        uint64_t k = key[e];
        uint32_t c = code[e];
        Py_ssize_t at = e;
        for (; at > 0 && key[at - 1] > k; at--) key[at] = key[at - 1], code[at] = code[at - 1];
        key[at] = k, code[at] = c;
    }
}

/* Join the trees of roots ``a`` and ``b`` of the band's cells, with their exits. */
static inline void kruskal_band_link(int32_t *label, uint64_t *exit, int32_t a, int32_t b) {
    int32_t root = a < b ? a : b, child = a < b ? b : a;
    label[child] = root;
    uint64_t mine = exit[root], theirs = exit[child]; /* the lesser, by a mask: GCC branched */
    exit[root] = mine ^ ((mine ^ theirs) & -(uint64_t)(theirs < mine));
}

/* Contract the band of rows [r0, r1), whose walls left are w->keys/codes from ``start`` to
 * w->count (listed in code order): its cells joined by the walls the first round took inside
 * it (``label``, a union-find over the band's cells), its other walls in key order (Kruskal's
 * own way, in cache), each opening when it joins two pieces and is less than every wall
 * across the band's edges from one of them (``exit``). Then its pieces are numbered on
 * from the bands' before, and the list keeps only the walls between two of the band's
 * pieces and those across its bottom edge, with the numbers of their pieces (the cells
 * below the bottom edge get theirs from the next band). No array of a piece per cell: its
 * 64 MB at 4000x4000 were written, then read at random by the rounds. */
static void kruskal_band(Forest *w, Band *band, Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t start) {
    Frame *f = w->f;
    Py_ssize_t stride = f->stride, base = r0 * stride, cells = (r1 - r0) * stride;
    Py_ssize_t bottom_row = (r1 - 1) * stride;
    int32_t *label = band->label;
    uint64_t *exit = band->exit;
    const unsigned char *blocked = f->blocked + base, *choice = band->choice + stride;
    /* The walls the first round took in the band, opened from the choices of its rows and
     * the rows above and below it, a pass in cache that the compiler vectorises: opening
     * each as it was taken, two bytes read and written a cell, one of them the next cell's,
     * cost the first round 2-3 ns a cell more. */
    unsigned char *walls = f->walls + base;
    for (Py_ssize_t i = 0; i < cells; i++) {
        unsigned int c = choice[i];
        unsigned int north = (c == 0) | (choice[i - stride] == 2);
        unsigned int east = (c == 1) | (choice[i + 1] == 3);
        unsigned int south = (c == 2) | (choice[i + stride] == 0);
        unsigned int west = (c == 3) | (choice[i - 1] == 1);
        walls[i] &= (unsigned char)~(north | east << 1 | south << 2 | west << 3);
    }
    /* The first round's pieces within the band are already trees, with no union of their
     * own: each cell's parent is the cell it chose, but for the two cells that chose each
     * other (a piece's root pair: the lesser is the root) and the cells whose choice is
     * across the band's edges, or none (roots). The union-find over the band's cells starts
     * from them; the finds below halve their paths (a union-find built wall by wall cost 10
     * ns a cell at 4000x4000, its finds' loops and tests mispredicted; this 2-3). */
    static const unsigned char BACK[5] = {2, 3, 0, 1, 5}; /* the choice back; none: never */
    Py_ssize_t step[5] = {-stride, 1, stride, -1, 0};
    for (Py_ssize_t i = 0; i < cells; i++) { /* without branches (masks: GCC made branches of
                                                 * ?:), as the choices are random */
        unsigned int c = choice[i];
        Py_ssize_t j = i + step[c]; /* the cell it chose (itself: none) */
        Py_ssize_t out = -(Py_ssize_t)((size_t)j >= (size_t)cells); /* across an edge: a root */
        j ^= (i ^ j) & out;
        Py_ssize_t root = -(Py_ssize_t)((choice[j] == BACK[c]) & (j > i)); /* a pair's lesser */
        label[i] = (int32_t)(j ^ ((i ^ j) & root));
    }
    memset(exit, 0xff, (size_t)cells * sizeof(uint64_t)); /* NO_KEY */
    for (Py_ssize_t x = 0; x < stride; x++) { /* the walls across the edges, at the roots */
        int32_t top = kruskal_find(label, (int32_t)x);
        int32_t bottom = kruskal_find(label, (int32_t)(bottom_row - base + x));
        exit[top] = band->top[x] < exit[top] ? band->top[x] : exit[top];
        exit[bottom] = band->bottom[x] < exit[bottom] ? band->bottom[x] : exit[bottom];
    }
    uint64_t *keys = w->keys + start;
    uint32_t *codes = w->codes + start;
    Py_ssize_t count = w->count - start, inner, stashed = 0;
    for (inner = count; inner > 0 && (Py_ssize_t)(codes[inner - 1] >> 1) >= bottom_row;)
        inner--; /* the walls of the bottom row come last (code order) */
    Py_ssize_t end = inner;
    for (Py_ssize_t e = inner; e < count; e++) { /* those across its edge aside */
        uint32_t code = codes[e];
        if ((code & 1) && (Py_ssize_t)(code >> 1) >= bottom_row) {
            band->stash_keys[stashed] = keys[e];
            band->stash_codes[stashed++] = code;
        } else {
            keys[end] = keys[e], codes[end++] = code;
        }
    }
    inner = end;
    /* a row longer than a band may be is out of cache: its walls are left to the rounds */
    Py_ssize_t sorted = cells <= band->cells ? inner : 0;
    kruskal_sort(keys, codes, sorted, band->sorted_keys, band->sorted_codes, band->counts);
    for (Py_ssize_t e = 0; e < sorted; e++) {
        uint64_t key = band->sorted_keys[e];
        uint32_t code = band->sorted_codes[e];
        Py_ssize_t cell = (code >> 1) - base, other = cell + ((code & 1) ? stride : 1);
        int32_t a = (int32_t)cell, b = (int32_t)other;
        kruskal_find2(label, &a, &b);
        /* the least wall out of a or b but for walls across the edges: if less than those,
         * the least of its cut (a wall of theirs left waiting is not less than their exits) */
        int opens = (a != b) & ((key < exit[a]) | (key < exit[b])); /* one branch, not three */
        if (!opens) continue;
        frame_open(f, code >> 1, (code & 1) ? 2 : 1);
        kruskal_band_link(label, exit, a, b);
    }
    /* number the pieces on from the bands' before, in the order of their roots (the exits
     * are done with: their room holds the numbers), each in the union-find over the bands'
     * pieces (``band->join``) */
    int32_t pieces = band->pieces, *number = (int32_t *)exit;
    for (Py_ssize_t i = 0; i < cells; i++) {
        label[i] = kruskal_find(label, (int32_t)i);
        number[i] = pieces;
        pieces += (label[i] == (int32_t)i) & !blocked[i]; /* a blocked cell is in none */
    }
    for (int32_t p = band->pieces; p < pieces; p++) band->join[p] = p;
#define KRUSKAL_PIECE(i) number[label[i]]
    int32_t *first = w->first + start, *second = w->second + start;
    for (Py_ssize_t k = band->stash_at; k < start; k++) /* from the band before: their cells here */
        w->second[k] = KRUSKAL_PIECE((w->codes[k] >> 1) + stride - base);
    for (Py_ssize_t x = 0; x < stride; x++) { /* the first round's walls open across the top */
        int32_t above = band->edge[x];
        if (above < 0 || blocked[x] || (f->walls[base + x] & BIT[0])) continue;
        int32_t a = kruskal_find(band->join, above), b = kruskal_find(band->join, KRUSKAL_PIECE(x));
        if (a != b) kruskal_link(band->join, a, b);
    }
    if (band->entry >= base && band->entry < base + cells)
        band->entry_piece = KRUSKAL_PIECE(band->entry - base);
    if (band->goal >= base && band->goal < base + cells)
        band->goal_piece = KRUSKAL_PIECE(band->goal - base);
    Py_ssize_t kept = 0; /* the walls still between two pieces, in code order, and theirs */
    for (Py_ssize_t e = 0; e < inner; e++) {
        uint32_t code = codes[e];
        Py_ssize_t cell = (code >> 1) - base, other = cell + ((code & 1) ? stride : 1);
        keys[kept] = keys[e], codes[kept] = code;
        first[kept] = KRUSKAL_PIECE(cell), second[kept] = KRUSKAL_PIECE(other);
        kept += label[cell] != label[other];
    }
    for (Py_ssize_t s = 0; s < stashed; s++) { /* the cell below: the next band's */
        keys[kept + s] = band->stash_keys[s];
        codes[kept + s] = band->stash_codes[s];
        first[kept + s] = KRUSKAL_PIECE((band->stash_codes[s] >> 1) - base);
    }
    for (Py_ssize_t x = 0; x < stride; x++)
        band->edge[x] = blocked[bottom_row - base + x] ? -1 : KRUSKAL_PIECE(bottom_row - base + x);
#undef KRUSKAL_PIECE
    band->stash_at = start + kept;
    w->count = start + kept + stashed;
    band->pieces = pieces;
}

/* The rounds, from the ``pieces`` the bands left (the walls' ``first`` and ``second``). */
static void kruskal_rounds(Forest *w, int32_t pieces) {
    Frame *f = w->f;
    int32_t *number = w->join, *join = w->number; /* they swap at once below */
    for (int32_t i = 0; i < pieces; i++) w->best[i].key = NO_KEY;
    for (int pass = 0; w->count > 0; pass++) {
        int32_t *last_join = number;
        number = join, join = last_join;
        Py_ssize_t kept = 0;
        for (Py_ssize_t e = 0; e < w->count; e++) {
            uint32_t code = w->codes[e];
            int32_t a, b;
            if (pass == 0) { /* the pieces the rounds start with: the path's */
                a = w->first[e], b = w->second[e];
                w->home[2 * e] = a, w->home[2 * e + 1] = b;
            } else {
                a = number[w->first[e]], b = number[w->second[e]];
            }
            kept = kruskal_keep(w, kept, a, b, w->keys[e], code, e);
        }
        w->count = kept;
        for (int32_t i = 0; i < pieces; i++) join[i] = i;
        for (int32_t i = 0; i < pieces; i++) {
            if (w->best[i].key == NO_KEY) continue;
            w->best[i].key = NO_KEY;
            Py_ssize_t at = w->best[i].wall;
            int32_t a = kruskal_find(join, w->first[at]), b = kruskal_find(join, w->second[at]);
            if (a == b) continue; /* the wall the piece on its other side took first */
            uint32_t code = w->codes[at];
            frame_open(f, code >> 1, (code & 1) ? 2 : 1);
            w->opened_home[2 * w->opened_count] = w->home[2 * at];
            w->opened_home[2 * w->opened_count + 1] = w->home[2 * at + 1];
            w->opened[w->opened_count++] = code;
            kruskal_link(join, a, b);
        }
        int32_t next = 0; /* number the new pieces, in place (a parent comes first) */
        for (int32_t i = 0; i < pieces; i++) join[i] = join[i] == i ? next++ : join[join[i]];
        pieces = next;
    }
}

/* The path of the tree just carved, from the pieces the rounds started with instead of a
 * search of the whole maze (Grid.tree_path's walk visited most of the 16M cells at
 * 4000x4000: 6-7 ns a cell). Every wall the first round or a band opened lies inside one of
 * those pieces, and the walls the rounds opened (``w->opened``, with the pieces on their
 * two sides) join them into a tree of pieces: the path crosses, in order, the walls on the
 * way from the entry's piece to the exit's in that tree (a breadth-first search over the
 * pieces), and inside each piece on its way it is the path between the cell it comes in by
 * and the one it leaves by, found by a walk that stays in that piece. A tree has one path,
 * so it is tree_walk's, the one search.shortest_path gives. */

/* The walk within the piece of ``start`` to ``goal``, depth-first through the open walls
 * but those the rounds opened (``crossed``, a bit a wall code: the ways out of the piece),
 * never straight back (a piece is a subtree: no cell comes twice); the directions to
 * ``steps`` (``room`` of them at most), ``ways`` keeps each depth's untried ways. The steps
 * taken, or -1 when ``goal`` is not found within ``*tries`` ways tried (left in ``*tries``)
 * or ``room`` steps: a walk of a tree tries at most 4 ways a cell and steps into each at
 * most once, so that only happens on a frame whose walls were open before the carve
 * (loops), which the caller leaves to tree_walk. */
static Py_ssize_t kruskal_piece_walk(const Frame *f, const unsigned char *crossed,
                                     Py_ssize_t start, Py_ssize_t goal, unsigned char *ways,
                                     unsigned char *steps, Py_ssize_t room, Py_ssize_t *tries) {
    /* the code of the wall a step takes: 2 * cell plus this (N, E, S, W) */
    const Py_ssize_t code_step[4] = {1 - 2 * f->stride, 0, 1, -2};
    Py_ssize_t depth = 0, cell = start, left = *tries;
    ways[0] = (unsigned char)(~f->walls[start] & 15);
    while (cell != goal) {
        unsigned int open = ways[depth];
        if (open == 0) { /* every way out tried: back up the step that came here */
            if (depth == 0) return -1;
            cell -= f->offset[steps[--depth]];
            continue;
        }
        if (--left < 0) return -1;
        int d = NTH_DIRECTION[open][0]; /* the lowest way left */
        ways[depth] = (unsigned char)(open & (open - 1));
        Py_ssize_t near = cell + f->offset[d], code = 2 * cell + code_step[d];
        if (f->blocked[near] | ((crossed[code >> 3] >> (code & 7)) & 1)) continue; /* out */
        if (depth + 1 >= room) return -1;
        steps[depth++] = (unsigned char)d;
        cell = near;
        ways[depth] = (unsigned char)(~f->walls[near] & 15 & ~OPPOSITE[d]); /* not back */
    }
    *tries = left;
    return depth;
}

/* The two cells of wall ``code`` (the east or south neighbour second). */
static inline void kruskal_wall_cells(const Frame *f, uint32_t code, Py_ssize_t *a,
                                      Py_ssize_t *b) {
    *a = code >> 1;
    *b = *a + ((code & 1) ? f->stride : 1);
}

/* The path from ``entry`` to ``goal`` of the tree carved over the ``pieces`` pieces the
 * rounds started with: letters, None when out of reach, NULL with MemoryError set. */
static PyObject *kruskal_path(const Forest *w, int32_t pieces, int32_t from, int32_t to,
                              Py_ssize_t entry, Py_ssize_t goal) {
    const Frame *f = w->f;
    const int32_t *ends = w->opened_home; /* the pieces of each opened wall's two cells */
    Py_ssize_t m = w->opened_count;
    int32_t *first = PyMem_Calloc((size_t)pieces + 2, sizeof(int32_t)); /* adjacency, CSR */
    uint32_t *around = PyMem_Malloc((size_t)(2 * m + 1) * sizeof(uint32_t));
    int32_t *via = PyMem_Malloc((size_t)(pieces + 1) * sizeof(int32_t)); /* wall reached by */
    int32_t *queue = PyMem_Malloc((size_t)(pieces + 1) * sizeof(int32_t));
    unsigned char *crossed = PyMem_Calloc((size_t)f->size / 4 + 1, 1); /* 2 walls a cell */
    unsigned char *ways = PyMem_Malloc((size_t)f->size);
    unsigned char *steps = PyMem_Malloc((size_t)f->size);
    PyObject *path = NULL;
    if (first == NULL || around == NULL || via == NULL || queue == NULL || crossed == NULL ||
        ways == NULL || steps == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t e = 0; e < m; e++) crossed[w->opened[e] >> 3] |= 1 << (w->opened[e] & 7);
    for (Py_ssize_t e = 0; e < 2 * m; e++) first[ends[e] + 2]++; /* each piece's walls, CSR */
    for (int32_t p = 0; p < pieces; p++) first[p + 2] += first[p + 1];
    for (Py_ssize_t e = 0; e < 2 * m; e++) around[first[ends[e] + 1]++] = (uint32_t)(e >> 1);
    /* breadth-first over the pieces, from the entry's to the exit's */
    for (int32_t p = 0; p < pieces; p++) via[p] = -2; /* not reached */
    via[from] = -1;
    queue[0] = from;
    for (int32_t head = 0, tail = 1; head < tail && via[to] == -2; head++) {
        int32_t p = queue[head];
        for (int32_t k = first[p]; k < first[p + 1]; k++) {
            int32_t other = ends[2 * around[k]] ^ ends[2 * around[k] + 1] ^ p;
            if (via[other] != -2) continue;
            via[other] = (int32_t)around[k];
            queue[tail++] = other;
        }
    }
    if (via[to] == -2) {
        path = Py_NewRef(Py_None);
        goto done;
    }
    int32_t crossings = 0; /* the walls crossed, in order from the entry (into queue) */
    for (int32_t p = to; via[p] >= 0; crossings++) p = ends[2 * via[p]] ^ ends[2 * via[p] + 1] ^ p;
    for (int32_t p = to, k = crossings; via[p] >= 0;) {
        queue[--k] = via[p];
        p = ends[2 * via[p]] ^ ends[2 * via[p] + 1] ^ p;
    }
    Py_ssize_t length = 0, cell = entry, tries = 4 * f->size + 4;
    for (int32_t k = 0, p = from; k <= crossings; k++) {
        Py_ssize_t near = goal, far = goal; /* the last piece: to the exit */
        int d = 0;
        if (k < crossings) {
            uint32_t code = w->opened[queue[k]];
            kruskal_wall_cells(f, code, &near, &far);
            d = (code & 1) ? 2 : 1; /* from near to far: S or E */
            if (ends[2 * queue[k]] != p) { /* p is the second cell's piece */
                Py_ssize_t swap = near;
                near = far, far = swap, d ^= 2; /* N or W */
            }
            p ^= ends[2 * queue[k]] ^ ends[2 * queue[k] + 1]; /* the piece across */
        }
        Py_ssize_t room = f->size - length;
        Py_ssize_t taken =
            kruskal_piece_walk(f, crossed, cell, near, ways, steps + length, room, &tries);
        if (taken < 0) { /* not a tree: the frame had open walls before */
            path = tree_walk(f, entry, goal);
            goto done;
        }
        length += taken;
        if (k < crossings) steps[length++] = (unsigned char)d;
        cell = far;
    }
    for (Py_ssize_t i = 0; i < length; i++) steps[i] = (unsigned char)LETTER[steps[i]];
    path = PyUnicode_DecodeASCII((const char *)steps, length, NULL);
done:
    PyMem_Free(first), PyMem_Free(around), PyMem_Free(via), PyMem_Free(queue);
    PyMem_Free(crossed), PyMem_Free(ways), PyMem_Free(steps);
    return path;
}

/* ``count`` items of ``item`` bytes (at least one), kept in ``blocks[which]`` to be freed. */
static void *kruskal_alloc(void **blocks, int which, size_t count, size_t item) {
    return blocks[which] = PyMem_Malloc((count ? count : 1) * item);
}

/* kruskal(walls, blocked, stride, entry, exit, rng, rows, cells) -> path letters or None:
 * generators/kruskal.py's randomised Kruskal: one key per inner wall, in code order, and the
 * tree of the walls taken in key order (above); then its path (kruskal_path). */
static PyObject *kruskal(PyObject *self, PyObject *args) {
    Frame f;
    PyObject *rng, *path = NULL;
    Py_ssize_t entry, goal;
    Band band = {0};
    if (!PyArg_ParseTuple(args, "w*y*nnnOnn", &f.walls_view, &f.blocked_view, &f.stride, &entry,
                          &goal, &rng, &band.rows, &band.cells))
        return NULL;
    if (frame_check(&f) < 0 || frame_check_ends(&f, entry, goal) < 0) return NULL;
    if (band.rows < 1 || band.cells < 1) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "kruskal: a band is at least one row and one cell");
        return NULL;
    }
    if (f.size > INT32_MAX / 2) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "kruskal: the frame is too big");
        return NULL;
    }
    Py_ssize_t count = 0; /* the inner walls (the last row is the blocked ring: none there) */
    for (Py_ssize_t cell = 0; cell + f.stride < f.size; cell++) { /* vectorised: no branch */
        int free = !f.blocked[cell];
        count += (free & !f.blocked[cell + 1]) + (free & !f.blocked[cell + f.stride]);
    }
    enum { KEYS, CODES, HOME, ROWS, CHOSEN, KEYS_DRAWN, FIRST, SECOND, BEST, JOIN,
           NUMBER, LABEL, CHOICE, EXIT, EDGES, STASH_KEYS, STASH_CODES, SORTED_KEYS,
           SORTED_CODES, COUNTS, JOINS, EDGE, OPENED, OPENED_HOME, WORDS, BLOCKS };
    void *blocks[BLOCKS] = {NULL};
    /* room for two more: the first round writes each wall before it knows to keep it */
    size_t walls = (size_t)count + 2;
    Forest w = {&f, kruskal_alloc(blocks, KEYS, walls, sizeof(uint64_t)),
                kruskal_alloc(blocks, CODES, walls, sizeof(uint32_t)),
                kruskal_alloc(blocks, FIRST, walls, sizeof(int32_t)),
                kruskal_alloc(blocks, SECOND, walls, sizeof(int32_t))};
    uint64_t *rows = kruskal_alloc(blocks, ROWS, (size_t)(4 * f.stride), sizeof(uint64_t));
    unsigned char *chosen = kruskal_alloc(blocks, CHOSEN, (size_t)(4 * f.stride), 1);
    Keys *keys = kruskal_alloc(blocks, KEYS_DRAWN, 1, sizeof(Keys));
    uint32_t *words = kruskal_alloc(blocks, WORDS, (size_t)(4 * f.stride + 4), sizeof(uint32_t));
    if (band.rows > band.cells / f.stride) band.rows = band.cells / f.stride; /* cells at most */
    if (band.rows < 1) band.rows = 1;
    if (band.rows > f.rows) band.rows = f.rows;
    size_t cells = (size_t)(band.rows * f.stride), listed = 2 * cells + 2;
    band.label = kruskal_alloc(blocks, LABEL, cells, sizeof(int32_t));
    band.choice = kruskal_alloc(blocks, CHOICE, cells + 2 * (size_t)f.stride, 1);
    band.exit = kruskal_alloc(blocks, EXIT, cells, sizeof(uint64_t));
    band.top = kruskal_alloc(blocks, EDGES, (size_t)(2 * f.stride), sizeof(uint64_t));
    band.bottom = band.top == NULL ? NULL : band.top + f.stride;
    band.stash_keys = kruskal_alloc(blocks, STASH_KEYS, (size_t)f.stride, sizeof(uint64_t));
    band.stash_codes = kruskal_alloc(blocks, STASH_CODES, (size_t)f.stride, sizeof(uint32_t));
    band.sorted_keys = kruskal_alloc(blocks, SORTED_KEYS, listed, sizeof(uint64_t));
    band.sorted_codes = kruskal_alloc(blocks, SORTED_CODES, listed, sizeof(uint32_t));
    band.counts = kruskal_alloc(blocks, COUNTS, 2 * listed + 1, sizeof(uint32_t));
    band.join = kruskal_alloc(blocks, JOINS, (size_t)f.size, sizeof(int32_t)); /* pieces <= cells */
    band.edge = kruskal_alloc(blocks, EDGE, (size_t)f.stride, sizeof(int32_t));
    band.entry = entry, band.goal = goal;
    MTState mt;
    int ok = 0, loaded = 0;
    if (w.keys == NULL || w.codes == NULL || w.first == NULL || w.second == NULL ||
        rows == NULL || chosen == NULL || keys == NULL || words == NULL || band.label == NULL ||
        band.choice == NULL || band.exit == NULL || band.top == NULL ||
        band.stash_keys == NULL || band.stash_codes == NULL || band.sorted_keys == NULL ||
        band.sorted_codes == NULL || band.counts == NULL || band.join == NULL ||
        band.edge == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t x = 0; x < f.stride; x++) band.edge[x] = -1; /* above the frame: none */
    memset(band.choice, 4, (size_t)f.stride); /* no choices above the frame */
    if (mt_load(rng, &mt) < 0) goto done;
    loaded = 1;
    keys_start(keys, &mt, count);
    keys->words = words;
    memset(words, 0, (size_t)(4 * f.stride + 4) * sizeof(uint32_t)); /* read past, unused */
    kruskal_first_round(&w, keys, rows, chosen, &band);
    int32_t pieces = kruskal_join_bands(&w, &band);
    size_t n = (size_t)pieces, left = (size_t)w.count;
    w.home = kruskal_alloc(blocks, HOME, 2 * left, sizeof(int32_t));
    w.best = kruskal_alloc(blocks, BEST, n, sizeof(Best));
    w.join = kruskal_alloc(blocks, JOIN, n, sizeof(int32_t));
    w.number = kruskal_alloc(blocks, NUMBER, n, sizeof(int32_t));
    w.opened = kruskal_alloc(blocks, OPENED, n, sizeof(uint32_t));
    w.opened_home = kruskal_alloc(blocks, OPENED_HOME, 2 * n, sizeof(int32_t));
    if (w.home == NULL || w.best == NULL || w.join == NULL ||
        w.number == NULL || w.opened == NULL || w.opened_home == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    kruskal_rounds(&w, pieces);
    path = kruskal_path(&w, pieces, band.entry_piece, band.goal_piece, entry, goal);
    ok = path != NULL;
done:
    for (int i = 0; i < BLOCKS; i++) PyMem_Free(blocks[i]);
    frame_close(&f);
    if (!loaded) return NULL;
    if (!ok) {
        mt_discard(&mt);
        return NULL;
    }
    return path_result(path, rng, &mt);
}

/* ---- wilson --------------------------------------------------------------------------- */

/* wilson's directions come a chunk at a time, WILSON_CHUNK of them from 2 * WILSON_CHUNK
 * words. The chunk divides the reference's batch, and the kernel draws whole batches as the
 * reference does, so it never draws a chunk the reference would not. */
#define WILSON_CHUNK 512

/* One byte per cell serves the walk: a free cell holds the direction the walk last left it
 * by (0..3), a cell of the tree IN_TREE plus the direction of its parent (towards the root),
 * a blocked one BLOCKED_CELL (half the memory of a state array and a direction array: the
 * walk touches one byte per step). */
enum { IN_TREE = 4, BLOCKED_CELL = 8 };

/* wilson(walls, blocked, stride, entry, exit, rng) -> path letters: generators/wilson.py's
 * loop-erased random walks, and the path of the tree they grow (rooted_path). The
 * reference draws its directions (floor(4 * random())) through rng.floats in batches of
 * 65,536, when the previous batch is used up; the draws left in the last batch are
 * consumed here too, so the generator ends where the reference leaves it. Like the reference,
 * it assumes the free cells connected (a Grid's are: the "42" keeps a corridor around it). */
static PyObject *wilson(PyObject *self, PyObject *args) {
    Frame f;
    Py_ssize_t entry, goal;
    PyObject *rng;
    if (frame_args_between(args, &f, &entry, &goal, &rng) < 0) return NULL;
    Py_ssize_t cells = 0, root = 0;
    for (Py_ssize_t i = 0; i < f.size; i++) cells += !f.blocked[i];
    unsigned char *cell_state = scratch(f.size, 1);
    unsigned char *directions = scratch(WILSON_CHUNK, 1);
    MTState mt;
    if (cell_state == NULL || directions == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(cell_state), PyMem_Free(directions);
        frame_close(&f);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < f.size; i++) cell_state[i] = f.blocked[i] ? BLOCKED_CELL : 0;
    /* the root: the pick-th free cell in reading order */
    Py_ssize_t pick = mt_below(&mt, cells);
    for (Py_ssize_t i = 0; i < f.size; i++)
        if (!f.blocked[i] && pick-- == 0) {
            cell_state[root = i] = IN_TREE;
            break;
        }
    Draws draws = draws_for_this_processor();
    uint64_t chunks = 0; /* chunks of directions drawn */
    int at = WILSON_CHUNK;   /* the next direction of the chunk */
    for (Py_ssize_t start = 0; start < f.size; start++) {
        if (cell_state[start] >= IN_TREE) continue; /* in the tree, or blocked */
        Py_ssize_t cell = start;
        for (;;) { /* walk to the tree, remembering the last way out of each cell */
            if (at == WILSON_CHUNK) {
                draws.quarters(&mt, directions, WILSON_CHUNK);
                chunks++;
                at = 0;
            }
            int d = directions[at++];
            Py_ssize_t near = cell + f.offset[d];
            unsigned char there = cell_state[near];
            if (LIKELY(there < IN_TREE)) { /* a free cell: the walk goes on (laid out as the */
                cell_state[cell] = (unsigned char)d; /* straight path: 52 -> 39 ms, seed 1) */
                cell = near;
                continue;
            }
            if (there == BLOCKED_CELL) continue; /* the border or the "42": draw again */
            cell_state[cell] = (unsigned char)d;
            cell = near;
            break; /* the tree */
        }
        for (cell = start; !(cell_state[cell] & IN_TREE);) {
            int d = cell_state[cell];
            cell_state[cell] = (unsigned char)(IN_TREE | d);
            frame_open(&f, cell, d);
            cell += f.offset[d];
        }
    }
    /* the rest of the last batch: the reference drew it whole */
    uint64_t drawn = chunks * WILSON_CHUNK, batches = (drawn + WILSON_BATCH - 1) / WILSON_BATCH;
    mt_skip(&mt, 2 * (batches * WILSON_BATCH - drawn));
    PyObject *path = rooted_path(&f, cell_state, 0, root, entry, goal);
    PyMem_Free(cell_state), PyMem_Free(directions);
    frame_close(&f);
    return path_result(path, rng, &mt);
}

/* ---- hunt-and-kill -------------------------------------------------------------------- */

/* hunt_and_kill(walls, blocked, stride, rng): generators/hunt_and_kill.py: random walks
 * from the first free cell, each restarted at the first unvisited cell (reading order) next
 * to the tree, found by a scan that starts at a pointer which only moves forward. */
static PyObject *hunt_and_kill(PyObject *self, PyObject *args) {
    Frame f;
    PyObject *rng;
    if (frame_args(args, &f, &rng) < 0) return NULL;
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
    Stream stream;
    stream_open(&stream, &mt);
    Py_ssize_t pointer = first, cell = first;
    visited[cell] = in_tree[cell] = 1;
    for (;;) {
        for (;;) { /* walk (kill) until stuck */
            int options = 0; /* the unvisited neighbours, as bits */
            for (int d = 0; d < 4; d++) options |= !visited[cell + f.offset[d]] << d;
            if (options == 0) break;
            int d = NTH_DIRECTION[options][stream_below(&stream, BITS_SET[options])];
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
        int d = joins[stream_below(&stream, count)];
        frame_open(&f, found, d);
        cell = found;
        visited[cell] = in_tree[cell] = 1;
    }
    stream_close(&stream);
    PyMem_Free(visited), PyMem_Free(in_tree);
    frame_close(&f);
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- the path of a carved tree -------------------------------------------------------- */

/* tree_path(walls, blocked, stride, entry, exit) -> path letters or None: tree_walk's path
 * of a carved tree (kruskal finds its own, kruskal_path). */
static PyObject *tree_path(PyObject *self, PyObject *args) {
    Frame f;
    Py_ssize_t start, goal;
    if (!PyArg_ParseTuple(args, "y*y*nnn", &f.walls_view, &f.blocked_view, &f.stride, &start,
                          &goal))
        return NULL;
    if (frame_check(&f) < 0 || frame_check_ends(&f, start, goal) < 0) return NULL;
    PyObject *path = tree_walk(&f, start, goal);
    frame_close(&f);
    return path;
}

static PyMethodDef methods[] = {
    {"backtracker", backtracker, METH_VARARGS,
     "backtracker(walls, blocked, stride, entry, exit, rng) -> path letters or None."},
    {"prim", prim, METH_VARARGS,
     "prim(walls, blocked, stride, entry, exit, rng) -> path letters or None."},
    {"kruskal", kruskal, METH_VARARGS,
     "kruskal(walls, blocked, stride, rng, rows, cells): carve by Kruskal, a band at a time."},
    {"wilson", wilson, METH_VARARGS,
     "wilson(walls, blocked, stride, entry, exit, rng) -> path letters."},
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
