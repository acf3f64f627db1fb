/* The Mersenne Twister of Python's random module, for kernels that draw random numbers.
 *
 * A kernel takes the caller's random.Random, loads its state (getstate), draws exactly as
 * Random.random() would, and stores the state back (setstate): the Python object goes on with
 * the very stream it would have had, so seeded output is the same bytes on both code paths.
 * Header-only (static functions): each extension module that draws includes it.
 */
#ifndef MAZEKIT_MT19937_H
#define MAZEKIT_MT19937_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index;
    PyObject *gauss_next; /* kept as it was: a new reference, released by mt_store */
} MTState;

/* Refill the 624 words of the state (the twist of genrand_uint32 in CPython's
 * Modules/_randommodule.c), the odd-word mask without a table lookup, so the compiler can
 * turn the loops into vector instructions. */
static inline void mt_twist(MTState *mt) {
    uint32_t y;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
        y = (mt->state[kk] & 0x80000000U) | (mt->state[kk + 1] & 0x7fffffffU);
        mt->state[kk] = mt->state[kk + MT_M] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }
    for (; kk < MT_N - 1; kk++) {
        y = (mt->state[kk] & 0x80000000U) | (mt->state[kk + 1] & 0x7fffffffU);
        mt->state[kk] = mt->state[kk + (MT_M - MT_N)] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }
    y = (mt->state[MT_N - 1] & 0x80000000U) | (mt->state[0] & 0x7fffffffU);
    mt->state[MT_N - 1] = mt->state[MT_M - 1] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    mt->index = 0;
}

/* The tempering of one state word into an output word. */
static inline uint32_t mt_temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* The next 32-bit word: genrand_uint32 of CPython's Modules/_randommodule.c. */
static inline uint32_t mt_next(MTState *mt) {
    if (mt->index >= MT_N) mt_twist(mt);
    return mt_temper(mt->state[mt->index++]);
}

/* The next ``count`` words into ``out``, exactly as ``count`` calls of mt_next would give
 * them, a block of the state at a time (tempering in a loop the compiler vectorises: about
 * 2.5 times faster than word by word). */
static inline void mt_fill(MTState *mt, uint32_t *out, size_t count) {
    while (count > 0) {
        if (mt->index >= MT_N) mt_twist(mt);
        size_t take = (size_t)(MT_N - mt->index);
        if (take > count) take = count;
        const uint32_t *words = mt->state + mt->index;
        for (size_t i = 0; i < take; i++) out[i] = mt_temper(words[i]);
        out += take;
        count -= take;
        mt->index += (int)take;
    }
}

/* Random.random(): a double in [0, 1) with 53 random bits (genrand_res53). */
static inline double mt_random(MTState *mt) {
    uint32_t a = mt_next(mt) >> 5, b = mt_next(mt) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* int(random() * n), as mazekit.rng.below and every carving loop compute it. */
static inline Py_ssize_t mt_below(MTState *mt, Py_ssize_t n) {
    return (Py_ssize_t)(mt_random(mt) * (double)n);
}

/* Load the state of ``rng`` (a random.Random); 0 on success, -1 with an exception set. */
static int mt_load(PyObject *rng, MTState *mt) {
    PyObject *whole = PyObject_CallMethod(rng, "getstate", NULL);
    if (whole == NULL) return -1;
    PyObject *words = NULL;
    if (!PyTuple_Check(whole) || PyTuple_GET_SIZE(whole) != 3 ||
        !PyTuple_Check(words = PyTuple_GET_ITEM(whole, 1)) ||
        PyTuple_GET_SIZE(words) != MT_N + 1) {
        Py_DECREF(whole);
        PyErr_SetString(PyExc_TypeError, "rng: a random.Random state of version 3 expected");
        return -1;
    }
    for (Py_ssize_t i = 0; i <= MT_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (word == (unsigned long)-1 && PyErr_Occurred()) {
            Py_DECREF(whole);
            return -1;
        }
        if (i < MT_N)
            mt->state[i] = (uint32_t)word;
        else
            mt->index = (int)word;
    }
    if (mt->index < 0 || mt->index > MT_N) {
        Py_DECREF(whole);
        PyErr_SetString(PyExc_ValueError, "rng: state index out of range");
        return -1;
    }
    mt->gauss_next = Py_NewRef(PyTuple_GET_ITEM(whole, 2));
    Py_DECREF(whole);
    return 0;
}

/* Store the state back into ``rng`` and release what mt_load took; -1 with an exception set. */
static int mt_store(PyObject *rng, MTState *mt) {
    PyObject *words = PyTuple_New(MT_N + 1);
    if (words == NULL) {
        Py_CLEAR(mt->gauss_next);
        return -1;
    }
    for (Py_ssize_t i = 0; i <= MT_N; i++) {
        PyObject *word = PyLong_FromUnsignedLong(i < MT_N ? mt->state[i] : (unsigned long)mt->index);
        if (word == NULL) {
            Py_DECREF(words);
            Py_CLEAR(mt->gauss_next);
            return -1;
        }
        PyTuple_SET_ITEM(words, i, word);
    }
    PyObject *result = PyObject_CallMethod(rng, "setstate", "((iNO))", 3, words, mt->gauss_next);
    Py_CLEAR(mt->gauss_next);
    if (result == NULL) return -1;
    Py_DECREF(result);
    return 0;
}

/* Release what mt_load took without storing (the kernel failed before drawing). */
static void mt_discard(MTState *mt) { Py_CLEAR(mt->gauss_next); }

#endif
