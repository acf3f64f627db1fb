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
#if defined(__linux__)
#include <sys/mman.h>
#endif

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

/* frame_args for the kernels that carve a path too, (walls, blocked, stride, entry, exit,
 * rng): the entry and the exit must be free cells. */
static int frame_args_between(PyObject *args, Frame *f, Py_ssize_t *entry, Py_ssize_t *goal,
                              PyObject **rng) {
    if (!PyArg_ParseTuple(args, "w*y*nnnO", &f->walls_view, &f->blocked_view, &f->stride, entry,
                          goal, rng))
        return -1;
    if (frame_check(f) < 0) return -1;
    if (!frame_free(f, *entry) || !frame_free(f, *goal)) {
        frame_close(f);
        PyErr_SetString(PyExc_ValueError, "entry and exit must be free cells of the frame");
        return -1;
    }
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
    unsigned char *state = scratch(f.size, 1);
    int32_t *frontier = scratch(f.size + 4, sizeof(int32_t)); /* room to write past the end */
    MTState mt;
    if (state == NULL || frontier == NULL || mt_load(rng, &mt) < 0) {
        PyMem_Free(state), PyMem_Free(frontier);
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
    PyMem_Free(state), PyMem_Free(frontier);
    frame_close(&f);
    return path_result(path, rng, &mt);
}

/* ---- kruskal -------------------------------------------------------------------------- */

/* Big scratch memory, zeroed. On Linux, from 4 MB to 32 MB, a mapping of its own asking for
 * huge pages: a 1000x1000 kruskal touches 20 MB of scratch once, and 2 MB pages save it
 * most of the page faults (4 ms of a fresh process). Not beyond: at 4000x4000 (320 MB) the
 * kernel compacted memory to find the huge pages, 0.3 s slower than ordinary pages. Else,
 * and elsewhere, PyMem_Calloc. */
typedef struct {
    void *memory;  /* what the caller uses, NULL when none */
    void *mapping; /* the mapping behind it, NULL when PyMem_Calloc gave it */
    size_t mapped;
} Big;

#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_LIMIT ((size_t)32 << 20)

/* Fill ``big`` with ``count`` zeroed items of ``item`` bytes; its memory, or NULL with
 * MemoryError set. */
static void *big_alloc(Big *big, Py_ssize_t count, size_t item) {
    big->memory = big->mapping = NULL;
    big->mapped = 0;
    size_t bytes = (count > 0 ? (size_t)count : 1) * item;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= 2 * HUGE_PAGE && bytes <= HUGE_LIMIT) {
        size_t mapped = bytes + HUGE_PAGE; /* room to start on a huge-page boundary */
        void *mapping =
            mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping != MAP_FAILED) {
            uintptr_t at = ((uintptr_t)mapping + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
            (void)madvise((void *)at, bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
            big->mapping = mapping;
            big->mapped = mapped;
            return big->memory = (void *)at;
        }
    }
#endif
    return big->memory = scratch(count, item);
}

/* Give back what big_alloc took (nothing if it took nothing). */
static void big_free(Big *big) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (big->mapping != NULL) {
        munmap(big->mapping, big->mapped);
        big->memory = big->mapping = NULL;
        return;
    }
#endif
    PyMem_Free(big->memory);
    big->memory = NULL;
}

/* Whether the wall ``code`` (2 * cell east, 2 * cell + 1 south) joins two carvable cells:
 * grid.inner_walls lists exactly these, in increasing code order. */
static inline int kruskal_inner(const Frame *f, Py_ssize_t code) {
    Py_ssize_t cell = code >> 1;
    return !f->blocked[cell] && !f->blocked[cell + ((code & 1) ? f->stride : 1)];
}

/* The number of bits that hold every value below ``n``. */
static int bits_below(uint64_t n) {
    int bits = 0;
    while (bits < 63 && ((uint64_t)1 << bits) < n) bits++;
    return bits;
}

/* The random keys of the walls, drawn a block of words at a time: Random.random() of a wall
 * is the pair of words (a, b) taken as the 53-bit integer (a >> 5) << 26 | b >> 6, exactly
 * the float times 2**53, so these integers sort (and tie) as the floats do. */
#define KEY_WORDS 4096
typedef struct {
    MTState *mt;
    Draws draws;
    Py_ssize_t left; /* keys still to draw from mt */
    int at, end;     /* the next word of ``words``, the end of those drawn */
    uint32_t words[KEY_WORDS];
} Keys;

/* Start drawing ``count`` keys from ``mt`` (never more: the state ends where it must). */
static void keys_start(Keys *keys, MTState *mt, Py_ssize_t count) {
    keys->mt = mt;
    keys->draws = draws_for_this_processor();
    keys->left = count;
    keys->at = keys->end = 0;
}

