/* mazekit._crng: bulk draws of Random.random() into a numpy buffer, exactly as a loop of
 * rng.random() calls would give them (mt19937.h), about 30 times faster. */
#include "mt19937.h"

static PyObject *fill_floats(PyObject *self, PyObject *args) {
    PyObject *rng;
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "Ow*", &rng, &out)) return NULL;
    if (out.itemsize != (Py_ssize_t)sizeof(double) || out.len % (Py_ssize_t)sizeof(double)) {
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_TypeError, "fill_floats: a float64 buffer expected");
        return NULL;
    }
    MTState mt;
    if (mt_load(rng, &mt) < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    double *values = (double *)out.buf;
    Py_ssize_t count = out.len / (Py_ssize_t)sizeof(double);
    for (Py_ssize_t i = 0; i < count; i++) values[i] = mt_random(&mt);
    PyBuffer_Release(&out);
    if (mt_store(rng, &mt) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"fill_floats", fill_floats, METH_VARARGS,
     "fill_floats(rng, out): fill the float64 buffer out with rng.random() draws, in order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mazekit._crng", "Bulk random draws (compiled kernel).", -1, methods,
};

PyMODINIT_FUNC PyInit__crng(void) { return PyModule_Create(&module); }
