/* mazekit._ccops: the two-cop game of mazekit.graph.cops on the core of a maze, compiled.
 *
 * two_cops_win is the compiled copy of graph.cops._two_cops_win (the pure-Python reference,
 * kept in place and compared with it by tests/test_cops.py): the same game, the same answer.
 * The cops stand on the core's nodes; for each unordered pair of them (swapping the two cops
 * changes nothing) one row of bits holds the robber's grid cells, so a robber's step is a
 * shift of the row by the step's flat offset. `robber` holds the robber-to-move states the
 * cops win (first the captures), `cops` the cops-to-move ones; both only grow. Each round, a
 * pair whose robber row grew passes it to every pair one joint move away (each cop steps or
 * stays), and a pair whose cops row grew recomputes its robber row: its cops row where every
 * robber step (or staying) stays in it, plus what it held. Until nothing grows, or some
 * pair's cops row holds every core cell: then two cops win wherever the robber starts.
 * The Python side builds every table; the kernel allocates its own rows (calloc).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The pair (a, b), a <= b, as an index of the triangle of n x n pairs. */
static inline size_t pair_index(size_t a, size_t b, size_t n) {
    return a * n - a * (a - 1) / 2 + (b - a); /* a = 0: a - 1 wraps, times 0 */
}

/* qsort's order of int32 indexes. */
static int ascending(const void *x, const void *y) {
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Word k of `row` (padded with zero words on both sides) shifted so that its bit i is bit
 * i + offset of the row. */
static inline uint64_t shifted(const uint64_t *row, Py_ssize_t k, Py_ssize_t offset) {
    Py_ssize_t whole = k + (offset >> 6); /* floor: >> of a negative value is arithmetic */
    unsigned bit = (unsigned)(offset & 63);
    if (bit == 0) return row[whole];
    return (row[whole] >> bit) | (row[whole + 1] << (64 - bit));
}

/* two_cops_win(start, to, cells, blocked, reach, offsets) -> bool.
 * start (int32, n + 1) and to (int32): each node's closed neighbourhood (itself first, then its
 * neighbours) as node indexes; cells (int64, n): each node's flat grid cell; blocked (uint64,
 * 4 x words): per direction the cells that cannot step that way (every cell but the core's
 * ones with an open passage into the core there); reach (uint64, words): the core's cells;
 * offsets (int64, 4): the flat offset of each direction's step. */
static PyObject *two_cops_win(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer b[6];
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]))
        return NULL;
    PyObject *result = NULL;
    uint64_t *robber = NULL, *cops = NULL, *scratch = NULL;
    int32_t *changed = NULL, *touched = NULL, *first = NULL, *second = NULL;
    uint64_t *copsGrew = NULL, *robberGrew = NULL;
    Py_ssize_t n = b[2].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t words = b[4].len / (Py_ssize_t)sizeof(uint64_t);
    const int32_t *start = (const int32_t *)b[0].buf, *to = (const int32_t *)b[1].buf;
    const int64_t *cells = (const int64_t *)b[2].buf, *offsets = (const int64_t *)b[5].buf;
    const uint64_t *blocked = (const uint64_t *)b[3].buf, *reach = (const uint64_t *)b[4].buf;
    Py_ssize_t moves = b[1].len / (Py_ssize_t)sizeof(int32_t);
    if (n < 1 || words < 1 || b[0].len != (n + 1) * (Py_ssize_t)sizeof(int32_t)
        || b[3].len != 4 * words * (Py_ssize_t)sizeof(uint64_t)
        || b[5].len != 4 * (Py_ssize_t)sizeof(int64_t) || start[0] != 0 || start[n] != moves) {
        PyErr_SetString(PyExc_ValueError, "two_cops_win: inconsistent table sizes");
        goto done;
    }
    for (Py_ssize_t i = 0; i < moves; i++) {
        if (to[i] < 0 || to[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "two_cops_win: a move leaves the nodes");
            goto done;
        }
    }
    for (Py_ssize_t v = 0; v < n; v++) {
        if (cells[v] < 0 || cells[v] >= words * 64 || start[v + 1] < start[v]) {
            PyErr_SetString(PyExc_ValueError, "two_cops_win: a node outside the rows");
            goto done;
        }
    }
    Py_ssize_t pad = 1;
    for (int d = 0; d < 4; d++) {
        Py_ssize_t reach_words = (offsets[d] < 0 ? -offsets[d] : offsets[d]) / 64 + 2;
        if (reach_words > pad) pad = reach_words;
    }
    size_t pairs = (size_t)n * (size_t)(n + 1) / 2;
    robber = calloc(pairs * (size_t)words, sizeof(uint64_t));
    cops = calloc(pairs * (size_t)words, sizeof(uint64_t));
    scratch = calloc((size_t)(words + 2 * pad), sizeof(uint64_t));
    changed = malloc(pairs * sizeof(int32_t));
    first = malloc(pairs * sizeof(int32_t));
    second = malloc(pairs * sizeof(int32_t));
    touched = malloc(pairs * sizeof(int32_t));
    copsGrew = calloc(pairs, sizeof(uint64_t));
    robberGrew = calloc(pairs, sizeof(uint64_t));
    if (!robber || !cops || !scratch || !changed || !touched || !first || !second || !copsGrew || !robberGrew) {
        PyErr_NoMemory();
        goto done;
    }
    /* A row's words in (at most) 64 blocks, one bit of a mask each: the words that grew. A
     * robber row's word reads its cops row up to `spread` blocks away (one cell's step). */
    Py_ssize_t block = (words + 63) / 64, blocks = (words + block - 1) / block;
    Py_ssize_t spread = (pad - 1) / block + 1;
    uint64_t all = blocks == 64 ? ~(uint64_t)0 : ((uint64_t)1 << blocks) - 1;
    int won = 0;
    Py_BEGIN_ALLOW_THREADS
    /* The first round at once: the robber rows hold the captures, so a pair's cops row is
     * the cells one step (or none) from either cop. */
    size_t count = 0, touchedCount = 0;
    for (Py_ssize_t a = 0; a < n; a++) {
        for (Py_ssize_t c = a; c < n; c++) {
            uint64_t *row = robber + touchedCount * (size_t)words;
            uint64_t *into = cops + touchedCount * (size_t)words, grew = 0;
            row[cells[a] >> 6] |= (uint64_t)1 << (cells[a] & 63);
            row[cells[c] >> 6] |= (uint64_t)1 << (cells[c] & 63);
            for (int32_t s = start[a]; s < start[a + 1]; s++) {
                int64_t cell = cells[to[s]];
                into[cell >> 6] |= (uint64_t)1 << (cell & 63);
                grew |= (uint64_t)1 << ((cell >> 6) / block);
            }
            for (int32_t t = start[c]; t < start[c + 1]; t++) {
                int64_t cell = cells[to[t]];
                into[cell >> 6] |= (uint64_t)1 << (cell & 63);
                grew |= (uint64_t)1 << ((cell >> 6) / block);
            }
            first[touchedCount] = (int32_t)a;
            second[touchedCount] = (int32_t)c;
            copsGrew[touchedCount] = grew;
            touched[touchedCount] = (int32_t)touchedCount;
            touchedCount++;
        }
    }
    for (;;) {
        /* a pair whose cops row holds every core cell wins wherever the robber starts */
        for (size_t i = 0; i < touchedCount && !won; i++) {
            const uint64_t *row = cops + (size_t)touched[i] * (size_t)words;
            uint64_t missing = 0;
            for (Py_ssize_t k = 0; k < words; k++) missing |= reach[k] & ~row[k];
            if (missing == 0) won = 1;
        }
        if (won) break;
        /* the robber's moves: a state is won when every step of his (or staying) is */
        count = 0;
        for (size_t i = 0; i < touchedCount; i++) {
            size_t p = (size_t)touched[i];
            uint64_t near = copsGrew[p];
            copsGrew[p] = 0;
            for (Py_ssize_t r = 0; r < spread; r++) near |= (near << 1) | (near >> 1);
            near &= all;
            const uint64_t *row = cops + p * (size_t)words;
            uint64_t *out = robber + p * (size_t)words;
            memcpy(scratch + pad, row, (size_t)words * sizeof(uint64_t));
            uint64_t grew = 0;
            for (; near; near &= near - 1) {
                Py_ssize_t first_word = (Py_ssize_t)__builtin_ctzll(near) * block;
                Py_ssize_t last = first_word + block < words ? first_word + block : words;
                uint64_t any = 0;
                for (Py_ssize_t k = first_word; k < last; k++) {
                    Py_ssize_t j = pad + k;
                    uint64_t stays = scratch[j];
                    for (int d = 0; d < 4; d++)
                        stays &= shifted(scratch, j, offsets[d]) | blocked[d * words + k];
                    uint64_t after = out[k] | stays;
                    any |= after ^ out[k];
                    out[k] = after;
                }
                if (any) grew |= near & -near;
            }
            robberGrew[p] = grew;
            if (grew) changed[count++] = (int32_t)p;
        }
        if (count == 0) break; /* the fixed point, and no pair wins: the robber escapes */
        /* the cops' joint moves: a pair whose robber row grew passes the words that grew to
         * every pair one joint move away (each cop steps or stays) */
        qsort(changed, count, sizeof(int32_t), ascending); /* rows read and written lie close */
        touchedCount = 0;
        for (size_t i = 0; i < count; i++) {
            size_t q = (size_t)changed[i], a = (size_t)first[q], c = (size_t)second[q];
            const uint64_t *from = robber + q * (size_t)words, mask = robberGrew[q];
            for (int32_t s = start[a]; s < start[a + 1]; s++) {
                size_t one = (size_t)to[s];
                for (int32_t t = start[c]; t < start[c + 1]; t++) {
                    size_t two = (size_t)to[t];
                    size_t p = one <= two ? pair_index(one, two, (size_t)n)
                                          : pair_index(two, one, (size_t)n);
                    uint64_t *into = cops + p * (size_t)words, grew = 0;
                    for (uint64_t m = mask; m; m &= m - 1) {
                        Py_ssize_t first_word = (Py_ssize_t)__builtin_ctzll(m) * block;
                        Py_ssize_t last = first_word + block < words ? first_word + block : words;
                        uint64_t any = 0;
                        for (Py_ssize_t k = first_word; k < last; k++) {
                            uint64_t after = into[k] | from[k];
                            any |= after ^ into[k];
                            into[k] = after;
                        }
                        if (any) grew |= m & -m;
                    }
                    if (grew) {
                        if (!copsGrew[p]) touched[touchedCount++] = (int32_t)p;
                        copsGrew[p] |= grew;
                    }
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = PyBool_FromLong(won);
done:
    free(robber);
    free(cops);
    free(scratch);
    free(changed);
    free(touched);
    free(copsGrew);
    free(robberGrew);
    free(first);
    free(second);
    for (int i = 0; i < 6; i++) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"two_cops_win", two_cops_win, METH_VARARGS,
     "Whether two cops catch the robber on the core (graph.cops._two_cops_win's copy)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ccops",
                                    "The two-cop game of mazekit.graph.cops, compiled.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ccops(void) { return PyModule_Create(&module); }