/* The two words of the next key (the caller draws no more keys than it said). */
static inline const uint32_t *keys_next(Keys *keys) {
    if (keys->at == keys->end) {
        Py_ssize_t take = keys->left < KEY_WORDS / 2 ? keys->left : KEY_WORDS / 2;
        keys->draws.words(keys->mt, keys->words, (size_t)(2 * take));
        keys->left -= take;
        keys->at = 0;
        keys->end = (int)(2 * take);
    }
    const uint32_t *pair = keys->words + keys->at;
    keys->at += 2;
    return pair;
}

/* The ordering of the walls: each inner wall becomes one 64-bit item, its key's bits under
 * the top ``top_bits`` above its code (``code_bits`` of them). Within a top bucket (equal top
 * bits) items sort as (key, code) do, which is numpy's stable argsort: equal keys keep their
 * code order. So top_bits >= code_bits - 11 keeps 53 - top_bits + code_bits <= 64. */
typedef struct {
    int code_bits, top_bits, low_bits, width; /* width: the bits an item uses */
    uint64_t low_mask, code_mask;
} Packing;

/* Sort items[0..n-1] (distinct: their codes differ) ascending. A counting sort on their top
 * bits, twice as many slots as items, into ``spare``, leaves them nearly sorted (only items
 * of one slot can be out of order), and one insertion sort finishes it with few moves and
 * well-predicted branches (an insertion sort per slot was twice slower: a mispredicted
 * branch per slot). ``spare`` has room for n items, ``counts`` for 4n + 1. */
static void kruskal_sort_bucket(uint64_t *items, Py_ssize_t n, int width, uint64_t *spare,
                                uint32_t *counts) {
    if (n > 24) {
        int bits = bits_below((uint64_t)n) + 1;
        int shift = width - bits;
        Py_ssize_t slots = (Py_ssize_t)1 << bits;
        memset(counts, 0, (size_t)(slots + 1) * sizeof(uint32_t));
        for (Py_ssize_t i = 0; i < n; i++) counts[(items[i] >> shift) + 1]++;
        for (Py_ssize_t b = 0; b < slots; b++) counts[b + 1] += counts[b];
        for (Py_ssize_t i = 0; i < n; i++) spare[counts[items[i] >> shift]++] = items[i];
        memcpy(items, spare, (size_t)n * sizeof(uint64_t));
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        uint64_t item = items[i];
        Py_ssize_t j = i;
        for (; j > 0 && items[j - 1] > item; j--) items[j] = items[j - 1];
        items[j] = item;
    }
}

/* The union-find takes walls LANES at a time: their cells' roots are looked for in lockstep,
 * each round a step of path halving for every lane (a root is its own parent, so a lane that
 * got there stays), which keeps up to 2 * LANES independent loads in flight instead of one
 * chain of cache misses after another: the walls come in random order over a parent array
 * bigger than the cache (4 MB at 1000x1000). Halving the union-find's time (30 -> 15 ms)
 * this way beat Rem's algorithm with splicing (which only gained 10%) and prefetching. */
#define LANES 64
#define ROUNDS 2

/* The roots of the two cells of each of the walls items[0..m-1] (m <= LANES) as they are
 * now, into first[i] and second[i], halving the paths on the way. */
static void kruskal_roots(int32_t *parent, const uint64_t *items, int m, const Packing *pack,
                          Py_ssize_t stride, int32_t *first, int32_t *second) {
    for (int i = 0; i < m; i++) {
        uint32_t code = (uint32_t)(items[i] & pack->code_mask);
        first[i] = (int32_t)(code >> 1);
        second[i] = first[i] + (int32_t)((code & 1) ? stride : 1);
    }
    for (int round = 0; round < ROUNDS; round++)
        for (int i = 0; i < m; i++) {
            int32_t a = parent[parent[first[i]]], b = parent[parent[second[i]]];
            parent[first[i]] = a, parent[second[i]] = b;
            first[i] = a, second[i] = b;
        }
    for (int i = 0; i < m; i++) { /* the few longer paths, one by one */
        int32_t a = first[i], b = second[i];
        while (parent[a] != a) a = parent[a] = parent[parent[a]];
        while (parent[b] != b) b = parent[b] = parent[parent[b]];
        first[i] = a, second[i] = b;
    }
}

/* Keep only the walls of items[0..n-1] whose cells are not joined yet (a wall whose cells
 * are joined by earlier walls can never open); the number kept, in their order. */
static Py_ssize_t kruskal_filter(int32_t *parent, uint64_t *items, Py_ssize_t n,
                                 const Packing *pack, Py_ssize_t stride) {
    Py_ssize_t kept = 0;
    for (Py_ssize_t start = 0; start < n; start += LANES) {
        int m = n - start < LANES ? (int)(n - start) : LANES;
        int32_t first[LANES], second[LANES];
        kruskal_roots(parent, items + start, m, pack, stride, first, second);
        for (int i = 0; i < m; i++)
            if (first[i] != second[i]) items[kept++] = items[start + i];
    }
    return kept;
}

/* Take the sorted walls items[0..n-1] in order: open each one whose cells are not joined
 * yet and join them, until ``*needed`` joins are made; the number of walls opened. Which
 * walls open depends only on the order, not on how the union-find keeps its trees, so a
 * root joins under the other one with the greater index (no sizes to keep). */
static Py_ssize_t kruskal_join(Frame *f, int32_t *parent, const uint64_t *items, Py_ssize_t n,
                               const Packing *pack, Py_ssize_t *needed) {
    Py_ssize_t opened = 0;
    for (Py_ssize_t start = 0; start < n && *needed > 0; start += LANES) {
        int m = n - start < LANES ? (int)(n - start) : LANES;
        int32_t first[LANES], second[LANES];
        kruskal_roots(parent, items + start, m, pack, f->stride, first, second);
        for (int i = 0; i < m; i++) {
            int32_t a = first[i], b = second[i]; /* earlier walls of the lanes may have */
            while (parent[a] != a) a = parent[a]; /* joined these roots under others */
            while (parent[b] != b) b = parent[b];
            if (a == b) continue;
            if (a < b)
                parent[a] = b;
            else
                parent[b] = a;
            uint32_t code = (uint32_t)(items[start + i] & pack->code_mask);
            frame_open(f, (Py_ssize_t)(code >> 1), (code & 1) ? 2 : 1);
            opened++;
            if (--*needed == 0) break;
        }
    }
    return opened;
}

/* kruskal(walls, blocked, stride, rng): generators/kruskal.py's randomised Kruskal: one key
 * per inner wall, the walls in key order, union-find joining trees until one is left.
 *
 * The order: a counting pass over a copy of the generator (only the top bits of each key)
 * sizes the top buckets, then the real draws scatter the items into them; each bucket is
 * sorted when its turn comes. Before sorting a bucket, once most walls of the last one were
 * refused, the walls whose cells are joined already are dropped (as in Filter-Kruskal): late
 * in the run most walls are, and they need no sorting. */
static PyObject *kruskal(PyObject *self, PyObject *args) {
    Frame f;
    PyObject *rng;
    if (frame_args(args, &f, &rng) < 0) return NULL;
    if (f.size > INT32_MAX / 2) {
        frame_close(&f);
        PyErr_SetString(PyExc_ValueError, "kruskal: the frame is too big");
        return NULL;
    }
    Py_ssize_t last = 2 * f.size, count = 0, cells = 0;
    for (Py_ssize_t code = 0; code < last; code++) count += kruskal_inner(&f, code);
    for (Py_ssize_t i = 0; i < f.size; i++) cells += !f.blocked[i];
    Packing pack;
    pack.code_bits = bits_below((uint64_t)last);
    pack.top_bits = bits_below((uint64_t)count / 1024); /* about 1,000 walls a bucket */
    if (pack.top_bits > 11) pack.top_bits = 11;         /* but few buckets to scatter to */
    if (pack.top_bits < pack.code_bits - 11) pack.top_bits = pack.code_bits - 11;
    pack.low_bits = 53 - pack.top_bits;
    pack.width = pack.low_bits + pack.code_bits;
    pack.low_mask = ((uint64_t)1 << pack.low_bits) - 1;
    pack.code_mask = ((uint64_t)1 << pack.code_bits) - 1;
    Py_ssize_t buckets = (Py_ssize_t)1 << pack.top_bits;
    uint32_t *top = scratch(buckets + 1, sizeof(uint32_t));
    Keys *keys = scratch(1, sizeof(Keys));
    Big items_memory, parent_memory;
    uint64_t *items = big_alloc(&items_memory, count, sizeof(uint64_t));
    int32_t *parent = big_alloc(&parent_memory, f.size, sizeof(int32_t));
    uint64_t *spare = NULL;
    uint32_t *counts = NULL;
    MTState mt;
    int loaded = 0;
    if (top == NULL || keys == NULL || items == NULL || parent == NULL) goto done;
    if (mt_load(rng, &mt) < 0) goto done;
    loaded = 1;

    MTState counting = mt; /* the same stream, drawn once to count (gauss_next untouched) */
    keys_start(keys, &counting, count);
    int drop = 32 - pack.top_bits; /* a key's top bits are its first word's (32: none) */
    for (Py_ssize_t code = 0; code < last; code++)
        if (kruskal_inner(&f, code)) top[((uint64_t)keys_next(keys)[0] >> drop) + 1]++;
    Py_ssize_t largest = 0;
    for (Py_ssize_t b = 0; b < buckets; b++) {
        if ((Py_ssize_t)top[b + 1] > largest) largest = top[b + 1];
        top[b + 1] += top[b];
    }
    spare = scratch(largest, sizeof(uint64_t));
    counts = scratch(4 * largest + 1, sizeof(uint32_t));
    if (spare == NULL || counts == NULL) goto done;
    keys_start(keys, &mt, count);
    for (Py_ssize_t code = 0; code < last; code++) {
        if (!kruskal_inner(&f, code)) continue;
        const uint32_t *pair = keys_next(keys);
        uint64_t key = (uint64_t)(pair[0] >> 5) << 26 | (pair[1] >> 6);
        items[top[key >> pack.low_bits]++] = (key & pack.low_mask) << pack.code_bits | (uint64_t)code;
    }
    /* top[b] is now the end of top bucket b */
    for (Py_ssize_t i = 0; i < f.size; i++) parent[i] = (int32_t)i;
    Py_ssize_t needed = cells - 1, begin = 0;
    int filtering = 0;
    for (Py_ssize_t b = 0; b < buckets && needed > 0; b++) {
        uint64_t *bucket = items + begin;
        Py_ssize_t n = (Py_ssize_t)top[b] - begin;
        begin = top[b];
        Py_ssize_t walls = n;
        if (filtering) n = kruskal_filter(parent, bucket, n, &pack, f.stride);
        kruskal_sort_bucket(bucket, n, pack.width, spare, counts);
        /* filter the next bucket once most of this one's walls are refused */
        filtering = 2 * kruskal_join(&f, parent, bucket, n, &pack, &needed) < walls;
    }
done:
    PyMem_Free(top), PyMem_Free(keys), PyMem_Free(spare), PyMem_Free(counts);
    big_free(&items_memory), big_free(&parent_memory);
    frame_close(&f);
    if (!loaded) return NULL;
    if (spare == NULL || counts == NULL) {
        mt_discard(&mt);
        return NULL;
    }
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
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

/* tree_path(walls, blocked, stride, entry, exit) -> path letters or None.
 * The letters of the walk from entry to exit through the open walls, found depth-first: in
 * a perfect maze (a spanning tree) it is the one path, so the first shortest path too. A
 * visited mark keeps the walk finite on any input; None when the exit is out of reach.
 * Each cell on the stack keeps the open ways it has not tried yet as bits, so a step takes
 * the lowest one with no branch per wall (twice faster than trying N, E, S, W in turn: the
 * open walls of a random tree are a mispredicted branch each). */
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
    unsigned char *ways = scratch(f.size, 1); /* ways[i]: the untried open ways at depth i */
    unsigned char *steps = scratch(f.size, 1); /* steps[i]: the direction from depth i on */
    if (visited == NULL || ways == NULL || steps == NULL) {
        PyMem_Free(visited), PyMem_Free(ways), PyMem_Free(steps);
        frame_close(&f);
        return NULL;
    }
    Py_ssize_t depth = 0, cell = start;
    ways[0] = (unsigned char)(~f.walls[start] & 15);
    visited[start] = 1;
    while (cell != goal) {
        unsigned int open = ways[depth];
        if (open == 0) { /* every way out tried: back up the step that came here */
            if (depth == 0) break;
            cell -= f.offset[steps[--depth]];
            continue;
        }
        int d = NTH_DIRECTION[open][0]; /* the lowest way left */
        ways[depth] = (unsigned char)(open & (open - 1));
        Py_ssize_t near = cell + f.offset[d];
        /* free and not visited (the ring is blocked: near is in the frame) */
        if (f.blocked[near] | visited[near]) continue;
        visited[near] = 1;
        steps[depth++] = (unsigned char)d;
        cell = near;
        ways[depth] = (unsigned char)(~f.walls[near] & 15 & ~OPPOSITE[d]); /* not back */
    }
    PyObject *path = NULL;
    if (cell == goal) {
        for (Py_ssize_t i = 0; i < depth; i++) steps[i] = (unsigned char)LETTER[steps[i]];
        path = PyUnicode_DecodeASCII((const char *)steps, depth, NULL);
    } else {
        path = Py_NewRef(Py_None);
    }
    PyMem_Free(visited), PyMem_Free(ways), PyMem_Free(steps);
    frame_close(&f);
    return path;
}

static PyMethodDef methods[] = {
    {"backtracker", backtracker, METH_VARARGS,
     "backtracker(walls, blocked, stride, entry, exit, rng) -> path letters or None."},
    {"prim", prim, METH_VARARGS,
     "prim(walls, blocked, stride, entry, exit, rng) -> path letters or None."},
    {"kruskal", kruskal, METH_VARARGS, "kruskal(walls, blocked, stride, rng): carve by Kruskal."},
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
